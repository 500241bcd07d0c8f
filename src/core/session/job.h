/* SPDX-License-Identifier: BSD-2-Clause */
/* One long piece of agent-side work (a crypto run, a memory probe) in a thread of its own, so
 * that the control loop keeps answering: start, progress published under the job's lock, cancel
 * (the work checks nb_job_cancelled, or hands the flag to its engine, at least every few hundred
 * milliseconds, so a cancelled job ends within 1 s), and the final return value after the join. */
#ifndef NB_JOB_H
#define NB_JOB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/base/cancel.h"

struct nb_job;

/* The work: runs in the job's thread; returns 0 or a negative errno (-ECANCELED when it saw
 * the cancel flag). arg is nb_job_start's. */
typedef int (*nb_job_fn)(struct nb_job *job, void *arg);

struct nb_job {
	pthread_mutex_t lock; /* for the work's progress and its reader */
	nb_cancel_t cancel;
	atomic_bool done;
	pthread_t th;
	bool started;
	nb_job_fn fn;
	void *arg;
	int ret; /* fn's; read after nb_job_finish */
};

void nb_job_init(struct nb_job *job);
/* Starts fn(job, arg) in a thread; -errno when the thread cannot be made. */
int nb_job_start(struct nb_job *job, nb_job_fn fn, void *arg);
/* The flag a cancelled job sees set; the engines take it as their cancel pointer. */
const nb_cancel_t *nb_job_cancel_flag(const struct nb_job *job);
bool nb_job_cancelled(const struct nb_job *job);
/* True once the work has returned (its result is then final). */
bool nb_job_done(const struct nb_job *job);
void nb_job_lock(struct nb_job *job);
void nb_job_unlock(struct nb_job *job);
/* Cancels the work (when it has not already returned), waits for it and returns its value;
 * 0 for a job never started. Afterwards no other thread touches what the work wrote. */
int nb_job_finish(struct nb_job *job);
/* nb_job_finish, then frees the lock. */
void nb_job_destroy(struct nb_job *job);

#endif
