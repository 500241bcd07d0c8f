/* SPDX-License-Identifier: BSD-2-Clause */
/* The observer thread of a stream sweep: a queue of window edges from the sender, each turned
 * into an observer begin or end in order. A window whose begin failed is not ended; the first
 * failure is kept and the rest of the edges are dropped. */
#include "core/stream/stream_obs.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/timeutil.h"

#define OBS_SLACK_NS (10 * NB_NS_PER_S) /* the observer ends a window left open after this */

struct edge {
	size_t step;
	bool open;
	uint64_t mono_ns; /* the sender's edge */
};

struct nb_stream_obs {
	struct nb_obs_set *set;
	size_t nsteps;
	uint64_t window_ns;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	struct edge *q; /* 2 per step: every edge the sender can report */
	size_t nq, head;
	bool done;
	int ret;
	char err[600];
	struct nb_obs_trial *trials;
	uint64_t *lag_ns; /* 2 per step */
};

static void *run(void *arg)
{
	struct nb_stream_obs *o = arg;
	bool open = false;
	pthread_mutex_lock(&o->lock);
	for (;;) {
		while (o->head == o->nq && !o->done)
			pthread_cond_wait(&o->cond, &o->lock);
		if (o->head == o->nq)
			break;
		struct edge e = o->q[o->head++];
		pthread_mutex_unlock(&o->lock);
		int ret = 0;
		char err[600] = "";
		if (e.open && !o->ret) {
			ret = nb_obs_set_begin(o->set, o->window_ns, err, sizeof(err));
			open = !ret;
			o->lag_ns[2 * e.step] = nb_mono_ns() - e.mono_ns;
		} else if (!e.open && open) {
			ret = nb_obs_set_end(o->set, &o->trials[e.step], err, sizeof(err));
			open = false;
			o->lag_ns[2 * e.step + 1] = nb_mono_ns() - e.mono_ns;
		}
		pthread_mutex_lock(&o->lock);
		if (ret && !o->ret) {
			o->ret = ret;
			snprintf(o->err, sizeof(o->err), "%s", err);
		}
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

int nb_stream_obs_start(struct nb_stream_obs **out, struct nb_obs_set *set, size_t nsteps,
			uint64_t step_ns)
{
	struct nb_stream_obs *o = calloc(1, sizeof(*o));
	int ret = -ENOMEM;
	if (!o)
		return ret;
	o->set = set;
	o->nsteps = nsteps;
	o->window_ns = step_ns + OBS_SLACK_NS;
	o->q = calloc(2 * nsteps + 1, sizeof(*o->q));
	o->trials = calloc(nsteps + 1, sizeof(*o->trials));
	o->lag_ns = calloc(2 * nsteps + 2, sizeof(*o->lag_ns));
	if (!o->q || !o->trials || !o->lag_ns)
		goto fail;
	if ((ret = -pthread_mutex_init(&o->lock, NULL)))
		goto fail;
	if ((ret = -pthread_cond_init(&o->cond, NULL))) {
		pthread_mutex_destroy(&o->lock);
		goto fail;
	}
	if ((ret = -pthread_create(&o->thread, NULL, run, o))) {
		pthread_cond_destroy(&o->cond);
		pthread_mutex_destroy(&o->lock);
		goto fail;
	}
	*out = o;
	return 0;
fail:
	free(o->q);
	free(o->trials);
	free(o->lag_ns);
	free(o);
	return ret;
}

void nb_stream_obs_edge(void *arg, size_t i, bool open)
{
	struct nb_stream_obs *o = arg;
	pthread_mutex_lock(&o->lock);
	if (i < o->nsteps && o->nq < 2 * o->nsteps) {
		o->q[o->nq].step = i;
		o->q[o->nq].mono_ns = nb_mono_ns();
		o->q[o->nq++].open = open;
		pthread_cond_signal(&o->cond);
	}
	pthread_mutex_unlock(&o->lock);
}

int nb_stream_obs_finish(struct nb_stream_obs *o, struct nb_obs_trial *trials, uint64_t *lag_ns,
			 char *err, size_t errlen)
{
	int ret;
	pthread_mutex_lock(&o->lock);
	o->done = true;
	pthread_cond_signal(&o->cond);
	pthread_mutex_unlock(&o->lock);
	pthread_join(o->thread, NULL);
	ret = o->ret;
	if (ret)
		snprintf(err, errlen, "%s", o->err);
	for (size_t i = 0; i < o->nsteps; i++) {
		if (ret)
			nb_obs_trial_free(&o->trials[i]);
		trials[i] = o->trials[i];
		if (lag_ns) {
			lag_ns[2 * i] = o->lag_ns[2 * i];
			lag_ns[2 * i + 1] = o->lag_ns[2 * i + 1];
		}
	}
	pthread_cond_destroy(&o->cond);
	pthread_mutex_destroy(&o->lock);
	free(o->q);
	free(o->trials);
	free(o->lag_ns);
	free(o);
	return ret;
}
