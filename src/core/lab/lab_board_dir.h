/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether a board's image directory may be booted by root: `lab up` runs as root and hands the
 * directory's kernel and initramfs to qemu, so the directory and its files must be what the
 * invoking user (or root) put there, and nobody else can have changed or swap them. */
#ifndef NB_LAB_BOARD_DIR_H
#define NB_LAB_BOARD_DIR_H

#include <stddef.h>
#include <sys/types.h>

/* DIR must resolve to a directory owned by root or UID, writable by neither its group nor
 * others; each directory above it owned by root or UID and writable by group or others only
 * when sticky (/tmp); each of FILES (NULL-terminated) in it a regular file (not a symlink)
 * owned by root or UID, writable by neither group nor others. 0, or -EPERM (-ENOENT, -ENOTDIR)
 * with err naming the path, its owner or mode and the rule. */
int nb_lab_board_dir_trusted(const char *dir, const char *const *files, uid_t uid, char *err,
			     size_t len);

#endif
