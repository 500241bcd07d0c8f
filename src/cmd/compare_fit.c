/* SPDX-License-Identifier: BSD-2-Clause */
/* compare --fit 'METRIC ~ FACTOR + ...': per step of a view (a frame size, a block size and
 * direction, ...), a log-log fit of the metric against numeric tags (or the platform's cpu_mhz)
 * across the chosen results, with the sentence that says what the metric follows. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/compare_fit.h"
#include "core/store/fit.h"

static const struct {
	const char *metric, *view, *says;
} metrics[] = {
    {"fps", "rate.fps", "frames/s"},	      {"kbyte_per_s", "tput.kbyte", "KByte/s"},
    {"mbyte_per_s", "crypto.mbyte", "MB/s"}, {"ns_per_load", "mem.latency", "latency"},
    {"cpu_pct", "stream.cpu", "receiver CPU"},
};

static double factor(const struct loaded *l, const char *name)
{
	const struct nb_store_row *r = l->row;
	for (size_t i = 0; i < r->ntags; i++)
		if (!strcmp(r->tags[i].key, name)) {
			char *end;
			double v = strtod(r->tags[i].value, &end);
			return *end || end == r->tags[i].value ? NAN : v;
		}
	if (!strcmp(name, "cpu_mhz"))
		return r->cpu_mhz;
	return NAN;
}

static const struct nb_view *find_view(const struct loaded *l, const char *id)
{
	for (size_t v = 0; v < l->nviews; v++)
		if (!strcmp(l->views[v].id, id))
			return &l->views[v];
	return NULL;
}

/* The reference: a CPU-bound probe tagged alike shows what "scales with the core" looks like on
 * this board, as `openssl speed` did for seed 000's user. crypto: the software engine's MB/s at
 * its largest request size; mem: loads per microsecond at the smallest working set (L1). */
static void reference(const struct loaded *l, size_t n, int k,
		      char fac[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX], const char *const *names,
		      double *y, double *const *xs)
{
	static const struct {
		const char *view, *series, *says;
		bool largest, invert;
	} probes[] = {
	    {"crypto.mbyte", "soft", "software crypto MB/s", true, false},
	    {"mem.latency", "ns per load", "L1 loads/s", false, true},
	};
	for (size_t pr = 0; pr < sizeof(probes) / sizeof(probes[0]); pr++) {
		size_t runs = 0;
		for (size_t i = 0; i < n; i++) {
			const struct nb_view *v = find_view(&l[i], probes[pr].view);
			bool all = v != NULL;
			for (int j = 0; j < k && all; j++)
				all = isfinite(factor(&l[i], fac[j]));
			for (size_t s = 0; all && s < v->nseries; s++) {
				const struct nb_series *se = &v->s[s];
				if (strcmp(se->name, probes[pr].series) || !se->n)
					continue;
				size_t best = 0;
				for (size_t p = 1; p < se->n; p++)
					if (probes[pr].largest ? se->x[p] > se->x[best]
							       : se->x[p] < se->x[best])
						best = p;
				y[runs] = probes[pr].invert ? 1e3 / se->y[best] : se->y[best];
				for (int j = 0; j < k; j++)
					xs[j][runs] = factor(&l[i], fac[j]);
				runs++;
				break;
			}
		}
		if (!runs)
			continue;
		struct nb_fit f;
		char why[256], sentence[400];
		printf("  reference, CPU-bound (%s): ", probes[pr].says);
		if (nb_fit_loglog(y, (const double *const *)xs, (size_t)k, runs, names, &f, why,
				  sizeof(why))) {
			printf("no fit: %s\n", why);
			continue;
		}
		nb_fit_sentence(&f, probes[pr].says, names, sentence, sizeof(sentence));
		printf("%s; %zu runs\n", sentence, runs);
	}
}

int compare_fit(const char *formula, const struct loaded *l, size_t n)
{
	char metric[NB_FIT_NAME_MAX], fac[NB_FIT_MAX_FACTORS][NB_FIT_NAME_MAX], why[256];
	const char *names[NB_FIT_MAX_FACTORS];
	int k = nb_fit_formula(formula, metric, fac, why, sizeof(why));
	size_t m, steps = 0, fitted = 0, left_out = 0;

	if (k < 0)
		cli_usage_error("--fit: %s", why);
	for (m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++)
		if (!strcmp(metrics[m].metric, metric))
			break;
	if (m == sizeof(metrics) / sizeof(metrics[0]))
		cli_usage_error("--fit: '%s' is not a metric that can be fitted (accepted: fps, "
				"kbyte_per_s, mbyte_per_s, ns_per_load, cpu_pct)",
				metric);
	for (int j = 0; j < k; j++)
		names[j] = fac[j];
	double *y = calloc(n + 1, sizeof(*y)), *xs[NB_FIT_MAX_FACTORS];
	for (int j = 0; j < k; j++)
		xs[j] = calloc(n + 1, sizeof(double));
	if (!y)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		bool all = find_view(&l[i], metrics[m].view) != NULL;
		for (int j = 0; j < k && all; j++)
			all = isfinite(factor(&l[i], fac[j]));
		left_out += find_view(&l[i], metrics[m].view) && !all;
	}
	printf("fit %s ~ %s", metric, fac[0]);
	for (int j = 1; j < k; j++)
		printf(" + %s", fac[j]);
	printf(": log-log least squares, %s = C x %s^e%s; exponent +- its standard error\n",
	       metric, fac[0], k > 1 ? " x ..." : "");
	/* Each step: a series name and an x value, in the order the first result has them. */
	for (size_t i = 0; i < n; i++) {
		const struct nb_view *v0 = find_view(&l[i], metrics[m].view);
		if (!v0)
			continue;
		for (size_t s = 0; s < v0->nseries; s++) {
			if (v0->s[s].model)
				continue;
			for (size_t p = 0; p < v0->s[s].n; p++) {
				double x0 = v0->s[s].x[p];
				bool seen = false;
				for (size_t q = 0; q < i && !seen; q++) {
					const struct nb_view *vq = find_view(&l[q], metrics[m].view);
					for (size_t t = 0; vq && t < vq->nseries && !seen; t++)
						for (size_t r = 0; r < vq->s[t].n && !seen; r++)
							seen = !strcmp(vq->s[t].name, v0->s[s].name) &&
							       vq->s[t].x[r] == x0;
				}
				if (seen)
					continue;
				size_t runs = 0;
				for (size_t q = i; q < n; q++) {
					const struct nb_view *vq = find_view(&l[q], metrics[m].view);
					bool all = vq != NULL;
					for (int j = 0; j < k && all; j++)
						all = isfinite(factor(&l[q], fac[j]));
					for (size_t t = 0; all && t < vq->nseries; t++) {
						if (strcmp(vq->s[t].name, v0->s[s].name) || vq->s[t].model)
							continue;
						for (size_t r = 0; r < vq->s[t].n; r++)
							if (vq->s[t].x[r] == x0) {
								y[runs] = vq->s[t].y[r];
								for (int j = 0; j < k; j++)
									xs[j][runs] = factor(&l[q], fac[j]);
								runs++;
								break;
							}
					}
				}
				char xb[32], sentence[400];
				struct nb_fit f;
				nb_view_fmt_x(v0, x0, xb, sizeof(xb));
				steps++;
				printf("  %s at %s %s: ", v0->s[s].name, xb, v0->x_unit);
				if (nb_fit_loglog(y, (const double *const *)xs, (size_t)k, runs, names,
						  &f, why, sizeof(why))) {
					printf("no fit: %s\n", why);
					continue;
				}
				fitted++;
				nb_fit_sentence(&f, metrics[m].says, names, sentence,
						sizeof(sentence));
				printf("%s; %zu runs\n", sentence, runs);
			}
		}
	}
	if (left_out)
		printf("(%zu result%s without every factor as a numeric tag left out)\n", left_out,
		       left_out == 1 ? "" : "s");
	reference(l, n, k, fac, names, y, xs);
	free(y);
	for (int j = 0; j < k; j++)
		free(xs[j]);
	if (!steps)
		cli_fail(0, "--fit: no chosen result has %s (%s results)", metric, metrics[m].view);
	return fitted ? 0 : 1;
}
