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

	run(8000000, 1000 * 8, 400, &err, &p50, &p99);
	CHECK(fabs(err) < 1.0, "8 Mbit/s, 1 ms spacing: rate error %.3f %% (< 1 %%)", err);
	CHECK(p50 < 20000, "8 Mbit/s: median gap deviation %llu ns (< 20 us)",
	      (unsigned long long)p50);
	printf("# 8 Mbit/s: p99 gap deviation %llu ns\n", (unsigned long long)p99);
	CHECK(p99 < 5000000, "8 Mbit/s: p99 gap deviation %llu ns (< 5 intervals)",
	      (unsigned long long)p99);

	run(64000, 64 * 8, 40, &err, &p50, &p99);
	CHECK(fabs(err) < 1.0, "64 kbit/s, 8 ms spacing: rate error %.3f %%", err);
	CHECK(p50 < 50000, "64 kbit/s: median gap deviation %llu ns", (unsigned long long)p50);

	run(800000000, 1000 * 8, 20000, &err, &p50, &p99);
	CHECK(fabs(err) < 1.0, "800 Mbit/s, 10 us spacing (spin only): rate error %.3f %%", err);
	return tap_done();
}
