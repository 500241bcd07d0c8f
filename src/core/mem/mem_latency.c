/* SPDX-License-Identifier: BSD-2-Clause */
/* Load latency: a chain of cache lines where each line holds the address of the next, followed
 * with dependent loads so that no two are in flight at once; and the search for the steps of the
 * resulting latency-by-working-set curve, which are the cache sizes. */
#include "core/mem/mem_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "core/base/timeutil.h"

/* Seen by no one, written by every probe: the end of each chain is stored here so the loads
 * that produced it are live. */
static void *volatile chain_sink;

size_t nb_mem_sweep_sizes(uint64_t min_bytes, uint64_t max_bytes, bool quick, uint64_t *sizes,
			  size_t cap)
{
	size_t n = 0;

	if (!cap || min_bytes > max_bytes)
		return 0;
	sizes[n++] = min_bytes;
	for (uint64_t p = 512; p <= max_bytes && n < cap; p *= 2) {
		uint64_t cand[2] = {p, p + p / 2};
		for (int k = 0; k < (quick ? 1 : 2) && n < cap; k++)
			if (cand[k] > sizes[n - 1] && cand[k] < max_bytes)
				sizes[n++] = cand[k];
	}
	if (max_bytes > sizes[n - 1]) {
		if (n == cap)
			n--; /* the largest set is the one that must be there: memory latency */
		sizes[n++] = max_bytes;
	}
	return n;
}

/* xorshift64*: fast, seedable, good enough to scatter lines. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

int nb_mem_chain_build_c(void *buf, size_t n, size_t line_bytes, enum nb_mem_pattern pattern,
			 uint32_t *idx, uint64_t seed, const nb_cancel_t *cancel)
{
	char *base = buf;
	uint64_t s = seed ? seed : 0x9e3779b97f4a7c15ULL;
	const size_t every = NB_MEM_CANCEL_LINES - 1;

	if (!n)
		return 0;
	/* idx is fresh memory: these first writes fault its pages in, which takes a while on
	 * some machines, so they look at the flag too. */
	for (size_t i = 0; i < n; i++) {
		idx[i] = (uint32_t)((i + 1) % n);
		if ((i & every) == every && nb_mem_cancelled(cancel))
			return -ECANCELED;
	}
	if (pattern == NB_MEM_RANDOM) {
		/* Sattolo's algorithm: swapping only with strictly lower positions yields a
		 * uniformly random permutation that is one cycle through all n lines, so the chase
		 * visits every line before it repeats and no short loop stays in a cache. */
		for (size_t i = 0; i < n; i++)
			idx[i] = (uint32_t)i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)(rng_next(&s) % i);
			uint32_t t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
			/* Random stores over a large set: the slowest loop of a point. */
			if ((i & every) == 0 && nb_mem_cancelled(cancel))
				return -ECANCELED;
		}
	}
	for (size_t i = 0; i < n; i++) {
		*(void **)(base + i * line_bytes) = base + (size_t)idx[i] * line_bytes;
		if ((i & every) == every && nb_mem_cancelled(cancel))
			return -ECANCELED;
	}
	return 0;
}

void nb_mem_chain_build(void *buf, size_t n, size_t line_bytes, enum nb_mem_pattern pattern,
			uint32_t *idx, uint64_t seed)
{
	nb_mem_chain_build_c(buf, n, line_bytes, pattern, idx, seed, NULL);
}

int nb_mem_fill(void *p, int byte, uint64_t bytes, const nb_cancel_t *cancel)
{
	for (uint64_t off = 0; off < bytes; off += NB_MEM_CANCEL_BYTES) {
		uint64_t len =
		    bytes - off < NB_MEM_CANCEL_BYTES ? bytes - off : NB_MEM_CANCEL_BYTES;
		if (nb_mem_cancelled(cancel))
			return -ECANCELED;
		memset((char *)p + off, byte, (size_t)len);
	}
	return 0;
}

void *nb_mem_chase(void *p, uint64_t loads)
{
	void **q = p;

	/* 16 loads per iteration: the counter's cost hides behind the loads it waits on. */
	for (uint64_t i = loads / 16; i; i--) {
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
		q = (void **)*q;
	}
	return q;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double nb_mem_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void *nb_mem_alloc(size_t bytes, bool *huge)
{
	const size_t huge_bytes = 2u << 20;
	size_t align = bytes >= huge_bytes ? huge_bytes : 4096;
	void *p = NULL;

	if (huge)
		*huge = false;
	if (posix_memalign(&p, align, bytes ? bytes : 1))
		return NULL;
#ifdef MADV_HUGEPAGE
	/* Huge pages take the TLB out of the curve (a 4 KiB-page TLB miss adds its own steps that
	 * look like caches); the kernel's own packet buffers sit in its huge-page direct map. */
	if (bytes >= huge_bytes && madvise(p, bytes, MADV_HUGEPAGE) == 0 && huge)
		*huge = true;
#endif
	return p;
}

long nb_mem_preemptions(void)
{
#ifdef RUSAGE_THREAD
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		return ru.ru_nivcsw;
#endif
	return -1;
}

static uint64_t time_chase(void **p, uint64_t loads)
{
	uint64_t t0 = nb_mono_ns();
	*p = nb_mem_chase(*p, loads);
	uint64_t t1 = nb_mono_ns();
	NB_MEM_KEEP(*p);
	return t1 - t0;
}

int nb_mem_latency_point(void *buf, uint32_t *idx, uint64_t set_bytes, uint32_t line_bytes,
			 enum nb_mem_pattern pattern, uint64_t trial_ns, uint32_t trials,
			 struct nb_mem_lat_point *pt, const nb_cancel_t *cancel)
{
	size_t n = (size_t)(set_bytes / line_bytes);
	uint64_t loads = 1024;
	double clean[64], preempted[64];
	uint32_t nclean = 0, npre = 0;
	void *p = buf;

	if (!n || !trials || trials > 64)
		return -EINVAL;
	int ret = nb_mem_chain_build_c(buf, n, line_bytes, pattern, idx, set_bytes, cancel);
	if (ret)
		return ret;
	/* Calibration: grow the run until it lasts a trial. It also walks the chain once the
	 * caches have been filled by the build, so the trials start warm. */
	for (;;) {
		if (nb_mem_cancelled(cancel))
			return -ECANCELED;
		uint64_t ns = time_chase(&p, loads);
		if (ns >= trial_ns || loads >= (1ULL << 40))
			break;
		double f = ns ? 1.2 * (double)trial_ns / (double)ns : 16.0;
		f = f < 2.0 ? 2.0 : f > 16.0 ? 16.0 : f;
		loads = ((uint64_t)((double)loads * f) + 15) / 16 * 16;
	}
	/* A trial in which the thread was preempted measured someone else's time and came
	 * back to caches the other task had filled: it is set aside. Only when every trial
	 * was preempted (a fully loaded machine) are they all used, and the point says so. */
	for (uint32_t t = 0; t < trials; t++) {
		if (nb_mem_cancelled(cancel))
			return -ECANCELED;
		long before = nb_mem_preemptions();
		double v = (double)time_chase(&p, loads) / (double)loads;
		long after = nb_mem_preemptions();
		if (before >= 0 && after != before)
			preempted[npre++] = v;
		else
			clean[nclean++] = v;
	}
	chain_sink = p;
	pt->set_bytes = set_bytes;
	pt->loads_per_trial = loads;
	pt->trials_preempted = npre;
	if (!nclean) {
		memcpy(clean, preempted, npre * sizeof(*clean));
		nclean = npre;
	}
	pt->ns_per_load_median = nb_mem_median(clean, nclean);
	pt->ns_per_load = clean[0]; /* sorted by the median */
	pt->cycles_per_load = NAN;
	return 0;
}

/* A cache step is where latency rises fastest against working-set size. The steepness of an
 * interval is its elasticity, ln(ns ratio) / ln(size ratio), which does not depend on how
 * densely the sweep samples sizes: 1 means latency doubles as the set doubles. */
#define STEP_MIN_ELASTICITY 0.5 /* a doubling that adds less than 41 % is a ramp, not a step */
/* ...and the rise from the plateau below (the octave up to the step) to the level an octave
 * past it must be at least this: a TLB level or the edge of a victim cache adds less, and so
 * does noise on a flat curve. */
#define STEP_RATIO 1.5

size_t nb_mem_infer_steps(const uint64_t *sizes, const double *ns, size_t n,
			  struct nb_mem_step *steps, size_t cap)
{
	double e[NB_MEM_MAX_POINTS];
	size_t nsteps = 0;

	if (n > NB_MEM_MAX_POINTS)
		n = NB_MEM_MAX_POINTS;
	if (n < 2)
		return 0;
	for (size_t i = 0; i + 1 < n; i++) {
		if (!(ns[i] > 0) || !(ns[i + 1] > 0) || sizes[i + 1] <= sizes[i])
			return 0; /* not a curve: sizes must ascend, latencies be positive */
		e[i] = log(ns[i + 1] / ns[i]) / log((double)sizes[i + 1] / (double)sizes[i]);
	}
	for (size_t i = 0, floor = 0; i + 1 < n && nsteps < cap; i++) {
		bool peak = e[i] >= STEP_MIN_ELASTICITY;
		double below, above;
		size_t k, foot = i;

		/* Only the steepest interval within an octave either side counts: one step spread
		 * over two or three samples is still one step (ties go to the smaller size). */
		for (size_t j = 0; j + 1 < n && peak; j++) {
			if (j == i || sizes[j] * 2 < sizes[i] || sizes[j] > sizes[i] * 2)
				continue;
			if (e[j] > e[i] || (j < i && e[j] == e[i]))
				peak = false;
		}
		if (!peak)
			continue;
		/* The cache size is the foot of the rise: the largest set before latency began
		 * to climb steeply, not the middle of the climb. */
		while (foot > floor && e[foot - 1] >= STEP_MIN_ELASTICITY)
			foot--;
		below = ns[foot];
		for (k = foot; k-- > 0 && sizes[k] * 2 >= sizes[foot];)
			below = fmin(below, ns[k]);
		for (k = i + 1; k + 1 < n && sizes[k] < 2 * sizes[i + 1]; k++)
			;
		above = ns[k];
		if (above < below * STEP_RATIO)
			continue;
		steps[nsteps++] = (struct nb_mem_step){sizes[foot], below, above};
		floor = i + 1;
	}
	return nsteps;
}
