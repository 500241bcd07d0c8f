/* SPDX-License-Identifier: BSD-2-Clause */
/* Compatibility constants for old kernels and C libraries, in one place.
 * Code tests these capability macros, never an operating-system name. */
#ifndef NB_COMPAT_H
#define NB_COMPAT_H

#include <sys/socket.h>
#include <netinet/in.h>

#ifndef SO_REUSEPORT
#define SO_REUSEPORT 15
#endif
#ifndef SOCK_CLOEXEC
#define SOCK_CLOEXEC 02000000
#endif
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0x4000
#endif
#ifndef IP_MULTICAST_ALL
#define IP_MULTICAST_ALL 49
#endif
#ifndef PACKET_QDISC_BYPASS
#define PACKET_QDISC_BYPASS 20
#endif
#ifndef SO_RCVBUFFORCE
#define SO_RCVBUFFORCE 33
#endif
#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif
#ifndef SO_MEMINFO
#define SO_MEMINFO 55 /* Linux 4.12: a socket's memory counters, drops among them */
#endif
/* SO_MEMINFO's array (linux/sock_diag.h's enum, which older headers lack): drops are item 8. */
#define NB_SK_MEMINFO_DROPS 8
#define NB_SK_MEMINFO_VARS  9

/* AF_ALG (kernel crypto API sockets, Linux 2.6.38; AEAD from 4.9) for libcs that lack it. */
#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/* The kernel's USER_HZ as seen in /proc/stat is 100 on every architecture Linux supports. */
#define NB_USER_HZ 100

#endif
