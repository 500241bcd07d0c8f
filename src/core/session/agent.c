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
#include "core/base/compat.h"
#include "core/base/net.h"
#include "core/base/sha256.h"
#include "core/base/timeutil.h"

#define HANDSHAKE_MS 5000
#define IDLE_MS 30000		     /* between tests of a session */
#define MSG_REST_MS 5000	     /* to receive the rest of a message once it started */
#define STALL_GRACE_NS (10 * NB_NS_PER_S) /* past a test's duration before we give up on STOP */

struct session {
	const struct nb_agent_opts *opts;
	struct nb_agent_ctx ctx;
	int fd;
	char peer_str[64];
	struct nb_msg *in, *out;
	/* the test in progress */
	const struct nb_test_ops *ops;
	void *state;
	uint64_t duration_ns, started_ns;
	bool running;
};

static void logf_(const struct nb_agent_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void logf_(const struct nb_agent_opts *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (!o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->log(o->log_arg, line);
}

int nb_agent_listen(const char *bind_addr, uint16_t port)
{
	return nb_net_listen(bind_addr, port, SOCK_STREAM, 16);
}

int nb_agent_check_target(const struct nb_agent_ctx *ctx, const struct sockaddr *dst, char *err,
			  size_t errlen)
{
	char a[64], b[64];
	if (ctx->policy->allow_any_target || nb_net_same_host(dst, (const struct sockaddr *)&ctx->peer))
		return 0;
	nb_net_addr_str(dst, false, a, sizeof(a));
	nb_net_addr_str((const struct sockaddr *)&ctx->peer, false, b, sizeof(b));
	snprintf(err, errlen,
		 "refused by rule target: traffic to %s is not allowed, only to the controller %s "
		 "(start the agent with --allow-target-any to widen this)",
		 a, b);
	return -EPERM;
}

int nb_agent_check_caps(const struct nb_agent_ctx *ctx, uint64_t duration_ns, uint64_t rate_bps,
			char *err, size_t errlen)
{
	const struct nb_agent_policy *p = ctx->policy;
	if (p->max_time_ns && duration_ns > p->max_time_ns) {
		snprintf(err, errlen, "refused by rule max-time: %.1f s asked, at most %.1f s",
			 (double)duration_ns / 1e9, (double)p->max_time_ns / 1e9);
		return -EPERM;
	}
	if (p->max_rate_bps && (rate_bps == 0 || rate_bps > p->max_rate_bps)) {
		char asked[32];
		if (rate_bps)
			snprintf(asked, sizeof(asked), "%.3f Mbit/s", (double)rate_bps / 1e6);
		else
			snprintf(asked, sizeof(asked), "an unlimited rate");
		snprintf(err, errlen, "refused by rule max-rate: %s asked, at most %.3f Mbit/s", asked,
			 (double)p->max_rate_bps / 1e6);
		return -EPERM;
	}
	return 0;
}

static int refuse(struct session *s, int code, const char *text)
{
	logf_(s->opts, "%s: %s", s->peer_str, text);
	nb_msg_send_error(s->fd, code, "%s", text);
	return -EPERM;
}

static int handshake(struct session *s)
{
	const struct nb_agent_policy *p = s->ctx.policy;
	uint8_t cnonce[NB_NONCE_LEN], snonce[NB_NONCE_LEN], proof[32];
	const uint8_t *b;
	size_t n;
	uint32_t version = 0;
	struct nb_sysinfo si;
	char text[256];
	int ret = nb_msg_recv(s->fd, s->in, HANDSHAKE_MS);

	if (ret)
		return ret;
	if (s->in->type != NB_MSG_HELLO || nb_msg_get_u32(s->in, NB_T_PROTO_VERSION, &version) ||
	    nb_msg_get_bytes(s->in, NB_T_NONCE, &b, &n) || n != NB_NONCE_LEN)
		return refuse(s, EBADMSG, "malformed HELLO");
	if (version != NB_PROTO_VERSION) {
		snprintf(text, sizeof(text),
			 "incompatible protocol: controller speaks version %u, agent speaks version %u",
			 version, NB_PROTO_VERSION);
		return refuse(s, EPROTONOSUPPORT, text);
	}
	memcpy(cnonce, b, NB_NONCE_LEN);
	if ((ret = nb_random_bytes(snonce, sizeof(snonce))))
		return ret;
	nb_sysinfo_get(&si, (const struct sockaddr *)&s->ctx.local);
	nb_msg_reset(s->out, NB_MSG_HELLO_OK);
	nb_msg_put_u32(s->out, NB_T_PROTO_VERSION, NB_PROTO_VERSION);
	nb_msg_put_str(s->out, NB_T_SW_VERSION, NB_VERSION);
	nb_msg_put_bytes(s->out, NB_T_NONCE, snonce, sizeof(snonce));
	nb_msg_put_u32(s->out, NB_T_AUTH_REQUIRED, p->psk_len ? 1 : 0);
	nb_proto_put_sysinfo(s->out, &si);
	if ((ret = nb_msg_send(s->fd, s->out)))
		return ret;
	if (!p->psk_len)
		return 0;
	ret = nb_msg_recv(s->fd, s->in, HANDSHAKE_MS);
	if (ret)
		return ret;
	nb_auth_proof(p->psk, p->psk_len, "controller", cnonce, snonce, proof);
	if (s->in->type != NB_MSG_AUTH || nb_msg_get_bytes(s->in, NB_T_PROOF, &b, &n) ||
	    n != sizeof(proof) || !nb_ct_equal(b, proof, sizeof(proof)))
		return refuse(s, EACCES, "refused by rule psk: the controller did not prove the key");
	nb_auth_proof(p->psk, p->psk_len, "agent", cnonce, snonce, proof);
	nb_msg_reset(s->out, NB_MSG_AUTH_OK);
	nb_msg_put_bytes(s->out, NB_T_PROOF, proof, sizeof(proof));
	return nb_msg_send(s->fd, s->out);
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
	if (s->ops && s->state)
		s->ops->free(s->state);
	s->ops = NULL;
	s->state = NULL;
	s->running = false;
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
		return refuse(s, EBADMSG, "malformed TEST_REQ: test type and duration are required");
	s->ops = find_ops(type);
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
		return refuse(s, -ret, err[0] ? err : "test setup failed");
	}
	return nb_msg_send(s->fd, s->out);
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

static int on_message(struct session *s, bool *done)
{
	char err[512] = "";
	uint32_t mark = 0;
	int ret;

	switch (s->in->type) {
	case NB_MSG_TEST_REQ:
		return on_request(s);
	case NB_MSG_START:
		if (!s->ops || s->running)
			return refuse(s, EPROTO, "START without a test set up");
		ret = s->ops->start(s->state, err, sizeof(err));
		if (ret)
			return refuse(s, -ret, err[0] ? err : "test start failed");
		s->running = true;
		s->started_ns = nb_mono_ns();
		nb_msg_reset(s->out, NB_MSG_TEST_ACK);
		return nb_msg_send(s->fd, s->out);
	case NB_MSG_MARK:
		if (!s->running)
			return refuse(s, EPROTO, "MARK without a running test");
		nb_msg_get_u32(s->in, NB_T_MARK_ID, &mark);
		if ((ret = put_snapshot(s, NB_MSG_SNAP)))
			return ret;
		nb_msg_put_u32(s->out, NB_T_MARK_ID, mark);
		return nb_msg_send(s->fd, s->out);
	case NB_MSG_STOP:
		if (!s->running)
			return refuse(s, EPROTO, "STOP without a running test");
		if ((ret = put_snapshot(s, NB_MSG_FINAL)))
			return ret;
		ret = s->ops->stop(s->state, s->out, err, sizeof(err));
		char what[128] = "";
		if (s->ops->describe)
			s->ops->describe(s->state, what, sizeof(what));
		logf_(s->opts, "%s: %s test%s%s, %.1f s%s%s", s->peer_str, s->ops->name,
		      what[0] ? " " : "", what,
		      (double)(nb_mono_ns() - s->started_ns) / 1e9, ret ? ": " : "", ret ? err : "");
		if (ret) {
			end_test(s);
			return refuse(s, -ret, err[0] ? err : "test stop failed");
		}
		end_test(s);
		return nb_msg_send(s->fd, s->out);
	case NB_MSG_BYE:
		*done = true;
		return 0;
	default:
		return refuse(s, EPROTO, "unexpected message");
	}
}

static void turn_away(int listen_fd, const struct nb_agent_opts *opts)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char who[64], junk[512];
	struct pollfd p;
	int fd = accept4(listen_fd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* Read the controller's HELLO first (it is normally there already): closing a socket with
	 * unread data sends a reset, which could overtake our answer. Bounded, so that the
	 * running test's marks are answered on time. */
	p.fd = fd;
	p.events = POLLIN;
	if (poll(&p, 1, 100) > 0)
		while (recv(fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
			;
	nb_net_set_timeout_ms(fd, SO_SNDTIMEO, 1000);
	nb_msg_send_error(fd, EBUSY, "agent busy: another controller's test is running, try later");
	shutdown(fd, SHUT_WR);
	nb_net_addr_str((struct sockaddr *)&ss, true, who, sizeof(who));
	logf_(opts, "%s: turned away, busy", who);
	close(fd);
}

/* Runs one session to its end. Returns 1 when a test ran, 0 otherwise. */
static int session(int fd, int listen_fd, const struct nb_agent_opts *opts)
{
	struct session s = {.opts = opts, .fd = fd};
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
	if (!s.in || !s.out)
		goto out;
	ret = handshake(&s);
	if (ret) {
		if (ret != -EPERM)
			logf_(opts, "%s: handshake failed: %s", s.peer_str,
			      ret == -EBADMSG ? "garbage from the controller" : strerror(-ret));
		goto out;
	}
	while (!done && !*opts->stop) {
		struct pollfd p[2] = {{.fd = fd, .events = POLLIN}, {.fd = listen_fd, .events = POLLIN}};
		uint64_t now = nb_mono_ns();
		int r;
		if (s.running && now > s.started_ns + s.duration_ns + STALL_GRACE_NS) {
			logf_(opts, "%s: controller stalled past the test's duration; test stopped",
			      s.peer_str);
			break;
		}
		r = poll(p, 2, 200);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (p[1].revents & POLLIN))
			turn_away(listen_fd, opts);
		if (r <= 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			if (!s.running && nb_mono_ns() - last_ns > (uint64_t)IDLE_MS * NB_NS_PER_MS) {
				logf_(opts, "%s: session idle too long; closed", s.peer_str);
				break;
			}
			continue;
		}
		last_ns = nb_mono_ns();
		ret = nb_msg_recv(fd, s.in, MSG_REST_MS);
		if (ret) {
			logf_(opts, "%s: session ended: %s", s.peer_str,
			      ret == -ECONNRESET ? "controller disconnected"
			      : ret == -EBADMSG	 ? "garbage from the controller"
			      : ret == -ETIMEDOUT ? "controller stalled mid-message"
						  : strerror(-ret));
			break;
		}
		bool was_running = s.running;
		ret = on_message(&s, &done);
		if (was_running && !s.running)
			tests++;
		if (ret)
			break;
	}
out:
	end_test(&s);
	nb_msg_free(s.in);
	nb_msg_free(s.out);
	close(fd);
	return tests > 0;
}

int nb_agent_run(int listen_fd, const struct nb_agent_opts *opts)
{
	while (!*opts->stop) {
		struct pollfd p = {.fd = listen_fd, .events = POLLIN};
		int fd, r = poll(&p, 1, 500);
		if (r <= 0)
			continue;
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		if (session(fd, listen_fd, opts) && opts->once)
			break;
	}
	return 0;
}
