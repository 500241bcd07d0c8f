/* SPDX-License-Identifier: BSD-2-Clause */
/* The board directory's ownership and modes (lab_board_dir.h). */
#include "core/lab/lab_board_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RULE                                                                                       \
	"a board directory and its files must be owned by root or by the user running netbench "   \
	"and writable by no one else"

static int refuse(char *err, size_t len, const char *path, const struct stat *st, const char *why)
{
	snprintf(err, len, "refused board directory: %s (owner uid %u, mode %04o) %s; %s", path,
		 (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777), why, RULE);
	return -EPERM;
}

static bool owner_ok(const struct stat *st, uid_t uid)
{
	return st->st_uid == 0 || st->st_uid == uid;
}

int nb_lab_board_dir_trusted(const char *dir, const char *const *files, uid_t uid, char *err,
			     size_t len)
{
	char real[PATH_MAX], path[PATH_MAX + 64];
	struct stat st;

	if (!realpath(dir, real)) {
		int e = errno;
		snprintf(err, len, "board directory %s: %s", dir, strerror(e));
		return -e;
	}
	if (lstat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, len, "board directory %s is not a directory", dir);
		return -ENOTDIR;
	}
	if (!owner_ok(&st, uid))
		return refuse(err, len, real, &st, "belongs to another user");
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return refuse(err, len, real, &st, "is writable by group or others");
	/* Above it: whoever may rename an entry of a parent may put another directory in its
	 * place, unless the parent is sticky and the entry is not theirs. */
	for (char *slash = strrchr(real, '/'); slash; slash = strrchr(real, '/')) {
		if (slash == real) {
			if (!real[1])
				break;
			real[1] = '\0';
		} else {
			*slash = '\0';
		}
		if (lstat(real, &st) < 0) {
			int e = errno;
			snprintf(err, len, "board directory %s: %s: %s", dir, real, strerror(e));
			return -e;
		}
		if (!owner_ok(&st, uid))
			return refuse(err, len, real, &st,
				      "above the board directory belongs to another user");
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
			return refuse(err, len, real, &st,
				      "above the board directory is writable by group or others "
				      "and not sticky");
	}
	if (!realpath(dir, real)) {
		int e = errno;
		snprintf(err, len, "board directory %s: %s", dir, strerror(e));
		return -e;
	}
	for (size_t i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", real, files[i]);
		if (lstat(path, &st) < 0) {
			int e = errno;
			snprintf(err, len, "board directory %s: %s: %s", dir, path, strerror(e));
			return -e;
		}
		if (!S_ISREG(st.st_mode))
			return refuse(err, len, path, &st,
				      "is not a regular file (a symlink or a device is not taken)");
		if (!owner_ok(&st, uid))
			return refuse(err, len, path, &st, "belongs to another user");
		if (st.st_mode & (S_IWGRP | S_IWOTH))
			return refuse(err, len, path, &st, "is writable by group or others");
	}
	return 0;
}
