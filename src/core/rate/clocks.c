/* SPDX-License-Identifier: BSD-2-Clause */
/* The clock experiment of `netbench rate --observe-clocks`: the DUT's observer sets each CPU
 * clock in turn, the procedure runs at every frame size, and frames/s is fitted against the
 * clock per size (conclude.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/rate_run.h"

struct nb_rate_clock_next nb_rate_clock_after(bool stopped, bool failed, bool have_freq, size_t c,
					      size_t nclocks)
{
	struct nb_rate_clock_next n = {.keep = !stopped && !failed, .more = false};
	/* Without cpufreq every clock asked would measure the same one: one point is the
	 * experiment, and the note says why. */
	if (n.keep && have_freq)
		n.more = c + 1 < nclocks;
	return n;
}

int nb_rate_clocks(struct nb_rate_run *r, const uint32_t *mhz, size_t nclocks,
		   struct nb_rate_clock_point *pt, size_t *np, bool *have_freq,
		   struct nb_rate_clock_fits *fits, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	struct nb_obs_set *set = p->observe;
	int ret = 0;

	*np = 0;
	*have_freq = true;
	memset(pt, 0, nclocks * sizeof(*pt));
	if (!set || !set->n) {
		snprintf(err, errlen, "--observe-clocks needs an observer on the DUT (--observe)");
		return -EINVAL;
	}
	for (size_t c = 0; c < nclocks && !(p->stop && *p->stop); c++) {
		pt[c].mhz = mhz[c];
		pt[c].res = calloc(p->nsizes, sizeof(*pt[c].res));
		if (!pt[c].res) {
			snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
			ret = -ENOMEM;
			break;
		}
		set->clock_khz = mhz[c] * 1000;
		if (r->progress)
			r->progress(
			    r->progress_arg,
			    &(struct nb_rate_event){.kind = NB_RATE_EV_CLOCK, .clock_mhz = mhz[c]});
		/* A new clock: the DUT's caches and connection tracking learn afresh. */
		snprintf(r->learn_when, sizeof(r->learn_when), "DUT clock %u MHz", mhz[c]);
		ret = nb_rate_run_sizes(r, pt[c].res, &pt[c].verdict, err, errlen);
		snprintf(pt[c].note, sizeof(pt[c].note), "%s", set->clock_note);
		bool stopped = p->stop && *p->stop;
		struct nb_rate_clock_next next =
		    nb_rate_clock_after(stopped, ret != 0, set->have_freq, c, nclocks);
		if (!next.keep) {
			/* The clock cut short (some sizes, or a trial stopped midway) is dropped.
			 */
			free(pt[c].res);
			pt[c].res = NULL;
			if (stopped)
				ret = 0;
			break;
		}
		*np = c + 1;
		if (!set->have_freq)
			*have_freq = false;
		if (!next.more)
			break;
	}
	set->clock_khz = 0;
	nb_rate_clock_conclude(p, pt, ret ? 0 : *np, fits);
	return ret;
}

void nb_rate_clocks_free(struct nb_rate_clock_point *pt, size_t nclocks)
{
	for (size_t c = 0; c < nclocks; c++) {
		free(pt[c].res);
		pt[c].res = NULL;
	}
}
