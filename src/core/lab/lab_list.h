/* SPDX-License-Identifier: BSD-2-Clause */
/* Which labs are up on this host: each one `lab up` made has a state file, the default lab's in
 * NB_LAB_RUN_DIR, a prefixed one's in NB_LAB_RUN_DIR/PREFIX. */
#ifndef NB_LAB_LIST_H
#define NB_LAB_LIST_H

#include <stddef.h>

#include "core/lab/lab_base.h"

#define NB_LAB_LIST_MAX 64

/* The prefixes of the labs with a state file under dir (NB_LAB_RUN_DIR; tests give another),
 * sorted, "" for the default lab, at most max of them; *n counts them all (it may exceed
 * max). Returns 0, or a negative errno when dir exists and cannot be read. */
int nb_lab_list(const char *dir, char (*prefixes)[NB_LAB_PREFIX_MAX + 1], size_t max, size_t *n);

#endif
