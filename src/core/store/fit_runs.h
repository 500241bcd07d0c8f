/* SPDX-License-Identifier: BSD-2-Clause */
/* compare --fit and report --fit: from stored results to fits. Each step of a view (a frame
 * size, a request size, a rule-sweep series) is fitted across the chosen results, one run per
 * result; a --sweep-rules result gives one run per swept point, with its rule count as the
 * factor "rules". Pure: results in, fits and their sentences out; the front end prints. */
#ifndef NB_FIT_RUNS_H
#define NB_FIT_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store/fit.h"
#include "core/store/store.h"
#include "core/store/views.h"

/* One stored result as a fit sees it: its tags and platform, and its views. */
struct nb_fit_source {
	const struct nb_store_row *row;
	const struct nb_view *views;
	size_t nviews;
};

/* One step's runs and fit. */
struct nb_fit_step {
	char name[96]; /* "fps at 128 bytes", "linear, 64 B" */
	char series[NB_SERIES_NAME_MAX];
	double x; /* the step's x in its view (not used for a sweep series) */
	bool sweep;
	size_t runs, cap;
	double *y, *x_of[NB_FIT_MAX_FACTORS]; /* per run: the metric, each factor */
	size_t *source;			      /* per run: the index of its result */
	int ret;			      /* 0: fitted; else -errno with why */
	char why[256];
	struct nb_fit fit;
	char sentence[1200];
};

struct nb_fit_set {
	char metric[NB_FIT_NAME_MAX];
	char factor[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX];
	const char *names[NB_FIT_MAX_FACTORS]; /* point into factor[] */
	size_t factors;
	bool linear;
	const char *says; /* the metric in words: "frames/s", "ns per frame" */
	struct nb_fit_step *step;
	size_t nsteps, fitted;
	size_t left_out; /* results with the metric but not every factor as a number */
	/* The CPU-bound reference probes (log-log only): software crypto, L1 loads. */
	struct nb_fit_step ref[2];
	const char *ref_says[2];
	size_t nref;
};

/* Parses formula, gathers the runs of every step and fits each. Returns 0; -EINVAL with why
 * when the formula or metric is wrong (a usage error); -ENOENT with why when no result has the
 * metric; -ENOMEM. out is filled on 0 and must be freed with nb_fit_set_free. */
int nb_fit_set_make(const char *formula, bool linear, const struct nb_fit_source *src, size_t n,
		    struct nb_fit_set *out, char *why, size_t whylen);
void nb_fit_set_free(struct nb_fit_set *s);

/* A factor's value for one result: a numeric tag, else the platform's cpu_mhz; NAN if none. */
double nb_fit_factor(const struct nb_store_row *row, const char *name);

#endif
