/* SPDX-License-Identifier: BSD-2-Clause */
/* The clock experiment's decisions (core/rate/clocks.c): after each clock, whether its point is
 * kept and whether the next clock runs; and the refusal without an observer to set the clock. */
#include <errno.h>
#include <string.h>

#include "core/rate/rate_run.h"
#include "tap.h"

static bool is(struct nb_rate_clock_next n, bool keep, bool more)
{
	return n.keep == keep && n.more == more;
}

int main(void)
{
	/* stopped, failed, have_freq, clock index, clocks */
	CHECK(is(nb_rate_clock_after(false, false, true, 0, 3), true, true),
	      "first of three clocks measured whole: kept, the next runs");
	CHECK(is(nb_rate_clock_after(false, false, true, 1, 3), true, true),
	      "second of three: kept, the next runs");
	CHECK(is(nb_rate_clock_after(false, false, true, 2, 3), true, false),
	      "the last clock: kept, the experiment ends");
	CHECK(is(nb_rate_clock_after(false, false, true, 0, 1), true, false),
	      "a single clock: kept, nothing more");
	CHECK(is(nb_rate_clock_after(true, false, true, 0, 3), false, false),
	      "stopped during the first clock: its point is dropped and nothing more runs");
	CHECK(is(nb_rate_clock_after(true, false, true, 1, 3), false, false),
	      "stopped during the second: dropped (the first stays kept), nothing more");
	CHECK(is(nb_rate_clock_after(false, true, true, 0, 3), false, false),
	      "a failed clock: dropped, the experiment ends");
	CHECK(is(nb_rate_clock_after(false, false, false, 0, 3), true, false),
	      "no cpufreq on the DUT: one point at the clock it has, kept; no other clock");
	CHECK(is(nb_rate_clock_after(true, false, false, 0, 3), false, false),
	      "no cpufreq and stopped: dropped");

	/* The driver refuses to run without an observer to set the clock, before any trial. */
	struct nb_rate_params p;
	struct nb_rate_run r;
	struct nb_rate_clock_point pt[2];
	struct nb_rate_clock_fits fits;
	const uint32_t mhz[2] = {400, 800};
	char err[256] = "";
	size_t np = 7;
	bool freq = false;
	memset(&p, 0, sizeof(p));
	memset(&r, 0, sizeof(r));
	r.p = &p;
	int ret = nb_rate_clocks(&r, mhz, 2, pt, &np, &freq, &fits, err, sizeof(err));
	CHECK(ret == -EINVAL && np == 0 && strstr(err, "--observe"),
	      "no observer: -EINVAL, no point, the error names --observe (%d, %zu, '%s')", ret, np,
	      err);
	CHECK(pt[0].res == NULL && pt[1].res == NULL, "no observer: nothing allocated");
	nb_rate_clocks_free(pt, 2);
	return tap_done();
}
