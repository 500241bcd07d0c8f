/* SPDX-License-Identifier: BSD-2-Clause */
/* A constant-bitrate pacer: datagram k of a run is due at start + k * interval, an absolute
 * schedule (no drift from accumulated sleep error). Waiting sleeps with clock_nanosleep on an
 * absolute deadline and spins only the last stretch, whose length adapts to how late the
 * kernel's wake-ups have been, so spacing stays smooth without burning a whole CPU. */
#ifndef NB_PACER_H
#define NB_PACER_H

#include <stdint.h>

struct nb_pacer {
	uint64_t start_ns;    /* monotonic instant datagram 0 is due */
	double interval_ns;   /* ideal spacing */
	uint64_t next;	      /* index of the next datagram */
	uint64_t spin_ns;     /* how early to wake before a deadline and spin */
	double wake_late_ns;  /* moving average of how late sleeps end */
	uint64_t last_ns;     /* when the previous wait returned */
	uint64_t late_sends;  /* datagrams sent more than one interval after their deadline */
	uint64_t max_late_ns; /* largest lateness seen */
};

/* Longest spin the pacer allows itself. Wake-ups later than this come from a busy CPU, which
 * spinning longer cannot fix: it only makes the scheduler favour the thread less. */
#define NB_PACER_MAX_SPIN_NS 50000u

/* Sets up a schedule of datagrams of bits each at rate_bps, the first due at start_ns. Also
 * lowers this thread's timer slack (50 us by default), without which every sleep overshoots. */
void nb_pacer_init(struct nb_pacer *p, uint64_t rate_bps, uint64_t bits, uint64_t start_ns);
/* Monotonic deadline of datagram k. */
uint64_t nb_pacer_deadline(const struct nb_pacer *p, uint64_t k);
/* Waits until the next datagram is due and returns its deadline; the caller sends it. A late
 * pacer catches up at four times the rate (never closer than a quarter interval) and records
 * how late it was. */
uint64_t nb_pacer_wait(struct nb_pacer *p);

#endif
