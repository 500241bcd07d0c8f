/* SPDX-License-Identifier: BSD-2-Clause */
/* tput's sweep driver over a simulated step: the steps it plans (order, directions, the baseline
 * on the first), what it keeps of each, and Ctrl-C between and inside steps keeping the sizes
 * measured whole. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/tput/tput_ctl.h"
#include "tap.h"

/* The simulated agent: records every step asked for, stops or fails where told. */
struct sim {
	size_t nsteps;
	uint32_t block[16], dir[16];
	uint64_t baseline_ns[16];
	size_t stop_after; /* sets the stop flag when this step ends (SIZE_MAX: never) */
	size_t eintr_at;   /* this step is cut short by Ctrl-C */
	size_t fail_at;	   /* this step fails */
	nb_cancel_t *stop;
};

static int sim_step(void *arg, const struct nb_tput_params *p, struct nb_tput_step_result *r,
		    nb_tput_interval_fn on_iv, void *iv_arg, const nb_cancel_t *stop, char *err,
		    size_t errlen)
{
	struct sim *s = arg;
	size_t k = s->nsteps++;
	struct nb_tput_interval iv = {.index = 1, .start_s = 0, .end_s = 1};

	(void)stop;
	memset(r, 0, sizeof(*r));
	s->block[k] = p->block;
	s->dir[k] = p->dir;
	s->baseline_ns[k] = p->baseline_ns;
	if (k == s->fail_at) {
		snprintf(err, errlen, "the agent went away");
		return -ECONNRESET;
	}
	if (k == s->eintr_at) {
		*s->stop = 1;
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	iv.tx_kbyte_per_s = p->dir & NB_TPUT_DIR_TX ? p->block : NAN;
	iv.rx_kbyte_per_s = p->dir & NB_TPUT_DIR_RX ? p->block : NAN;
	on_iv(iv_arg, &iv);
	r->tx.valid = r->rx.valid = true;
	r->tx.bytes = p->dir & NB_TPUT_DIR_TX ? p->block : 0;
	r->rx.bytes = p->dir & NB_TPUT_DIR_RX ? 2 * p->block : 0;
	if (p->baseline_ns)
		r->baseline.local.known = true;
	if (k == s->stop_after)
		*s->stop = 1;
	return 0;
}

/* The events in order, as letters: S(tep) I(nterval) R(esult) Z (a size measured whole). */
struct log {
	char ev[128];
	size_t n;
};

static void on_event(void *arg, const struct nb_tput_event *ev)
{
	struct log *l = arg;
	static const char letter[] = {'B', 'S', 'I', 'R', 'Z'};
	if (l->n + 1 < sizeof(l->ev))
		l->ev[l->n++] = letter[ev->kind];
}

static const uint64_t sizes[3] = {1024, 8192, 65536};

static int drive(struct sim *sim, struct nb_tput_sweep *s, bool tx, bool rx, bool bidir,
		 struct log *log, char *err, size_t errlen)
{
	static nb_cancel_t stop;
	struct nb_tput_params p = {.proto = NB_TPUT_TCP, .streams = 1, .time_ns = 1000000000};
	stop = 0;
	sim->stop = &stop;
	memset(log, 0, sizeof(*log));
	if (nb_tput_sweep_init(s, sizes, 3, tx, rx, bidir, false))
		return -ENOMEM;
	return nb_tput_sweep_drive(sim_step, sim, &p, s, &stop, on_event, log, err, errlen);
}

int main(void)
{
	struct nb_tput_step plan[2 * NB_TPUT_MAX_SIZES];
	struct nb_tput_sweep s;
	struct log log;
	char err[128];
	size_t n;
	int ret;

	/* The plan. */
	nb_tput_sweep_init(&s, sizes, 3, true, true, false, false);
	n = nb_tput_sweep_plan(&s, plan);
	CHECK(n == 6 && plan[0].dir == NB_TPUT_DIR_TX && plan[1].dir == NB_TPUT_DIR_RX &&
		  plan[0].size_index == 0 && plan[1].size_index == 0 && plan[4].size_index == 2 &&
		  plan[5].dir == NB_TPUT_DIR_RX,
	      "Tx then Rx per size: 6 steps for 3 sizes");
	CHECK(plan[0].baseline && !plan[1].baseline && !plan[2].baseline,
	      "only the first step measures the idle baseline");
	CHECK(!plan[0].ends_size && plan[1].ends_size && !plan[2].ends_size && plan[5].ends_size,
	      "a size is whole after its Rx step");
	nb_tput_sweep_free(&s);
	nb_tput_sweep_init(&s, sizes, 3, false, true, false, false);
	n = nb_tput_sweep_plan(&s, plan);
	CHECK(n == 3 && plan[0].dir == NB_TPUT_DIR_RX && plan[0].baseline && plan[0].ends_size,
	      "Rx only: one step per size, the first with the baseline");
	nb_tput_sweep_free(&s);
	nb_tput_sweep_init(&s, sizes, 3, true, true, true, false);
	n = nb_tput_sweep_plan(&s, plan);
	CHECK(n == 3 && plan[2].dir == (NB_TPUT_DIR_TX | NB_TPUT_DIR_RX) && plan[2].ends_size,
	      "bidir: one Tx+Rx step per size");
	nb_tput_sweep_free(&s);

	/* A whole sweep. */
	struct sim sim = {.stop_after = SIZE_MAX, .eintr_at = SIZE_MAX, .fail_at = SIZE_MAX};
	ret = drive(&sim, &s, true, true, false, &log, err, sizeof(err));
	CHECK(ret == 0 && sim.nsteps == 6 && s.ndone == 3 && !s.interrupted,
	      "the whole sweep: 6 steps, 3 sizes");
	CHECK(sim.block[0] == 1024 && sim.dir[0] == NB_TPUT_DIR_TX && sim.block[1] == 1024 &&
		  sim.dir[1] == NB_TPUT_DIR_RX && sim.block[5] == 65536,
	      "each step asks for its size and direction");
	CHECK(sim.baseline_ns[0] == NB_TPUT_BASELINE_NS && sim.baseline_ns[1] == 0 &&
		  sim.baseline_ns[2] == 0,
	      "the baseline is asked of the first step only");
	CHECK(s.res[1].tx.bytes == 8192 && s.res[1].rx.bytes == 16384 && s.baseline.local.known,
	      "each direction's result and the baseline kept in the sweep");
	CHECK(s.nintervals == 6 && s.intervals[5].size_index == 2,
	      "every interval kept with its size");
	CHECK(!strcmp(log.ev, "SIRSIRZSIRSIRZSIRSIRZ"), "events in order: %s", log.ev);
	CHECK(nb_tput_sweep_valid(&s), "every step valid: the run is valid");
	s.res[2].rx.valid = false;
	CHECK(!nb_tput_sweep_valid(&s), "one invalid Rx step: the run is not (exit status 1)");
	s.ndone = 2;
	CHECK(nb_tput_sweep_valid(&s),
	      "an invalid step of a size not measured whole does not count");
	nb_tput_sweep_free(&s);

	/* Ctrl-C between steps: after size 1's Tx step, its Rx step is not run; the Tx step
	 * that ended is a measurement and is kept, its Rx is not measured. */
	sim = (struct sim){.stop_after = 2, .eintr_at = SIZE_MAX, .fail_at = SIZE_MAX};
	ret = drive(&sim, &s, true, true, false, &log, err, sizeof(err));
	CHECK(ret == 0 && s.interrupted && sim.nsteps == 3 && s.ndone == 2 && s.half_tx,
	      "stop between steps: no step after it, the finished Tx half kept");
	CHECK(nb_tput_sweep_has(&s, 1, true) && !nb_tput_sweep_has(&s, 1, false) &&
		  nb_tput_sweep_has(&s, 0, false) && !nb_tput_sweep_has(&s, 2, true),
	      "size 1: Tx measured, Rx not; size 0 whole; size 2 not at all");
	CHECK(nb_tput_sweep_valid(&s), "an Rx not measured is not an invalid one");
	nb_tput_sweep_free(&s);

	/* Ctrl-C inside a step: size 1's Rx is cut short, its Tx kept. */
	sim = (struct sim){.stop_after = SIZE_MAX, .eintr_at = 3, .fail_at = SIZE_MAX};
	ret = drive(&sim, &s, true, true, false, &log, err, sizeof(err));
	CHECK(ret == 0 && s.interrupted && sim.nsteps == 4 && s.ndone == 2 && s.half_tx,
	      "stop inside an Rx step: the sizes measured whole and the Tx half kept");
	nb_tput_sweep_free(&s);

	/* Ctrl-C inside a Tx step: nothing of that size is kept. */
	sim = (struct sim){.stop_after = SIZE_MAX, .eintr_at = 2, .fail_at = SIZE_MAX};
	ret = drive(&sim, &s, true, true, false, &log, err, sizeof(err));
	CHECK(ret == 0 && s.interrupted && sim.nsteps == 3 && s.ndone == 1 && !s.half_tx,
	      "stop inside a Tx step: the size cut short dropped whole");
	nb_tput_sweep_free(&s);

	/* Ctrl-C after the last step still says interrupted (the run exits 130). */
	sim = (struct sim){.stop_after = 2, .eintr_at = SIZE_MAX, .fail_at = SIZE_MAX};
	ret = drive(&sim, &s, false, false, true, &log, err, sizeof(err));
	CHECK(ret == 0 && s.interrupted && sim.nsteps == 3 && s.ndone == 3,
	      "stop after the last step: every size kept, marked interrupted");
	nb_tput_sweep_free(&s);

	/* A step that fails ends the sweep with its error. */
	sim = (struct sim){.stop_after = SIZE_MAX, .eintr_at = SIZE_MAX, .fail_at = 1};
	ret = drive(&sim, &s, true, true, false, &log, err, sizeof(err));
	CHECK(ret == -ECONNRESET && !s.interrupted && sim.nsteps == 2 && s.ndone == 0 &&
		  !strcmp(err, "the agent went away"),
	      "a failed step ends the sweep with its reason");
	nb_tput_sweep_free(&s);

	/* Too many sizes for the plan. */
	static uint64_t many[NB_TPUT_MAX_SIZES + 1];
	struct nb_tput_params p = {0};
	nb_tput_sweep_init(&s, many, NB_TPUT_MAX_SIZES + 1, true, true, false, false);
	sim = (struct sim){.stop_after = SIZE_MAX, .eintr_at = SIZE_MAX, .fail_at = SIZE_MAX};
	ret = nb_tput_sweep_drive(sim_step, &sim, &p, &s, NULL, NULL, NULL, err, sizeof(err));
	CHECK(ret == -EINVAL && sim.nsteps == 0 && strstr(err, "at most 32"),
	      "more sizes than a sweep holds refused: %s", err);
	nb_tput_sweep_free(&s);

	/* The whole run refuses them too, before it connects, with a result to free. */
	struct nb_tput_result *res = NULL;
	err[0] = '\0';
	ret = nb_tput_ctl_run(&(struct nb_tput_ctl_req){.p = &p,
							.target = {.host = "192.0.2.1"},
							.sizes = many,
							.nsizes = NB_TPUT_MAX_SIZES + 1,
							.tx = true,
							.rx = true},
			      NULL, &res, err, sizeof(err));
	CHECK(ret == -EINVAL && res && !res->ctl && strstr(err, "at most 32"),
	      "the run refuses too many sizes before it connects: %s", err);
	nb_tput_result_free(res);
	return tap_done();
}
