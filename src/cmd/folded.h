/* SPDX-License-Identifier: BSD-2-Clause */
/* --profile-folded FILE (rate, crypto): the kernel profile's stacks, one line each under a root
 * frame naming what was measured, written beside FILE and renamed over it, whole or not at all. */
#ifndef NB_FOLDED_H
#define NB_FOLDED_H

#include <stddef.h>

#include "core/base/atomicfile.h"

/* Opens the temporary file beside path; exits 1 when it cannot. */
void cli_folded_open(struct nb_atomic_file *a, const char *path);
/* Renames it over path (exits 1 when it cannot), and warns when it holds no stack (lines 0),
 * with why. */
void cli_folded_close(struct nb_atomic_file *a, const char *path, size_t lines, const char *why);

#endif
