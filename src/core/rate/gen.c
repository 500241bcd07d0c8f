/* SPDX-License-Identifier: BSD-2-Clause */
/* The pacer: frame k of a trial is due at start + k / rate. Frames that are due go out in
 * batches of at most about 50 us of traffic, so a trial has no millisecond bursts unless one is
 * asked for, yet high rates still amortise the system call. Long gaps are slept with a
 * 1-ns timer slack; short ones are spun, because a sleep overshoots by tens of microseconds.
 * A sender held up for more than 1 ms slips its schedule rather than bursting to catch up,
 * and repays the slip at 110 % of the rate. */
#include "core/rate/gen.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#include "core/base/timeutil.h"

const struct nb_gen_engine *const nb_gen_engines[] = {&nb_gen_udp, &nb_gen_packet, NULL};

const struct nb_gen_engine *nb_gen_find(const char *name)
{
	for (size_t i = 0; nb_gen_engines[i]; i++)
		if (!strcmp(nb_gen_engines[i]->name, name))
			return nb_gen_engines[i];
	return NULL;
}

/* Frames due by time elapsed_ns: k/rate <= elapsed, in whole bursts. */
static uint64_t due_by(uint64_t elapsed_ns, uint64_t rate_fps, uint32_t burst)
{
	uint64_t k = (uint64_t)((double)elapsed_ns * (double)rate_fps / 1e9) + 1;
	if (burst > 1)
		k = ((k + burst - 1) / burst) * burst;
	return k;
}

int nb_gen_run(const struct nb_gen_engine *e, void *state, const struct nb_gen_trial *t,
	       struct nb_gen_stats *s)
{
	uint32_t flows = t->flows ? t->flows : 1, batch = t->batch ? t->batch : 32, flow = 0;
	uint32_t min_batch = 1, burst = t->burst > 1 ? t->burst : 1;
	uint64_t total = t->frames, start, now, end, sched, last, max_backlog = 0;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (flows > NB_GEN_MAX_FLOWS)
		return -EINVAL;
	if (batch > NB_GEN_MAX_BATCH)
		batch = NB_GEN_MAX_BATCH;
	if (!total && t->rate_fps)
		total = (uint64_t)((double)t->rate_fps * (double)t->duration_ns / 1e9 + 0.5);
	if (t->rate_fps) {
		/* Group at most ~50 us of frames per call. */
		min_batch = (uint32_t)(t->rate_fps / 20000);
		if (min_batch < 1)
			min_batch = 1;
		if (min_batch > batch)
			min_batch = batch;
	}
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (t->rate_fps) {
		/* At most 1 ms of frames (or one burst, or one group) owed at any time. */
		max_backlog = t->rate_fps / 1000;
		if (max_backlog < burst)
			max_backlog = burst;
		if (max_backlog < min_batch)
			max_backlog = min_batch;
	}
	start = nb_mono_ns();
	sched = start;
	last = start;
	/* A generator that cannot keep up stops at the trial's end all the same; the stats
	 * then show fewer frames than asked, and the caller says so. */
	end = start + (t->duration_ns ? t->duration_ns : 3600 * NB_NS_PER_S);
	s->start_ns = start;
	now = start;
	while (!total || s->tx_frames < total) {
		uint64_t due, want;
		int n;

		if (t->stop && *t->stop)
			break;
		if (now >= end && (t->duration_ns || !t->frames))
			break;
		if (t->rate_fps) {
			/* Repay an earlier slip by running 10 % fast: the average rate over the
			 * trial holds, while the DUT never sees more than 1.1 times the rate. */
			if (sched > start) {
				uint64_t repay = (now - last) / 10;
				sched = sched - start > repay ? sched - repay : start;
			}
			last = now;
			due = due_by(now - sched, t->rate_fps, burst);
			if (total && due > total)
				due = total;
			want = due > s->tx_frames ? due - s->tx_frames : 0;
			if (want > max_backlog) {
				/* We were held up (descheduled): rather than catch up in one burst
				 * that a policer would punish, shift the schedule; what is not
				 * repaid by the trial's end shows as a lower offered rate. */
				uint64_t slip = want - max_backlog;
				sched += (uint64_t)((double)slip * 1e9 / (double)t->rate_fps);
				s->slipped_frames += slip;
				want = max_backlog;
			}
			if (want < min_batch && due < total && burst == 1) {
				uint64_t next =
				    sched + (uint64_t)((double)(s->tx_frames + min_batch) * 1e9 /
						       (double)t->rate_fps);
				if (next > now + 60 * NB_NS_PER_US)
					nb_sleep_until_ns(next - 40 * NB_NS_PER_US);
				now = nb_mono_ns();
				continue;
			}
			if (!want) {
				uint64_t next = sched + (uint64_t)((double)s->tx_frames * 1e9 /
								   (double)t->rate_fps);
				if (next > now + 60 * NB_NS_PER_US)
					nb_sleep_until_ns(next - 40 * NB_NS_PER_US);
				now = nb_mono_ns();
				continue;
			}
		} else {
			want = total ? total - s->tx_frames : batch;
		}
		if (want > batch)
			want = batch;
		n = e->send(state, flow, (uint32_t)s->tx_flow[flow], (uint32_t)want);
		if (n < 0) {
			ret = n;
			break;
		}
		if (n == 0)
			s->pushback++;
		s->tx_flow[flow] += (uint64_t)n;
		s->tx_frames += (uint64_t)n;
		if (++flow == flows)
			flow = 0;
		now = nb_mono_ns();
	}
	if (e->drain) {
		int r = e->drain(state);
		if (!ret)
			ret = r;
	}
	s->end_ns = nb_mono_ns();
	return ret;
}
