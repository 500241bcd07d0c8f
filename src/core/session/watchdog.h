/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's max-time timer: a thread of its own per running test, so that the rule holds
 * whatever the session's thread is doing (blocked writing to a controller that never reads,
 * or reading a message that trickles in). At halt_at it stops the test's traffic; at cut_at it
 * shuts the control connection down, which ends any read or write the session is stuck in. */
#ifndef NB_WATCHDOG_H
#define NB_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

struct nb_watchdog;

/* halt(arg) is called once at the monotonic instant halt_at_ns (it must only set flags: the
 * session's thread may be using the test at that moment); shutdown(fd, SHUT_RDWR) at cut_at_ns.
 * halt may be NULL. 0 or a negative errno. */
int nb_watchdog_start(struct nb_watchdog **out, uint64_t halt_at_ns, uint64_t cut_at_ns, int fd,
		      void (*halt)(void *), void *arg);
/* Ends the timer before anything else it would do, and joins it. *halted and *cut (may be
 * NULL) say what it did. w may be NULL. */
void nb_watchdog_stop(struct nb_watchdog *w, bool *halted, bool *cut);

#endif
