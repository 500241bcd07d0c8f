/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's driver of a tput sweep (netio's loop over block sizes, Tx then Rx or both at
 * once): the session with the agent, the run checked against its caps, each step in turn
 * (tput_run.c), the idle baseline on the first, and Ctrl-C between or inside steps. */
#ifndef NB_TPUT_CTL_H
#define NB_TPUT_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session/ctl.h"
#include "core/session/job.h"
#include "core/tput/tput_json.h"
#include "core/tput/tput_run.h"

#define NB_TPUT_MAX_SIZES 32 /* block sizes in one sweep */

/* How long the first step samples both ends idle before its traffic (the sweep's baseline). */
#define NB_TPUT_BASELINE_NS (250 * 1000 * 1000ULL)

/* One step of the plan: a block size (index into the sweep's sizes) and its direction(s). */
struct nb_tput_step {
	size_t size_index;
	uint32_t dir;	/* NB_TPUT_DIR_TX, NB_TPUT_DIR_RX, or both with bidir */
	bool baseline;	/* the first step: it measures the idle baseline */
	bool ends_size; /* the size's last step: the size is measured whole after it */
};

/* The sweep's steps in order into out (room for 2 * s->nsizes): per size Tx then Rx (either
 * alone when only one is asked for), or one Tx+Rx step with bidir. Returns their count. */
size_t nb_tput_sweep_plan(const struct nb_tput_sweep *s, struct nb_tput_step *out);

enum nb_tput_ev_kind {
	NB_TPUT_EV_BEGIN,    /* the session is open and the run fits the caps: ctl, nsteps */
	NB_TPUT_EV_STEP,     /* a step begins: step, size_index, dir */
	NB_TPUT_EV_INTERVAL, /* an interval of the step's window: size_index, iv */
	NB_TPUT_EV_RESULT,   /* a step's result: step, size_index, dir, res */
	NB_TPUT_EV_SIZE,     /* size_index is measured whole (its row) */
};

struct nb_tput_event {
	enum nb_tput_ev_kind kind;
	const struct nb_ctl *ctl; /* BEGIN */
	size_t nsteps;		  /* BEGIN */
	size_t step, size_index;
	uint32_t block; /* the step's block size in bytes */
	uint32_t dir;
	const struct nb_tput_step_result *res; /* RESULT */
	const struct nb_tput_interval *iv;     /* INTERVAL */
};
typedef void (*nb_tput_event_fn)(void *arg, const struct nb_tput_event *ev);

/* Whether every size measured is valid in each direction asked: the run's exit status (0, or 1
 * when a step was invalid, its reason in the result). */
bool nb_tput_sweep_valid(const struct nb_tput_sweep *s);

/* One step as the driver runs it: nb_tput_run_step on the session (arg), or a simulation. */
typedef int (*nb_tput_step_fn)(void *arg, const struct nb_tput_params *p,
			       struct nb_tput_step_result *r, nb_tput_interval_fn on_interval,
			       void *iv_arg, const nb_cancel_t *stop, char *err, size_t errlen);

/* Runs the sweep s was set up for (nb_tput_sweep_init) with p's settings (block, dir and
 * baseline_ns are the driver's), one step after the other through step. Each size's results go
 * into s as its steps end; s->ndone counts the sizes measured whole. stop set between or inside
 * a step ends the sweep with the sizes measured whole kept (s->interrupted, returns 0). Returns
 * 0, or a negative errno with err from the step that failed. */
int nb_tput_sweep_drive(nb_tput_step_fn step, void *step_arg, const struct nb_tput_params *p,
			struct nb_tput_sweep *s, const nb_cancel_t *stop, nb_tput_event_fn fn,
			void *arg, char *err, size_t errlen);

/* What a tput run runs: the sweep over the block sizes (one step or two each: nb_tput_sweep_plan)
 * with p's settings, on the agent target names. The params cross the wire to the agent step by
 * step; the target and the stop flag are the controller's alone, so they stay out of them. */
struct nb_tput_ctl_req {
	const struct nb_tput_params *p; /* p->observe: the observers, when any */
	struct nb_ctl_target target;
	const uint64_t *sizes; /* block sizes, nsizes of them (at most NB_TPUT_MAX_SIZES) */
	size_t nsizes;
	bool tx, rx, bidir;
	const nb_cancel_t *stop; /* set asynchronously: end the sweep; may be NULL */
};

struct nb_tput_ctl_cb {
	/* Each event of the run, NB_TPUT_EV_BEGIN first. May be NULL. */
	nb_tput_event_fn event;
	void *arg;
};

/* A tput run's result: the sweep (what each size measured, for the tables and the document) and
 * the session with the agent (its platform and port, for the head and the document). */
struct nb_tput_result {
	struct nb_tput_sweep s;
	struct nb_ctl *ctl; /* NULL until the agent answered */
};

/* The whole run: connects, checks every step against the agent's caps before any traffic, then
 * nb_tput_sweep_drive over real steps, with cb's callbacks (may be NULL). *out is set first (NULL
 * only when out of memory), so that the callbacks can read the sweep measured so far through it.
 * Returns 0 with *out, or a negative errno with the reason in err (and *out, for what was
 * opened); free *out with nb_tput_result_free in either case. A stop (req->stop) is not a
 * failure: the sweep says interrupted. */
int nb_tput_ctl_run(const struct nb_tput_ctl_req *req, const struct nb_tput_ctl_cb *cb,
		    struct nb_tput_result **out, char *err, size_t errlen);
void nb_tput_result_free(struct nb_tput_result *r);

#endif
