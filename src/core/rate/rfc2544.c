/* SPDX-License-Identifier: BSD-2-Clause */
/* The RFC 2544 procedures over a trial callback: which trials to run at one frame size and what
 * they add up to; and the verdict across sizes. No sockets, no clocks: see rfc2544.h. */
#include "core/rate/rfc2544.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/search.h"

const char *const nb_rate_test_names[NB_RATE_NTESTS] = {"throughput", "loss",  "b2b",
							"latency",    "trial", "ndrpdr"};
const char *const nb_rate_test_titles[NB_RATE_NTESTS] = {"throughput (RFC 2544 26.1)",
							 "frame loss rate (RFC 2544 26.3)",
							 "back-to-back (RFC 2544 26.4)",
							 "latency (RFC 2544 26.2)",
							 "single trial",
							 "NDR and PDR (one shared search)"};

int nb_rate_pacing(enum nb_pacing_mode asked, enum nb_rate_test test, uint32_t burst)
{
	switch (asked) {
	case NB_PACING_AUTO:
		return test == NB_RATE_LATENCY && !burst ? NB_PACING_SPIN : NB_PACING_BURST;
	case NB_PACING_SPIN:
	case NB_PACING_BURST:
		return asked;
	case NB_PACING_TXTIME:
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

double nb_rate_frame_bytes(const struct nb_rate_params *p, uint32_t size)
{
	return p->mix ? p->mix->mean_bytes : (double)size;
}

double nb_rate_line_fps(const struct nb_rate_params *p, uint32_t size)
{
	return p->line_bps ? (double)p->line_bps /
				 ((nb_rate_frame_bytes(p, size) + NB_RATE_ETH_OVERHEAD_B) * 8.0)
			   : 0;
}

double nb_rate_asked_fps(const struct nb_rate_params *p, uint32_t size)
{
	if (p->rate_fps)
		return (double)p->rate_fps;
	if (p->rate_bps)
		return (double)p->rate_bps / (nb_rate_frame_bytes(p, size) * 8.0);
	if (p->rate_line_pct > 0)
		return nb_rate_line_fps(p, size) * p->rate_line_pct / 100;
	return 0;
}

double nb_rate_max_fps(const struct nb_rate_params *p, uint32_t size)
{
	double line = nb_rate_line_fps(p, size), asked = nb_rate_asked_fps(p, size);
	if (asked > 0 && (!line || asked < line))
		return asked;
	return line;
}

bool nb_rate_max_is_asked(const struct nb_rate_params *p, uint32_t size)
{
	double asked = nb_rate_asked_fps(p, size);
	return asked > 0 && nb_rate_max_fps(p, size) == asked;
}

double nb_rate_line_pct(const struct nb_rate_params *p, uint32_t size, double fps)
{
	return 100 * fps * (nb_rate_frame_bytes(p, size) + NB_RATE_ETH_OVERHEAD_B) * 8 /
	       (double)p->line_bps;
}

static double resolution_for(const struct nb_rate_params *p, double max)
{
	return p->resolution_fps ? (double)p->resolution_fps : max * p->resolution_pct / 100;
}

/* Runs one trial (of duration_ns, 0: the run's trial time) into a new record of the log; *out
 * points at it until the next trial. */
static int trial_of(struct nb_rate_proc *pr, uint32_t size, double rate_fps, uint64_t frames,
		    uint64_t duration_ns, uint32_t burst, const char *purpose,
		    struct nb_rate_trial **out, char *err, size_t errlen)
{
	struct nb_rate_trial_req q = {.size = size,
				      .rate_fps = rate_fps,
				      .frames = frames,
				      .duration_ns = duration_ns,
				      .burst = burst,
				      .purpose = purpose};
	struct nb_rate_trial *rec;

	if (pr->ntrials == pr->cap) {
		size_t cap = pr->cap ? pr->cap * 2 : 64;
		struct nb_rate_trial *t = realloc(pr->trials, cap * sizeof(*t));
		if (!t) {
			snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
			return -ENOMEM;
		}
		pr->trials = t;
		pr->cap = cap;
	}
	if (++pr->next_id == 0)
		pr->next_id = 1;
	q.id = pr->next_id;
	rec = &pr->trials[pr->ntrials];
	memset(rec, 0, sizeof(*rec));
	rec->size = size;
	rec->id = q.id;
	rec->purpose = purpose;
	rec->asked_fps = rate_fps;
	rec->asked_frames = frames;
	*out = rec;
	pr->ntrials++;
	return pr->trial(pr->ctx, &q, rec, err, errlen);
}

static int trial(struct nb_rate_proc *pr, uint32_t size, double rate_fps, uint64_t frames,
		 uint32_t burst, const char *purpose, struct nb_rate_trial **out, char *err,
		 size_t errlen)
{
	return trial_of(pr, size, rate_fps, frames, 0, burst, purpose, out, err, errlen);
}

static double loss_pct(const struct nb_rate_trial *t, double if_none)
{
	return t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx : if_none;
}

static void copy_latency(struct nb_rate_size *s, const struct nb_rate_trial *t)
{
	s->lat_valid = t->lat_valid;
	memcpy(s->lat_ns, t->lat_ns, sizeof(s->lat_ns));
}

static int do_throughput(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	const struct nb_rate_params *p = pr->p;
	struct nb_search se;
	double max = nb_rate_max_fps(p, s->size), x;
	struct nb_rate_trial *t = NULL;
	int ret;

	/* Resolution relative to an unknown maximum is fixed after the first trial. */
	nb_search_init(&se, max, NB_RATE_MIN_FPS, resolution_for(p, max), p->loss_tolerance);
	while (nb_search_next(&se, &x)) {
		const char *why = se.phase == NB_SEARCH_VERIFY ? "verify" : "search";
		ret = trial(pr, s->size, x, 0, p->burst, why, &t, err, errlen);
		if (ret)
			return ret;
		nb_search_report(&se, x, t->offered_fps, nb_rate_judged_tx(t),
				 nb_rate_judged_lost(t), nb_rate_judged_valid(t));
		if (se.trials == 1 && !p->resolution_fps)
			se.resolution = se.max * p->resolution_pct / 100;
		if (se.phase == NB_SEARCH_DONE && se.verified && nb_rate_judged_valid(t)) {
			s->loss_pct = loss_pct(t, 0);
			copy_latency(s, t);
		}
	}
	s->fps = se.result;
	s->verified = se.verified;
	s->at_max = se.at_max;
	s->gen_short = se.gen_short;
	s->zero = se.result <= 0 && !se.error;
	s->failed = se.error != 0;
	return 0;
}

/* The maximum to start from: --rate or the line rate, else one trial flat out measures what
 * the generator offers. */
static int flat_out_max(struct nb_rate_proc *pr, struct nb_rate_size *s, double *max, char *err,
			size_t errlen)
{
	struct nb_rate_trial *t;
	int ret;

	*max = nb_rate_max_fps(pr->p, s->size);
	if (*max > 0)
		return 0;
	ret = trial(pr, s->size, 0, 0, pr->p->burst, "measure maximum", &t, err, errlen);
	if (!ret)
		*max = t->offered_fps;
	return ret;
}

static int do_loss(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	struct nb_losscurve lc;
	struct nb_rate_trial *t;
	double x, max;
	int ret = flat_out_max(pr, s, &max, err, errlen);

	if (ret)
		return ret;
	nb_losscurve_init(&lc, max);
	while (nb_losscurve_next(&lc, &x)) {
		ret = trial(pr, s->size, x, 0, pr->p->burst, "loss curve", &t, err, errlen);
		if (ret)
			return ret;
		if (!nb_rate_judged_valid(t))
			continue; /* repeated at the same rate */
		if (lc.trials == 0)
			s->loss_pct = loss_pct(t, 100);
		nb_losscurve_report(&lc, nb_rate_step_lost(t));
	}
	s->fps = max;
	return 0;
}

static int do_b2b(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	const struct nb_rate_params *p = pr->p;
	double max, sum = 0, longest;
	uint32_t n = 0;
	int ret = flat_out_max(pr, s, &max, err, errlen);

	if (ret)
		return ret;
	/* The longest burst tried is one trial's worth of frames at the maximum rate. */
	longest = max * (double)p->trial_ns / 1e9;
	s->b2b_min = INFINITY;
	for (uint32_t rep = 0; rep < p->repeat; rep++) {
		struct nb_search se;
		double x;
		nb_search_init(&se, longest, 1, longest * 0.005 > 1 ? longest * 0.005 : 1, 0);
		while (nb_search_next(&se, &x)) {
			struct nb_rate_trial *t;
			ret = trial(pr, s->size, max, (uint64_t)(x + 0.5), 0, "burst", &t, err,
				    errlen);
			if (ret)
				return ret;
			/* With --bidir both directions sent the burst: judged by the worse. */
			nb_search_report(&se, x, x, nb_rate_judged_tx(t), nb_rate_judged_lost(t),
					 nb_rate_judged_valid(t));
		}
		if (se.error) {
			s->failed = true;
			break;
		}
		sum += se.result;
		n++;
		if (se.result < s->b2b_min)
			s->b2b_min = se.result;
		if (se.result > s->b2b_max)
			s->b2b_max = se.result;
		s->at_max = s->at_max || se.at_max;
	}
	s->b2b_avg = n ? sum / n : 0;
	s->fps = max;
	return 0;
}

static int do_latency(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	double rate;
	int ret = do_throughput(pr, s, err, errlen);

	rate = s->fps;
	if (ret || rate <= 0 || s->failed)
		return ret;
	s->lat_valid = false;
	/* Latency is measured at the throughput rate (26.2), over --repeat trials; the reported
	 * percentiles come from the last one, the JSON carries each. */
	for (uint32_t i = 0; i < pr->p->repeat; i++) {
		struct nb_rate_trial *t;
		ret = trial(pr, s->size, rate, 0, pr->p->burst, "latency", &t, err, errlen);
		if (ret)
			return ret;
		if (t->lat_valid)
			copy_latency(s, t);
		if (t->rev.on && t->rev.lat_valid) {
			s->rev_lat_valid = true;
			memcpy(s->rev_lat_ns, t->rev.lat_ns, sizeof(s->rev_lat_ns));
		} else if (t->rev.on && !s->rev_lat_valid) {
			snprintf(s->rev_lat_why, sizeof(s->rev_lat_why), "%s", t->rev.lat_why);
		}
	}
	return 0;
}

static int do_single(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	const struct nb_rate_params *p = pr->p;
	struct nb_rate_trial *t;
	double asked = nb_rate_asked_fps(p, s->size);
	int ret = trial(pr, s->size, asked, 0, p->burst, "trial", &t, err, errlen);

	if (ret)
		return ret;
	s->fps = t->offered_fps;
	s->loss_pct = loss_pct(t, 0);
	s->failed = !nb_rate_judged_valid(t);
	s->gen_short = asked > 0 && t->offered_fps < 0.99 * asked;
	copy_latency(s, t);
	return 0;
}

/* One shared search of every loss ratio (mlr.h), --repeat times; per ratio the rate of each
 * search and their spread. The first ratio's mean is the size's fps (the table, the verdict). */
static int do_ndrpdr(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	const struct nb_rate_params *p = pr->p;
	double max = nb_rate_max_fps(p, s->size);
	uint32_t reps = p->repeat < 1			? 1
			: p->repeat > NB_MLR_MAX_REPEAT ? NB_MLR_MAX_REPEAT
							: p->repeat;
	struct nb_mlr *m = malloc(sizeof(*m));
	int ret = 0;

	if (!m) {
		snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	s->nratios = p->nratios;
	for (uint32_t i = 0; i < p->nratios; i++)
		s->ratios[i].ratio = p->loss_ratios[i];
	for (uint32_t rep = 0; rep < reps && !ret && !s->failed; rep++) {
		double x;
		bool final;
		uint32_t which;
		if (nb_mlr_init(m, max, NB_RATE_MIN_FPS, resolution_for(p, max), p->loss_ratios,
				p->nratios)) {
			snprintf(err, errlen,
				 "loss ratios must increase, each from 0 to below 100 %%");
			ret = -EINVAL;
			break;
		}
		while (nb_mlr_next(m, &x, &final, &which)) {
			struct nb_rate_trial *t;
			ret = trial_of(pr, s->size, x, 0, final ? p->final_trial_ns : 0, p->burst,
				       final ? "final" : "search", &t, err, errlen);
			if (ret)
				break;
			nb_mlr_report(m, x, t->offered_fps, nb_rate_judged_tx(t),
				      nb_rate_judged_lost(t), nb_rate_judged_valid(t), final);
			if (m->ntrials == 1 && !p->resolution_fps)
				m->resolution = m->max * p->resolution_pct / 100;
			if (final && nb_rate_judged_valid(t) && which == 0 && t->c.tx)
				copy_latency(s, t);
		}
		if (ret)
			break;
		if (m->error) {
			s->failed = true;
			break;
		}
		s->gen_short = s->gen_short || m->gen_short;
		for (uint32_t i = 0; i < p->nratios; i++) {
			struct nb_rate_ratio_res *rr = &s->ratios[i];
			rr->fps[rep] = m->r[i].result;
			rr->verified[rep] = m->r[i].verified;
			rr->verified_n += m->r[i].verified;
			rr->at_max_n += m->r[i].at_max;
			rr->zero_n += m->r[i].zero;
		}
		s->nrepeat = rep + 1;
	}
	free(m);
	for (uint32_t i = 0; i < p->nratios; i++)
		nb_mlr_spread(s->ratios[i].fps, s->nrepeat, &s->ratios[i].spread);
	if (s->nrepeat) {
		const struct nb_rate_ratio_res *r0 = &s->ratios[0];
		s->fps = r0->spread.mean;
		s->verified = r0->verified_n == s->nrepeat;
		s->at_max = r0->at_max_n == s->nrepeat;
		s->zero = r0->zero_n == s->nrepeat;
	}
	return ret;
}

int nb_rate_procedure(struct nb_rate_proc *pr, struct nb_rate_size *s, char *err, size_t errlen)
{
	int ret = -EINVAL;

	s->first_trial = pr->ntrials;
	switch (pr->p->test) {
	case NB_RATE_THROUGHPUT:
		ret = do_throughput(pr, s, err, errlen);
		break;
	case NB_RATE_LOSS:
		ret = do_loss(pr, s, err, errlen);
		break;
	case NB_RATE_B2B:
		ret = do_b2b(pr, s, err, errlen);
		break;
	case NB_RATE_LATENCY:
		ret = do_latency(pr, s, err, errlen);
		break;
	case NB_RATE_TRIAL:
		ret = do_single(pr, s, err, errlen);
		break;
	case NB_RATE_NDRPDR:
		ret = do_ndrpdr(pr, s, err, errlen);
		break;
	}
	s->ntrials = pr->ntrials - s->first_trial;
	return ret;
}

void nb_rate_proc_free(struct nb_rate_proc *pr)
{
	free(pr->trials);
	pr->trials = NULL;
	pr->ntrials = pr->cap = 0;
}

int nb_rate_status(const struct nb_rate_params *p, const struct nb_rate_size *s)
{
	/* A search whose generator fell short still has a result below what it offered; a
	 * single trial that fell short did not do what was asked. */
	return s->failed || s->zero || (p->test == NB_RATE_TRIAL && s->gen_short);
}

bool nb_rate_receiver_limited(const struct nb_rate_trial *trials, const struct nb_rate_size *s)
{
	for (size_t k = s->first_trial; k < s->first_trial + s->ntrials; k++)
		if (trials[k].rx_dropped)
			return true;
	return false;
}

bool nb_rate_has_verdict(enum nb_rate_test t)
{
	return t != NB_RATE_TRIAL && t != NB_RATE_LOSS;
}
