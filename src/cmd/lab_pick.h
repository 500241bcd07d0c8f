/* SPDX-License-Identifier: BSD-2-Clause */
/* Which lab a command acts on when the user named none (lab status, down, ruleset, rate's
 * --sweep-rules): the one lab up, or the default one when none is; with several up it refuses
 * to guess and lists them (exit 2). */
#ifndef NB_CLI_LAB_PICK_H
#define NB_CLI_LAB_PICK_H

#include <stdbool.h>
#include <stddef.h>

/* given: the prefix the user gave (option or $NB_LAB_PREFIX), or NULL. opt: the option that
 * names it ("--prefix", "--lab-prefix"). Returns the prefix to act on (NULL: the default lab);
 * *picked tells whether it was chosen here rather than given. */
const char *lab_pick(const char *given, const char *opt, bool *picked);

/* "lab 'P' (P-gen, P-dut, P-sink)" or "the default lab (nbgen, nbdut, nbsink)". */
void lab_pick_name(const char *prefix, char *buf, size_t len);

#endif
