/* SPDX-License-Identifier: BSD-2-Clause */
/* A board's image on first use (lab_board.h): the builder (tests/board/build.sh, or the copy
 * netbench's package installs) run when the image is missing, its progress on stderr as it
 * goes, its answer (the image's directory, or "SKIP reason") read from its stdout. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/lab/lab_board.h"
#include "core/lab/lab_board_arch.h"
#include "core/lab/lab_board_dir.h"

static bool image_present(const char *dir)
{
	static const char *const files[] = {"kernel", "initrd.gz"};
	char path[320];
	struct stat st;

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (stat(path, &st) || st.st_size == 0)
			return false;
	}
	return true;
}

/* Runs sh builder ARCH PARENT DIR: stdout into out, stderr the caller's. */
static int run_builder(const char *builder, const char *arch, const char *parent, const char *dir,
		       char *out, size_t len, int *status)
{
	int fds[2], st = 0;
	size_t got = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null < 0 || dup2(null, 0) < 0 || dup2(fds[1], 1) < 0)
			_exit(127);
		execlp("sh", "sh", builder, arch, parent, dir, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		char buf[512];
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && got + 1 < len; i++)
			out[got++] = buf[i];
	}
	out[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

int nb_lab_board_build(struct nb_lab *lab)
{
	struct nb_lab_board *b = &lab->board;
	const struct nb_lab_board_arch *a = nb_lab_board_arch(b->arch);
	static const char *const files[] = {"build.sh", NULL};
	char bdir[512], dir[256], parent[256], out[512], note[1024];
	int status = 0, ret;

	if (!a)
		return 0; /* nb_lab_board_image names it */
	/* Only the default image directory: a --board-dir names an image that is there. */
	if (b->dir[0])
		return 0;
	nb_lab_board_default_dir(b->arch, b->dir, sizeof(b->dir));
	if (image_present(b->dir) || !lab->board_builder[0])
		return 0;
	/* Root runs it: refuse a builder another user could have written. */
	snprintf(bdir, sizeof(bdir), "%s", lab->board_builder);
	ret = nb_lab_board_dir_trusted(dirname(bdir), files, getuid(), lab->err, sizeof(lab->err));
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s", b->dir);
	snprintf(parent, sizeof(parent), "%s", dirname(dir));
	if (lab->note) {
		snprintf(note, sizeof(note),
			 "no %s board image in %s: building it with %s (%s; its progress follows)",
			 b->arch, b->dir, lab->board_builder,
			 a->from_source
			     ? "its kernel and user space from Debian's sources: about "
			       "10 to 15 minutes on 2 CPUs the first time"
			     : "Debian's kernel downloaded, the board's netbench compiled: "
			       "a few minutes the first time");
		lab->note(lab->note_arg, note);
	}
	ret = run_builder(lab->board_builder, b->arch, parent, b->dir, out, sizeof(out), &status);
	if (ret) {
		snprintf(lab->err, sizeof(lab->err), "cannot run %s: %s", lab->board_builder,
			 strerror(-ret));
		return ret;
	}
	out[strcspn(out, "\n")] = '\0';
	if (lab->stop && *lab->stop) {
		snprintf(lab->err, sizeof(lab->err),
			 "interrupted while building the %s board image", b->arch);
		return -EINTR;
	}
	if (status == 3 && !strncmp(out, "SKIP ", 5)) {
		snprintf(lab->err, sizeof(lab->err), "cannot build the %s board image here: %s",
			 b->arch, out + 5);
		return -ENOENT;
	}
	if (status || !image_present(b->dir)) {
		snprintf(lab->err, sizeof(lab->err),
			 "building the %s board image into %s failed (%s exited %d; its messages "
			 "are above)",
			 b->arch, b->dir, lab->board_builder, status);
		return -EIO;
	}
	return 0;
}
