/* SPDX-License-Identifier: BSD-2-Clause */
/* The max-time timer (see watchdog.h): waits on a condition variable of the monotonic clock
 * until each instant or until it is stopped. */
#include "core/session/watchdog.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "core/base/timeutil.h"

struct nb_watchdog {
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool quit, halted, cut;
	uint64_t halt_at_ns, cut_at_ns;
	int fd;
	void (*halt)(void *);
	void *arg;
};

/* Waits with the mutex held until at_ns or quit; true when at_ns came first. */
static bool wait_until(struct nb_watchdog *w, uint64_t at_ns)
{
	while (!w->quit) {
		uint64_t now = nb_mono_ns(), until = at_ns;
		struct timespec ts;
		if (now >= at_ns)
			return true;
		/* A far instant (no max-time and a huge duration) is waited for in hours. */
		if (until - now > 3600 * NB_NS_PER_S)
			until = now + 3600 * NB_NS_PER_S;
		ts.tv_sec = (time_t)(until / NB_NS_PER_S);
		ts.tv_nsec = (long)(until % NB_NS_PER_S);
		pthread_cond_timedwait(&w->cv, &w->mu, &ts);
	}
	return false;
}

static void *watch(void *arg)
{
	struct nb_watchdog *w = arg;
	pthread_mutex_lock(&w->mu);
	if (wait_until(w, w->halt_at_ns)) {
		if (w->halt)
			w->halt(w->arg);
		w->halted = true;
		if (wait_until(w, w->cut_at_ns)) {
			shutdown(w->fd, SHUT_RDWR);
			w->cut = true;
		}
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int nb_watchdog_start(struct nb_watchdog **out, uint64_t halt_at_ns, uint64_t cut_at_ns, int fd,
		      void (*halt)(void *), void *arg)
{
	struct nb_watchdog *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;
	int ret;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->halt_at_ns = halt_at_ns;
	w->cut_at_ns = cut_at_ns < halt_at_ns ? halt_at_ns : cut_at_ns;
	w->fd = fd;
	w->halt = halt;
	w->arg = arg;
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	if ((ret = pthread_create(&w->tid, NULL, watch, w))) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return -ret;
	}
	*out = w;
	return 0;
}

void nb_watchdog_stop(struct nb_watchdog *w, bool *halted, bool *cut)
{
	if (halted)
		*halted = false;
	if (cut)
		*cut = false;
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->tid, NULL);
	if (halted)
		*halted = w->halted;
	if (cut)
		*cut = w->cut;
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
