/* SPDX-License-Identifier: BSD-2-Clause */
/* What `netbench results` does for a board farm: merge another machine's store, and print
 * results as LAVA test cases (docs/farm.md). */
#ifndef NB_RESULTS_FARM_H
#define NB_RESULTS_FARM_H

#include <stdbool.h>
#include <stddef.h>

/* argv[0] is "merge": netbench results merge [--db FILE] OTHER.db... */
int results_merge(int argc, char **argv);

/* True when an export's arguments ask for --lava. */
bool results_lava_asked(int argc, char **argv);
/* argv[0] is "export": --lava for documents (no store needed) or stored results. */
int results_export_lava(int argc, char **argv);

#endif
