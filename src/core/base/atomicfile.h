/* SPDX-License-Identifier: BSD-2-Clause */
/* Writing a file whole or not at all, safely in a directory others may write to: the content
 * goes to a new temporary file beside the target, created exclusively (O_CREAT | O_EXCL |
 * O_NOFOLLOW, so a planted symlink or file is never opened), then renamed over the target. */
#ifndef NB_ATOMICFILE_H
#define NB_ATOMICFILE_H

#include <stdio.h>
#include <sys/types.h>

struct nb_atomic_file {
	FILE *f;    /* write the content here */
	char *tmp;  /* the temporary name, beside the target */
	char *path; /* the target */
};

/* Creates the temporary file with mode (umask applies). Returns 0 or -errno. */
int nb_atomic_open(struct nb_atomic_file *a, const char *path, mode_t mode);
/* Flushes, syncs, closes and renames over the target; on failure removes the temporary file.
 * Returns 0 or -errno. Either way a is released. */
int nb_atomic_commit(struct nb_atomic_file *a);
/* Closes and removes the temporary file; the target is untouched. */
void nb_atomic_abort(struct nb_atomic_file *a);

#endif
