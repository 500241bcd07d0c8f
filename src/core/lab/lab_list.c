/* SPDX-License-Identifier: BSD-2-Clause */
/* The labs up on this host, from their state files (see lab_list.h). */
#include "core/lab/lab_list.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int has_state(const char *dir, const char *sub)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s%s/state", dir, *sub ? "/" : "", sub);
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

int nb_lab_list(const char *dir, char (*prefixes)[NB_LAB_PREFIX_MAX + 1], size_t max, size_t *n)
{
	struct nb_lab probe;
	struct dirent *e;
	DIR *d;

	*n = 0;
	if (has_state(dir, "")) {
		if (*n < max)
			prefixes[*n][0] = '\0';
		(*n)++;
	}
	d = opendir(dir);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((e = readdir(d))) {
		/* Only names a prefix can have (nb_lab_set_prefix): nothing else is a lab. */
		if (nb_lab_set_prefix(&probe, e->d_name) || !has_state(dir, e->d_name))
			continue;
		if (*n < max) /* a prefix: at most NB_LAB_PREFIX_MAX characters */
			memcpy(prefixes[*n], e->d_name, strlen(e->d_name) + 1);
		(*n)++;
	}
	closedir(d);
	/* The default lab ("") sorts first. */
	qsort(prefixes, *n < max ? *n : max, sizeof(*prefixes), by_name);
	return 0;
}
