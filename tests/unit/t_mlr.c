/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared search of several loss ratios (core/rate/mlr.c) and the ndrpdr procedure over it,
 * against simulated devices under test with known loss curves: a DUT that forwards up to C
 * frames/s and drops the rest (its NDR is C, its 0.5 % PDR C / 0.995), one whose capacity
 * varies per trial, one faster than the generator, one that forwards nothing. Also the spread
 * of repeated searches (mean, 95 % interval by Student's t) on known answers. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/mlr.h"
#include "core/rate/rfc2544.h"
#include "core/rate/search.h"
#include "tap.h"

struct sim {
	double cap, noise, gen_max;
	unsigned seed;
	uint32_t trials;
	uint32_t glitch; /* this trial (1, 2, ...) offers 60 % of its rate (a sender held
			  * up) and loses 10 % (0: none) */
};

/* Loss of a trial at x frames/s: what exceeds the capacity (which varies by +-noise). */
static void sim_run(struct sim *d, double x, double *offered, uint64_t *tx, uint64_t *lost)
{
	double cap = d->cap * (1 + d->noise * (2.0 * rand_r(&d->seed) / RAND_MAX - 1));
	double rate = x <= 0 || x > d->gen_max ? d->gen_max : x;
	*offered = rate;
	*tx = (uint64_t)(rate * 10); /* 10 s worth: loss ratios resolve to 1e-7 */
	*lost = rate > cap ? (uint64_t)((rate - cap) * 10 + 0.5) : 0;
	if (++d->trials == d->glitch) {
		*offered = rate * 0.6;
		*tx = (uint64_t)(*offered * 10);
		*lost = *tx / 10;
	}
}

static void mlr_run(struct nb_mlr *m, struct sim *d, double max, const double *ratios, uint32_t n)
{
	double x, off;
	bool final;
	uint32_t which;
	uint64_t tx, lost;

	nb_mlr_init(m, max, 1000, max * 0.001, ratios, n);
	while (nb_mlr_next(m, &x, &final, &which)) {
		sim_run(d, x, &off, &tx, &lost);
		nb_mlr_report(m, x, off, tx, lost, true, final);
	}
}

static uint32_t search_trials(struct sim *d, double max, double tol, double *result)
{
	struct nb_search s;
	double x, off;
	uint64_t tx, lost;
	uint32_t before = d->trials;

	nb_search_init(&s, max, 1000, max * 0.001, tol);
	while (nb_search_next(&s, &x)) {
		sim_run(d, x, &off, &tx, &lost);
		nb_search_report(&s, x, off, tx, lost, true);
	}
	*result = s.result;
	return d->trials - before;
}

/* The procedure's trial callback over the simulation: final trials' durations recorded. */
struct proc_sim {
	struct sim d;
	uint64_t final_ns_seen, search_ns_seen;
	uint32_t finals, invalid_from;
};

static int proc_trial(void *ctx, const struct nb_rate_trial_req *q, struct nb_rate_trial *rec,
		      char *err, size_t errlen)
{
	struct proc_sim *ps = ctx;
	double off;
	(void)err;
	(void)errlen;
	sim_run(&ps->d, q->rate_fps, &off, &rec->c.tx, &rec->c.lost);
	rec->offered_fps = off;
	rec->c.rx = rec->c.tx - rec->c.lost;
	rec->c.valid = !ps->invalid_from || ps->d.trials < ps->invalid_from;
	if (!strcmp(q->purpose, "final")) {
		ps->finals++;
		ps->final_ns_seen = q->duration_ns;
	} else {
		ps->search_ns_seen |= q->duration_ns;
	}
	return 0;
}

static int proc_run(struct proc_sim *ps, uint32_t repeat, uint64_t final_ns, struct nb_rate_size *s)
{
	static struct nb_rate_params p;
	static struct nb_rate_proc pr;
	char err[256];
	memset(&p, 0, sizeof(p));
	memset(&pr, 0, sizeof(pr));
	memset(s, 0, sizeof(*s));
	p.test = NB_RATE_NDRPDR;
	p.trial_ns = 1000000000ULL;
	p.final_trial_ns = final_ns;
	p.resolution_pct = 0.5;
	p.rate_fps = 200000;
	p.flows = 1;
	p.repeat = repeat;
	p.nratios = 2;
	p.loss_ratios[0] = 0;
	p.loss_ratios[1] = 0.005;
	pr.p = &p;
	pr.trial = proc_trial;
	pr.ctx = ps;
	s->size = 64;
	int ret = nb_rate_procedure(&pr, s, err, sizeof(err));
	nb_rate_proc_free(&pr);
	return ret;
}

int main(void)
{
	static const double ndr_pdr[2] = {0, 0.005};
	static struct nb_mlr m;
	struct sim d = {.cap = 123457, .gen_max = 1e9, .seed = 1};
	const double res = 200000 * 0.001, pdr_true = 123457 / 0.995;
	double r0, r1;
	uint32_t shared, separate;

	/* 1. A known curve: NDR C, PDR C / 0.995, each within the resolution below the truth. */
	mlr_run(&m, &d, 200000, ndr_pdr, 2);
	shared = d.trials;
	CHECK(!m.error && m.r[0].done && m.r[1].done, "both ratios done");
	CHECK(m.r[0].result <= 123457 && m.r[0].result >= 123457 - res && m.r[0].verified,
	      "NDR %.0f within %.0f below the true 123457, verified", m.r[0].result, res);
	CHECK(m.r[1].result <= pdr_true && m.r[1].result >= pdr_true - res && m.r[1].verified &&
		  m.r[1].result > m.r[0].result,
	      "PDR %.0f within %.0f below the true %.1f, verified", m.r[1].result, res, pdr_true);
	{
		bool below_fails = true;
		for (uint32_t i = 0; i < 2; i++)
			for (uint32_t k = 0; k < m.ntrials; k++)
				if (m.t[k].loss > ndr_pdr[i] && m.r[i].result >= m.t[k].rate)
					below_fails = false;
		CHECK(below_fails, "each ratio's result lies below every trial that lost more");
	}

	/* 2. Shared trials: fewer than two separate searches (one per ratio) of the same DUT. */
	d.trials = 0;
	separate = search_trials(&d, 200000, 0, &r0);
	separate += search_trials(&d, 200000, 0.005, &r1);
	CHECK(shared < separate, "one shared search took %u trials, two separate ones %u", shared,
	      separate);
	CHECK(fabs(r0 - m.r[0].result) <= res && fabs(r1 - m.r[1].result) <= res,
	      "and found the same rates within the resolution (%.0f, %.0f vs %.0f, %.0f)", r0, r1,
	      m.r[0].result, m.r[1].result);

	/* 3. A DUT faster than the maximum: both at the maximum, from two trials. */
	d = (struct sim){.cap = 1e6, .gen_max = 1e9, .seed = 2};
	mlr_run(&m, &d, 200000, ndr_pdr, 2);
	CHECK(m.r[0].at_max && m.r[1].at_max && m.r[0].result == 200000 &&
		  m.r[1].result == 200000 && d.trials == 2,
	      "not saturated: both ratios at the maximum after %u trials (first, final)", d.trials);

	/* 4. A DUT that forwards nothing: zero for both, no endless search. */
	d = (struct sim){.cap = 0, .gen_max = 1e9, .seed = 3};
	mlr_run(&m, &d, 200000, ndr_pdr, 2);
	CHECK(m.r[0].zero && m.r[1].zero && m.r[0].result == 0 && d.trials < 20,
	      "a DUT that drops everything: 0 for both ratios after %u trials", d.trials);

	/* 5. Flat out: the first trial measures the maximum (the generator's 150 k). */
	d = (struct sim){.cap = 1e6, .gen_max = 150000, .seed = 4};
	mlr_run(&m, &d, 0, ndr_pdr, 2);
	CHECK(m.max == 150000 && m.r[0].result == 150000 && m.r[0].at_max,
	      "flat out: the maximum is what the generator offered (%.0f)", m.max);

	/* 6. A capacity that varies by 2 % per trial: results stay within the variation, never
	 * above the truth's top, and the search ends (resolution 0.1 %% of the maximum). */
	d = (struct sim){.cap = 123457, .noise = 0.02, .gen_max = 1e9, .seed = 5};
	mlr_run(&m, &d, 200000, ndr_pdr, 2);
	CHECK(m.r[0].done && m.r[0].result >= 123457 * 0.98 - res &&
		  m.r[0].result <= 123457 * 1.02 && m.r[1].result >= m.r[0].result,
	      "noisy DUT: NDR %.0f within its 2 %% variation, PDR %.0f not below it (%u trials)",
	      m.r[0].result, m.r[1].result, d.trials);

	/* 6b. One trial held up to 60 %% of its rate that loses 10 %% (a glitch), at every point
	 * of the search (it counts at what it offered, below the results found so far): a
	 * ratio already done is reopened below it, results stay ordered (NDR <= PDR <= 5 %%) and
	 * below every trial that lost more than their ratio. */
	{
		static const double three[3] = {0, 0.005, 0.05};
		bool ordered = true, below = true;
		for (uint32_t g = 1; g <= 20; g++) {
			d = (struct sim){.cap = 123457, .gen_max = 1e9, .seed = 9, .glitch = g};
			mlr_run(&m, &d, 200000, three, 3);
			if (!(m.r[0].result <= m.r[1].result && m.r[1].result <= m.r[2].result))
				ordered = false;
			for (uint32_t i = 0; i < 3; i++)
				for (uint32_t k = 0; k < m.ntrials; k++)
					if (m.t[k].loss > three[i] && m.r[i].result >= m.t[k].rate)
						below = false;
		}
		CHECK(ordered && below,
		      "a glitch at any of trials 1-20: results ordered, each below every trial "
		      "that lost more");
	}

	/* 7. Bad ratios. */
	{
		static const double dec[2] = {0.005, 0}, one[1] = {1};
		CHECK(nb_mlr_init(&m, 1, 1, 1, dec, 2) == -EINVAL &&
			  nb_mlr_init(&m, 1, 1, 1, one, 1) == -EINVAL &&
			  nb_mlr_init(&m, 1, 1, 1, ndr_pdr, 0) == -EINVAL,
		      "decreasing ratios, a ratio of 100 %%, none: refused");
	}

	/* 8. Spread, known answers: 1..5 has mean 3, sd 1.581, 95 %% half width 2.776 x sd / sqrt
	 * 5; one value: no interval. */
	{
		static const double v[5] = {1, 2, 3, 4, 5};
		struct nb_mlr_spread sp;
		nb_mlr_spread(v, 5, &sp);
		CHECK(sp.n == 5 && fabs(sp.mean - 3) < 1e-12 && fabs(sp.sd - 1.58114) < 1e-5 &&
			  fabs(sp.ci95 - 2.776 * 1.58114 / sqrt(5)) < 1e-4,
		      "spread of 1..5: mean %.3f, sd %.5f, 95 %% +-%.4f", sp.mean, sp.sd, sp.ci95);
		nb_mlr_spread(v, 1, &sp);
		CHECK(sp.n == 1 && sp.mean == 1 && isnan(sp.sd) && isnan(sp.ci95),
		      "one search: mean only, interval not established");
		CHECK(nb_mlr_t975(1) == 12.706 && nb_mlr_t975(30) == 2.042 &&
			  fabs(nb_mlr_t975(1000) - 1.962) < 0.001,
		      "t quantiles: 12.706 (1 df), 2.042 (30), 1.962 (1000)");
	}

	/* 9. The procedure: final trials have the final length, the others the run's; --repeat 5
	 * on a noisy DUT gives each ratio 5 results, their mean and a 95 %% interval. */
	{
		static struct proc_sim ps;
		static struct nb_rate_size s;
		memset(&ps, 0, sizeof(ps));
		ps.d = (struct sim){.cap = 123457, .gen_max = 1e9, .seed = 6};
		int ret = proc_run(&ps, 1, 5000000000ULL, &s);
		CHECK(ret == 0 && s.nratios == 2 && s.nrepeat == 1, "ndrpdr procedure runs");
		CHECK(ps.finals >= 1 && ps.final_ns_seen == 5000000000ULL && ps.search_ns_seen == 0,
		      "its %u final trials ran 5 s, the search trials the run's trial time",
		      ps.finals);
		CHECK(s.fps == s.ratios[0].spread.mean && s.ratios[0].fps[0] <= 123457 &&
			  s.ratios[1].fps[0] >= s.ratios[0].fps[0] && s.verified &&
			  isnan(s.ratios[0].spread.ci95),
		      "one search: NDR %.0f, PDR %.0f, no interval", s.ratios[0].fps[0],
		      s.ratios[1].fps[0]);
		memset(&ps, 0, sizeof(ps));
		ps.d = (struct sim){.cap = 123457, .noise = 0.02, .gen_max = 1e9, .seed = 7};
		ret = proc_run(&ps, 5, 0, &s);
		CHECK(ret == 0 && s.nrepeat == 5 && s.ratios[0].spread.n == 5 &&
			  s.ratios[0].spread.ci95 > 0 && s.ratios[0].spread.mean > 123457 * 0.97 &&
			  s.ratios[0].spread.mean < 123457 * 1.02,
		      "--repeat 5 on a noisy DUT: NDR mean %.0f +- %.0f (95 %%, 4 df)",
		      s.ratios[0].spread.mean, s.ratios[0].spread.ci95);
		memset(&ps, 0, sizeof(ps));
		ps.d = (struct sim){.cap = 123457, .gen_max = 1e9, .seed = 8};
		ps.invalid_from = 3;
		ret = proc_run(&ps, 3, 0, &s);
		CHECK(ret == 0 && s.failed && s.nrepeat == 0,
		      "three invalid trials in a row: the size failed, no result");
	}
	/* 10. The sentences, known answers. */
	{
		static struct nb_rate_params p;
		static struct nb_rate_size s;
		static const double five[5] = {19650, 19800, 19890, 20000, 20110};
		char buf[320];
		memset(&p, 0, sizeof(p));
		memset(&s, 0, sizeof(s));
		p.trial_ns = 1000000000ULL;
		p.final_trial_ns = 10000000000ULL;
		s.nratios = 3;
		s.nrepeat = 1;
		s.ratios[0].ratio = 0;
		s.ratios[0].fps[0] = 19890;
		s.ratios[0].verified_n = 1;
		nb_mlr_spread(s.ratios[0].fps, 1, &s.ratios[0].spread);
		nb_rate_ratio_wording(&p, &s, 0, buf, sizeof(buf));
		CHECK(!strcmp(buf,
			      "NDR (0 % loss): 19890 fps from one search, verified (final trial "
			      "10 s); its spread is not established: repeat the search "
			      "(--repeat 3 or more)"),
		      "one search: %s", buf);
		s.ratios[1].ratio = 0.005;
		s.ratios[1].fps[0] = 20000;
		s.ratios[1].at_max_n = 1;
		nb_mlr_spread(s.ratios[1].fps, 1, &s.ratios[1].spread);
		nb_rate_ratio_wording(&p, &s, 1, buf, sizeof(buf));
		CHECK(!strcmp(buf,
			      "PDR (0.5 % loss): 20000 fps from one search, NOT verified (final "
			      "trial 10 s), the maximum passed (the DUT was not saturated); its "
			      "spread is not established: repeat the search (--repeat 3 or "
			      "more)"),
		      "at the maximum, unverified: %s", buf);
		s.ratios[2].ratio = 0.02;
		s.ratios[2].zero_n = 1;
		nb_rate_ratio_wording(&p, &s, 2, buf, sizeof(buf));
		CHECK(!strcmp(buf, "loss <= 2 %: 0 fps: lost more at every rate down to 1000 fps "
				   "(1 search)"),
		      "nothing passed: %s", buf);
		/* mean 19890; deviations -240 -90 0 110 220: sd sqrt(126200 / 4) = 177.62;
		 * 2.776 x 177.62 / sqrt 5 = 220.5 */
		s.nrepeat = 5;
		memcpy(s.ratios[0].fps, five, sizeof(five));
		s.ratios[0].verified_n = 4;
		nb_mlr_spread(s.ratios[0].fps, 5, &s.ratios[0].spread);
		nb_rate_ratio_wording(&p, &s, 0, buf, sizeof(buf));
		CHECK(!strcmp(buf, "NDR (0 % loss): 19890 fps, mean of 5 searches (4 verified by a "
				   "final trial of 10 s), 95 % interval +-221 fps (t, 4 degrees of "
				   "freedom), range 19650 to 20110"),
		      "five searches: %s", buf);
	}
	return tap_done();
}
