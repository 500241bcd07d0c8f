/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's control loop: one session at a time; a second controller gets a "busy" error at
 * once instead of hanging. Every read has a timeout, every message is validated, and a session
 * that breaks (disconnect, stall, garbage) is torn down with its test while the agent goes on
 * serving. Tests run through the nb_test_ops table; the agent adds its CPU sample to every
 * snapshot so that each end's load covers exactly the measurement window. */
#include "core/session/agent.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/session/auth.h"
#include "core/session/gate.h"
#include "core/session/watchdog.h"
#include "core/base/compat.h"
#include "core/base/net.h"
#include "core/base/sha256.h"
#include "core/base/timeutil.h"

#define IDLE_MS	    30000 /* between tests of a session */
#define MSG_REST_MS 5000  /* to receive the rest of a message once it started */
#define STALL_GRACE_NS                                                                             \
	(10 * NB_NS_PER_S) /* past a test's duration before we give up on STOP,                    \
			    * never past --max-time */
#define LINGER_MS 200
/* After the test's limit, the max-time timer cuts the control connection this much later if
 * the session has not ended the test by then (its thread is held in a read or a write); the
 * answer saying which rule ended the test must be written within LIMIT_SEND_MS. */
#define CUT_AFTER_NS  (400 * NB_NS_PER_MS)
#define LIMIT_SEND_MS 300

struct session {
	const struct nb_agent_opts *opts;
	struct nb_gate *gate;
	struct nb_agent_ctx ctx;
	int fd;
	char peer_str[64];
	struct nb_msg *in, *out;
	/* the test in progress */
	const struct nb_test_ops *ops;
	void *state;
	uint64_t duration_ns, started_ns;
	bool running;
	struct nb_watchdog *wd; /* the running test's max-time timer */
	char why[320]; /* why the session ends: the first reason given is logged at close */
};

static void set_why(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_why(struct session *s, const char *fmt, ...)
{
	va_list ap;
	if (s->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

/* A reply could not be sent: the session ends, and the log says which reply and why. */
static int send_or_why(struct session *s, const char *what)
{
	int ret = nb_msg_send(s->fd, s->out);
	if (ret)
		set_why(s, "cannot send %s to the controller: %s", what, strerror(-ret));
	return ret;
}

int nb_agent_listen(const char *bind_addr, uint16_t port)
{
	/* A deep accept queue: connections flooding from many addresses must not fill it, or a
	 * controller's SYN is dropped and retried a second later (the gate shares its handshake
	 * slots fairly, but only among connections it has accepted). The kernel caps it at
	 * net.core.somaxconn. */
	return nb_net_listen(bind_addr, port, SOCK_STREAM, 1024);
}

static int refuse(struct session *s, int code, const char *text)
{
	set_why(s, "%s", text);
	nb_msg_send_error(s->fd, code, "%s", text);
	return -EPERM;
}

static const struct nb_test_ops *find_ops(uint32_t type)
{
	for (size_t i = 0; nb_agent_tests[i]; i++)
		if (nb_agent_tests[i]->type == type)
			return nb_agent_tests[i];
	return NULL;
}

static void end_test(struct session *s)
{
	bool cut = false;
	/* The timer first: it may call the test's halt until it is joined. */
	nb_watchdog_stop(s->wd, NULL, &cut);
	s->wd = NULL;
	if (cut)
		snprintf(
		    s->why, sizeof(s->why),
		    "test stopped by rule max-time: it ran %.1f s, and the control connection "
		    "was closed %.1f s later (the controller did not take the agent's answers, "
		    "or a message of its own stalled)",
		    (double)(nb_mono_ns() - s->started_ns) / 1e9, (double)CUT_AFTER_NS / 1e9);
	/* Tearing down a test (a cancelled mem run, a draining receiver) may take up to a
	 * second: a controller arriving meanwhile waits for it rather than hearing "busy". */
	if (s->gate)
		nb_gate_set_testing(s->gate, false);
	if (s->ops && s->state)
		s->ops->free(s->state);
	s->ops = NULL;
	s->state = NULL;
	s->running = false;
	if (s->gate)
		nb_gate_set_testing(s->gate, false);
}

/* The acknowledgements of a request and of START carry a CPU sample too: between the two, the
 * test is set up and idle, and a controller may measure the idle baseline over that span.
 * Controllers that do not look for it ignore the item. */
static int put_idle_cpu(struct session *s)
{
	struct nb_cpu_sample *cpu = malloc(sizeof(*cpu));
	int ret = -ENOMEM;
	if (cpu && (ret = nb_cpu_sample_now(cpu)) == 0)
		ret = nb_proto_put_cpu(s->out, cpu);
	free(cpu);
	if (ret)
		set_why(s, "cannot sample the CPU for the acknowledgement: %s", strerror(-ret));
	return ret;
}

static int on_request(struct session *s)
{
	char err[512] = "";
	uint32_t type = 0;
	int ret;

	if (s->ops)
		return refuse(s, EBUSY, "a test is already set up in this session");
	if (nb_msg_get_u32(s->in, NB_T_TEST_TYPE, &type) ||
	    nb_msg_get_u64(s->in, NB_T_DURATION_NS, &s->duration_ns))
		return refuse(s, EBADMSG,
			      "malformed TEST_REQ: test type and duration are required");
	s->ops = find_ops(type);
	if (s->ops)
		nb_gate_set_testing(s->gate, true);
	if (!s->ops) {
		snprintf(err, sizeof(err), "unknown test type %u (this agent is netbench %s)", type,
			 NB_VERSION);
		return refuse(s, EPROTONOSUPPORT, err);
	}
	ret = nb_agent_check_caps(&s->ctx, s->duration_ns, 1, err, sizeof(err));
	if (!ret) {
		nb_msg_reset(s->out, NB_MSG_TEST_ACK);
		ret = s->ops->setup(&s->ctx, s->in, &s->state, s->out, err, sizeof(err));
	}
	if (ret) {
		s->state = NULL;
		s->ops = NULL;
		nb_gate_set_testing(s->gate, false);
		return refuse(s, -ret, err[0] ? err : "test setup failed");
	}
	if ((ret = put_idle_cpu(s)))
		return ret;
	return send_or_why(s, "TEST_ACK");
}

static int put_snapshot(struct session *s, uint16_t type)
{
	struct nb_cpu_sample *cpu = malloc(sizeof(*cpu));
	int ret = -ENOMEM;
	if (!cpu)
		return ret;
	nb_msg_reset(s->out, type);
	/* Counters first, CPU right after: both describe the same instant as closely as we can. */
	ret = type == NB_MSG_SNAP ? s->ops->snapshot(s->state, s->out) : 0;
	if (!ret && (ret = nb_cpu_sample_now(cpu)) == 0) {
		nb_msg_put_u64(s->out, NB_T_MONO_NS, cpu->mono_ns);
		ret = nb_proto_put_cpu(s->out, cpu);
	}
	free(cpu);
	return ret;
}

static uint64_t test_limit_ns(const struct session *s);

static int on_message(struct session *s, bool *done)
{
	char err[512] = "";
	uint32_t mark = 0, edge = 0;
	int ret;

	switch (s->in->type) {
	case NB_MSG_TEST_REQ:
		return on_request(s);
	case NB_MSG_START:
		if (!s->ops || s->running)
			return refuse(s, EPROTO, "START without a test set up");
		/* Sampled before the test starts: the end of the idle span. */
		nb_msg_reset(s->out, NB_MSG_TEST_ACK);
		if ((ret = put_idle_cpu(s)))
			return ret;
		ret = s->ops->start(s->state, err, sizeof(err));
		if (ret)
			return refuse(s, -ret, err[0] ? err : "test start failed");
		s->running = true;
		s->started_ns = nb_mono_ns();
		/* The rule holds whatever this thread does from here on. */
		uint64_t halt_ns = s->started_ns + test_limit_ns(s);
		if (halt_ns < s->started_ns)
			halt_ns = UINT64_MAX;
		if ((ret = nb_watchdog_start(
			 &s->wd, halt_ns,
			 halt_ns > UINT64_MAX - CUT_AFTER_NS ? UINT64_MAX : halt_ns + CUT_AFTER_NS,
			 s->fd, s->ops->halt, s->state))) {
			set_why(s, "cannot start the max-time timer: %s", strerror(-ret));
			return ret;
		}
		return send_or_why(s, "the START acknowledgement");
	case NB_MSG_MARK:
		if (!s->running)
			return refuse(s, EPROTO, "MARK without a running test");
		nb_msg_get_u32(s->in, NB_T_MARK_ID, &mark);
		if (nb_msg_get_u32(s->in, NB_T_MARK_EDGE, &edge) ||
		    (edge != NB_MARK_OPENS && edge != NB_MARK_CLOSES))
			edge = 0;
		if (edge && s->ops->edge)
			s->ops->edge(s->state, edge, false);
		ret = put_snapshot(s, NB_MSG_SNAP);
		if (!ret && edge && s->ops->edge)
			s->ops->edge(s->state, edge, true);
		if (ret) {
			set_why(s, "cannot take the snapshot for mark %u: %s", mark,
				strerror(-ret));
			return ret;
		}
		nb_msg_put_u32(s->out, NB_T_MARK_ID, mark);
		return send_or_why(s, "a snapshot");
	case NB_MSG_STOP:
		if (!s->running)
			return refuse(s, EPROTO, "STOP without a running test");
		if ((ret = put_snapshot(s, NB_MSG_FINAL))) {
			set_why(s, "cannot take the final snapshot: %s", strerror(-ret));
			return ret;
		}
		ret = s->ops->stop(s->state, s->out, err, sizeof(err));
		char what[128] = "";
		if (s->ops->describe)
			s->ops->describe(s->state, what, sizeof(what));
		nb_agent_log(s->opts, "%s: %s test%s%s, %.1f s%s%s", s->peer_str, s->ops->name,
			     what[0] ? " " : "", what, (double)(nb_mono_ns() - s->started_ns) / 1e9,
			     ret ? ": " : "", ret ? err : "");
		if (ret) {
			end_test(s);
			return refuse(s, -ret, err[0] ? err : "test stop failed");
		}
		end_test(s);
		return send_or_why(s, "the final snapshot");
	case NB_MSG_ALIVE:
		/* The controller is still there while its test runs: nothing to answer. */
		return 0;
	case NB_MSG_BYE:
		set_why(s, "the controller said goodbye");
		*done = true;
		return 0;
	default:
		return refuse(s, EPROTO, "unexpected message");
	}
}

/* How long the running test may last from START: what it asked plus a grace for a slow STOP,
 * never beyond --max-time. */
static uint64_t test_limit_ns(const struct session *s)
{
	uint64_t cap = s->ctx.policy->max_time_ns, limit = s->duration_ns + STALL_GRACE_NS;
	if (limit < s->duration_ns)
		limit = UINT64_MAX;
	return cap && limit > cap ? cap : limit;
}

/* The test reached its limit without STOP, or its controller fell quiet (quiet): its workers
 * are stopped and its sockets closed now, and the controller is told which rule ended it. */
static void stop_at_limit(struct session *s, bool quiet)
{
	char err[512] = "", text[256], junk[512];
	uint64_t ran_ns = nb_mono_ns() - s->started_ns;
	struct pollfd p = {.fd = s->fd, .events = POLLIN};

	nb_msg_reset(s->out, NB_MSG_FINAL);
	s->ops->stop(s->state, s->out, err, sizeof(err));
	end_test(s);
	if (quiet)
		snprintf(text, sizeof(text),
			 "test stopped by rule quiet-time: the controller sent nothing for %.1f s "
			 "while it ran (%.1f s)",
			 s->ctx.policy->quiet_ns / 1e9, ran_ns / 1e9);
	else if (s->ctx.policy->max_time_ns && test_limit_ns(s) == s->ctx.policy->max_time_ns)
		snprintf(text, sizeof(text),
			 "test stopped by rule max-time: it ran %.1f s, at most %.1f s",
			 ran_ns / 1e9, s->ctx.policy->max_time_ns / 1e9);
	else
		snprintf(
		    text, sizeof(text),
		    "test stopped: no STOP from the controller %.1f s past the test's duration",
		    STALL_GRACE_NS / 1e9);
	set_why(s, "%s", text);
	/* A controller that does not read gets no more than a moment: the agent is free for the
	 * next one within a second of the limit. */
	nb_msg_send_error_by(s->fd, nb_mono_ns() + LIMIT_SEND_MS * NB_NS_PER_MS, ETIMEDOUT, "%s",
			     text);
	shutdown(s->fd, SHUT_WR);
	/* Read what the controller still sends for a moment, so that closing does not reset the
	 * connection under the answer. */
	for (uint64_t until = nb_mono_ns() + LINGER_MS * NB_NS_PER_MS;
	     nb_mono_ns() < until && poll(&p, 1, LINGER_MS) > 0;)
		if (recv(s->fd, junk, sizeof(junk), MSG_DONTWAIT) <= 0)
			break;
}

/* Runs one session to its end. Returns 1 when a test ran, 0 otherwise. */
static int session(int fd, const struct nb_agent_opts *opts, struct nb_gate *g)
{
	struct session s = {.opts = opts, .fd = fd, .gate = g};
	bool done = false;
	int tests = 0, ret;
	uint64_t last_ns = nb_mono_ns();

	s.ctx.policy = &opts->policy;
	s.ctx.peer_len = sizeof(s.ctx.peer);
	s.ctx.local_len = sizeof(s.ctx.local);
	getpeername(fd, (struct sockaddr *)&s.ctx.peer, &s.ctx.peer_len);
	getsockname(fd, (struct sockaddr *)&s.ctx.local, &s.ctx.local_len);
	nb_net_addr_str((struct sockaddr *)&s.ctx.peer, true, s.peer_str, sizeof(s.peer_str));
	nb_net_set_timeout_ms(fd, SO_SNDTIMEO, 10000);
	s.in = nb_msg_new(0);
	s.out = nb_msg_new(0);
	if (!s.in || !s.out) {
		set_why(&s, "out of memory");
		goto out;
	}
	while (!done && !*opts->stop) {
		struct pollfd p[1] = {{.fd = fd, .events = POLLIN}};
		uint64_t now = nb_mono_ns(), end_ns = s.started_ns + test_limit_ns(&s);
		/* While a test runs, its limit and a message wake the session, and a signal
		 * interrupts poll (this is the main thread): each extra wake-up is charged to the
		 * test's window (an observer on a slow board). */
		int r, wait_ms = s.running ? 1000 : 200;
		if (s.running && now >= end_ns) {
			stop_at_limit(&s, false);
			tests++;
			break;
		}
		/* A controller that fell silent while its test runs (it sends ALIVE, or a message
		 * of the test, well within the limit) holds the test's ports and sockets for
		 * nothing: the test ends, and the agent serves the next controller. */
		if (s.running && s.ctx.policy->quiet_ns && now - last_ns > s.ctx.policy->quiet_ns) {
			stop_at_limit(&s, true);
			tests++;
			break;
		}
		if (s.running && (end_ns - now) / NB_NS_PER_MS < (uint64_t)wait_ms)
			wait_ms = (int)((end_ns - now) / NB_NS_PER_MS) + 1;
		r = poll(p, 1, wait_ms);
		if (r < 0 && errno != EINTR) {
			set_why(&s, "poll failed: %s", strerror(errno));
			break;
		}
		if (r <= 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			if (!s.running &&
			    nb_mono_ns() - last_ns > (uint64_t)IDLE_MS * NB_NS_PER_MS) {
				set_why(&s, "session idle too long (%d s without a message)",
					IDLE_MS / 1000);
				break;
			}
			continue;
		}
		last_ns = nb_mono_ns();
		ret = nb_msg_recv(fd, s.in, MSG_REST_MS);
		if (ret) {
			set_why(&s, "%s",
				ret == -ECONNRESET  ? "controller disconnected"
				: ret == -EBADMSG   ? "garbage from the controller"
				: ret == -ETIMEDOUT ? "controller stalled mid-message"
						    : strerror(-ret));
			break;
		}
		bool was_running = s.running;
		ret = on_message(&s, &done);
		if (was_running && !s.running)
			tests++;
		if (ret) {
			set_why(&s, "%s", strerror(ret < 0 ? -ret : ret));
			break;
		}
	}
	if (*opts->stop)
		set_why(&s, "the agent is stopping");
out:
	end_test(&s); /* first: a test cut at its limit says so in the reason */
	set_why(&s, "unknown reason");
	nb_agent_log(opts, "%s: session closed: %s", s.peer_str, s.why);
	nb_msg_free(s.in);
	nb_msg_free(s.out);
	close(fd);
	return tests > 0;
}

int nb_agent_run(int listen_fd, const struct nb_agent_opts *opts)
{
	struct nb_gate *g;
	int ret = nb_gate_new(&g, listen_fd, opts);

	if (ret)
		return ret;
	while (!*opts->stop) {
		int fd = nb_gate_next(g, 500);
		if (fd < 0)
			continue;
		bool ran = session(fd, opts, g);
		nb_gate_release(g);
		if (ran && opts->once)
			break;
	}
	nb_gate_free(g);
	return 0;
}
