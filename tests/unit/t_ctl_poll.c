/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's job-polling loop against a real agent on loopback running a small mem probe:
 * it marks until the test's snapshot says done, marks again at once when told there is more,
 * returns -EINTR as soon as the stop flag is set, -ETIMEDOUT (naming the run) past the bound,
 * and hands the test's own error back; and nb_mem_ctl_run drives a whole remote run with it. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "core/mem/mem_ctl.h"
#include "core/mem/mem_wire.h"
#include "core/session/agent.h"
#include "core/session/ctl_poll.h"
#include "core/base/timeutil.h"
#include "tap.h"

static nb_cancel_t agent_stop;

struct agent {
	struct nb_agent_opts opts;
	int fd; /* listening */
};

static void *agent_main(void *arg)
{
	struct agent *a = arg;
	nb_agent_run(a->fd, &a->opts);
	return NULL;
}

struct counter {
	int marks, more, fail;
	bool done_seen;
};

/* Done when the agent's job is; NB_POLL_MORE for the first `more` marks; an error on `fail`. */
static int count_snap(void *arg, const struct nb_msg *snap, char *err, size_t errlen)
{
	struct counter *c = arg;
	uint32_t done = 0;
	c->marks++;
	if (c->fail && c->marks == c->fail) {
		snprintf(err, errlen, "the test's own error");
		return -EPROTO;
	}
	if (nb_msg_get_u32(snap, NB_T_MEM_DONE, &done))
		return -EBADMSG;
	if (c->marks <= c->more)
		return NB_POLL_MORE;
	c->done_seen = done;
	return done ? NB_POLL_DONE : NB_POLL_WAIT;
}

static const struct nb_mem_params small = {
    .min_bytes = 1024, .max_bytes = 65536, .bw_bytes = 1 << 20, .threads = 1, .quick = true};

/* Opens a session and starts a small mem run on the agent; while the agent is still ending the
 * run of a session that went away, it says busy: try again for a few seconds. */
static struct nb_ctl *start_run_as(uint16_t port, struct nb_msg *reply, bool silent)
{
	char err[256] = "";
	for (int tries = 0; tries < 50; tries++) {
		struct nb_ctl *ctl = NULL;
		struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ);
		if (req &&
		    !nb_ctl_open(&ctl, "127.0.0.1", port, AF_INET, NULL, 0, err, sizeof(err))) {
			if (silent) /* a controller that sends no ALIVE (as an attacker's) */
				ctl->caps.quiet_ns = 0;
			nb_msg_put_u32(req, NB_T_TEST_TYPE, NB_TEST_MEM);
			nb_msg_put_u64(req, NB_T_DURATION_NS, nb_mem_budget_ns(&small));
			nb_mem_put_params(req, &small);
			if (!nb_ctl_request(ctl, req, reply, err, sizeof(err)) &&
			    !nb_ctl_start(ctl, err, sizeof(err))) {
				nb_msg_free(req);
				return ctl;
			}
		}
		nb_msg_free(req);
		nb_ctl_free(ctl);
		if (!strstr(err, "busy"))
			break;
		nb_sleep_until_ns(nb_mono_ns() + 100 * NB_NS_PER_MS);
	}
	fprintf(stderr, "# cannot start a run: %s\n", err);
	return NULL;
}

static struct nb_ctl *start_run(uint16_t port, struct nb_msg *reply)
{
	return start_run_as(port, reply, false);
}

int main(void)
{
	/* A quiet limit of 1 s: every wait below marks more often, but the ones that test it. */
	struct agent ag = {
	    .opts = {.policy = {.max_time_ns = 600 * NB_NS_PER_S, .quiet_ns = NB_NS_PER_S}}};
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	struct nb_msg *snap = nb_msg_new(0);
	pthread_t th;
	char err[256];
	int fd = nb_agent_listen("127.0.0.1", 0);

	if (fd < 0 || getsockname(fd, (struct sockaddr *)&sa, &sl) || !snap) {
		tap_skip("no loopback TCP socket here (%s)", strerror(fd < 0 ? -fd : errno));
		return tap_done();
	}
	uint16_t port = ntohs(sa.sin_port);
	ag.fd = fd;
	ag.opts.stop = &agent_stop;
	if (pthread_create(&th, NULL, agent_main, &ag)) {
		tap_skip("no thread for the agent");
		return tap_done();
	}

	/* Marks until done; the first two were told "more" and came at once. */
	struct nb_ctl *ctl = start_run(port, snap);
	struct counter c = {.more = 2};
	struct nb_ctl_poll p = {.every_ns = 100 * NB_NS_PER_MS,
				.bound_ns = 60 * NB_NS_PER_S,
				.what = "the run on the agent",
				.snap = count_snap,
				.arg = &c};
	uint64_t t0;
	int ret = ctl ? nb_ctl_poll(ctl, &p, snap, err, sizeof(err)) : -1;
	CHECK(ret == 0 && c.done_seen && c.marks >= 3, "polls until the job is done (%d, %d marks)",
	      ret, c.marks);
	CHECK(ctl && nb_ctl_stop(ctl, snap, 30000, err, sizeof(err)) == 0, "the run then stops");
	nb_ctl_free(ctl);

	/* The stop flag: -EINTR at once, without a mark. */
	nb_cancel_t stop = 1;
	ctl = start_run(port, snap);
	c = (struct counter){0};
	p.stop = &stop;
	t0 = nb_mono_ns();
	ret = ctl ? nb_ctl_poll(ctl, &p, snap, err, sizeof(err)) : -1;
	CHECK(ret == -EINTR && c.marks == 0 && nb_mono_ns() - t0 < NB_NS_PER_S,
	      "a set stop flag ends the wait at once (%d, %d marks)", ret, c.marks);
	nb_ctl_free(ctl); /* the agent cancels the run */

	/* Past the bound: -ETIMEDOUT, naming what did not end. */
	ctl = start_run(port, snap);
	c = (struct counter){0};
	p.stop = NULL;
	p.bound_ns = 1;
	p.every_ns = 10 * NB_NS_PER_MS;
	err[0] = '\0';
	ret = ctl ? nb_ctl_poll(ctl, &p, snap, err, sizeof(err)) : -1;
	CHECK(ret == -ETIMEDOUT && strstr(err, "the run on the agent did not end within"),
	      "past its bound the wait gives up naming the run (%d: %s)", ret, err);
	nb_ctl_free(ctl);

	/* The test's own error comes back as it is. */
	ctl = start_run(port, snap);
	c = (struct counter){.fail = 1};
	p.bound_ns = 60 * NB_NS_PER_S;
	ret = ctl ? nb_ctl_poll(ctl, &p, snap, err, sizeof(err)) : -1;
	CHECK(ret == -EPROTO && !strcmp(err, "the test's own error"),
	      "the snapshot's error is returned (%d: %s)", ret, err);
	nb_ctl_free(ctl);

	/* The quiet limit: the agent states it, and a controller that waits 2.5 s without a
	 * message of its own is kept by its ALIVE thread; one that sends nothing (ALIVE off) finds
	 * its test ended by rule quiet-time. */
	ctl = start_run(port, snap);
	CHECK(ctl && ctl->caps.quiet_ns == NB_NS_PER_S, "the agent states its quiet limit (1 s)");
	nb_sleep_until_ns(nb_mono_ns() + 2500 * NB_NS_PER_MS);
	ret = ctl ? nb_ctl_mark(ctl, 1, snap, err, sizeof(err)) : -1;
	CHECK(ret == 0, "ALIVE keeps a waiting controller's test past the quiet limit (%d: %s)",
	      ret, ret ? err : "");
	CHECK(ctl && nb_ctl_stop(ctl, snap, 30000, err, sizeof(err)) == 0, "... and it stops");
	nb_ctl_free(ctl);
	ctl = start_run_as(port, snap, true);
	nb_sleep_until_ns(nb_mono_ns() + 2500 * NB_NS_PER_MS);
	err[0] = '\0';
	ret = ctl ? nb_ctl_mark(ctl, 1, snap, err, sizeof(err)) : -1;
	CHECK(ret != 0 && strstr(err, "test stopped by rule quiet-time"),
	      "a silent controller's test is ended by rule quiet-time (%d: %s)", ret, err);
	nb_ctl_free(ctl);

	/* A whole remote run through the driver. */
	struct nb_ctl_target t = {.host = "127.0.0.1", .port = port, .family = AF_INET};
	struct nb_mem_result *r = NULL;
	for (int tries = 0; tries < 50; tries++) {
		ret = nb_mem_ctl_run(&(struct nb_mem_ctl_req){.p = &small, .target = t}, NULL, &r,
				     err, sizeof(err));
		if (!ret || !strstr(err, "busy"))
			break;
		nb_mem_result_free(r); /* the previous session's run is still ending */
		nb_sleep_until_ns(nb_mono_ns() + 100 * NB_NS_PER_MS);
	}
	CHECK(ret == 0 && r && r->n_lat > 0 && r->ctl,
	      "nb_mem_ctl_run brings a result back, with its session (%d: %s)", ret,
	      ret ? err : "");
	nb_mem_result_free(r);

	agent_stop = 1;
	pthread_join(th, NULL);
	close(fd);
	nb_msg_free(snap);
	return tap_done();
}
