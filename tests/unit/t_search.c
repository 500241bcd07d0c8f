/* SPDX-License-Identifier: BSD-2-Clause */
/* RFC 2544 search logic against a simulated DUT of known capacity and noise; the loss curve;
 * the fixed-size latency histogram; counter reconciliation. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hist.h"
#include "core/rate/raterx.h"
#include "core/rate/search.h"
#include "tap.h"

struct sim {
	double capacity_fps, noise; /* capacity varies by +-noise (a ratio) per trial */
	double gen_max_fps;	    /* what the generator can offer */
	double trial_s;
	unsigned seed;
};

/* Loses what exceeds this trial's capacity. */
static void sim_trial(struct sim *d, double x, double *offered, uint64_t *tx, uint64_t *lost)
{
	double rate = x <= 0 || x > d->gen_max_fps ? d->gen_max_fps : x;
	double cap = d->capacity_fps * (1 + d->noise * (2.0 * rand_r(&d->seed) / RAND_MAX - 1));
	*offered = rate;
	*tx = (uint64_t)(rate * d->trial_s);
	*lost = rate > cap ? (uint64_t)((rate - cap) * d->trial_s) + 1 : 0;
}

static void run(struct sim *d, struct nb_search *s)
{
	double x, off;
	uint64_t tx, lost;
	while (nb_search_next(s, &x) && s->trials < 200) {
		sim_trial(d, x, &off, &tx, &lost);
		nb_search_report(s, x, off, tx, lost, true);
	}
}

int main(void)
{
	struct nb_search s;
	struct sim d = {
	    .capacity_fps = 123456, .noise = 0, .gen_max_fps = 1e6, .trial_s = 1, .seed = 1};
	double x;

	nb_search_init(&s, 0, 1000, 500, 0);
	run(&d, &s);
	CHECK(s.phase == NB_SEARCH_DONE && s.verified, "noise-free: search ends verified");
	CHECK(s.result <= d.capacity_fps && s.result >= d.capacity_fps - 500,
	      "noise-free: result %.0f within resolution below capacity %.0f", s.result,
	      d.capacity_fps);
	CHECK(s.max == 1e6 && s.max_measured, "flat-out first trial measured the generator");
	CHECK(s.trials < 20, "binary search took %u trials", s.trials);

	int within = 1;
	for (unsigned seed = 1; seed < 200; seed++) {
		d.noise = 0.01;
		d.seed = seed;
		nb_search_init(&s, 0, 1000, 0.005 * 1e6, 0);
		run(&d, &s);
		/* A verified result passed a trial, so it lies below that trial's capacity. */
		if (s.phase != NB_SEARCH_DONE || s.result > d.capacity_fps * 1.01 ||
		    (s.verified && s.result < d.capacity_fps * 0.99 - 5000)) {
			within = 0;
			break;
		}
	}
	CHECK(within, "1%% noise, 200 seeds: every result within noise and resolution");

	d.noise = 0;
	d.capacity_fps = 0;
	nb_search_init(&s, 0, 1000, 500, 0);
	run(&d, &s);
	CHECK(s.phase == NB_SEARCH_DONE && s.result == 0 && s.trials < 30,
	      "DUT dropping everything: result 0 after %u trials, no hang", s.trials);

	d.capacity_fps = 5e6;
	nb_search_init(&s, 0, 1000, 500, 0);
	run(&d, &s);
	CHECK(s.at_max && s.verified && s.result == 1e6 && s.trials == 2,
	      "DUT faster than the generator: result is the generator's maximum, flagged");

	d.capacity_fps = 2e5;
	nb_search_init(&s, 4e6, 1000, 500, 0);
	CHECK(nb_search_next(&s, &x) && x == 4e6, "asked maximum tried first");
	nb_search_report(&s, 4e6, 1e6, 1000000, 800000, true);
	CHECK(s.gen_short && s.hi == 1e6,
	      "generator short of the asked maximum: searched below it");

	nb_search_init(&s, 0, 1000, 500, 0.005);
	nb_search_report(&s, 0, 1e6, 1000000, 4000, true);
	CHECK(s.phase == NB_SEARCH_VERIFY && s.result == 1e6,
	      "0.4%% loss passes a 0.5%% tolerance");
	nb_search_init(&s, 0, 1000, 500, 0.005);
	nb_search_report(&s, 0, 1e6, 1000000, 6000, true);
	CHECK(s.phase == NB_SEARCH_BINARY, "0.6%% loss fails a 0.5%% tolerance");

	nb_search_init(&s, 0, 1000, 500, 0);
	for (int i = 0; i < 3; i++)
		nb_search_report(&s, 0, 1e6, 100, 0, false);
	CHECK(s.phase == NB_SEARCH_DONE && s.error == -EPROTO,
	      "three invalid trials in a row end the search with an error");

	/* Verification failure: capacity drops after the search. */
	d.capacity_fps = 300000;
	nb_search_init(&s, 0, 1000, 500, 0);
	while (nb_search_next(&s, &x) && s.phase != NB_SEARCH_VERIFY) {
		double off;
		uint64_t tx, lost;
		sim_trial(&d, x, &off, &tx, &lost);
		nb_search_report(&s, x, off, tx, lost, true);
	}
	d.capacity_fps = 200000;
	run(&d, &s);
	CHECK(s.verified && s.verify_failures == 1 && s.result <= 200000 && s.result > 199000,
	      "failed verification searches again below: %.0f", s.result);

	/* A sender that offers only 90 % of what is asked: the search still ends, verified,
	 * below the capacity, without drifting down. */
	double asked, offered_ratio = 0.9;
	d.capacity_fps = 200000;
	nb_search_init(&s, 0, 1000, 1000, 0);
	while (nb_search_next(&s, &asked) && s.trials < 100) {
		double off;
		uint64_t tx, lost;
		sim_trial(&d, asked > 0 ? asked * offered_ratio : 0, &off, &tx, &lost);
		nb_search_report(&s, asked, off, tx, lost, true);
	}
	CHECK(s.phase == NB_SEARCH_DONE && s.verified && s.result <= 200000 && s.trials <= 150 &&
		  s.short_trials > 0,
	      "sender short by 10 %%: ends verified at %.0f, below capacity, %u trials", s.result,
	      s.trials);

	/* Loss curve: 100 %, 90 %, ... until two clean trials. */
	struct nb_losscurve c;
	double cap = 650000, rates[20];
	int n = 0;
	nb_losscurve_init(&c, 1e6);
	while (nb_losscurve_next(&c, &x) && n < 20) {
		rates[n++] = x;
		nb_losscurve_report(&c, x > cap ? 1 : 0);
	}
	CHECK(n == 6 && fabs(rates[0] - 1e6) < 1 && fabs(rates[5] - 5e5) < 1,
	      "loss curve: 6 trials from 100 %% down to 50 %% (%d)", n);

	/* Histogram. */
	struct nb_hist *h = calloc(1, sizeof(*h));
	for (uint64_t v = 1; v <= 100000; v++)
		nb_hist_add(h, v * 1000);
	CHECK(h->count == 100000 && h->max_ns == 100000000 && h->min_ns == 1000,
	      "histogram count, min, max exact");
	double p50 = (double)nb_hist_quantile(h, 0.5), p99 = (double)nb_hist_quantile(h, 0.99);
	CHECK(fabs(p50 - 50e6) / 50e6 < 0.035 && fabs(p99 - 99e6) / 99e6 < 0.035,
	      "p50 %.0f and p99 %.0f within 3.5 %%", p50, p99);
	CHECK(nb_hist_quantile(h, 1.0) == 100000000, "p100 is the exact maximum");
	int mono = 1;
	for (uint32_t i = 1; i < NB_HIST_BUCKETS; i++)
		if (nb_hist_bucket_low(i) <= nb_hist_bucket_low(i - 1) ||
		    nb_hist_index(nb_hist_bucket_low(i)) != i)
			mono = 0;
	CHECK(mono, "bucket bounds increase and map back to their index");
	CHECK(sizeof(struct nb_hist) < 10000, "histogram is %zu bytes, fixed",
	      sizeof(struct nb_hist));
	free(h);

	/* Reconciliation. */
	struct nb_rx_snap *snap = calloc(1, sizeof(*snap));
	struct nb_trial_counts tc;
	uint64_t tx_flow[2] = {1000, 1000};
	snap->any = true;
	snap->trial = 7;
	snap->flows = 2;
	snap->rx = 1990;
	snap->rx_flow[0] = 1000;
	snap->rx_flow[1] = 990;
	snap->seq_end[0] = 1000;
	snap->seq_end[1] = 1000;
	nb_rx_reconcile(tx_flow, 2, 7, snap, &tc);
	CHECK(tc.valid && tc.tx == 2000 && tc.rx == 1990 && tc.lost == 10, "10 lost of 2000");
	nb_rx_reconcile(tx_flow, 2, 8, snap, &tc);
	CHECK(tc.valid && tc.rx == 0 && tc.lost == 2000, "snapshot of another trial: all lost");
	snap->rx_flow[1] = 1001;
	snap->rx = 2001;
	nb_rx_reconcile(tx_flow, 2, 7, snap, &tc);
	CHECK(!tc.valid, "more received than sent on a flow is invalid (%s)", tc.why);
	snap->rx_flow[1] = 990;
	snap->seq_end[1] = 1005;
	nb_rx_reconcile(tx_flow, 2, 7, snap, &tc);
	CHECK(!tc.valid, "sequence beyond what was sent is invalid");
	snap->seq_end[1] = 1000;
	snap->flows = 3;
	nb_rx_reconcile(tx_flow, 2, 7, snap, &tc);
	CHECK(!tc.valid, "a flow that was never sent is invalid");
	free(snap);
	return tap_done();
}
