/* SPDX-License-Identifier: BSD-2-Clause */
/* A sleep cut short by another thread (see sleeper.h). */
#include "core/base/sleeper.h"

#include <time.h>

#include "core/base/timeutil.h"

int nb_sleeper_init(struct nb_sleeper *s)
{
	pthread_condattr_t ca;
	int ret;
	s->quit = false;
	if ((ret = pthread_condattr_init(&ca)))
		return -ret;
	if (!(ret = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC)))
		ret = pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (ret)
		return -ret;
	if ((ret = pthread_mutex_init(&s->mu, NULL))) {
		pthread_cond_destroy(&s->cv);
		return -ret;
	}
	return 0;
}

void nb_sleeper_destroy(struct nb_sleeper *s)
{
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
}

bool nb_sleeper_wait_locked(struct nb_sleeper *s, uint64_t at_ns)
{
	while (!s->quit) {
		uint64_t now = nb_mono_ns(), until = at_ns;
		struct timespec ts;
		if (now >= at_ns)
			return true;
		if (until - now > 3600 * NB_NS_PER_S)
			until = now + 3600 * NB_NS_PER_S;
		ts.tv_sec = (time_t)(until / NB_NS_PER_S);
		ts.tv_nsec = (long)(until % NB_NS_PER_S);
		pthread_cond_timedwait(&s->cv, &s->mu, &ts);
	}
	return false;
}

void nb_sleeper_quit(struct nb_sleeper *s)
{
	pthread_mutex_lock(&s->mu);
	s->quit = true;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}
