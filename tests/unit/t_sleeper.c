/* SPDX-License-Identifier: BSD-2-Clause */
/* The stoppable sleep of the agent's helper threads: it wakes at its instant, not before, and a
 * quit from another thread cuts even an endless sleep short. */
#include <pthread.h>

#include "core/base/sleeper.h"
#include "core/base/timeutil.h"
#include "tap.h"

struct waiter {
	struct nb_sleeper *s;
	uint64_t at_ns;
	bool came;
	uint64_t back_ns;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	pthread_mutex_lock(&w->s->mu);
	w->came = nb_sleeper_wait_locked(w->s, w->at_ns);
	pthread_mutex_unlock(&w->s->mu);
	w->back_ns = nb_mono_ns();
	return NULL;
}

int main(void)
{
	struct nb_sleeper s;
	pthread_t t;
	uint64_t t0;
	bool came;

	CHECK(nb_sleeper_init(&s) == 0, "a sleeper is made");
	t0 = nb_mono_ns();
	pthread_mutex_lock(&s.mu);
	came = nb_sleeper_wait_locked(&s, t0 + 150 * NB_NS_PER_MS);
	pthread_mutex_unlock(&s.mu);
	CHECK(came && nb_mono_ns() >= t0 + 150 * NB_NS_PER_MS,
	      "a sleep ends at its instant, not before (%.3f s)",
	      (double)(nb_mono_ns() - t0) / 1e9);
	pthread_mutex_lock(&s.mu);
	came = nb_sleeper_wait_locked(&s, t0);
	pthread_mutex_unlock(&s.mu);
	CHECK(came, "an instant already past ends the sleep at once");

	struct waiter w = {.s = &s, .at_ns = UINT64_MAX};
	CHECK(pthread_create(&t, NULL, wait_thread, &w) == 0, "a thread sleeps with no end");
	nb_sleep_until_ns(nb_mono_ns() + 100 * NB_NS_PER_MS);
	t0 = nb_mono_ns();
	nb_sleeper_quit(&s);
	pthread_join(t, NULL);
	/* Only a generous bound: a loaded host may run the thread late, never an hour late. */
	CHECK(!w.came && w.back_ns - t0 < 5 * NB_NS_PER_S,
	      "a quit cuts the endless sleep short and says so (%.3f s)",
	      (double)(w.back_ns - t0) / 1e9);
	pthread_mutex_lock(&s.mu);
	came = nb_sleeper_wait_locked(&s, nb_mono_ns() + 10 * NB_NS_PER_S);
	pthread_mutex_unlock(&s.mu);
	CHECK(!came, "after a quit, a sleep ends at once");
	nb_sleeper_destroy(&s);
	return tap_done();
}
