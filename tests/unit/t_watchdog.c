/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's max-time timer on a real socket pair: it halts at its instant, cuts the
 * connection at the next (a blocked read returns), and does neither once stopped. */
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/timeutil.h"
#include "core/session/watchdog.h"
#include "tap.h"

static _Atomic uint64_t halted_at_ns;

static void on_halt(void *arg)
{
	(void)arg;
	atomic_store(&halted_at_ns, nb_mono_ns());
}

int main(void)
{
	struct nb_watchdog *w;
	int sv[2];
	char c;
	bool halted, cut;
	uint64_t t0 = nb_mono_ns(), back_ns;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	CHECK(nb_watchdog_start(&w, t0 + 100 * NB_NS_PER_MS, t0 + 300 * NB_NS_PER_MS, sv[0],
				on_halt, NULL) == 0,
	      "the timer starts");
	/* Blocks until the cut: nothing is ever written to the other end. */
	ssize_t n = recv(sv[0], &c, 1, 0);
	back_ns = nb_mono_ns();
	nb_watchdog_stop(w, &halted, &cut);
	CHECK(n == 0 && halted && cut, "a read held by a silent peer returns at the cut");
	CHECK(atomic_load(&halted_at_ns) >= t0 + 100 * NB_NS_PER_MS &&
		  back_ns >= t0 + 300 * NB_NS_PER_MS,
	      "halt and cut not before their instants (%.3f s, %.3f s)",
	      (double)(atomic_load(&halted_at_ns) - t0) / 1e9, (double)(back_ns - t0) / 1e9);
	/* Only a lower bound is asserted on time: a loaded host may run the thread late. */
	close(sv[0]);
	close(sv[1]);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 1;
	atomic_store(&halted_at_ns, 0);
	t0 = nb_mono_ns();
	CHECK(nb_watchdog_start(&w, t0 + 200 * NB_NS_PER_MS, t0 + 400 * NB_NS_PER_MS, sv[0],
				on_halt, NULL) == 0,
	      "a second timer starts");
	nb_watchdog_stop(w, &halted, &cut);
	CHECK(!halted && !cut && atomic_load(&halted_at_ns) == 0,
	      "stopped early: neither halts nor cuts");
	nb_sleep_until_ns(t0 + 500 * NB_NS_PER_MS);
	CHECK(send(sv[1], "x", 1, 0) == 1 && recv(sv[0], &c, 1, 0) == 1 && c == 'x',
	      "the connection of a stopped timer still works past its instants");
	CHECK(nb_watchdog_start(&w, UINT64_MAX, UINT64_MAX, sv[0], NULL, NULL) == 0,
	      "a timer with no limit starts");
	nb_watchdog_stop(w, &halted, &cut);
	CHECK(!halted && !cut, "... and stops at once");
	nb_watchdog_stop(NULL, &halted, &cut);
	CHECK(!halted && !cut, "stopping no timer does nothing");
	close(sv[0]);
	close(sv[1]);
	return tap_done();
}
