/* SPDX-License-Identifier: BSD-2-Clause */
/* What a tput sweep measured (the front end fills it as the sweep runs) and its JSON document
 * (docs/schema.md): the parameters, the idle baseline, and each size's Tx and Rx steps with
 * their intervals and observers' windows. */
#ifndef NB_TPUT_JSON_H
#define NB_TPUT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/base/sysinfo.h"
#include "core/observe/obs_set.h"
#include "core/tput/tput_run.h"

/* One interval of size_index's step. */
struct nb_tput_sweep_interval {
	size_t size_index;
	struct nb_tput_interval iv;
};

struct nb_tput_sweep {
	/* What the sweep measures (nb_tput_sweep_init). */
	const uint64_t *sizes; /* block sizes, one step (or two) each */
	size_t nsizes;
	bool tx, rx, bidir;
	/* What it measured so far. */
	struct nb_tput_step_result *res;      /* per size */
	struct nb_obs_trial *obs_tx, *obs_rx; /* per size, NULL unless observed; with bidir
						 obs_tx holds both directions */
	struct nb_tput_sweep_interval *intervals;
	size_t nintervals, cap_intervals;
	struct nb_tput_baseline baseline; /* the sweep's idle baseline, from its first step */
	size_t ndone;	  /* sizes measured (whole, or the last one's Tx: half_tx) */
	bool interrupted; /* the sizes after ndone were not measured */
	bool half_tx; /* interrupted after size ndone - 1's Tx step ended, before its Rx step did:
			 that Tx is kept, its Rx was not measured */
};

/* The command's settings the document prints, and both ends' platforms. */
struct nb_tput_sweep_params {
	const char *agent; /* as the user named it */
	uint16_t port;
	const struct nb_tput_params *p; /* p->observe: the observers, when any */
	const struct nb_sysinfo *local, *remote;
};

/* Did s measure size i in direction tx (else Rx)? */
bool nb_tput_sweep_has(const struct nb_tput_sweep *s, size_t i, bool tx);

/* Sets s up for nsizes sizes (sizes must outlive s); observed: room for the observers'
 * windows. Returns 0 or -ENOMEM. */
int nb_tput_sweep_init(struct nb_tput_sweep *s, const uint64_t *sizes, size_t nsizes, bool tx,
		       bool rx, bool bidir, bool observed);
/* Keeps one interval of size_index's step. Returns 0 or -ENOMEM. */
int nb_tput_sweep_add_interval(struct nb_tput_sweep *s, size_t size_index,
			       const struct nb_tput_interval *iv);
/* The observers' window of size i's Tx or Rx step; NULL when none observed. */
const struct nb_obs_trial *nb_tput_sweep_obs(const struct nb_tput_sweep *s, size_t i, bool tx);
void nb_tput_sweep_free(struct nb_tput_sweep *s);

/* One end's profile of one direction's window over every CPU (remote: the agent's, else this
 * host's), with that end's busy CPU time over its own samples: ns per KByte received. */
void nb_tput_prof_summary(const struct nb_tput_dir_result *d, bool remote,
			  struct nb_prof_summary *sum);
/* Writes the whole document of the sweep to f. */
void nb_tput_sweep_json(FILE *f, const struct nb_tput_sweep_params *sp,
			const struct nb_tput_sweep *s);
/* The same document in a malloc'd string (free it): the bytes -J prints, -o writes and --save
 * stores. Returns 0 or -ENOMEM. */
int nb_tput_sweep_doc_text(const struct nb_tput_sweep_params *sp, const struct nb_tput_sweep *s,
			   char **text, size_t *len);

#endif
