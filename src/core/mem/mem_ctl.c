/* SPDX-License-Identifier: BSD-2-Clause */
/* The mem run driven from the controller. On an agent the probe runs as a job: the marks only keep
 * the session live and ask whether it is done; the whole result comes with STOP's reply. */
#include "core/mem/mem_ctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem/mem_wire.h"
#include "core/session/ctl_poll.h"
#include "core/base/timeutil.h"

#define POLL_NS	      (NB_NS_PER_S / 2)
#define STOP_REPLY_MS 30000 /* the run has ended by then: STOP only joins a finished thread */

static int take_snap(void *arg, const struct nb_msg *snap, char *err, size_t errlen)
{
	uint32_t done = 0;
	(void)arg;
	if (nb_msg_get_u32(snap, NB_T_MEM_DONE, &done)) {
		snprintf(err, errlen, "the agent's snapshot says nothing of the run");
		return -EBADMSG;
	}
	return done ? NB_POLL_DONE : NB_POLL_WAIT;
}

static int run_remote(struct nb_ctl *ctl, const struct nb_mem_params *o, struct nb_mem_result **out,
		      char *err, size_t errlen)
{
	struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ), *reply = nb_msg_new(0);
	struct nb_mem_result *got = NULL;
	uint64_t budget_ns = nb_mem_budget_ns(o);
	int ret = -ENOMEM;

	if (!req || !reply) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if ((ret = nb_msg_put_u32(req, NB_T_TEST_TYPE, NB_TEST_MEM)) ||
	    (ret = nb_msg_put_u64(req, NB_T_DURATION_NS, budget_ns)) ||
	    (ret = nb_mem_put_params(req, o))) {
		snprintf(err, errlen, "cannot build the request: %s", strerror(-ret));
		goto out;
	}
	if ((ret = nb_ctl_request(ctl, req, reply, err, errlen)) ||
	    (ret = nb_ctl_start(ctl, err, errlen)))
		goto out;
	const struct nb_ctl_poll poll = {
	    .every_ns = POLL_NS,
	    .bound_ns = budget_ns,
	    .stop = o->stop,
	    .what = "the run on the agent",
	    .snap = take_snap,
	};
	ret = nb_ctl_poll(ctl, &poll, reply, err, errlen);
	if (ret == -EINTR)
		snprintf(err, errlen, "interrupted; the agent cancels the run");
	if (ret)
		goto out;
	if ((ret = nb_ctl_stop(ctl, reply, STOP_REPLY_MS, err, errlen)))
		goto out;
	ret = nb_mem_get_result(reply, &got);
	if (ret) {
		snprintf(err, errlen, "%s",
			 ret == -ENOMEM ? "out of memory" : "malformed result from the agent");
		goto out;
	}
	/* The agent's result takes over the session from the one that held it so far. */
	got->ctl = ctl;
	(*out)->ctl = NULL;
	nb_mem_result_free(*out);
	*out = got;
out:
	nb_msg_free(req);
	nb_msg_free(reply);
	return ret;
}

int nb_mem_ctl_run(const struct nb_mem_ctl_req *req, const struct nb_mem_ctl_cb *cb,
		   struct nb_mem_result **out, char *err, size_t errlen)
{
	struct nb_mem_params p = *req->p;
	int ret;

	*out = NULL;
	if (req->target.host) {
		/* Until the agent's result comes, an empty one holds the session. */
		if (!(*out = calloc(1, sizeof(**out)))) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		ret = nb_ctl_open_target(&(*out)->ctl, &req->target, err, errlen);
		return ret ? ret : run_remote((*out)->ctl, &p, out, err, errlen);
	}
	p.progress = cb ? cb->progress : NULL;
	p.progress_arg = cb ? cb->arg : NULL;
	ret = nb_mem_run(&p, out);
	if (ret)
		snprintf(err, errlen, "the memory probe failed: %s", strerror(-ret));
	return ret;
}
