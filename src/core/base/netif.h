/* SPDX-License-Identifier: BSD-2-Clause */
/* Which network interface an address of this host belongs to. */
#ifndef NB_NETIF_H
#define NB_NETIF_H

#include <stddef.h>
#include <sys/socket.h>

/* The name of the interface that owns addr (an IPv4-mapped IPv6 address counts as the IPv4
 * address it carries; an IPv6 link-local address is looked up on its scope's link). 0, or
 * -ENOENT when no interface has it, or another negative errno. */
int nb_net_iface_of(const struct sockaddr *addr, char *name, size_t len);

#endif
