/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem's options: the probe's parameters, where it runs, and what only the front end
 * uses. */
#ifndef NB_MEM_OPTS_H
#define NB_MEM_OPTS_H

#include <stdbool.h>

#include "cmd/save.h"
#include "core/mem/mem.h"
#include "core/mem/mem_ctl.h"

struct mem_opts {
	struct nb_mem_params p;
	struct nb_ctl_target remote; /* host NULL: a run here */
	bool json;
	struct cli_save save;
	/* --min and --max as typed (-l's value for both), and -l as typed: for the messages. */
	const char *min_arg, *max_arg;
	char sizes_opt[16];
};

/* Fills o from the command line and starts --save's copy of the output (cli_save_start); exits
 * 2 on a usage error. Returns 1 when --help was printed (nothing to run), 0 otherwise. */
int mem_parse_opts(int argc, char **argv, struct mem_opts *o);

#endif
