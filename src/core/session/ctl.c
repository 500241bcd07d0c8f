/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's end of the control connection: handshake with version check and optional
 * mutual pre-shared-key proof, then the messages that drive one test at a time. */
#include "core/session/ctl.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/session/auth.h"
#include "core/base/net.h"
#include "core/base/sha256.h"
#include "core/base/timeutil.h"

#define CONNECT_MS 5000
#define REPLY_MS   10000

/* Every message the controller sends goes through here: the ALIVE thread sends too. */
static int ctl_send(struct nb_ctl *c, const struct nb_msg *m)
{
	int ret;
	pthread_mutex_lock(&c->send_mu);
	ret = nb_msg_send(c->fd, m);
	pthread_mutex_unlock(&c->send_mu);
	return ret;
}

static void *alive_main(void *arg)
{
	struct nb_ctl *c = arg;
	uint64_t every_ns = c->caps.quiet_ns / 3;

	if (every_ns < 100 * NB_NS_PER_MS)
		every_ns = 100 * NB_NS_PER_MS;
	pthread_mutex_lock(&c->send_mu);
	while (!c->alive_stop) {
		struct timespec now, until;
		clock_gettime(CLOCK_MONOTONIC, &now);
		uint64_t at = (uint64_t)now.tv_sec * NB_NS_PER_S + (uint64_t)now.tv_nsec + every_ns;
		until.tv_sec = (time_t)(at / NB_NS_PER_S);
		until.tv_nsec = (long)(at % NB_NS_PER_S);
		if (pthread_cond_timedwait(&c->alive_cv, &c->send_mu, &until) == 0 || c->alive_stop)
			continue;
		/* A failed send is the main thread's to see, on its next message. */
		(void)nb_msg_send(c->fd, c->alive_msg);
	}
	pthread_mutex_unlock(&c->send_mu);
	return NULL;
}

static void alive_begin(struct nb_ctl *c)
{
	if (c->alive_on || !c->caps.quiet_ns || !c->alive_msg)
		return;
	sigset_t all, old;
	c->alive_stop = false;
	/* Signals stay the main thread's (an interrupt must cut its waits short). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	c->alive_on = pthread_create(&c->alive_thread, NULL, alive_main, c) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void alive_end(struct nb_ctl *c)
{
	if (!c->alive_on)
		return;
	pthread_mutex_lock(&c->send_mu);
	c->alive_stop = true;
	pthread_cond_signal(&c->alive_cv);
	pthread_mutex_unlock(&c->send_mu);
	pthread_join(c->alive_thread, NULL);
	c->alive_on = false;
}

void nb_ctl_free(struct nb_ctl *ctl)
{
	if (!ctl)
		return;
	alive_end(ctl);
	if (ctl->fd >= 0) {
		nb_msg_reset(ctl->msg, NB_MSG_BYE);
		nb_msg_send(ctl->fd, ctl->msg);
		close(ctl->fd);
	}
	nb_msg_free(ctl->msg);
	nb_msg_free(ctl->alive_msg);
	pthread_cond_destroy(&ctl->alive_cv);
	pthread_mutex_destroy(&ctl->send_mu);
	free(ctl);
}

uint16_t nb_ctl_port(const struct nb_ctl *ctl)
{
	return nb_net_port((const struct sockaddr *)&ctl->peer);
}

/* A send failed during the handshake. An agent that turns us away (busy, or a refusal) sends
 * its reason and closes without reading the rest of what we send, which resets the connection
 * under our send: the reason is still waiting in the receive queue, and it is what the user
 * needs to see rather than "broken pipe". */
static int lost(struct nb_ctl *c, int ret, char *err, size_t errlen)
{
	if (nb_msg_expect(c->fd, c->msg, NB_MSG_HELLO_OK, 1000, err, errlen) == -EPROTO)
		return -EPROTO;
	snprintf(err, errlen, "lost the agent during the handshake: %s", strerror(-ret));
	return ret;
}

/* The caps the agent states (an older agent states none: caps.known stays false, and each
 * test is judged by the agent alone, as before). */
static int get_caps(struct nb_ctl *c, char *err, size_t errlen)
{
	if (nb_caps_get(c->msg, &c->caps)) {
		snprintf(err, errlen, "malformed caps in the agent's handshake reply");
		return -EBADMSG;
	}
	return 0;
}

static int handshake(struct nb_ctl *c, const uint8_t *cnonce, const uint8_t *psk, size_t psk_len,
		     char *err, size_t errlen)
{
	uint8_t snonce[NB_NONCE_LEN], proof[32];
	const uint8_t *b;
	size_t n;
	uint32_t version = 0, auth = 0;
	int ret;

	nb_msg_reset(c->msg, NB_MSG_HELLO);
	nb_msg_put_u32(c->msg, NB_T_PROTO_VERSION, NB_PROTO_VERSION);
	nb_msg_put_str(c->msg, NB_T_SW_VERSION, NB_VERSION);
	nb_msg_put_bytes(c->msg, NB_T_NONCE, cnonce, NB_NONCE_LEN);
	if ((ret = nb_msg_send(c->fd, c->msg)))
		return lost(c, ret, err, errlen);
	if ((ret = nb_msg_expect(c->fd, c->msg, NB_MSG_HELLO_OK, REPLY_MS, err, errlen)))
		return ret;
	if (nb_msg_get_u32(c->msg, NB_T_PROTO_VERSION, &version) ||
	    nb_msg_get_bytes(c->msg, NB_T_NONCE, &b, &n) || n != NB_NONCE_LEN) {
		snprintf(err, errlen, "malformed HELLO_OK from the agent");
		return -EBADMSG;
	}
	if (version != NB_PROTO_VERSION) {
		snprintf(
		    err, errlen,
		    "incompatible protocol: controller speaks version %u, agent speaks version %u",
		    NB_PROTO_VERSION, version);
		return -EPROTONOSUPPORT;
	}
	memcpy(snonce, b, NB_NONCE_LEN);
	nb_msg_get_u32(c->msg, NB_T_AUTH_REQUIRED, &auth);
	if (!auth && psk_len) {
		/* An agent that does not ask for the key cannot prove it: with --psk we talk only
		 * to the agent that holds it, never to one that merely says none is needed. */
		snprintf(err, errlen,
			 "the agent does not ask for the pre-shared key, so it cannot prove it: "
			 "refusing to use it (is it started with --psk?)");
		return -EACCES;
	}
	if (!auth) {
		nb_proto_get_sysinfo(c->msg, &c->remote);
		return get_caps(c, err, errlen);
	}
	if (!psk_len) {
		snprintf(err, errlen,
			 "the agent requires a pre-shared key: give it with --psk FILE");
		return -EACCES;
	}
	nb_auth_proof(psk, psk_len, "controller", cnonce, snonce, proof);
	nb_msg_reset(c->msg, NB_MSG_AUTH);
	nb_msg_put_bytes(c->msg, NB_T_PROOF, proof, sizeof(proof));
	if ((ret = nb_msg_send(c->fd, c->msg)))
		return lost(c, ret, err, errlen);
	if ((ret = nb_msg_expect(c->fd, c->msg, NB_MSG_AUTH_OK, REPLY_MS, err, errlen)))
		return ret;
	/* The agent proves the key too: a controller never talks to an impostor. */
	nb_auth_proof(psk, psk_len, "agent", cnonce, snonce, proof);
	if (nb_msg_get_bytes(c->msg, NB_T_PROOF, &b, &n) || n != sizeof(proof) ||
	    !nb_ct_equal(b, proof, sizeof(proof))) {
		snprintf(err, errlen, "the agent did not prove the pre-shared key");
		return -EACCES;
	}
	/* Its platform comes only after both proofs. */
	nb_proto_get_sysinfo(c->msg, &c->remote);
	return get_caps(c, err, errlen);
}

int nb_ctl_open(struct nb_ctl **out, const char *host, uint16_t port, int family,
		const uint8_t *psk, size_t psk_len, char *err, size_t errlen)
{
	struct nb_ctl *c = calloc(1, sizeof(*c));
	uint8_t cnonce[NB_NONCE_LEN];
	int ret = -ENOMEM;

	pthread_condattr_t ca;

	*out = NULL;
	if (!c)
		return ret;
	c->fd = -1;
	pthread_mutex_init(&c->send_mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->alive_cv, &ca);
	pthread_condattr_destroy(&ca);
	/* The nonce before the connection: reading random bytes can block for seconds on a
	 * freshly booted machine whose kernel is still gathering entropy (seen in a VM under
	 * emulation), and the agent closes a connection whose first byte is that late. */
	if ((ret = nb_random_bytes(cnonce, sizeof(cnonce)))) {
		snprintf(err, errlen, "cannot read random bytes for the handshake: %s",
			 strerror(-ret));
		goto fail;
	}
	c->timeout_ms = REPLY_MS;
	c->msg = nb_msg_new(0);
	c->alive_msg = nb_msg_new(NB_MSG_ALIVE);
	if (!c->msg || !c->alive_msg)
		goto fail;
	c->fd = nb_net_connect(host, port, family, SOCK_STREAM, CONNECT_MS);
	if (c->fd < 0) {
		ret = c->fd;
		snprintf(err, errlen, "cannot connect to the agent at %s port %u: %s", host, port,
			 ret == -ENOENT ? "no such host" : strerror(-ret));
		goto fail;
	}
	c->peer_len = sizeof(c->peer);
	c->local_len = sizeof(c->local);
	getpeername(c->fd, (struct sockaddr *)&c->peer, &c->peer_len);
	getsockname(c->fd, (struct sockaddr *)&c->local, &c->local_len);
	err[0] = '\0';
	ret = handshake(c, cnonce, psk, psk_len, err, errlen);
	if (ret) {
		if (!err[0])
			snprintf(err, errlen, "handshake with the agent failed: %s",
				 strerror(-ret));
		/* Bytes that are no netbench message at all: most often another service
		 * (sshd's banner, a web server) on the port the user named. */
		if (ret == -EBADMSG) {
			size_t n = strlen(err);
			snprintf(err + n, errlen - n,
				 " at %s port %u: is that a netbench agent (netbench serve)?", host,
				 port);
		}
		goto fail;
	}
	*out = c;
	return 0;
fail:
	if (c && c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	nb_ctl_free(c);
	return ret;
}

int nb_ctl_request(struct nb_ctl *c, const struct nb_msg *req, struct nb_msg *ack, char *err,
		   size_t errlen)
{
	int ret = ctl_send(c, req);
	if (ret) {
		snprintf(err, errlen, "lost the agent: %s", strerror(-ret));
		return ret;
	}
	return nb_msg_expect(c->fd, ack, NB_MSG_TEST_ACK, c->timeout_ms, err, errlen);
}

int nb_ctl_start(struct nb_ctl *c, char *err, size_t errlen)
{
	int ret;
	nb_msg_reset(c->msg, NB_MSG_START);
	ret = nb_ctl_request(c, c->msg, c->msg, err, errlen);
	if (!ret)
		alive_begin(c);
	return ret;
}

int nb_ctl_mark(struct nb_ctl *c, uint32_t mark_id, struct nb_msg *snap, char *err, size_t errlen)
{
	return nb_ctl_mark_edge(c, mark_id, 0, snap, err, errlen);
}

int nb_ctl_mark_edge(struct nb_ctl *c, uint32_t mark_id, uint32_t edge, struct nb_msg *snap,
		     char *err, size_t errlen)
{
	uint32_t got = 0;
	int ret;
	nb_msg_reset(c->msg, NB_MSG_MARK);
	nb_msg_put_u32(c->msg, NB_T_MARK_ID, mark_id);
	if (edge)
		nb_msg_put_u32(c->msg, NB_T_MARK_EDGE, edge);
	if ((ret = ctl_send(c, c->msg))) {
		snprintf(err, errlen, "lost the agent: %s", strerror(-ret));
		return ret;
	}
	ret = nb_msg_expect(c->fd, snap, NB_MSG_SNAP, c->timeout_ms, err, errlen);
	if (!ret && (nb_msg_get_u32(snap, NB_T_MARK_ID, &got) || got != mark_id)) {
		snprintf(err, errlen, "the agent answered mark %u with mark %u", mark_id, got);
		ret = -EBADMSG;
	}
	return ret;
}

int nb_ctl_stop(struct nb_ctl *c, struct nb_msg *final, int timeout_ms, char *err, size_t errlen)
{
	int ret;
	alive_end(c);
	nb_msg_reset(c->msg, NB_MSG_STOP);
	if ((ret = ctl_send(c, c->msg))) {
		snprintf(err, errlen, "lost the agent: %s", strerror(-ret));
		return ret;
	}
	return nb_msg_expect(c->fd, final, NB_MSG_FINAL, timeout_ms, err, errlen);
}

const struct nb_result_agent *nb_ctl_doc_ends(const struct nb_ctl *ctl, const char *host,
					      struct nb_sysinfo *local,
					      struct nb_result_agent *agent)
{
	nb_sysinfo_get(local, ctl ? (const struct sockaddr *)&ctl->local : NULL);
	if (!ctl)
		return NULL;
	agent->host = host;
	agent->port = nb_ctl_port(ctl);
	agent->env = &ctl->remote;
	return agent;
}

int nb_ctl_open_target(struct nb_ctl **ctl, const struct nb_ctl_target *t, char *err, size_t errlen)
{
	return nb_ctl_open(ctl, t->host, t->port, t->family, t->psk, t->psk_len, err, errlen);
}
