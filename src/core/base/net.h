/* SPDX-License-Identifier: BSD-2-Clause */
/* Socket helpers: name resolution, listening (dual-stack), connecting with a timeout, and
 * address comparison that treats IPv4-mapped IPv6 addresses as the IPv4 address they carry. */
#ifndef NB_NET_H
#define NB_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Listens on bind_addr (NULL: every address, IPv6 and IPv4 when the kernel allows). Returns a
 * listening fd or a negative errno. */
int nb_net_listen(const char *bind_addr, uint16_t port, int type, int backlog);
/* Connects to host:port (family AF_UNSPEC, AF_INET or AF_INET6) within timeout_ms. Returns the
 * fd or a negative errno (-EHOSTUNREACH, -ECONNREFUSED, -ETIMEDOUT, -ENOENT for a name that does
 * not resolve). */
int nb_net_connect(const char *host, uint16_t port, int family, int type, int timeout_ms);
int nb_net_connect_addr(const struct sockaddr *sa, socklen_t len, int type, int timeout_ms);
/* The same on a socket of the caller's (options set before the connection exists): 0 or -errno;
 * the caller closes fd either way. */
int nb_net_connect_fd(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms);
/* Binds a socket of the same family as like (address of like, port 0 = ephemeral). */
int nb_net_bind_like(const struct sockaddr *like, int type, uint16_t port);
socklen_t nb_net_sa_len(const struct sockaddr *sa);
/* Same address; for an IPv6 link-local address, also the same link (scope id). */
bool nb_net_same_host(const struct sockaddr *a, const struct sockaddr *b);
uint16_t nb_net_port(const struct sockaddr *sa);
void nb_net_set_port(struct sockaddr *sa, uint16_t port);
/* "192.0.2.1", "[2001:db8::1]" (brackets only with with_port), "...:5301" with the port. */
void nb_net_addr_str(const struct sockaddr *sa, bool with_port, char *buf, size_t len);
int nb_net_set_timeout_ms(int fd, int which, int ms); /* which: SO_RCVTIMEO or SO_SNDTIMEO */

#endif
