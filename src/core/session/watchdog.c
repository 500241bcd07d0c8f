/* SPDX-License-Identifier: BSD-2-Clause */
/* The max-time timer (see watchdog.h): sleeps until each instant or until it is stopped. */
#include "core/session/watchdog.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "core/base/sleeper.h"

struct nb_watchdog {
	pthread_t tid;
	struct nb_sleeper sl;
	bool halted, cut;
	uint64_t halt_at_ns, cut_at_ns;
	int fd;
	void (*halt)(void *);
	void *arg;
};

static void *watch(void *arg)
{
	struct nb_watchdog *w = arg;
	pthread_mutex_lock(&w->sl.mu);
	if (nb_sleeper_wait_locked(&w->sl, w->halt_at_ns)) {
		if (w->halt)
			w->halt(w->arg);
		w->halted = true;
		if (nb_sleeper_wait_locked(&w->sl, w->cut_at_ns)) {
			shutdown(w->fd, SHUT_RDWR);
			w->cut = true;
		}
	}
	pthread_mutex_unlock(&w->sl.mu);
	return NULL;
}

int nb_watchdog_start(struct nb_watchdog **out, uint64_t halt_at_ns, uint64_t cut_at_ns, int fd,
		      void (*halt)(void *), void *arg)
{
	struct nb_watchdog *w = calloc(1, sizeof(*w));
	int ret;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->halt_at_ns = halt_at_ns;
	w->cut_at_ns = cut_at_ns < halt_at_ns ? halt_at_ns : cut_at_ns;
	w->fd = fd;
	w->halt = halt;
	w->arg = arg;
	if ((ret = nb_sleeper_init(&w->sl))) {
		free(w);
		return ret;
	}
	if ((ret = pthread_create(&w->tid, NULL, watch, w))) {
		nb_sleeper_destroy(&w->sl);
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
	nb_sleeper_quit(&w->sl);
	pthread_join(w->tid, NULL);
	if (halted)
		*halted = w->halted;
	if (cut)
		*cut = w->cut;
	nb_sleeper_destroy(&w->sl);
	free(w);
}
