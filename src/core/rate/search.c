/* SPDX-License-Identifier: BSD-2-Clause */
/* RFC 2544 search state machines. A trial passes when its loss ratio is within the tolerance;
 * a trial whose counters did not reconcile is repeated (three in a row end the search with
 * -EPROTO) rather than read as a pass or a fail. */
#include "core/rate/search.h"

#include <errno.h>
#include <string.h>

#define MAX_INVALID_IN_ROW  3
#define MAX_VERIFY_FAILURES 3
/* A sender that keeps offering less than asked slows convergence; the search stops here and
 * verifies the best rate found. */
#define MAX_TRIALS	 40
#define MAX_SHORT_IN_ROW 2

void nb_search_init(struct nb_search *s, double max, double min, double resolution,
		    double tolerance)
{
	memset(s, 0, sizeof(*s));
	s->max = max;
	s->min = min;
	s->resolution = resolution > 0 ? resolution : 1;
	s->tolerance = tolerance;
	s->max_measured = max <= 0;
	s->phase = NB_SEARCH_FIRST;
}

static double mid(const struct nb_search *s)
{
	double m = (s->lo + s->hi) / 2;
	return m < s->min ? s->min : m;
}

bool nb_search_next(const struct nb_search *s, double *x)
{
	switch (s->phase) {
	case NB_SEARCH_FIRST:
		*x = s->max_measured ? 0 : s->max;
		return true;
	case NB_SEARCH_BINARY:
		*x = mid(s);
		return true;
	case NB_SEARCH_VERIFY:
		*x = s->result;
		return true;
	default:
		return false;
	}
}

static bool passes(const struct nb_search *s, uint64_t tx, uint64_t lost)
{
	if (!tx)
		return false;
	if (s->tolerance <= 0)
		return lost == 0;
	return (double)lost / (double)tx <= s->tolerance;
}

/* Decides whether the binary phase is over and what comes next. */
static void settle(struct nb_search *s)
{
	if (s->hi - s->lo > s->resolution && s->hi > s->min && mid(s) < s->hi &&
	    s->trials < MAX_TRIALS)
		return;
	if (s->lo <= 0) {
		/* Nothing passed down to the lowest rate worth trying. */
		s->result = 0;
		s->phase = NB_SEARCH_DONE;
		return;
	}
	s->result = s->lo;
	s->phase = NB_SEARCH_VERIFY;
}

/* The first trial, at the maximum: a pass is verified, a failure starts the binary search
 * below it. */
static void first_trial(struct nb_search *s, double x, double offered, bool ok)
{
	if (s->max_measured) {
		s->max = offered;
	} else if (offered < 0.99 * x) {
		/* The generator fell short of the asked maximum: nothing above what it
		 * offered can be tested. */
		s->gen_short = true;
		s->max = offered;
	}
	x = s->max;
	if (ok) {
		s->at_max = true;
		s->lo = s->result = x;
		s->phase = NB_SEARCH_VERIFY;
	} else {
		s->lo = 0;
		s->hi = x;
		s->phase = NB_SEARCH_BINARY;
		settle(s);
	}
}

/* A trial of the binary search. A trial that offered less than asked only narrows the
 * interval when what it offered lies inside it. A failure at or below a pass means that pass
 * was luck (the DUT's capacity varies): the search then restarts below it. */
static void binary_trial(struct nb_search *s, double x, bool ok)
{
	if (ok && x > s->lo)
		s->lo = x;
	else if (!ok && x < s->hi)
		s->hi = x;
	if (s->lo >= s->hi)
		s->lo = 0;
	if (!ok && x <= s->min) {
		s->lo = 0;
		s->hi = x;
		s->result = 0;
		s->phase = NB_SEARCH_DONE;
		return;
	}
	settle(s);
}

/* The verification of a result: it holds, or the search goes on below it, a bounded number of
 * times. */
static void verify_trial(struct nb_search *s, double x, bool ok)
{
	if (ok) {
		s->result = x;
		s->verified = true;
		s->phase = NB_SEARCH_DONE;
		return;
	}
	/* The result did not hold: search again below it, a bounded number of times. */
	s->at_max = false;
	if (++s->verify_failures >= MAX_VERIFY_FAILURES) {
		s->phase = NB_SEARCH_DONE;
		return;
	}
	s->hi = x;
	s->lo = 0;
	s->phase = NB_SEARCH_BINARY;
	settle(s);
}

void nb_search_report(struct nb_search *s, double x, double offered, uint64_t tx, uint64_t lost,
		      bool valid)
{
	bool ok;

	s->trials++;
	if (!valid) {
		if (++s->invalid_in_row >= MAX_INVALID_IN_ROW) {
			s->error = -EPROTO;
			s->phase = NB_SEARCH_DONE;
		}
		return;
	}
	s->invalid_in_row = 0;
	ok = passes(s, tx, lost);
	/* A sender held up offers less than asked. Such a trial is repeated (twice at most);
	 * after that it counts as a trial at what it offered. */
	if (s->phase != NB_SEARCH_FIRST && offered > 0 && offered < 0.99 * x &&
	    s->short_in_row < MAX_SHORT_IN_ROW) {
		s->short_in_row++;
		s->short_trials++;
		return;
	}
	s->short_in_row = 0;
	if (s->phase != NB_SEARCH_FIRST && offered > 0 && offered < x)
		x = offered;
	switch (s->phase) {
	case NB_SEARCH_FIRST:
		first_trial(s, x, offered, ok);
		break;
	case NB_SEARCH_BINARY:
		binary_trial(s, x, ok);
		break;
	case NB_SEARCH_VERIFY:
		verify_trial(s, x, ok);
		break;
	default:
		break;
	}
}

void nb_losscurve_init(struct nb_losscurve *c, double max_fps)
{
	memset(c, 0, sizeof(*c));
	c->max = max_fps;
	c->step = max_fps / 10; /* RFC 2544 §26.3: steps of at most 10 % */
	c->next = max_fps;
}

bool nb_losscurve_next(const struct nb_losscurve *c, double *rate_fps)
{
	if (c->clean_in_row >= 2 || c->next < c->step / 2 || c->next <= 0)
		return false;
	*rate_fps = c->next;
	return true;
}

void nb_losscurve_report(struct nb_losscurve *c, uint64_t lost)
{
	c->trials++;
	c->clean_in_row = lost ? 0 : c->clean_in_row + 1;
	c->next -= c->step;
}
