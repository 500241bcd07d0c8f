/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of a session with an agent: connect, handshake (version check, optional
 * pre-shared-key challenge-response), then one test driven by TEST_REQ, START, MARKs and STOP. */
#ifndef NB_CTL_H
#define NB_CTL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/session/auth.h"
#include "core/session/caps.h"
#include "core/session/proto.h"
#include "core/base/result.h"
#include "core/base/sysinfo.h"

struct nb_ctl {
	int fd;
	struct sockaddr_storage peer, local;
	socklen_t peer_len, local_len;
	struct nb_sysinfo remote; /* the agent's platform, from its HELLO_OK */
	struct nb_caps caps; /* the agent's caps, from the same reply (known: it stated them) */
	struct nb_msg *msg;  /* scratch for requests and replies */
	int timeout_ms;
	/* While a test runs (START to STOP), a thread sends ALIVE every third of the agent's
	 * quiet limit (caps.quiet_ns; none when the agent states none): a controller whose own
	 * thread waits out a long test still shows it is there. Every send holds send_mu. */
	pthread_mutex_t send_mu;
	pthread_cond_t alive_cv;
	pthread_t alive_thread;
	bool alive_on, alive_stop;
	struct nb_msg *alive_msg;
};

/* Where a remote run goes, as the user gave it; host NULL for a run here. */
struct nb_ctl_target {
	const char *host;
	uint16_t port;
	int family; /* AF_UNSPEC, or AF_INET/AF_INET6 with -4/-6 */
	uint8_t psk[NB_PSK_MAX];
	size_t psk_len;
};

/* Connects and handshakes. host/port as given by the user; psk may be NULL. On failure returns
 * a negative errno and a reason in err ("agent refused: ..."). */
int nb_ctl_open(struct nb_ctl **ctl, const char *host, uint16_t port, int family,
		const uint8_t *psk, size_t psk_len, char *err, size_t errlen);
/* nb_ctl_open with the target's address, family and key. */
int nb_ctl_open_target(struct nb_ctl **ctl, const struct nb_ctl_target *t, char *err,
		       size_t errlen);
void nb_ctl_free(struct nb_ctl *ctl);
/* The agent's control port. */
uint16_t nb_ctl_port(const struct nb_ctl *ctl);

/* Sends req (a TEST_REQ the caller filled) and waits for TEST_ACK into ack. */
int nb_ctl_request(struct nb_ctl *ctl, const struct nb_msg *req, struct nb_msg *ack, char *err,
		   size_t errlen);
/* Starts the test; from here to nb_ctl_stop (or nb_ctl_free) ALIVE keeps the agent's quiet
 * limit away. */
int nb_ctl_start(struct nb_ctl *ctl, char *err, size_t errlen);
/* Asks for a snapshot; the SNAP reply (with the agent's CPU sample) lands in snap. */
int nb_ctl_mark(struct nb_ctl *ctl, uint32_t mark_id, struct nb_msg *snap, char *err,
		size_t errlen);
/* The same, the mark opening or closing the measurement window (enum nb_mark_edge, 0: neither):
 * an agent's test that profiles the window starts right after its CPU sample at the opening
 * mark and stops right before it at the closing one. */
int nb_ctl_mark_edge(struct nb_ctl *ctl, uint32_t mark_id, uint32_t edge, struct nb_msg *snap,
		     char *err, size_t errlen);
int nb_ctl_stop(struct nb_ctl *ctl, struct nb_msg *final, int timeout_ms, char *err, size_t errlen);

/* The two ends of a run, for its document: this host's platform (its interface the one the
 * session leaves by) into local and, with a session, the agent's (host as the user gave it) into
 * agent. Returns agent, or NULL for a run here (ctl NULL). */
const struct nb_result_agent *nb_ctl_doc_ends(const struct nb_ctl *ctl, const char *host,
					      struct nb_sysinfo *local,
					      struct nb_result_agent *agent);

#endif
