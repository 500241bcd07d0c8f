/* SPDX-License-Identifier: BSD-2-Clause */
/* The generator loop: each thread's frames are paced by its own nb_pacer (pacer.h), frame k of a
 * trial due at start + k / rate. In burst mode (the default) the thread sleeps and wakes about
 * once per millisecond to send the group that is due, back to back, in as few system calls as
 * the batch allows: the average rate is exact and the CPU sleeps. In spin mode every frame
 * waits for its own deadline (a sleep, then a spin of the last few microseconds): exact gaps,
 * a busy core at short intervals; above 20 k frames/s it sends up to 50 us of frames per call.
 * A held-up sender catches up as the pacer does (at most eight groups at once, then four times
 * the rate); what is still owed at the trial's end is counted as slipped. */
#include "core/rate/gen.h"

#include <errno.h>
#include <string.h>

#include "core/base/timeutil.h"

const struct nb_gen_engine *const nb_gen_engines[] = {&nb_gen_udp, &nb_gen_packet, NULL};

const struct nb_gen_engine *nb_gen_find(const char *name)
{
	for (size_t i = 0; nb_gen_engines[i]; i++)
		if (!strcmp(nb_gen_engines[i]->name, name))
			return nb_gen_engines[i];
	return NULL;
}

int nb_gen_run(const struct nb_gen_engine *e, void *state, const struct nb_gen_trial *t,
	       struct nb_gen_stats *s)
{
	uint32_t flows = t->flows ? t->flows : 1, batch = t->batch ? t->batch : 32, flow = 0;
	uint32_t spin_max = 1;
	uint64_t total = t->frames, released = 0, owed = 0, start, now, end;
	struct nb_pacer pc;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (flows > NB_GEN_MAX_FLOWS)
		return -EINVAL;
	if (t->rate_fps && t->pacing == NB_PACING_TXTIME)
		return -EOPNOTSUPP;
	if (batch > NB_GEN_MAX_BATCH)
		batch = NB_GEN_MAX_BATCH;
	if (!total && t->rate_fps)
		total = (uint64_t)((double)t->rate_fps * (double)t->duration_ns / 1e9 + 0.5);
	if (t->rate_fps) {
		/* Spin mode: at most ~50 us of frames per call. */
		spin_max = (uint32_t)(t->rate_fps / 20000);
		if (spin_max < 1)
			spin_max = 1;
	}
	start = nb_mono_ns();
	if (t->rate_fps) {
		/* One datagram of one "bit" at rate_fps bit/s: an interval of 1 / rate_fps. */
		nb_pacer_init(&pc, t->rate_fps, 1, start);
		nb_pacer_set_mode(&pc, t->pacing, t->pacing == NB_PACING_SPIN ? 0 : t->burst);
		pc.count = total;
		s->pacing_burst = pc.burst;
	}
	/* A generator that cannot keep up stops at the trial's end all the same; the stats
	 * then show fewer frames than asked, and the caller says so. */
	end = start + (t->duration_ns ? t->duration_ns : 3600 * NB_NS_PER_S);
	s->start_ns = start;
	now = start;
	while (!total || s->tx_frames < total) {
		uint64_t want;
		int n;

		if (t->stop && *t->stop)
			break;
		if (now >= end && (t->duration_ns || !t->frames))
			break;
		if (t->rate_fps) {
			if (!owed) {
				uint64_t max = total - released;
				(void)nb_pacer_wait(&pc);
				owed = nb_pacer_take(&pc, max < batch ? (uint32_t)max : batch,
						     spin_max, nb_mono_ns());
				released += owed;
			}
			want = owed;
		} else {
			want = total ? total - s->tx_frames : batch;
		}
		if (want > batch)
			want = batch;
		n = e->send(state, flow,
			    (uint32_t)((t->seq_base ? t->seq_base[flow] : 0) + s->tx_flow[flow]),
			    (uint32_t)want);
		if (n < 0) {
			ret = n;
			break;
		}
		if (n == 0)
			s->pushback++;
		s->tx_flow[flow] += (uint64_t)n;
		s->tx_frames += (uint64_t)n;
		owed -= t->rate_fps ? (uint64_t)n : 0;
		if (++flow == flows)
			flow = 0;
		now = nb_mono_ns();
	}
	if (t->rate_fps) {
		s->pacing_cpu_ns = pc.cpu_ns;
		s->pacing_wakeups = pc.wakeups;
		if (t->duration_ns && !(t->stop && *t->stop) && s->tx_frames < total)
			s->slipped_frames = total - s->tx_frames;
	}
	if (e->drain) {
		int r = e->drain(state);
		if (!ret)
			ret = r;
	}
	s->end_ns = nb_mono_ns();
	return ret;
}
