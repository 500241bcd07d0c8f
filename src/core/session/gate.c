/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's gate (see gate.h): accept, concurrent handshakes with deadlines and bounds,
 * "busy" at once during a session, hand-off of proven controllers to the session loop. All
 * sockets here are read without blocking and only as far as the message being assembled, so
 * that nothing a controller sends after its handshake is taken from the session. */
#include "core/session/gate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <time.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/base/sha256.h"
#include "core/base/timeutil.h"
#include "core/session/auth.h"

#define LINGER_MAX 64
#define LINGER_MS  500
#define POLL_MS	   100
#define SEND_MS	   200 /* a handshake answer fits an empty socket buffer; no waiting on it */

enum { S_FREE = -1, S_HELLO = 0, S_AUTH = 1, S_WAIT = 2 };
#define WAIT_MS 3000 /* a proven controller waits this long for a session that is ending */

struct pending {
	int fd, state;
	uint64_t accepted_ns, proven_ns;
	bool got_byte, looked;
	uint32_t source; /* equal for connections from the same address (nb_net_same_host) */
	struct sockaddr_storage peer, local;
	uint8_t cnonce[NB_NONCE_LEN], snonce[NB_NONCE_LEN];
	uint8_t buf[NB_MSG_HDR + NB_GATE_MAX_HS_PAYLOAD];
	size_t have;
};

struct lingering {
	int fd;
	uint64_t until_ns;
};

struct nb_gate {
	const struct nb_agent_opts *opts;
	int listen_fd, wake[2];
	pthread_t tid;
	bool started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool busy, testing, quit;
	int ready_fd;	      /* handed over, not yet taken; -1 */
	uint32_t next_source; /* the id the next new source address gets */
	struct pending p[NB_GATE_MAX_PENDING];
	struct nb_gate_slot slots[NB_GATE_MAX_PENDING]; /* on_accept's view of p */
	struct lingering l[LINGER_MAX];
	struct nb_msg *msg;
};

/* The slot of source that gives way first: unproven before proven, then the oldest; only
 * slots the gate has looked at. -1 when there is none. */
static int source_victim(const struct nb_gate_slot *slots, size_t n, uint32_t source)
{
	int best = -1;
	for (size_t i = 0; i < n; i++) {
		const struct nb_gate_slot *c = &slots[i];
		if (c->state < 0 || c->source != source || !c->looked)
			continue;
		if (best < 0) {
			best = (int)i;
			continue;
		}
		bool cp = c->state >= S_WAIT, bp = slots[best].state >= S_WAIT;
		if (cp != bp ? bp : c->accepted_ns < slots[best].accepted_ns)
			best = (int)i;
	}
	return best;
}

static size_t held_by(const struct nb_gate_slot *slots, size_t n, uint32_t source)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += slots[i].state >= 0 && slots[i].source == source;
	return k;
}

int nb_gate_admit(const struct nb_gate_slot *slots, size_t n, uint32_t source, size_t per_source)
{
	size_t own = held_by(slots, n, source), best_held = 0;
	bool any_free = false;
	int best = -1;

	if (own >= per_source) {
		int v = source_victim(slots, n, source);
		return v >= 0 ? v : NB_GATE_REFUSE;
	}
	for (size_t i = 0; i < n && !any_free; i++)
		any_free = slots[i].state < 0;
	if (any_free)
		return NB_GATE_ADMIT;
	/* Every slot taken: the newcomer's source counts as holding own + 1. */
	for (size_t i = 0; i < n; i++) {
		uint32_t src = slots[i].source;
		size_t held;
		int v;
		if (slots[i].state < 0 || source_victim(slots, n, src) != (int)i)
			continue; /* each source once, at its own victim */
		v = (int)i;
		held = src == source ? own + 1 : held_by(slots, n, src);
		if (held < own + 1)
			continue; /* never from a source holding fewer than the newcomer's would */
		if (best < 0 || held > best_held ||
		    (held == best_held && slots[best].source != source &&
		     (src == source || slots[v].accepted_ns < slots[best].accepted_ns))) {
			best = v;
			best_held = held;
		}
	}
	return best >= 0 ? best : NB_GATE_REFUSE;
}

static uint64_t send_by(void)
{
	return nb_mono_ns() + (uint64_t)SEND_MS * NB_NS_PER_MS;
}

/* Answers, then keeps reading what the client still sends for a moment before closing:
 * closing a socket with unread data sends a reset, which could overtake the answer. */
static void linger_close(struct nb_gate *g, int fd)
{
	shutdown(fd, SHUT_WR);
	for (size_t i = 0; i < LINGER_MAX; i++)
		if (g->l[i].fd < 0) {
			g->l[i].fd = fd;
			g->l[i].until_ns = nb_mono_ns() + (uint64_t)LINGER_MS * NB_NS_PER_MS;
			return;
		}
	close(fd);
}

static void refuse(struct nb_gate *g, int fd, int code, const char *text)
{
	nb_msg_send_error_by(fd, send_by(), code, "%s", text);
	linger_close(g, fd);
}

static void drop(struct pending *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	p->state = S_FREE;
}

/* Ends a pending handshake, with one log line saying why. */
static void drop_why(struct nb_gate *g, struct pending *p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void drop_why(struct nb_gate *g, struct pending *p, const char *fmt, ...)
{
	char who[64], why[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	nb_net_addr_str((struct sockaddr *)&p->peer, true, who, sizeof(who));
	nb_agent_log(g->opts, "%s: handshake closed: %s", who, why);
	drop(p);
}

/* Busy with a running test: newcomers hear so at once. */
static bool is_testing(struct nb_gate *g)
{
	bool b;
	pthread_mutex_lock(&g->mu);
	b = g->busy && g->testing;
	pthread_mutex_unlock(&g->mu);
	return b;
}

void nb_gate_set_testing(struct nb_gate *g, bool testing)
{
	pthread_mutex_lock(&g->mu);
	g->testing = testing;
	pthread_mutex_unlock(&g->mu);
}

static void turn_away(struct nb_gate *g, int fd, const struct sockaddr *who)
{
	char junk[512], a[64];
	while (recv(fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
		;
	refuse(g, fd, EBUSY, "agent busy: another controller's test is running, try later");
	nb_net_addr_str(who, true, a, sizeof(a));
	nb_agent_log(g->opts, "%s: turned away, busy", a);
}

/* The handshake is complete: hand the controller over; or, while a test runs, tell it the
 * agent is busy; or, while a session without a test is ending, let it wait up to WAIT_MS. */
static void hand_over(struct nb_gate *g, struct pending *p)
{
	bool taken = false, testing;
	uint64_t now = nb_mono_ns();
	pthread_mutex_lock(&g->mu);
	testing = g->busy && g->testing;
	if (!g->busy && g->ready_fd < 0) {
		g->busy = true;
		g->testing = false;
		g->ready_fd = p->fd;
		taken = true;
		pthread_cond_signal(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
	if (!taken) {
		if (p->state != S_WAIT) {
			p->state = S_WAIT;
			p->proven_ns = now;
		}
		if (!testing && now - p->proven_ns < (uint64_t)WAIT_MS * NB_NS_PER_MS)
			return;
		turn_away(g, p->fd, (struct sockaddr *)&p->peer);
	}
	p->fd = -1;
	p->state = S_FREE;
}

/* The platform and the caps, so that the controller can check a whole run before any
 * traffic (the agent still judges every test itself). */
static int put_facts(struct nb_msg *m, const struct pending *p, const struct nb_agent_policy *pol)
{
	struct nb_sysinfo si;
	struct nb_caps caps;
	int ret;
	nb_sysinfo_get(&si, (const struct sockaddr *)&p->local);
	nb_agent_caps(pol, &caps);
	if ((ret = nb_proto_put_sysinfo(m, &si)))
		return ret;
	return nb_caps_put(m, &caps);
}

/* One complete message from a pending connection: advance its handshake. */
static void step(struct nb_gate *g, struct pending *p)
{
	const struct nb_agent_policy *pol = &g->opts->policy;
	struct nb_msg *m = g->msg;
	const uint8_t *b;
	size_t n;
	uint32_t version = 0;
	uint8_t proof[32];
	char text[160], who[64];

	nb_net_addr_str((struct sockaddr *)&p->peer, true, who, sizeof(who));
	if (nb_msg_validate(m))
		goto garbage;
	if (p->state == S_HELLO) {
		if (m->type != NB_MSG_HELLO || nb_msg_get_u32(m, NB_T_PROTO_VERSION, &version) ||
		    nb_msg_get_bytes(m, NB_T_NONCE, &b, &n) || n != NB_NONCE_LEN) {
			nb_agent_log(g->opts, "%s: malformed HELLO", who);
			refuse(g, p->fd, EBADMSG, "malformed HELLO");
			goto gone;
		}
		if (version != NB_PROTO_VERSION) {
			snprintf(
			    text, sizeof(text),
			    "incompatible protocol: controller speaks version %u, agent speaks "
			    "version %u",
			    version, NB_PROTO_VERSION);
			nb_agent_log(g->opts, "%s: %s", who, text);
			refuse(g, p->fd, EPROTONOSUPPORT, text);
			goto gone;
		}
		memcpy(p->cnonce, b, NB_NONCE_LEN);
		if (nb_random_bytes(p->snonce, sizeof(p->snonce))) {
			drop_why(g, p, "no random bytes for the nonce");
			return;
		}
		nb_msg_reset(m, NB_MSG_HELLO_OK);
		nb_msg_put_u32(m, NB_T_PROTO_VERSION, NB_PROTO_VERSION);
		nb_msg_put_str(m, NB_T_SW_VERSION, NB_VERSION);
		nb_msg_put_bytes(m, NB_T_NONCE, p->snonce, sizeof(p->snonce));
		nb_msg_put_u32(m, NB_T_AUTH_REQUIRED, pol->psk_len ? 1 : 0);
		/* With a key, the platform is told only to a controller that proved it. */
		if (!pol->psk_len && put_facts(m, p, pol)) {
			drop_why(g, p, "cannot describe the platform in HELLO_OK");
			return;
		}
		if (nb_msg_send_by(p->fd, m, send_by())) {
			drop_why(g, p, "cannot send HELLO_OK");
			return;
		}
		if (!pol->psk_len) {
			hand_over(g, p);
			return;
		}
		p->state = S_AUTH;
		p->have = 0;
		return;
	}
	nb_auth_proof(pol->psk, pol->psk_len, "controller", p->cnonce, p->snonce, proof);
	if (m->type != NB_MSG_AUTH || nb_msg_get_bytes(m, NB_T_PROOF, &b, &n) ||
	    n != sizeof(proof) || !nb_ct_equal(b, proof, sizeof(proof))) {
		nb_agent_log(g->opts, "%s: refused by rule psk", who);
		refuse(g, p->fd, EACCES,
		       "refused by rule psk: the controller did not prove the key");
		goto gone;
	}
	nb_auth_proof(pol->psk, pol->psk_len, "agent", p->cnonce, p->snonce, proof);
	nb_msg_reset(m, NB_MSG_AUTH_OK);
	nb_msg_put_bytes(m, NB_T_PROOF, proof, sizeof(proof));
	if (put_facts(m, p, pol) || nb_msg_send_by(p->fd, m, send_by())) {
		drop_why(g, p, "cannot send AUTH_OK");
		return;
	}
	hand_over(g, p);
	return;
garbage:
	nb_agent_log(g->opts, "%s: handshake failed: garbage from the controller", who);
	refuse(g, p->fd, EBADMSG, "malformed message");
gone:
	p->fd = -1;
	drop(p);
}

/* Reads what the pending connection has, never past the message being assembled. */
static void on_readable(struct nb_gate *g, struct pending *p)
{
	for (;;) {
		size_t want = NB_MSG_HDR;
		uint16_t type = 0;
		uint32_t len = 0;
		ssize_t r;
		if (p->have >= NB_MSG_HDR) {
			if (nb_msg_parse_header(p->buf, &type, &len) ||
			    len > NB_GATE_MAX_HS_PAYLOAD) {
				char who[64];
				nb_net_addr_str((struct sockaddr *)&p->peer, true, who,
						sizeof(who));
				nb_agent_log(g->opts,
					     "%s: handshake closed: malformed or oversized message",
					     who);
				refuse(g, p->fd, EBADMSG,
				       "malformed or oversized handshake message");
				p->fd = -1;
				drop(p);
				return;
			}
			want = NB_MSG_HDR + len;
		}
		if (p->have < want) {
			r = recv(p->fd, p->buf + p->have, want - p->have, MSG_DONTWAIT);
			if (r == 0 ||
			    (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
				drop_why(g, p, "%s",
					 r == 0 ? "the client closed the connection"
						: "the connection broke");
				return;
			}
			if (r < 0)
				return;
			p->have += (size_t)r;
			p->got_byte = true;
			continue;
		}
		g->msg->type = type;
		g->msg->len = len;
		memcpy(g->msg->data, p->buf + NB_MSG_HDR, len);
		p->have = 0;
		step(g, p);
		return;
	}
}

/* The source id of a new connection: that of a pending one from the same address, or new. */
static uint32_t source_of(struct nb_gate *g, const struct sockaddr_storage *ss)
{
	for (int i = 0; i < NB_GATE_MAX_PENDING; i++)
		if (g->p[i].state != S_FREE &&
		    nb_net_same_host((const struct sockaddr *)&g->p[i].peer,
				     (const struct sockaddr *)ss))
			return g->p[i].source;
	return g->next_source++;
}

static void on_accept(struct nb_gate *g)
{
	struct nb_gate_slot *slots = g->slots;
	for (int k = 0; k < 32; k++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		uint32_t src;
		int v, slot = -1;
		int fd = accept4(g->listen_fd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd < 0)
			return;
		nb_net_set_timeout_ms(fd, SO_SNDTIMEO, 200);
		if (is_testing(g)) {
			turn_away(g, fd, (struct sockaddr *)&ss);
			continue;
		}
		src = source_of(g, &ss);
		for (int i = 0; i < NB_GATE_MAX_PENDING; i++) {
			const struct pending *p = &g->p[i];
			slots[i] = (struct nb_gate_slot){.state = p->state,
							 .source = p->source,
							 .accepted_ns = p->accepted_ns,
							 .looked = p->looked};
			if (p->state == S_FREE && slot < 0)
				slot = i;
		}
		v = nb_gate_admit(slots, NB_GATE_MAX_PENDING, src, NB_GATE_MAX_PER_SOURCE);
		if (v == NB_GATE_REFUSE) {
			char a[64];
			nb_net_addr_str((struct sockaddr *)&ss, true, a, sizeof(a));
			nb_agent_log(
			    g->opts,
			    "%s: handshake refused: no slot its address may take (it holds its "
			    "share, or those that could give way are not yet read)",
			    a);
			close(fd);
			continue;
		}
		if (v >= 0) {
			drop_why(
			    g, &g->p[v], "%s",
			    g->p[v].source == src
				? "made room for a newer one from the same address"
				: "made room for one from an address holding fewer (every slot "
				  "taken)");
			slot = v;
		}
		struct pending *p = &g->p[slot];
		memset(p, 0, offsetof(struct pending, buf));
		p->fd = fd;
		p->state = S_HELLO;
		p->have = 0;
		p->source = src;
		p->accepted_ns = nb_mono_ns();
		memcpy(&p->peer, &ss, sizeof(ss));
		len = sizeof(p->local);
		getsockname(fd, (struct sockaddr *)&p->local, &len);
	}
}

/* Whether a connection waits for the session to end (S_WAIT: handed over on the release's
 * wake-up, but looked at again each POLL_MS as well). */
static bool any_waiting(const struct nb_gate *g)
{
	for (int i = 0; i < NB_GATE_MAX_PENDING; i++)
		if (g->p[i].state != S_FREE)
			return true;
	return false;
}

static void *gate_thread(void *arg)
{
	struct nb_gate *g = arg;
	struct pollfd pf[2 + NB_GATE_MAX_PENDING + LINGER_MAX];
	int who[2 + NB_GATE_MAX_PENDING + LINGER_MAX];

	for (;;) {
		size_t n = 0;
		uint64_t now = nb_mono_ns();
		pthread_mutex_lock(&g->mu);
		bool quit = g->quit;
		pthread_mutex_unlock(&g->mu);
		if (quit)
			break;
		pf[n] = (struct pollfd){.fd = g->wake[0], .events = POLLIN};
		who[n++] = -1;
		pf[n] = (struct pollfd){.fd = g->listen_fd, .events = POLLIN};
		who[n++] = -2;
		for (int i = 0; i < NB_GATE_MAX_PENDING; i++) {
			struct pending *p = &g->p[i];
			if (p->state == S_FREE)
				continue;
			if (p->state == S_WAIT) {
				hand_over(g, p); /* not polled: its bytes are the session's */
				continue;
			}
			uint64_t age_ms = (now - p->accepted_ns) / NB_NS_PER_MS;
			if (!p->got_byte && age_ms >= NB_GATE_FIRST_BYTE_MS) {
				drop_why(g, p, "no byte within %d ms of the connection",
					 NB_GATE_FIRST_BYTE_MS);
				continue;
			}
			if (age_ms >= NB_GATE_HANDSHAKE_MS) {
				drop_why(g, p, "not complete within %d ms of the connection",
					 NB_GATE_HANDSHAKE_MS);
				continue;
			}
			pf[n] = (struct pollfd){.fd = p->fd, .events = POLLIN};
			who[n++] = i;
		}
		for (int i = 0; i < LINGER_MAX; i++) {
			if (g->l[i].fd < 0)
				continue;
			if (now >= g->l[i].until_ns) {
				close(g->l[i].fd);
				g->l[i].fd = -1;
				continue;
			}
			pf[n] = (struct pollfd){.fd = g->l[i].fd, .events = POLLIN};
			who[n++] = 1000 + i;
		}
		/* Nothing pending and nothing lingering: no deadline to watch, so sleep until the
		 * listening socket or the wake pipe has news. An idle agent on a slow board then
		 * costs nothing between connections (10 wake-ups a second cost it 0.7 % of a CPU on
		 * the emulated ARM board). */
		int ready = poll(pf, n, n == 2 && !any_waiting(g) ? -1 : POLL_MS);
		/* Polled once: from now on a connection may give way to a newcomer (before, its
		 * first bytes may be a controller's HELLO that nobody has read). */
		for (size_t i = 2; ready >= 0 && i < n; i++)
			if (who[i] >= 0 && who[i] < NB_GATE_MAX_PENDING)
				g->p[who[i]].looked = true;
		if (ready <= 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (!pf[i].revents)
				continue;
			if (who[i] == -1) {
				char c[16];
				while (read(g->wake[0], c, sizeof(c)) > 0)
					;
			} else if (who[i] >= 1000) {
				struct lingering *l = &g->l[who[i] - 1000];
				char junk[512];
				ssize_t r;
				while ((r = recv(l->fd, junk, sizeof(junk), MSG_DONTWAIT)) > 0)
					;
				if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
					close(l->fd);
					l->fd = -1;
				}
			} else if (who[i] >= 0 && g->p[who[i]].state != S_FREE) {
				on_readable(g, &g->p[who[i]]);
			}
		}
		/* Newcomers last: a controller whose bytes are here is served before anyone can
		 * push it out. */
		if (pf[1].revents & POLLIN)
			on_accept(g);
	}
	return NULL;
}

int nb_gate_new(struct nb_gate **out, int listen_fd, const struct nb_agent_opts *opts)
{
	struct nb_gate *g = calloc(1, sizeof(*g));
	int ret = -ENOMEM;

	*out = NULL;
	if (!g)
		return ret;
	g->opts = opts;
	g->listen_fd = listen_fd;
	g->ready_fd = -1;
	g->wake[0] = g->wake[1] = -1;
	for (int i = 0; i < NB_GATE_MAX_PENDING; i++) {
		g->p[i].fd = -1;
		g->p[i].state = S_FREE;
	}
	for (int i = 0; i < LINGER_MAX; i++)
		g->l[i].fd = -1;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	if (!(g->msg = nb_msg_new(0)))
		goto fail;
	/* Accepting in a loop must stop when the queue is empty. */
	if (fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL) | O_NONBLOCK) < 0 ||
	    pipe2(g->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		ret = -errno;
		goto fail;
	}
	if ((ret = -pthread_create(&g->tid, NULL, gate_thread, g)))
		goto fail;
	g->started = true;
	*out = g;
	return 0;
fail:
	nb_gate_free(g);
	return ret;
}

int nb_gate_next(struct nb_gate *g, int timeout_ms)
{
	struct timespec ts;
	int fd;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&g->mu);
	while (g->ready_fd < 0)
		if (pthread_cond_timedwait(&g->cv, &g->mu, &ts))
			break;
	fd = g->ready_fd;
	g->ready_fd = -1;
	pthread_mutex_unlock(&g->mu);
	return fd >= 0 ? fd : -EAGAIN;
}

void nb_gate_release(struct nb_gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->busy = false;
	g->testing = false;
	pthread_mutex_unlock(&g->mu);
	if (write(g->wake[1], "r", 1) < 0) {
		/* a waiting controller is looked at within one poll period anyway */
	}
}

void nb_gate_free(struct nb_gate *g)
{
	if (!g)
		return;
	if (g->started) {
		pthread_mutex_lock(&g->mu);
		g->quit = true;
		pthread_mutex_unlock(&g->mu);
		if (write(g->wake[1], "q", 1) < 0) {
			/* the thread notices within one poll period anyway */
		}
		pthread_join(g->tid, NULL);
	}
	for (int i = 0; i < NB_GATE_MAX_PENDING; i++)
		drop(&g->p[i]);
	for (int i = 0; i < LINGER_MAX; i++)
		if (g->l[i].fd >= 0)
			close(g->l[i].fd);
	if (g->ready_fd >= 0)
		close(g->ready_fd);
	if (g->wake[0] >= 0)
		close(g->wake[0]);
	if (g->wake[1] >= 0)
		close(g->wake[1]);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
	nb_msg_free(g->msg);
	free(g);
}
