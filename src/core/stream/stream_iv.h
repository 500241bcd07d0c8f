/* SPDX-License-Identifier: BSD-2-Clause */
/* Interval reports of a receiver (stream's -i): while it receives, each step's window is cut
 * into intervals at fixed instants after the window's first datagram arrived, and every
 * interval's figures are the receiver's counters at its two edges. The step's last interval
 * ends where the receiver closed the step (the next step's first datagram, the end marker or
 * the end of reception), with the step's final counters: the intervals of a step add up to its
 * row. An edge less than a quarter interval before the window's end is not taken. */
#ifndef NB_STREAM_IV_H
#define NB_STREAM_IV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cancel.h"
#include "core/base/cpu.h"
#include "core/stream/stream_run.h"

struct nb_stream_interval {
	uint16_t step;	/* the sender's step, 0-based */
	uint32_t index; /* 0-based within the step's window */
	bool last;	/* ends at the step's close, with its final counters */
	uint64_t rate_bps_asked;
	double start_s, end_s; /* since the window's first datagram arrived */
	uint64_t datagrams;    /* received in the interval, duplicates included (the table's) */
	uint64_t unique;       /* distinct ones */
	int64_t lost;	       /* missing at the end less missing at the start (below 0 when a
				  datagram counted missing earlier came late) */
	uint64_t bytes;
	double mbit_per_s;	/* bytes x 8 over end_s - start_s; NaN for an empty span */
	double jitter_ms;	/* RFC 3550 estimate at the interval's end; NaN before 2 arrivals */
	struct nb_cpu_load cpu; /* the receiving host over the interval; valid false: unknown */
};
typedef void (*nb_stream_interval_fn)(void *arg, const struct nb_stream_interval *iv);

/* The watcher's state: set interval_ns, fn and arg, zero the rest. */
struct nb_stream_iv {
	uint64_t interval_ns;
	nb_stream_interval_fn fn;
	void *arg;
	size_t next_step;		    /* the first step not yet finished with */
	bool watching;			    /* next_step's window is open and being cut */
	uint32_t n;			    /* intervals reported of it */
	uint64_t t0_ns, edge_ns, window_ns; /* CLOCK_REALTIME: window open, last edge */
	uint64_t datagrams, unique, missing, bytes;
	bool cpu_open, cpu_edge; /* the samples at the window's opening and at the last edge */
	struct nb_stream_iv_samples *sm;
	nb_cancel_t done;
};

/* Runs the receiver r (nb_stream_recv_run, in the calling thread) while a thread of its own
 * reports each interval as it ends (w->fn is called from that thread, and for the steps still
 * open at the end from this one). Returns what the receiving loop returned, or -ENOMEM / the
 * thread's -errno before it ran. After Ctrl-C (r->end NB_END_STOP) the step cut short gets no
 * last interval. */
int nb_stream_recv_run_intervals(struct nb_stream_recv *r, struct nb_stream_iv *w);

#endif
