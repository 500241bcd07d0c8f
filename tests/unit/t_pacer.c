/* Pacer: the schedule is absolute (no drift), and the achieved spacing is smooth. Timing checks
 * allow for a shared, loaded machine: the rate bound is strict (1 %), the tail is not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/pacer.h"
#include "core/timeutil.h"
#include "tap.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Runs n waits and reports rate error (%) and the p50/p99 absolute gap deviation (ns). */
static void run(uint64_t rate_bps, uint64_t bits, size_t n, double *err_pct, uint64_t *p50,
		uint64_t *p99)
{
	struct nb_pacer p;
	uint64_t *t = calloc(n, sizeof(*t)), *dev = calloc(n, sizeof(*dev));
	double ideal = (double)bits * 1e9 / (double)rate_bps;

	nb_pacer_init(&p, rate_bps, bits, nb_mono_ns() + NB_NS_PER_MS);
	for (size_t i = 0; i < n; i++) {
		nb_pacer_wait(&p);
		t[i] = nb_mono_ns();
	}
	*err_pct = ((double)(t[n - 1] - t[0]) / ((double)(n - 1) * ideal) - 1.0) * 100.0;
	for (size_t i = 1; i < n; i++)
		dev[i - 1] = (uint64_t)fabs((double)(t[i] - t[i - 1]) - ideal);
	qsort(dev, n - 1, sizeof(*dev), cmp_u64);
	*p50 = dev[(n - 1) / 2];
	*p99 = dev[(n - 1) * 99 / 100];
	free(t);
	free(dev);
}

/* Best of three: other jobs on the host can delay any one run, a broken pacer fails all. */
static void best_of_3(uint64_t rate_bps, uint64_t bits, size_t n, double *err_pct, uint64_t *p50,
		      uint64_t *p99)
{
	double e;
	uint64_t a, b;

	*err_pct = 1e9;
	*p50 = *p99 = UINT64_MAX;
	for (int i = 0; i < 3; i++) {
		run(rate_bps, bits, n, &e, &a, &b);
		if (fabs(e) < fabs(*err_pct))
			*err_pct = e;
		if (a < *p50)
			*p50 = a;
		if (b < *p99)
			*p99 = b;
		if (fabs(*err_pct) < 0.5 && *p50 < 5000)
			break;
	}
}

int main(void)
{
	struct nb_pacer p;
	double err;
	uint64_t p50, p99;

	nb_pacer_init(&p, 3000000, 8192 * 8, 1000);
	CHECK(nb_pacer_deadline(&p, 0) == 1000, "datagram 0 due at start");
	CHECK(nb_pacer_deadline(&p, 3) == 1000 + 65536000, "deadline k = start + k * bits / rate");
	CHECK(nb_pacer_deadline(&p, 3000000) == 1000 + 65536000000000ULL,
	      "no drift after three million datagrams");

	best_of_3(8000000, 1000 * 8, 400, &err, &p50, &p99);
	CHECK(fabs(err) < 1.0, "8 Mbit/s, 1 ms spacing: rate error %.3f %% (< 1 %%)", err);
	/* Quiet hosts see ~10 ns; the bound (10 % of the interval) still catches bursts. */
	CHECK(p50 < 100000, "8 Mbit/s: median gap deviation %llu ns (< 100 us)",
	      (unsigned long long)p50);
	printf("# 8 Mbit/s: p99 gap deviation %llu ns\n", (unsigned long long)p99);
	CHECK(p99 < 5000000, "8 Mbit/s: p99 gap deviation %llu ns (< 5 intervals)",
	      (unsigned long long)p99);

	/* A hold-up of 20 intervals: repaid at four times the rate, never in a burst. */
	{
		uint64_t t[300], min_gap = UINT64_MAX;
		nb_pacer_init(&p, 8000000, 1000 * 8, nb_mono_ns() + NB_NS_PER_MS);
		for (int i = 0; i < 300; i++) {
			if (i == 100)
				nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
			nb_pacer_wait(&p);
			t[i] = nb_mono_ns();
			if (i > 100 && t[i] - t[i - 1] < min_gap)
				min_gap = t[i] - t[i - 1];
		}
		err = ((double)(t[299] - t[0]) / (299 * 1e6) - 1.0) * 100.0;
		/* A quarter interval (250 us) less what a delayed timestamp may take off. */
		CHECK(min_gap >= 200000,
		      "after a hold-up, gaps stay >= a quarter interval (%llu ns)",
		      (unsigned long long)min_gap);
		CHECK(fabs(err) < 1.0, "... and the lag is repaid: rate error %.3f %%", err);
		CHECK(p.late_sends > 0 && p.max_late_ns >= 19 * NB_NS_PER_MS,
		      "the hold-up is recorded (%llu late, max %llu ns)",
		      (unsigned long long)p.late_sends, (unsigned long long)p.max_late_ns);
	}

	best_of_3(64000, 64 * 8, 40, &err, &p50, &p99);
	CHECK(fabs(err) < 1.0, "64 kbit/s, 8 ms spacing: rate error %.3f %%", err);
	CHECK(p50 < 800000, "64 kbit/s: median gap deviation %llu ns (< 800 us)",
	      (unsigned long long)p50);

	best_of_3(800000000, 1000 * 8, 20000, &err, &p50, &p99);
	CHECK(fabs(err) < 1.0, "800 Mbit/s, 10 us spacing (spin only): rate error %.3f %%", err);
	return tap_done();
}
