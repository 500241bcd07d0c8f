/* SPDX-License-Identifier: BSD-2-Clause */
/* HOST, HOST:PORT, [IPv6] or [IPv6]:PORT, as -c and --observe name an agent: the one place that
 * splits them. Pure: no allocation, no lookup. */
#ifndef NB_HOSTPORT_H
#define NB_HOSTPORT_H

#include <stddef.h>

/* Where spec's host is (*host, *host_len: inside spec, without the brackets) and its port's text
 * (*port: inside spec, NULL when there is none; a bare IPv6 address such as ::1 has none, and
 * its port is given in brackets: [::1]:5201). -EINVAL when spec is none of the four: empty, an
 * empty host (":80", "[]"), a bracket never closed, anything after the bracket other than :PORT,
 * or a colon with no port after it ("host:", "[::1]:"). The port's text is the caller's to
 * check (1 to 65535, with its own message). */
int nb_hostport_split(const char *spec, const char **host, size_t *host_len, const char **port);

#endif
