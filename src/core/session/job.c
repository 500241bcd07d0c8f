/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's runner for long work: see job.h. */
#include "core/session/job.h"

static void *job_main(void *arg)
{
	struct nb_job *job = arg;
	job->ret = job->fn(job, job->arg);
	atomic_store(&job->done, true);
	return NULL;
}

void nb_job_init(struct nb_job *job)
{
	pthread_mutex_init(&job->lock, NULL);
	job->cancel = 0;
	atomic_init(&job->done, false);
	job->started = false;
	job->fn = NULL;
	job->arg = NULL;
	job->ret = 0;
}

int nb_job_start(struct nb_job *job, nb_job_fn fn, void *arg)
{
	int ret;
	job->fn = fn;
	job->arg = arg;
	ret = -pthread_create(&job->th, NULL, job_main, job);
	if (!ret)
		job->started = true;
	return ret;
}

const nb_cancel_t *nb_job_cancel_flag(const struct nb_job *job)
{
	return &job->cancel;
}

bool nb_job_cancelled(const struct nb_job *job)
{
	return job->cancel != 0;
}

bool nb_job_done(const struct nb_job *job)
{
	return atomic_load(&job->done);
}

void nb_job_lock(struct nb_job *job)
{
	pthread_mutex_lock(&job->lock);
}

void nb_job_unlock(struct nb_job *job)
{
	pthread_mutex_unlock(&job->lock);
}

int nb_job_finish(struct nb_job *job)
{
	if (job->started) {
		job->cancel = 1;
		pthread_join(job->th, NULL);
		job->started = false;
	}
	return job->ret;
}

void nb_job_destroy(struct nb_job *job)
{
	nb_job_finish(job);
	pthread_mutex_destroy(&job->lock);
}
