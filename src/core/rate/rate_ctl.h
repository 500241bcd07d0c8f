/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's driver of a rate run, as tput's and stream's: the receiver opened (here or on
 * the agent p->rx names) and the path found, the frame sizes and flows checked against it, the
 * generator started, then the RFC 2544 procedure at every frame size, or a rule sweep (the DUT
 * the callbacks name), or the clock experiment (the DUT clocks the callbacks list); progress
 * through a callback, Ctrl-C through p->stop, the result kept whole for the document and the
 * tables. Nothing here prints or exits. */
#ifndef NB_RATE_CTL_H
#define NB_RATE_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rate/rate_run.h"

struct nb_rate_ctl_cb {
	/* The receiver is open and the path known (r->dst: where frames go), before the generator
	 * starts: the front end opens its observers of the DUT (p->observe) here. Returns 0, or a
	 * negative errno with the reason in err. May be NULL. */
	int (*opened)(void *arg, struct nb_rate_run *r, char *err, size_t errlen);
	/* Each event of the run (rate_run.h), NB_RATE_EV_BEGIN first. May be NULL. */
	nb_rate_progress_fn progress;
	void *arg;
	/* p->nsweep rule counts: the DUT each ruleset is loaded into (rate_run.h). */
	const struct nb_rate_dut *dut;
	/* nclocks > 0: the clock experiment at these DUT clocks (MHz), in turn. */
	const uint32_t *clocks_mhz;
	size_t nclocks;
};

/* A rate run's result: the run (engines, receivers, both ends' platforms, the trial log) and
 * what one of the three kinds of run found. */
struct nb_rate_result {
	struct nb_rate_run *run;
	/* The procedure at every size: p->nsizes entries, ndone of them finished (all of them
	 * unless the run was interrupted: the size cut short is dropped). */
	struct nb_rate_size *res;
	size_t ndone;
	struct nb_rate_overall verdict;
	/* A rule sweep: its points measured whole and the fits over them. */
	struct nb_rate_sweep_point *points;
	size_t npoints;
	struct nb_rate_sweep_fits *fits;
	/* The clock experiment: cb->nclocks points, nclock_points of them kept, have_freq false
	 * when the DUT has no cpufreq (one point, at the clock it has). */
	struct nb_rate_clock_point *clocks;
	size_t nclocks, nclock_points;
	bool have_freq;
	struct nb_rate_clock_fits clock_fits;
	bool interrupted; /* p->stop ended the run: only what was measured whole is kept */
	bool bad_input;	  /* the failure lies in the user's input (a usage error) */
	struct nb_rate_ctl_cb cb;
};

/* Runs p, with cb's callbacks (may be NULL). Returns 0 with *out, or a negative errno with the
 * reason in err (and *out, for what was opened, or NULL); free *out with nb_rate_result_free in
 * either case. A stop (p->stop) is not a failure: the result says interrupted. */
int nb_rate_ctl_run(const struct nb_rate_params *p, const struct nb_rate_ctl_cb *cb,
		    struct nb_rate_result **out, char *err, size_t errlen);
/* The result's document (docs/schema.md): the sizes', the rule sweep's or the clock
 * experiment's, as the run was; malloc'd, free it. Returns 0 or -ENOMEM. */
int nb_rate_result_doc_text(const struct nb_rate_result *r, char **text, size_t *len);
/* The exit status the result earns: 1 when a size's result (of any sweep point or clock kept)
 * failed or found nothing (nb_rate_status), else 0. */
int nb_rate_result_status(const struct nb_rate_result *r);
void nb_rate_result_free(struct nb_rate_result *r);

#endif
