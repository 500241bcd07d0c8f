/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem on the agent's side: the test kind that runs the probe in a job (a thread of its
 * own), so that the control loop stays free for marks, a second controller's "busy" and a
 * vanished controller. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem/mem_wire.h"
#include "core/session/agent.h"
#include "core/session/job.h"

/* The agent's test state: the run's thread and what it leaves. */
struct mem_agent {
	struct nb_mem_params opts;
	struct nb_job job; /* the run; its cancel flag is opts.stop */
	struct nb_mem_result *result;
};

static int mem_job(struct nb_job *job, void *arg)
{
	struct mem_agent *a = arg;
	(void)job;
	return nb_mem_run(&a->opts, &a->result);
}

static void mem_free(void *state)
{
	struct mem_agent *a = state;
	if (!a)
		return;
	/* The controller left before STOP: end the run at its next point rather than finish a
	 * measurement no one will read. */
	nb_job_destroy(&a->job);
	nb_mem_result_free(a->result);
	free(a);
}

static int mem_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		     struct nb_msg *ack, char *err, size_t errlen)
{
	struct mem_agent *a = calloc(1, sizeof(*a));
	char why[256];
	int ret = -ENOMEM;

	if (!a)
		goto fail;
	nb_job_init(&a->job);
	ret = nb_mem_get_params(req, &a->opts);
	if (ret) {
		snprintf(err, errlen, "malformed mem request");
		goto fail;
	}
	ret = nb_mem_params_check(&a->opts, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "mem request out of range: %s", why);
		goto fail;
	}
	/* The agent judges the run by its own estimate, not by the duration the request
	 * claims: a run that may outlast --max-time is refused before it starts. */
	if (ctx->policy->max_time_ns && nb_mem_budget_ns(&a->opts) > ctx->policy->max_time_ns) {
		snprintf(err, errlen,
			 "refused by rule max-time: a mem run with these sizes may take %.0f s, at "
			 "most %.1f s",
			 (double)nb_mem_budget_ns(&a->opts) / 1e9,
			 (double)ctx->policy->max_time_ns / 1e9);
		ret = -EPERM;
		goto fail;
	}
	a->opts.cpu_mhz = 0; /* the agent's own clock, looked up by the run */
	a->opts.stop = nb_job_cancel_flag(&a->job);
	*state = a;
	return 0;
fail:
	mem_free(a);
	return ret;
}

static int mem_start(void *state, char *err, size_t errlen)
{
	struct mem_agent *a = state;
	int ret = nb_job_start(&a->job, mem_job, a);
	if (ret) {
		snprintf(err, errlen, "cannot start the memory probe: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static int mem_snapshot(void *state, struct nb_msg *snap)
{
	struct mem_agent *a = state;
	return nb_msg_put_u32(snap, NB_T_MEM_DONE, nb_job_done(&a->job) ? 1 : 0);
}

static int mem_stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct mem_agent *a = state;
	int ret;

	/* The controller stops once a mark said done; an early STOP (or the agent's max-time)
	 * cancels the run, which ends at its next check, well within a second. */
	ret = nb_job_finish(&a->job);
	if (!ret && a->result && a->result->interrupted)
		ret = -ECANCELED; /* cut short by the stop: no result to send */
	if (ret) {
		snprintf(err, errlen, "the memory probe failed on the agent: %s", strerror(-ret));
		return ret;
	}
	ret = nb_mem_put_result(final, a->result);
	if (ret)
		snprintf(err, errlen, "cannot report the memory probe's result: %s",
			 strerror(-ret));
	return ret;
}

const struct nb_test_ops nb_mem_ops = {
    .type = NB_TEST_MEM,
    .name = "mem",
    .setup = mem_setup,
    .start = mem_start,
    .snapshot = mem_snapshot,
    .stop = mem_stop,
    .free = mem_free,
};
