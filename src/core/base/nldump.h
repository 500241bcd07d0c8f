/* SPDX-License-Identifier: BSD-2-Clause */
/* One rtnetlink dump and one walk over its messages, for every reader of a dump (links and
 * their counters, qdiscs and theirs, the pacing check's qdisc kinds): libc and the kernel's
 * headers only, a one-second receive timeout so that a kernel that never ends a dump does not
 * hang the caller. */
#ifndef NB_NLDUMP_H
#define NB_NLDUMP_H

#include <stddef.h>
#include <stdint.h>

/* The rtnetlink socket every reader opens (a dump here, or nb_path_route_get's one question
 * after another on it): NETLINK_ROUTE with a one-second receive timeout. Returns the
 * descriptor (close(2) it) or a negative errno. */
int nb_nl_socket(void);

/* Handed each datagram of the dump; returns 0 for more, 1 when the dump is complete
 * (NLMSG_DONE), or a negative errno that ends it. */
typedef int (*nb_nl_chunk_fn)(void *arg, const void *buf, size_t len);

/* Sends one NLM_F_DUMP request of type (RTM_GETLINK, RTM_GETQDISC, ...) whose family header is
 * body (body_len bytes: a struct ifinfomsg, a struct tcmsg), and hands every datagram of the
 * answer to chunk. Returns 0 once chunk said complete; a negative errno from the socket or
 * from chunk; -EIO when the answer stopped before its end. */
int nb_nl_dump(uint16_t type, const void *body, size_t body_len, nb_nl_chunk_fn chunk, void *arg);

/* Handed each message of the wanted type: its family header (hdr_len bytes checked present)
 * and its attributes. Returns 0 to go on or a negative errno that ends the walk. */
typedef int (*nb_nl_msg_fn)(void *arg, const void *hdr, const void *attrs, size_t attrs_len);

/* Walks one datagram of a dump: NLMSG_DONE returns 1; NLMSG_ERROR returns its negative errno
 * (1 for an acknowledgement); a message of the wanted type shorter than its family header, or
 * a datagram that ends inside a message, -EBADMSG; other types are passed over. Returns 0 when
 * the datagram was walked and the dump goes on. Pure: a test hands it bytes. */
int nb_nl_walk(const void *buf, size_t len, uint16_t type, size_t hdr_len, nb_nl_msg_fn msg,
	       void *arg);

#endif
