/* SPDX-License-Identifier: BSD-2-Clause */
/* Entering a named network namespace (one `ip netns add` made: /run/netns/NAME) and coming back.
 * A socket keeps the namespace it was created in, so a thread may switch, open, and return. */
#ifndef NB_NETNS_H
#define NB_NETNS_H

#include <stddef.h>

/* Moves the calling thread into namespace name; *back receives a descriptor of the namespace it
 * left (-1 when only entering, back NULL: a fresh child that never returns). Returns 0 or a
 * negative errno with err naming the namespace. */
int nb_netns_enter(const char *name, int *back, char *err, size_t errlen);
/* Returns to the namespace nb_netns_enter left and closes back. */
int nb_netns_leave(int back, char *err, size_t errlen);

#endif
