/* SPDX-License-Identifier: BSD-2-Clause */
/* Several loss ratios from one search (FD.io CSIT's MLRsearch idea): every trial, whatever ratio
 * it was run for, narrows the bounds of every ratio, so NDR (0 %) and PDR (0.5 %) share their
 * trials. Pure logic, no I/O: the caller runs the trials it asks for (rfc2544.c, or a simulated
 * DUT in tests/unit/t_mlr.c). */
#ifndef NB_MLR_H
#define NB_MLR_H

#include <stdbool.h>
#include <stdint.h>

#define NB_MLR_MAX_RATIOS 4
#define NB_MLR_MAX_TRIALS 256 /* per search; the search ends well before (40 per ratio) */
#define NB_MLR_MAX_REPEAT 32  /* searches whose results are summarised */

/* One trial as the search counts it: the rate it offered and its loss ratio. */
struct nb_mlr_trial {
	double rate, loss;
	bool final; /* a final trial (of the final duration) */
};

/* A ratio's state: its bounds come from all trials (a fail anywhere caps it, a pass below the
 * cap raises it), recomputed after every trial. */
struct nb_mlr_ratio {
	double ratio;	     /* loss ratio allowed (0.005 for 0.5 %) */
	double lower, upper; /* highest pass below the lowest fail; lowest fail (0: none) */
	bool done, verified, at_max, zero;
	uint32_t final_failures;
	double result; /* when done: the rate found (0 when zero) */
};

struct nb_mlr {
	double max, min, resolution; /* fps; max 0: the first trial runs flat out and sets it */
	bool max_measured, gen_short;
	uint32_t nratios;
	struct nb_mlr_ratio r[NB_MLR_MAX_RATIOS];
	struct nb_mlr_trial t[NB_MLR_MAX_TRIALS];
	uint32_t ntrials, invalid_in_row;
	int error; /* -EPROTO after three invalid trials in a row */
};

/* ratios: n (1 to NB_MLR_MAX_RATIOS) loss ratios in increasing order. -EINVAL otherwise. */
int nb_mlr_init(struct nb_mlr *m, double max, double min, double resolution, const double *ratios,
		uint32_t n);
/* The next trial: its rate (0: flat out), whether it is a final trial (at a ratio's result,
 * before the result counts), and the ratio it is run for. False when every ratio is done. */
bool nb_mlr_next(const struct nb_mlr *m, double *rate, bool *final, uint32_t *ratio);
/* Reports the trial asked at rate: what it offered (the search never credits a rate that was
 * not offered), sent and lost frames; valid false for counts that do not reconcile. */
void nb_mlr_report(struct nb_mlr *m, double rate, double offered, uint64_t tx, uint64_t lost,
		   bool valid, bool final);

/* Mean, sample standard deviation and the 95 % confidence interval's half width (Student's t,
 * n - 1 degrees of freedom) of n values; half width and sd are NAN below 2 values (not
 * established). */
struct nb_mlr_spread {
	uint32_t n;
	double mean, sd, ci95, min, max;
};
void nb_mlr_spread(const double *v, uint32_t n, struct nb_mlr_spread *s);
/* Student's t 0.975 quantile for df degrees of freedom (df >= 1). */
double nb_mlr_t975(uint32_t df);

#endif
