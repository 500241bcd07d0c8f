/* SPDX-License-Identifier: BSD-2-Clause */
/* A constant-bitrate pacer: datagram k of a run is due at start + k * interval, an absolute
 * schedule (no drift from accumulated sleep error). One pacer per sending thread, each with the
 * rate it is given, so a rate split across threads is exact per thread. Three modes:
 *  - spin: every datagram waits for its own deadline; sleeps with clock_nanosleep on an absolute
 *    deadline and spins the last stretch (at most a quarter interval, whose length adapts to how
 *    late the kernel's wake-ups have been): exact gaps, and at short intervals a busy core;
 *  - burst: one wake-up per group of datagrams (about 1 ms worth, or a given count), sent back
 *    to back once the group's last one is due: the average rate is the schedule's, the CPU
 *    sleeps; the spin before a wake-up is held to 1 % of the group's period, and a held-up
 *    pacer catches up with larger groups (up to eight) instead of spinning;
 *  - txtime: as burst, but each datagram carries its own deadline as its transmit time
 *    (SO_TXTIME) and the group is handed over ahead of time: the fq qdisc releases every
 *    datagram at its deadline, the sender sleeps.
 * The pacer measures its own cost: the thread CPU time spent inside nb_pacer_wait. */
#ifndef NB_PACER_H
#define NB_PACER_H

#include <stdbool.h>
#include <stdint.h>

enum nb_pacing_mode {
	NB_PACING_AUTO = 0, /* txtime where the kernel has it, else burst */
	NB_PACING_SPIN,
	NB_PACING_BURST,
	NB_PACING_TXTIME,
};

struct nb_pacer {
	uint64_t start_ns;	  /* monotonic instant datagram 0 is due */
	double interval_ns;	  /* ideal spacing */
	uint64_t next;		  /* index of the next datagram */
	uint64_t spin_ns;	  /* how early to wake before a deadline and spin */
	double wake_late_ns;	  /* moving average of how late sleeps end */
	uint64_t last_ns;	  /* when the previous wait returned */
	uint64_t late_sends;	  /* datagrams sent more than one period after their deadline */
	uint64_t max_late_ns;	  /* largest lateness seen */
	enum nb_pacing_mode mode; /* spin, burst or txtime (never auto) */
	uint32_t burst;		  /* datagrams per wake-up (1 in spin mode) */
	uint64_t last_tx_ns;	  /* txtime: the previous datagram's transmit time */
	uint64_t group_end;	  /* burst, txtime: index one past the current group */
	uint32_t last_group;	  /* datagrams in the current group */
	uint64_t cpu_ns;	  /* thread CPU time spent waiting (sleep and spin) */
	uint64_t wakeups;	  /* waits that slept or spun */
	uint64_t count;		  /* datagrams in the run, 0: unbounded (a group ends there) */
};

/* Longest spin the pacer allows itself. Wake-ups later than this come from a busy CPU, which
 * spinning longer cannot fix: it only makes the scheduler favour the thread less. */
#define NB_PACER_MAX_SPIN_NS 50000u
/* burst and txtime: a wake-up sends at most this much of the schedule... */
#define NB_PACER_GROUP_NS 1000000u
/* ... and at most this many datagrams (--burst's ceiling). */
#define NB_PACER_MAX_BURST 1024u
/* burst: a held-up pacer catches up with at most this many groups per wake-up. */
#define NB_PACER_CATCHUP_GROUPS 8u
/* txtime: at most this many datagrams queued ahead per flow; fq drops a flow's datagrams
 * beyond its flow_limit, 100 by default. */
#define NB_PACER_TXTIME_MAX_BURST 64u
/* txtime: a group is handed to the kernel this long before its first deadline. */
#define NB_PACER_TXTIME_LEAD_NS 200000u

/* Sets up a schedule of datagrams of bits each at rate_bps, the first due at start_ns, in spin
 * mode. Also lowers this thread's timer slack (50 us by default), without which every sleep
 * overshoots. */
void nb_pacer_init(struct nb_pacer *p, uint64_t rate_bps, uint64_t bits, uint64_t start_ns);
/* Switches to mode (spin, burst or txtime) with burst datagrams per wake-up (0: about
 * NB_PACER_GROUP_NS worth). Call after nb_pacer_init, before the first wait. */
void nb_pacer_set_mode(struct nb_pacer *p, enum nb_pacing_mode mode, uint32_t burst);
/* Monotonic deadline of datagram k. */
uint64_t nb_pacer_deadline(const struct nb_pacer *p, uint64_t k);
/* Waits until the next datagram may be handed over and returns its deadline; the caller sends
 * it (in txtime mode with nb_pacer_txtime() as its transmit time). A late pacer catches up at
 * four times the rate (never closer than a quarter interval, or a quarter group period) and
 * records how late it was. */
uint64_t nb_pacer_wait(struct nb_pacer *p);
/* txtime mode: the transmit time of the datagram nb_pacer_wait just returned. */
uint64_t nb_pacer_txtime(const struct nb_pacer *p);
/* For a sender that hands several datagrams to one system call: after nb_pacer_wait, takes
 * the datagrams that may go with the one it returned and returns how many go in all (1 to
 * max): in burst mode the rest of the current group; in spin mode those whose deadline is
 * already past at now_ns (a sender behind its schedule), at most spin_max in all; in txtime
 * mode 1 (each datagram carries its own transmit time). */
uint32_t nb_pacer_take(struct nb_pacer *p, uint32_t max, uint32_t spin_max, uint64_t now_ns);

/* Pure decisions, unit-tested. */
/* Datagrams per wake-up: 1 in spin mode; asked when not 0 (at most NB_PACER_MAX_BURST, in
 * txtime mode NB_PACER_TXTIME_MAX_BURST); else what fits in NB_PACER_GROUP_NS, at least 1. */
uint32_t nb_pacing_burst(enum nb_pacing_mode mode, double interval_ns, uint32_t asked);
/* The mode a run uses: asked, or for auto txtime when the kernel can (SO_TXTIME accepted and
 * an fq qdisc on the egress interface), else burst. Returns the mode, or -EOPNOTSUPP when
 * txtime was asked for and the kernel cannot. */
int nb_pacing_choose(enum nb_pacing_mode asked, bool txtime_ok);
const char *nb_pacing_name(enum nb_pacing_mode mode);
/* Pacer CPU over a window of window_s as % of one CPU (NaN without a window). */
double nb_pacing_cpu_pct(uint64_t cpu_ns, double window_s);
/* "auto", "spin", "burst", "txtime": 0, or -EINVAL. */
int nb_pacing_parse(const char *s, enum nb_pacing_mode *mode);

#endif
