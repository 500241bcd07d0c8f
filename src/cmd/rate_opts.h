/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's options: the help text and the parsing (rate_opts.c), and every impossible
 * combination refused with exit 2 (rate_opts_check.c); rate.c runs and prints. */
#ifndef NB_RATE_OPTS_H
#define NB_RATE_OPTS_H

#include <stdbool.h>

#include "cmd/observe_cli.h"
#include "cmd/save.h"
#include "core/rate/rate_run.h"

/* Which options the command line gave (defaults that depend on others look at these). */
struct rate_opts_seen {
	bool repeat, quick, sizes, trial, flows, threads, test, tol, ratios;
};

/* The front end's options: the run's parameters and what only the front end uses. */
struct rate_opts {
	struct nb_rate_params p;
	bool json;
	const char *local_rx, *dst, *agent;
	const char *psk_file; /* --psk: the agent's key (p.rx.agent), the observers' too */
	const char *lab_prefix;
	struct obs_cli obs;	    /* observers of the DUT */
	const char *profile_folded; /* --profile-folded FILE */
	struct cli_save save;
	struct nb_mix mix;     /* --imix (p.mix points here when given) */
	char rate_opt[16];     /* -r or --rate, as typed */
	const char *rate_text; /* its value as typed */
	struct rate_opts_seen seen;
};

/* Fills o from the command line: the parameters with their receiver, addresses and pacing
 * resolved. Exits 2 on a usage error, 0 after printing --help. */
void rate_parse_opts(int argc, char **argv, struct rate_opts *o);
/* After parsing: refuses impossible combinations (exit 2), fills dependent defaults and the
 * receiver. */
void rate_check_opts(struct rate_opts *o, const struct rate_opts_seen *seen);

#endif
