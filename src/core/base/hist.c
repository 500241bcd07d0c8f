/* SPDX-License-Identifier: BSD-2-Clause */
/* Log-linear latency histogram: bucket i < 32 holds value i; above, each power of two is split
 * into 32 equal buckets (HdrHistogram's layout with 5 significant bits). */
#include "core/base/hist.h"

#include <string.h>

void nb_hist_reset(struct nb_hist *h)
{
	memset(h, 0, sizeof(*h));
}

static int log2_u64(uint64_t v)
{
	int e = 0;
	while (v >>= 1)
		e++;
	return e;
}

uint32_t nb_hist_index(uint64_t v)
{
	int e;
	uint32_t idx;

	if (v < NB_HIST_SUB)
		return (uint32_t)v;
	e = log2_u64(v);
	idx = (uint32_t)(e - 4) * NB_HIST_SUB + (uint32_t)((v >> (e - 5)) & (NB_HIST_SUB - 1));
	return idx < NB_HIST_BUCKETS ? idx : NB_HIST_BUCKETS - 1;
}

uint64_t nb_hist_bucket_low(uint32_t idx)
{
	uint32_t e, sub;

	if (idx < NB_HIST_SUB)
		return idx;
	e = idx / NB_HIST_SUB + 4;
	sub = idx % NB_HIST_SUB;
	return (uint64_t)(NB_HIST_SUB + sub) << (e - 5);
}

void nb_hist_add(struct nb_hist *h, uint64_t v)
{
	if (!h->count || v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
	h->count++;
	h->sum_ns += v;
	h->bucket[nb_hist_index(v)]++;
}

void nb_hist_merge(struct nb_hist *into, const struct nb_hist *from)
{
	if (!from->count)
		return;
	if (!into->count || from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	into->count += from->count;
	into->sum_ns += from->sum_ns;
	for (uint32_t i = 0; i < NB_HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
}

uint64_t nb_hist_quantile(const struct nb_hist *h, double q)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	if (q >= 1.0)
		return h->max_ns;
	rank = (uint64_t)(q * (double)h->count);
	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank < 1)
		rank = 1;
	for (uint32_t i = 0; i < NB_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo = nb_hist_bucket_low(i);
			uint64_t hi = i + 1 < NB_HIST_BUCKETS ? nb_hist_bucket_low(i + 1) : lo;
			v = lo + (hi - lo) / 2;
			if (v < h->min_ns)
				v = h->min_ns;
			if (v > h->max_ns)
				v = h->max_ns;
			return v;
		}
	}
	return h->max_ns;
}
