/* SPDX-License-Identifier: BSD-2-Clause */
/* Round-trip latency of `netbench rate` where the receiver does not share the sender's clock:
 * the receiver reflects probe frames (nb_rx_reflect) to a UDP socket of the sender, whose thread
 * takes the sender's clock at their return minus their transmit stamp, per trial. */
#ifndef NB_RATEPROBE_H
#define NB_RATEPROBE_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/hist.h"

/* What came back for one trial. Returned probes are not test frames and count nowhere else. */
struct nb_probe_snap {
	uint16_t trial;
	uint64_t returned;  /* reflected probes of this trial */
	uint64_t stale;	    /* reflected probes of another trial */
	uint64_t foreign;   /* datagrams that are not reflected probes */
	struct nb_hist rtt; /* return time - transmit stamp, ns */
};

struct nb_probe;

/* A socket for family (AF_INET or AF_INET6) on an ephemeral port of any local address. */
int nb_probe_new(struct nb_probe **p, int family);
uint16_t nb_probe_port(const struct nb_probe *p);
int nb_probe_start(struct nb_probe *p);
/* From now on count the probes of trial (and forget the previous one's). */
void nb_probe_trial(struct nb_probe *p, uint16_t trial);
void nb_probe_snapshot(struct nb_probe *p, struct nb_probe_snap *s);
/* Stops the thread, closes the socket; accepts NULL. */
void nb_probe_free(struct nb_probe *p);

/* Accounts one datagram received at now_ns (the thread's work, exposed for tests). */
void nb_probe_count(struct nb_probe_snap *s, const uint8_t *buf, size_t len, uint64_t now_ns);

#endif
