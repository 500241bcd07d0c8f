/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared search of several loss ratios. Every ratio's bounds are recomputed from the whole
 * trial log after each trial: upper is the lowest rate that lost more than the ratio, lower the
 * highest rate below it that did not (a pass above a fail counts for nothing: the DUT's
 * capacity varies, and the lower rate is the one to believe). Ratios are worked on in
 * increasing order: the strictest's trials already bound the laxer ones, which usually start
 * with a narrow interval; a ratio done is reopened when a later trial fails at or below its
 * result. A ratio is done when its bounds are within the resolution and a final
 * trial at its lower bound passed (it may be longer than the others: --final-trial); a final
 * trial that fails becomes an upper bound and the search goes on below it. */
#include "core/rate/mlr.h"

#include <stdio.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#define MAX_INVALID_IN_ROW   3
#define MAX_FINAL_FAILURES   3
#define MAX_TRIALS_PER_RATIO 40

int nb_mlr_init(struct nb_mlr *m, double max, double min, double resolution, const double *ratios,
		uint32_t n)
{
	memset(m, 0, sizeof(*m));
	if (!n || n > NB_MLR_MAX_RATIOS)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		if (ratios[i] < 0 || ratios[i] >= 1 || (i && ratios[i] <= ratios[i - 1]))
			return -EINVAL;
		m->r[i].ratio = ratios[i];
	}
	m->nratios = n;
	m->max = max;
	m->min = min;
	m->resolution = resolution > 0 ? resolution : 1;
	m->max_measured = max <= 0;
	return 0;
}

static bool passes(const struct nb_mlr_ratio *r, double loss)
{
	return r->ratio <= 0 ? loss <= 0 : loss <= r->ratio;
}

/* Bounds of ratio r from the log; verified when a final trial at the lower bound passed. */
static void bounds(const struct nb_mlr *m, struct nb_mlr_ratio *r)
{
	r->upper = 0;
	r->lower = 0;
	r->verified = false;
	for (uint32_t k = 0; k < m->ntrials; k++)
		if (!passes(r, m->t[k].loss) && (!r->upper || m->t[k].rate < r->upper))
			r->upper = m->t[k].rate;
	for (uint32_t k = 0; k < m->ntrials; k++)
		if (passes(r, m->t[k].loss) && (!r->upper || m->t[k].rate < r->upper) &&
		    m->t[k].rate > r->lower)
			r->lower = m->t[k].rate;
	/* (A final trial that offered within 1 % of the bound verifies it: a sender held up by
	 * a few frames must not keep the search going.) */
	for (uint32_t k = 0; k < m->ntrials; k++)
		if (m->t[k].final && passes(r, m->t[k].loss) && r->lower > 0 &&
		    m->t[k].rate >= 0.99 * r->lower)
			r->verified = true;
}

static double midpoint(const struct nb_mlr *m, const struct nb_mlr_ratio *r)
{
	double x = (r->lower + r->upper) / 2;
	return x < m->min ? m->min : x;
}

/* Whether ratio r is done, and its result. */
static void settle(struct nb_mlr *m, struct nb_mlr_ratio *r)
{
	bool narrow = r->upper && (r->upper - r->lower <= m->resolution ||
				   midpoint(m, r) >= r->upper || midpoint(m, r) <= r->lower);
	r->at_max = !r->upper && r->lower > 0;
	r->zero = r->upper && r->upper <= m->min && r->lower <= 0;
	if (r->zero) {
		r->done = true;
		r->result = 0;
		return;
	}
	if ((r->at_max || narrow) && r->lower > 0 && r->verified) {
		r->done = true;
		r->result = r->lower;
		return;
	}
	if (r->final_failures >= MAX_FINAL_FAILURES ||
	    m->ntrials >= MAX_TRIALS_PER_RATIO * m->nratios || m->ntrials >= NB_MLR_MAX_TRIALS) {
		/* Out of patience: the best lower bound, not verified. */
		r->done = true;
		r->result = r->lower;
		return;
	}
	r->done = false;
}

bool nb_mlr_next(const struct nb_mlr *m, double *rate, bool *final, uint32_t *ratio)
{
	if (m->error)
		return false;
	if (!m->ntrials) {
		*rate = m->max_measured ? 0 : m->max;
		*final = false;
		*ratio = 0;
		return true;
	}
	for (uint32_t i = 0; i < m->nratios; i++) {
		const struct nb_mlr_ratio *r = &m->r[i];
		bool narrow;
		if (r->done)
			continue;
		*ratio = i;
		narrow = !r->upper || r->upper - r->lower <= m->resolution ||
			 midpoint(m, r) >= r->upper || midpoint(m, r) <= r->lower;
		if (narrow && r->lower > 0) {
			*rate = r->lower;
			*final = true;
		} else {
			*rate = midpoint(m, r);
			*final = false;
		}
		return true;
	}
	return false;
}

void nb_mlr_report(struct nb_mlr *m, double rate, double offered, uint64_t tx, uint64_t lost,
		   bool valid, bool final)
{
	struct nb_mlr_trial *t;
	bool first = !m->ntrials;

	if (!valid) {
		if (++m->invalid_in_row >= MAX_INVALID_IN_ROW)
			m->error = -EPROTO;
		return;
	}
	m->invalid_in_row = 0;
	if (m->ntrials >= NB_MLR_MAX_TRIALS)
		return;
	if (first) {
		/* Flat out, or short of the asked maximum: nothing above what was offered can be
		 * tested. */
		if (m->max_measured) {
			m->max = offered;
		} else if (offered > 0 && offered < 0.99 * rate) {
			m->gen_short = true;
			m->max = offered;
		}
		rate = m->max;
	} else if (offered > 0 && offered < rate) {
		rate = offered;
	}
	t = &m->t[m->ntrials++];
	t->rate = rate;
	t->loss = tx ? (double)lost / (double)tx : 1;
	t->final = final;
	/* Every ratio, also one already done: a later trial that fails at or below its result
	 * (the DUT's capacity varies) reopens it below. Bounds of all ratios come from the one
	 * log, so a laxer ratio's result is never below a stricter one's. */
	for (uint32_t i = 0; i < m->nratios; i++) {
		struct nb_mlr_ratio *r = &m->r[i];
		if (final && !passes(r, t->loss) && rate >= 0.99 * r->lower && r->lower > 0)
			r->final_failures++;
		bounds(m, r);
		settle(m, r);
	}
}

/* Student's t, two-sided 95 % (the 0.975 quantile), for 1 to 30 degrees of freedom; beyond,
 * the normal's 1.96 plus the first term of the expansion in 1/df. */
double nb_mlr_t975(uint32_t df)
{
	static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
				     2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
				     2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
				     2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
	if (df < 1)
		return NAN;
	if (df <= 30)
		return t[df - 1];
	return 1.95996 + 2.37227 / df;
}

void nb_mlr_spread(const double *v, uint32_t n, struct nb_mlr_spread *s)
{
	double sum = 0, ss = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->sd = s->ci95 = NAN;
	if (!n) {
		s->mean = s->min = s->max = NAN;
		return;
	}
	s->min = s->max = v[0];
	for (uint32_t i = 0; i < n; i++) {
		sum += v[i];
		s->min = v[i] < s->min ? v[i] : s->min;
		s->max = v[i] > s->max ? v[i] : s->max;
	}
	s->mean = sum / n;
	if (n < 2)
		return;
	for (uint32_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = sqrt(ss / (n - 1));
	s->ci95 = nb_mlr_t975(n - 1) * s->sd / sqrt((double)n);
}
