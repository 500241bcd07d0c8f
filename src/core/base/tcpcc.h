/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP congestion control of a data socket: which algorithms this kernel offers, and setting one
 * without ever loading a kernel module for it. */
#ifndef NB_TCPCC_H
#define NB_TCPCC_H

#include <stdbool.h>
#include <stddef.h>

#define NB_TCPCC_NAME_MAX 16 /* the kernel's TCP_CA_NAME_MAX, with the terminating NUL */

/* The two lists of /proc/sys/net/ipv4: what anyone may use, and what is loaded (root may use). */
enum nb_tcpcc_list { NB_TCPCC_ALLOWED, NB_TCPCC_AVAILABLE };

/* A name an algorithm can have: 1 to 15 of a-z, 0-9, '_' and '-'. */
bool nb_tcpcc_name_ok(const char *name);
/* Whether name is a word of the space-separated list. */
bool nb_tcpcc_in_list(const char *list, const char *name);
/* Reads the kernel's list into buf (NUL-terminated, newline removed): 0 or -errno. */
int nb_tcpcc_read_list(enum nb_tcpcc_list which, char *buf, size_t len);
/* Sets fd's algorithm to name, which must be loaded (in the available list): a name that is not
 * is refused with -ENOENT before the kernel is asked, so no module is loaded for it. 0, or
 * -errno of setsockopt (-EPERM: not in the allowed list, and the process lacks CAP_NET_ADMIN). */
int nb_tcpcc_set(int fd, const char *name);
/* fd's algorithm into buf (at least NB_TCPCC_NAME_MAX): 0, -errno, or -EBADMSG for what is not
 * a loaded algorithm's name. */
int nb_tcpcc_get(int fd, char *buf, size_t len);

#endif
