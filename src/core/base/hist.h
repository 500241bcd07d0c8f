/* SPDX-License-Identifier: BSD-2-Clause */
/* A fixed-size latency histogram: log-linear buckets (32 per power of two, so a percentile is
 * within about 3 % of the true value) from 1 ns to about 18 minutes, in 9.5 KB whatever the
 * number of samples: memory does not grow with the trial. */
#ifndef NB_HIST_H
#define NB_HIST_H

#include <stdint.h>

#define NB_HIST_SUB	32u
#define NB_HIST_BUCKETS 1216u

struct nb_hist {
	uint64_t count;
	uint64_t min_ns, max_ns; /* exact */
	uint64_t sum_ns;
	uint64_t bucket[NB_HIST_BUCKETS];
};

void nb_hist_reset(struct nb_hist *h);
void nb_hist_add(struct nb_hist *h, uint64_t v_ns);
void nb_hist_merge(struct nb_hist *into, const struct nb_hist *from);
/* The value below which a fraction q (0..1] of the samples lie, as the midpoint of its bucket,
 * clamped to [min, max]; 0 when empty. */
uint64_t nb_hist_quantile(const struct nb_hist *h, double q);
uint32_t nb_hist_index(uint64_t v_ns);
/* Lowest value of a bucket. */
uint64_t nb_hist_bucket_low(uint32_t idx);

#endif
