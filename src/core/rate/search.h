/* SPDX-License-Identifier: BSD-2-Clause */
/* The RFC 2544 search procedures as pure logic, with no I/O: the caller runs each trial the
 * search asks for and reports what it counted. That is what lets a simulated DUT test them.
 * - throughput (§26.1): binary search for the highest rate whose loss is within a tolerance,
 *   then a verification trial at the result; also used for back-to-back burst lengths (§26.4);
 * - frame loss rate (§26.3): from the maximum down in steps of 10 % until two clean trials. */
#ifndef NB_SEARCH_H
#define NB_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

enum nb_search_phase {
	NB_SEARCH_FIRST,  /* one trial at the maximum */
	NB_SEARCH_BINARY, /* halving [pass, fail] */
	NB_SEARCH_VERIFY, /* a final trial at the result */
	NB_SEARCH_DONE,
};

struct nb_search {
	double max, min, resolution; /* in the searched unit (fps, or frames for b2b) */
	double tolerance;	     /* loss ratio accepted: 0 = no loss (NDR) */
	double lo, hi;		     /* highest passing, lowest failing */
	enum nb_search_phase phase;
	double result;
	bool verified;	   /* the result passed its verification trial */
	bool at_max;	   /* the maximum itself passed: the DUT was not saturated */
	bool max_measured; /* max was 0: the first trial ran flat out and measured it */
	bool gen_short;	   /* the generator could not offer the maximum asked */
	uint32_t trials, invalid_in_row, verify_failures;
	uint32_t short_in_row, short_trials; /* trials that offered < 99 % of the rate asked */
	int error;			     /* -EPROTO after repeated invalid trials */
};

/* max = 0: the first trial runs as fast as the generator goes and its offered rate becomes the
 * maximum. min: the lowest value worth trying (below it the answer is 0). resolution: the
 * search stops when pass and fail are this close. */
void nb_search_init(struct nb_search *s, double max, double min, double resolution,
		    double tolerance);
/* True with the value of the next trial (0 = flat out), false when the search is over. */
bool nb_search_next(const struct nb_search *s, double *x);
/* Reports the trial at x: what was offered (offered: the value actually achieved, e.g. frames
 * sent / trial time), sent and lost; valid false for a trial whose counts do not reconcile. */
void nb_search_report(struct nb_search *s, double x, double offered, uint64_t tx, uint64_t lost,
		      bool valid);

/* §26.3: the next rate of the loss curve, or false when done. Reports pass loss counts. */
struct nb_losscurve {
	double max, step;
	double next;
	uint32_t clean_in_row, trials;
};
void nb_losscurve_init(struct nb_losscurve *c, double max_fps);
bool nb_losscurve_next(const struct nb_losscurve *c, double *rate_fps);
void nb_losscurve_report(struct nb_losscurve *c, uint64_t lost);

#endif
