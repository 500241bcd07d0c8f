/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's job runner (core/session/job.h): a job starts, publishes progress under its lock,
 * ends with its own value, and a cancelled job returns within 1 s. */
#include <errno.h>
#include <time.h>

#include "core/session/job.h"
#include "tap.h"

struct work {
	int steps;    /* to do; 0: until cancelled */
	int progress; /* under the job's lock */
};

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static int work_fn(struct nb_job *job, void *arg)
{
	struct work *w = arg;
	for (int i = 0; !w->steps || i < w->steps; i++) {
		if (nb_job_cancelled(job))
			return -ECANCELED;
		nap_ms(10);
		nb_job_lock(job);
		w->progress = i + 1;
		nb_job_unlock(job);
	}
	return 7;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
	struct nb_job job;
	struct work w = {5, 0};
	int p = 0;

	nb_job_init(&job);
	CHECK(nb_job_finish(&job) == 0, "a job never started finishes with 0");
	CHECK(nb_job_start(&job, work_fn, &w) == 0, "a job starts");
	for (int i = 0; i < 500 && !nb_job_done(&job); i++)
		nap_ms(10);
	CHECK(nb_job_done(&job), "the job says done once its work returned");
	nb_job_lock(&job);
	p = w.progress;
	nb_job_unlock(&job);
	CHECK(p == 5, "its progress is complete (%d of 5)", p);
	CHECK(nb_job_finish(&job) == 7, "finish returns the work's own value");
	nb_job_destroy(&job);

	/* Work that never ends by itself: the cancel ends it within 1 s. */
	struct work forever = {0, 0};
	nb_job_init(&job);
	CHECK(nb_job_start(&job, work_fn, &forever) == 0, "an endless job starts");
	for (int i = 0; i < 500; i++) {
		nb_job_lock(&job);
		p = forever.progress;
		nb_job_unlock(&job);
		if (p >= 3)
			break;
		nap_ms(10);
	}
	CHECK(p >= 3, "progress is seen while the job runs (%d)", p);
	CHECK(!nb_job_done(&job) && !nb_job_cancelled(&job), "running, not cancelled");
	double t0 = now_s();
	int ret = nb_job_finish(&job);
	double took = now_s() - t0;
	CHECK(ret == -ECANCELED, "a cancelled job returns -ECANCELED (%d)", ret);
	CHECK(took < 1.0, "the cancel returns within 1 s (%.3f s)", took);
	CHECK(nb_job_cancelled(&job) && nb_job_done(&job), "cancelled and done afterwards");
	CHECK(nb_job_finish(&job) == -ECANCELED, "finish again: the same value, no second join");
	nb_job_destroy(&job);
	return tap_done();
}
