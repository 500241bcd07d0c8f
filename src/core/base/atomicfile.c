/* SPDX-License-Identifier: BSD-2-Clause */
/* The one way netbench writes a file through a temporary name (reports, -o documents, pid
 * files, the lab's state). The temporary name has a random part and is created exclusively:
 * another local user who plants a symlink at a name he guesses gains nothing. */
#include "core/base/atomicfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Not a secret (O_EXCL is the protection), only unlikely to be taken already. */
static uint64_t name_bits(unsigned attempt)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 20 ^
		     (uint64_t)(uintptr_t)&ts ^ attempt;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

int nb_atomic_open(struct nb_atomic_file *a, const char *path, mode_t mode)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t n = strlen(path);
	int fd = -1, ret;

	memset(a, 0, sizeof(*a));
	if (!n)
		return -EINVAL;
	a->tmp = malloc(n + 16);
	a->path = strdup(path);
	if (!a->tmp || !a->path) {
		ret = -ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < 100 && fd < 0; i++) {
		uint64_t x = name_bits(i);
		memcpy(a->tmp, path, n);
		memcpy(a->tmp + n, ".tmp-", 5);
		for (size_t k = 0; k < 8; k++, x /= 36)
			a->tmp[n + 5 + k] = abc[x % 36];
		a->tmp[n + 13] = '\0';
		fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST) {
			ret = -errno;
			goto fail;
		}
	}
	if (fd < 0) {
		ret = -EEXIST;
		goto fail;
	}
	if (!(a->f = fdopen(fd, "w"))) {
		ret = -errno;
		close(fd);
		unlink(a->tmp);
		goto fail;
	}
	return 0;
fail:
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
	return ret;
}

static void release(struct nb_atomic_file *a)
{
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
}

int nb_atomic_commit(struct nb_atomic_file *a)
{
	int ret = 0;
	if (!a->f)
		return -EBADF;
	if (fflush(a->f) || ferror(a->f) || fsync(fileno(a->f)))
		ret = -(errno ? errno : EIO);
	if (fclose(a->f) && !ret)
		ret = -errno;
	a->f = NULL;
	if (!ret && rename(a->tmp, a->path))
		ret = -errno;
	if (ret)
		unlink(a->tmp);
	release(a);
	return ret;
}

void nb_atomic_abort(struct nb_atomic_file *a)
{
	if (a->f) {
		fclose(a->f);
		unlink(a->tmp);
	}
	release(a);
}
