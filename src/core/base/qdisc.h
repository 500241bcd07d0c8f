/* SPDX-License-Identifier: BSD-2-Clause */
/* Which queueing discipline sends an interface's packets, from an rtnetlink dump (what
 * `tc qdisc show dev X` asks): kernel pacing by transmit time needs fq at the root, or under a
 * multiqueue root (mq) on every queue. */
#ifndef NB_QDISC_H
#define NB_QDISC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nb_qdisc {
	int ifindex;
	uint32_t handle, parent;
	char kind[16];
};

#define NB_QDISC_MAX 256

/* Describes the egress of ifindex among the n qdiscs in q ("fq", "mq/fq", "noqueue",
 * "pfifo_fast", "mq/pfifo_fast", or "none" when the interface has none listed) into desc, and
 * returns whether every packet goes through fq in its earliest-departure-time role. Pure. */
bool nb_qdisc_is_fq(const struct nb_qdisc *q, size_t n, int ifindex, char *desc, size_t len);
/* Reads one RTM_GETQDISC dump (ifindex 0: every interface's) through nb_nl_dump, handing each
 * datagram to chunk, which returns 0 for more, 1 when the dump is complete (NLMSG_DONE), or a
 * negative errno. Returns 0 or a negative errno. */
typedef int (*nb_qdisc_chunk_fn)(void *arg, const void *buf, size_t len);
int nb_qdisc_dump(int ifindex, nb_qdisc_chunk_fn chunk, void *arg);
/* Dumps the qdiscs of ifindex (at most max) into q. Returns how many, or -errno. */
int nb_qdisc_list(int ifindex, struct nb_qdisc *q, size_t max);

#endif
