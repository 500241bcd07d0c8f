/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's observe test: it sends and receives no test traffic. START takes the window's
 * first snapshot and starts a thread that samples /proc/stat at the asked rate (for the busiest
 * CPU's peak over any sample interval); STOP takes the last snapshot and returns the window.
 * With --allow-tuning it sets the CPU clock and RPS the request asks for, and restores them
 * when the test is freed, which the session does also when the controller vanishes. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sleeper.h"
#include "core/base/timeutil.h"
#include "core/observe/obs.h"
#include "core/observe/obs_tune.h"
#include "core/observe/obs_wire.h"
#include "core/profile/prof.h"
#include "core/session/agent.h"

struct observe {
	struct nb_obs_req req;
	struct nb_obs_reader *reader, *sreader;
	struct nb_obs_tune *tune;
	struct nb_obs_snap *a, *b, *w, *s0, *s1;
	uint64_t open_cpu_ns; /* the opening snapshot's CPU time */
	pthread_t thread;
	bool thread_on;
	bool sleeper_on;
	struct nb_sleeper sl; /* the sampler's sleep, cut short by a stop; sl.mu guards w and s0 */
	struct nb_prof *prof; /* the kernel profile, when asked for */
};

/* A STOP must not wait out the sampler's period (100 ms at the default rate, up to 1 s where
 * sampling is dear): the window's closing snapshot would come that late. */
static bool sampler_wait(struct observe *o, uint64_t deadline_ns)
{
	bool go;
	pthread_mutex_lock(&o->sl.mu);
	go = nb_sleeper_wait_locked(&o->sl, deadline_ns);
	pthread_mutex_unlock(&o->sl.mu);
	return go;
}

static void sampler_stop(struct observe *o)
{
	if (!o->thread_on)
		return;
	nb_sleeper_quit(&o->sl);
	pthread_join(o->thread, NULL);
	o->thread_on = false;
}

/* The thread's own CPU time (its clock: the samples' reads, parsing, peaks and the timer's
 * wake-ups) goes into the window, so that a window states what one sample costs the box it
 * watches. The first interval starts at the window's opening snapshot (o->s0, copied by
 * obs_start). */
static void *sampler(void *arg)
{
	struct observe *o = arg;
	uint64_t asked = NB_NS_PER_S / o->req.sample_hz, period = asked;
	uint64_t next = o->s0->mono_ns + period;
	pthread_mutex_lock(&o->sl.mu);
	o->w->sample_period_ns = period;
	pthread_mutex_unlock(&o->sl.mu);
	while (sampler_wait(o, next)) {
		if (nb_obs_sample_cpu(o->sreader, o->s1)) {
			next += period;
			continue;
		}
		uint64_t cpu = nb_obs_thread_cpu_ns();
		pthread_mutex_lock(&o->sl.mu);
		nb_obs_peak(o->s0, o->s1, o->w);
		o->w->samples++;
		o->w->sample_cpu_ns = cpu;
		period = nb_obs_sample_period(asked, o->req.adapt, cpu, o->w->samples);
		if (period > o->w->sample_period_ns)
			o->w->sample_period_ns = period;
		/* Under the lock: put_window reads o->s0 for the interval still open. */
		struct nb_obs_snap *t = o->s0;
		o->s0 = o->s1;
		o->s1 = t;
		pthread_mutex_unlock(&o->sl.mu);
		next += period;
		if (next < nb_mono_ns()) /* late (a busy box): no burst of samples to catch up */
			next = nb_mono_ns() + period;
	}
	return NULL;
}

static void obs_free(void *state)
{
	struct observe *o = state;
	if (!o)
		return;
	sampler_stop(o);
	nb_prof_free(o->prof);
	nb_obs_tune_restore(o->tune);
	nb_obs_reader_free(o->reader);
	nb_obs_reader_free(o->sreader);
	free(o->a);
	free(o->b);
	free(o->w);
	free(o->s0);
	free(o->s1);
	if (o->sleeper_on)
		nb_sleeper_destroy(&o->sl);
	free(o);
}

static int obs_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		     struct nb_msg *ack, char *err, size_t errlen)
{
	struct observe *o = calloc(1, sizeof(*o));
	char note[512] = "";
	int ret = -ENOMEM;
	if (!o)
		return ret;
	if ((ret = nb_sleeper_init(&o->sl))) {
		snprintf(err, errlen, "observe: cannot make the sampler's timer");
		goto fail;
	}
	o->sleeper_on = true;
	if ((ret = nb_obs_req_get(req, &o->req, err, errlen)))
		goto fail;
	if ((o->req.clock_khz || o->req.rps_mask) && !ctx->policy->allow_tuning) {
		snprintf(err, errlen,
			 "refused by rule tuning: setting the %s needs an agent started with "
			 "--allow-tuning",
			 o->req.clock_khz ? "CPU clock" : "receive steering (RPS)");
		ret = -EPERM;
		goto fail;
	}
	if (o->req.profile_hz && ctx->policy->no_profile) {
		snprintf(err, errlen,
			 "refused by rule profile: this agent was started with --no-profile");
		ret = -EPERM;
		goto fail;
	}
	if (o->req.profile_hz) {
		/* A kernel without perf events, a paranoid setting or qemu-user is no failure:
		 * the window's profile then says "unavailable" and why. Only a request out of
		 * bounds (already refused by nb_obs_req_get) or no memory is. */
		char why[NB_PROF_WHY];
		ret = nb_prof_open(&o->prof, o->req.profile_hz, o->req.profile_kib,
				   o->req.profile_mask, why, sizeof(why));
		if (ret == -EINVAL || ret == -ENOMEM) {
			snprintf(err, errlen, "observe: %s", why);
			goto fail;
		}
	}
	ret = -ENOMEM;
	if (!(o->a = malloc(sizeof(*o->a))) || !(o->b = malloc(sizeof(*o->b))) ||
	    !(o->w = calloc(1, sizeof(*o->w))) || !(o->s0 = calloc(1, sizeof(*o->s0))) ||
	    !(o->s1 = calloc(1, sizeof(*o->s1))))
		goto fail;
	if ((ret = nb_obs_reader_new(&o->reader, "")) || (ret = nb_obs_reader_new(&o->sreader, "")))
		goto fail;
	/* A reader's first snapshot learns each driver's counter names and sizes its buffers:
	 * on a slow board that costs several times a steady one (62 ms against 14 on the
	 * emulated ARM board). Done here, before the window opens, it is never charged to it. */
	(void)nb_obs_snapshot(o->reader, o->a, NB_OBS_CLOSE);
	(void)nb_obs_sample_cpu(o->sreader, o->s0);
	o->w->peak_cpu = -1;
	if (o->req.rps_mask) {
		ret = nb_obs_rps_set(&o->tune, "", o->req.rps_mask, note, sizeof(note));
		if (ret) {
			snprintf(err, errlen, "observe: %s", note);
			goto fail;
		}
	}
	if (o->req.clock_khz) {
		/* No cpufreq is no failure: the controller prints the note and measures at the
		 * clock there is. Any other failure is. */
		ret = nb_obs_clock_set(&o->tune, "", o->req.clock_khz, note, sizeof(note));
		if (ret && ret != -ENOENT) {
			snprintf(err, errlen, "observe: %s", note);
			goto fail;
		}
		nb_msg_put_str(ack, NB_T_OBS_CLOCK_NOTE, note);
		nb_msg_put_u32(ack, NB_T_OBS_HAVE_FREQ, ret == -ENOENT ? 0 : 1);
	}
	*state = o;
	return 0;
fail:
	obs_free(o);
	return ret;
}

static int obs_start(void *state, char *err, size_t errlen)
{
	struct observe *o = state;
	uint64_t c0 = nb_obs_thread_cpu_ns();
	int ret = nb_obs_snapshot(o->reader, o->a, NB_OBS_OPEN);
	o->open_cpu_ns = nb_obs_thread_cpu_ns() - c0;
	if (ret) {
		snprintf(err, errlen, "observe: cannot read /proc/stat: %s", strerror(-ret));
		return ret;
	}
	/* Right after the window's opening instant (its /proc/stat read is the snapshot's
	 * last). */
	if (o->prof)
		nb_prof_start(o->prof);
	/* The sampler's first interval starts at the window's opening. */
	o->s0->mono_ns = o->a->mono_ns;
	o->s0->ncpu = o->a->ncpu;
	memcpy(o->s0->cpu, o->a->cpu, sizeof(o->a->cpu));
	if (pthread_create(&o->thread, NULL, sampler, o)) {
		snprintf(err, errlen, "observe: cannot start the sampling thread");
		return -EAGAIN;
	}
	o->thread_on = true;
	return 0;
}

/* The window so far (a MARK does not end it). */
static int put_window(struct observe *o, struct nb_msg *m)
{
	struct nb_obs_snap *w = malloc(sizeof(*w));
	int ret;
	if (!w)
		return -ENOMEM;
	uint64_t c0 = nb_obs_thread_cpu_ns();
	if ((ret = nb_obs_snapshot(o->reader, o->b, NB_OBS_CLOSE)) == 0) {
		uint64_t close_ns = nb_obs_thread_cpu_ns() - c0;
		pthread_mutex_lock(&o->sl.mu);
		w->samples = o->w->samples;
		w->peak_busy_pct = o->w->peak_busy_pct;
		w->peak_cpu = o->w->peak_cpu;
		w->sample_cpu_ns = o->w->sample_cpu_ns;
		w->sample_period_ns = o->w->sample_period_ns;
		/* The interval from the last sample to this edge counts too (shorter than a
		 * period): without it a load at the window's end never shows in the peak. */
		if (o->thread_on && w->samples)
			nb_obs_peak(o->s0, o->b, w);
		pthread_mutex_unlock(&o->sl.mu);
		w->edge_cpu_ns = o->open_cpu_ns + close_ns;
		nb_obs_window(o->a, o->b, w);
		ret = nb_obs_window_put(m, w);
	}
	free(w);
	return ret;
}

static int obs_snapshot(void *state, struct nb_msg *snap)
{
	return put_window(state, snap);
}

static int obs_stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct observe *o = state;
	/* The profile stops right before the closing instant (the snapshot's /proc/stat read
	 * is its first). */
	if (o->prof)
		nb_prof_stop(o->prof);
	/* The closing snapshot first, at the STOP; a sample the sampler is taking meanwhile is
	 * not counted in the window's peak. */
	int ret = put_window(o, final);
	sampler_stop(o);
	if (!ret && o->prof) {
		struct nb_prof_result *r = malloc(sizeof(*r));
		if (!r)
			ret = -ENOMEM;
		else {
			nb_prof_result(o->prof, r);
			ret = nb_prof_put(final, r);
			free(r);
		}
	}
	if (ret)
		snprintf(err, errlen, "observe: cannot report the window: %s", strerror(-ret));
	return ret;
}

static void obs_describe(void *state, char *buf, size_t len)
{
	struct observe *o = state;
	char prof[48] = "";
	if (o->req.profile_hz)
		snprintf(prof, sizeof(prof), ", kernel profile %u Hz", o->req.profile_hz);
	snprintf(buf, len, "%u samples/s%s%s%s%s", o->req.sample_hz,
		 o->req.adapt ? " (or fewer where dear)" : "",
		 o->req.clock_khz ? ", clock set" : "", o->req.rps_mask ? ", rps set" : "", prof);
}

const struct nb_test_ops nb_observe_ops = {
    .type = NB_TEST_OBSERVE,
    .name = "observe",
    .setup = obs_setup,
    .start = obs_start,
    .snapshot = obs_snapshot,
    .stop = obs_stop,
    .free = obs_free,
    .describe = obs_describe,
};
