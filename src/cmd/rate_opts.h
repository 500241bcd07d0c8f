/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's options: the help text, the parsing, and every impossible combination refused
 * with exit 2 (rate.c runs the procedures and prints). */
#ifndef NB_RATE_OPTS_H
#define NB_RATE_OPTS_H

#include <stdbool.h>

#include "cmd/observe_cli.h"
#include "cmd/save.h"
#include "core/rate/rate_run.h"

/* The front end's options: the run's parameters and what only the front end uses. */
struct rate_opts {
	struct nb_rate_params p;
	bool json;
	const char *local_rx, *dst, *agent;
	const char *lab_prefix;
	struct obs_cli obs; /* observers of the DUT */
	struct cli_save save;
	struct nb_mix mix; /* --imix (p.mix points here when given) */
};

/* Fills o from the command line: the parameters with their receiver, addresses and pacing
 * resolved. Exits 2 on a usage error, 0 after printing --help. */
void rate_parse_opts(int argc, char **argv, struct rate_opts *o);

#endif
