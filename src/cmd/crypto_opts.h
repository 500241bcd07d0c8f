/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's options: the run's parameters, where it runs, and what only the front end
 * uses (crypto.c drives the run through core and prints). */
#ifndef NB_CRYPTO_OPTS_H
#define NB_CRYPTO_OPTS_H

#include <stdbool.h>

#include "cmd/save.h"
#include "core/crypto/crypto_run.h"
#include "core/crypto/crypto_ctl.h"

struct crypto_opts {
	struct nb_crypto_params p;
	struct nb_ctl_target remote; /* host NULL: a run here */
	bool json;
	const char *profile_folded; /* --profile-folded FILE */
	const char *engines;	    /* --engine LIST, selected after the algorithms */
	bool quick;		    /* --quick: 50 ms windows unless --time says otherwise */
	bool time_set;		    /* --time given */
	struct cli_save save;
};

/* Fills o from the command line and starts --save's copy of the output (cli_save_start); exits
 * 2 on a usage error. Returns 1 when --help was printed (nothing to run), 0 otherwise. */
int crypto_parse_opts(int argc, char **argv, struct crypto_opts *o);

#endif
