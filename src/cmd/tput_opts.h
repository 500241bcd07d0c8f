/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench tput's options: the help text, the parsing, and every impossible combination refused
 * with exit 2 (core/tput/tput_ctl.c runs the sweep, tput.c prints). */
#ifndef NB_TPUT_OPTS_H
#define NB_TPUT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd/observe_cli.h"
#include "cmd/save.h"
#include "core/tput/tput_ctl.h"

#define TPUT_MAX_SIZES NB_TPUT_MAX_SIZES

/* The front end's options: the sweep's parameters and what only the front end uses. */
struct tput_opts {
	struct nb_tput_params p;
	uint64_t sizes[TPUT_MAX_SIZES]; /* block sizes, one step (or two) each */
	size_t nsizes;
	bool json, tx, rx, bidir;
	bool reverse, tx_only;	/* -R, --tx-only as given (tx and rx follow from them) */
	const char *rate_str;	/* -r as typed (NULL: UDP's default rate) */
	struct nb_ctl_target t; /* the agent: -c, -p, --psk, -4, -6 (cli_remote_option) */
	const char *psk_file;	/* --psk, for the observers too */
	struct obs_cli obs;	/* observers of a box in the path */
	struct cli_save save;
};

/* Fills o from the command line and starts --save's copy of the output (cli_save_start), in
 * the order tput has always checked them; exits 2 on a usage error. Returns 1 when --help was
 * printed (nothing to run), 0 otherwise. */
int tput_parse_opts(int argc, char **argv, struct tput_opts *o);

#endif
