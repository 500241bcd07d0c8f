/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-threaded generator. Threads are created for each trial (tens of microseconds,
 * nothing beside a trial of 100 ms or more) and wait for one signal so that every thread's
 * schedule starts at the same moment; the trial's window runs from the first thread's start
 * to the last one's end, so a thread that lags shows as a lower offered rate, never a higher. */
#include "core/rate/genpool.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cpulist.h"

struct worker {
	struct nb_gen_pool *pool;
	uint32_t index;
	void *state;
	uint32_t flows, flow_base;
	struct nb_gen_trial trial;
	struct nb_gen_stats *stats;
	bool idle; /* its share of the trial is nothing */
	int ret;
	pthread_t thread;
};

struct nb_gen_pool {
	const struct nb_gen_engine *e;
	uint32_t threads, ncpus;
	uint32_t cpus[NB_GEN_MAX_THREADS];
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go; /* 0: wait, 1: run, -1: the trial was called off */
	struct worker w[];
};

uint64_t nb_gen_share(uint64_t total, uint32_t parts, uint32_t i)
{
	if (!parts || i >= parts)
		return 0;
	return total / parts + (i < total % parts ? 1 : 0);
}

uint64_t nb_gen_share_base(uint64_t total, uint32_t parts, uint32_t i)
{
	if (!parts)
		return 0;
	if (i > parts)
		i = parts;
	uint64_t extra = total % parts;
	return (uint64_t)i * (total / parts) + (i < extra ? i : extra);
}

void nb_gen_trial_share(const struct nb_gen_trial *t, uint32_t threads, uint32_t i,
			struct nb_gen_trial *part)
{
	*part = *t;
	part->rate_fps = nb_gen_share(t->rate_fps, threads, i);
	part->frames = nb_gen_share(t->frames, threads, i);
	part->flows = (uint32_t)nb_gen_share(t->flows ? t->flows : 1, threads, i);
	if (t->seq_base)
		part->seq_base =
		    t->seq_base + nb_gen_share_base(t->flows ? t->flows : 1, threads, i);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct nb_gen_pool *p = w->pool;
	int pin = 0;

	int go;

	if (p->ncpus)
		pin = nb_cpu_pin_self(p->cpus[w->index % p->ncpus]);
	pthread_mutex_lock(&p->lock);
	while (!p->go)
		pthread_cond_wait(&p->cond, &p->lock);
	go = p->go;
	pthread_mutex_unlock(&p->lock);
	if (go < 0 || w->idle)
		w->ret = 0;
	else if (pin)
		w->ret = pin;
	else
		w->ret = nb_gen_run(p->e, w->state, &w->trial, w->stats);
	return NULL;
}

int nb_gen_pool_open(struct nb_gen_pool **out, const struct nb_gen_engine *e,
		     const struct nb_gen_cfg *cfg, uint32_t threads, const uint32_t *cpus,
		     uint32_t ncpus, char *err, size_t errlen)
{
	uint32_t flows = cfg->flows ? cfg->flows : 1;
	struct nb_gen_pool *p;
	int ret;

	*out = NULL;
	if (!threads || threads > NB_GEN_MAX_THREADS || threads > flows ||
	    ncpus > NB_GEN_MAX_THREADS) {
		snprintf(err, errlen,
			 "%u threads for %u flows (1 to %u threads, at most one per flow)", threads,
			 flows, NB_GEN_MAX_THREADS);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < ncpus; i++)
		if (nb_cpu_allowed(cpus[i])) {
			snprintf(err, errlen, "CPU %u is not one this process may run on", cpus[i]);
			return -EINVAL;
		}
	p = calloc(1, sizeof(*p) + threads * sizeof(p->w[0]));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->e = e;
	p->threads = threads;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->ncpus = ncpus;
	if (ncpus)
		memcpy(p->cpus, cpus, ncpus * sizeof(cpus[0]));
	for (uint32_t i = 0; i < threads; i++) {
		struct worker *w = &p->w[i];
		struct nb_gen_cfg c = *cfg;
		w->pool = p;
		w->index = i;
		w->flows = (uint32_t)nb_gen_share(flows, threads, i);
		w->flow_base = (uint32_t)nb_gen_share_base(flows, threads, i);
		c.flows = w->flows;
		c.flow_base = cfg->flow_base + w->flow_base;
		w->stats = calloc(1, sizeof(*w->stats));
		if (!w->stats) {
			snprintf(err, errlen, "out of memory");
			ret = -ENOMEM;
			goto fail;
		}
		ret = e->open(&c, &w->state, err, errlen);
		if (ret)
			goto fail;
	}
	*out = p;
	return 0;
fail:
	nb_gen_pool_free(p);
	return ret;
}

int nb_gen_pool_set_mix(struct nb_gen_pool *p, const struct nb_mix *mix)
{
	if (!p->e->set_mix)
		return -EOPNOTSUPP;
	for (uint32_t i = 0; i < p->threads; i++) {
		int ret = p->e->set_mix(p->w[i].state, mix);
		if (ret)
			return ret;
	}
	return 0;
}

int nb_gen_pool_prepare(struct nb_gen_pool *p, uint32_t frame_bytes, uint16_t trial,
			uint32_t probe_every)
{
	for (uint32_t i = 0; i < p->threads; i++) {
		int ret = p->e->prepare(p->w[i].state, frame_bytes, trial, probe_every);
		if (ret)
			return ret;
	}
	return 0;
}

int nb_gen_pool_run(struct nb_gen_pool *p, const struct nb_gen_trial *t, struct nb_gen_stats *s)
{
	uint32_t started = 0;
	int ret = 0;

	for (uint32_t i = 0; i < p->threads; i++) {
		struct worker *w = &p->w[i];
		nb_gen_trial_share(t, p->threads, i, &w->trial);
		/* A zero share of a frame count or a rate would read as "until the trial's end"
		 * or "flat out": such a thread sends nothing. */
		w->idle = (t->frames && !w->trial.frames) || (t->rate_fps && !w->trial.rate_fps);
		memset(w->stats, 0, sizeof(*w->stats));
		w->ret = 0;
	}
	if (p->threads == 1 && !p->ncpus) {
		ret = nb_gen_run(p->e, p->w[0].state, &p->w[0].trial, p->w[0].stats);
	} else {
		/* Every thread is created (and pinned) before any sends: they start together. */
		p->go = 0;
		for (; started < p->threads; started++) {
			ret = -pthread_create(&p->w[started].thread, NULL, worker_main,
					      &p->w[started]);
			if (ret)
				break;
		}
		pthread_mutex_lock(&p->lock);
		p->go = ret ? -1 : 1;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
		for (uint32_t i = 0; i < started; i++)
			pthread_join(p->w[i].thread, NULL);
		for (uint32_t i = 0; i < started && !ret; i++)
			ret = p->w[i].ret;
	}
	memset(s, 0, sizeof(*s));
	for (uint32_t i = 0; i < p->threads; i++) {
		const struct worker *w = &p->w[i];
		const struct nb_gen_stats *ws = w->stats;
		if (!ws->start_ns)
			continue;
		for (uint32_t f = 0; f < w->flows; f++)
			s->tx_flow[w->flow_base + f] = ws->tx_flow[f];
		s->tx_frames += ws->tx_frames;
		s->pushback += ws->pushback;
		s->slipped_frames += ws->slipped_frames;
		s->pacing_cpu_ns += ws->pacing_cpu_ns;
		s->pacing_wakeups += ws->pacing_wakeups;
		if (!s->pacing_burst)
			s->pacing_burst = ws->pacing_burst;
		if (!s->start_ns || ws->start_ns < s->start_ns)
			s->start_ns = ws->start_ns;
		if (ws->end_ns > s->end_ns)
			s->end_ns = ws->end_ns;
	}
	return ret;
}

uint32_t nb_gen_pool_threads(const struct nb_gen_pool *p)
{
	return p->threads;
}

const struct nb_gen_stats *nb_gen_pool_thread_stats(const struct nb_gen_pool *p, uint32_t i)
{
	return i < p->threads ? p->w[i].stats : NULL;
}

uint64_t nb_gen_pool_thread_rate(const struct nb_gen_pool *p, uint32_t i)
{
	return i < p->threads ? p->w[i].trial.rate_fps : 0;
}

void nb_gen_pool_describe(struct nb_gen_pool *p, char *buf, size_t len)
{
	char eng[160], cpus[128];
	p->e->describe(p->w[0].state, eng, sizeof(eng));
	if (p->threads == 1 && !p->ncpus) {
		snprintf(buf, len, "%s", eng);
		return;
	}
	nb_cpulist_format(p->cpus, p->ncpus, cpus, sizeof(cpus));
	snprintf(buf, len, "%u thread%s%s%s, each: %s", p->threads, p->threads == 1 ? "" : "s",
		 p->ncpus ? " pinned to CPUs " : "", p->ncpus ? cpus : "", eng);
}

void nb_gen_pool_free(struct nb_gen_pool *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->threads; i++) {
		if (p->w[i].state)
			p->e->close(p->w[i].state);
		free(p->w[i].stats);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free(p);
}
