/* SPDX-License-Identifier: BSD-2-Clause */
/* A helper thread's sleep that another thread can cut short: a mutex, a condition variable on
 * the monotonic clock and a quit flag. The mutex also guards whatever the two threads share. */
#ifndef NB_SLEEPER_H
#define NB_SLEEPER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct nb_sleeper {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool quit;
};

/* 0 or a negative errno. */
int nb_sleeper_init(struct nb_sleeper *s);
void nb_sleeper_destroy(struct nb_sleeper *s);
/* With s->mu held: sleeps until the monotonic instant at_ns or until quit is set; true when
 * at_ns came first. A far instant is waited for an hour at a time. */
bool nb_sleeper_wait_locked(struct nb_sleeper *s, uint64_t at_ns);
/* Sets quit and wakes the sleeper (takes s->mu). */
void nb_sleeper_quit(struct nb_sleeper *s);

#endif
