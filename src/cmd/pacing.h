/* SPDX-License-Identifier: BSD-2-Clause */
/* The pacing options every paced sender's front end shares (--pacing MODE, --burst N), and how
 * a pacing decision and its cost are printed and written to JSON. */
#ifndef NB_CMD_PACING_H
#define NB_CMD_PACING_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/pacer.h"

/* Parses --pacing's value; a usage error names the accepted ones. */
enum nb_pacing_mode cli_pacing(const char *opt, const char *val);
/* Checks --burst against --pacing once both are known. */
void cli_pacing_check(enum nb_pacing_mode mode, uint32_t burst);
/* "burst:18" / "txtime:64" / "spin": one word, so a table row keeps its field count. */
void pacing_describe(char *buf, size_t len, uint32_t mode, uint32_t burst);

#endif
