/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench stream: the datagram header every netbench stream datagram carries, and the receive
 * side's per-step accounting (datagrams, bytes, loss, reordering, duplicates in a bounded window,
 * RFC 3550 interarrival jitter), plus the counters for a foreign stream that has no header. */
#ifndef NB_STREAM_H
#define NB_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cpu.h"
#include "core/base/hist.h"

/* Header layout (all big-endian). The first 20 bytes are laid out as iperf2's UDP datagram
 * header (32-bit sequence, send time in seconds and microseconds, upper sequence bits, and a
 * zero "flags" word meaning "no client header"), so an iperf2 server counts a netbench stream
 * with its own loss and jitter figures; the final datagrams carry a negative sequence, which is
 * iperf2's end-of-stream sign. netbench's own fields follow its magic at offset 20.
 *
 *   0 seq32   4 tv_sec   8 tv_usec  12 seq_hi (0)  16 zero
 *  20 magic "NBS1"  24 version u8, flags u8, step u16  28 stream_id
 *  32 step_seq  36 step_count (0: open-ended)  40 send_ns (CLOCK_REALTIME)  48 rate_kbps
 *  52 omit_count (0 before the warm-up existed: nothing omitted)
 *
 * A step is omit_count warm-up datagrams (step_seq 0 .. omit_count-1) followed by step_count
 * datagrams in the measurement window. The boundary is the sender's pacing schedule (datagram k
 * is due omit + (k - omit_count) intervals after the step's start), told in every datagram: both
 * ends agree on it exactly, whichever datagrams are lost or reordered, so the window's expected
 * count is the sender's and the loss audit adds up. A boundary on the receiver's clock from the
 * step's first arrival would move with a lost or late first datagram and could put a datagram
 * near it on the other side than the sender counted it. */
#define NB_STREAM_MAGIC	     0x4e425331u /* "NBS1" */
#define NB_STREAM_VERSION    1u
#define NB_STREAM_HDR	     56u
#define NB_STREAM_F_FIN	     0x01u /* end of the stream; step is one past the last step */
#define NB_STREAM_FIN_COPIES 5u	   /* the end marker is sent this many times: it may be lost */

/* Sequence numbers tracked for duplicate detection behind the highest one seen: 8 KByte of
 * bitmap. An older datagram is counted as reordered and "late" (it cannot be told from a dup). */
#define NB_STREAM_WINDOW    65536u
#define NB_STREAM_MAX_STEPS 64u

#define NB_STREAM_DEFAULT_PORT 12345u /* mcsend/mcrecv's port */
#define NB_STREAM_MIN_RATE     1000u  /* the header carries kbit/s */
#define NB_STREAM_MAX_RATE     400000000000ULL
#define NB_STREAM_MAX_OMIT_NS  (3600ULL * 1000000000ULL) /* -O/--omit: an hour at most */

struct nb_stream_hdr {
	uint32_t seq; /* across the whole stream (iperf2's id) */
	uint8_t version, flags;
	uint16_t step;	     /* 0-based step of a sweep */
	uint32_t stream_id;  /* chosen at random by the sender */
	uint32_t step_seq;   /* 0-based within the step */
	uint32_t step_count; /* datagrams in the step's window; 0 when open-ended */
	uint32_t omit_count; /* warm-up datagrams before the window (step_seq below it) */
	uint64_t send_ns;    /* sender's CLOCK_REALTIME at send */
	uint32_t rate_kbps;  /* the bitrate asked for, kbit/s */
};

void nb_stream_hdr_encode(uint8_t *buf, const struct nb_stream_hdr *h);
/* Returns 0, or -EINVAL when buf is no netbench datagram (too short, wrong magic or version). */
int nb_stream_hdr_decode(const uint8_t *buf, size_t len, struct nb_stream_hdr *h);

/* RFC 3550 section 6.4.1 interarrival jitter, in nanoseconds: J += (|D| - J) / 16 where D is
 * the change in transit time (arrival - send) between consecutive arrivals. Clock offsets
 * between sender and receiver cancel out. */
struct nb_jitter {
	double jitter_ns;
	int64_t last_transit_ns;
	bool have_last;
};
void nb_jitter_update(struct nb_jitter *j, uint64_t send_ns, uint64_t arrival_ns);

/* One step as the receiver saw it. Only datagrams of the window count (the warm-up's are
 * tallied apart); rates use the arrival times of the window's first and last datagram and the
 * bytes after the first one: counters read at the window's edges. */
struct nb_stream_step {
	uint16_t step;
	uint32_t step_count; /* from the header: the window's datagrams; 0 = open-ended */
	uint32_t omit_count; /* from the header: warm-up datagrams, not counted */
	uint64_t rate_bps_asked;
	uint64_t warmup_datagrams; /* received inside the warm-up: not in any figure below */
	uint64_t datagrams, bytes; /* everything received, duplicates included */
	uint64_t unique;	   /* distinct sequence numbers */
	uint64_t dups, reordered, late;
	uint64_t first_ns, last_ns, first_bytes; /* arrival clock (CLOCK_REALTIME ns) */
	uint32_t highest_seq;			 /* within the window: step_seq - omit_count */
	struct nb_jitter jitter;
	/* Inter-arrival gaps between consecutive window datagrams, in arrival order: the shape
	 * the sender's pacing gave the stream (a burst shows as short gaps and one long one). */
	uint64_t gaps, gap_p50_ns, gap_p99_ns;
	struct nb_cpu_load cpu; /* over the step's window, when the caller measured it */
	/* CPU-seconds of the sending netbench in this step when it runs on the same host: part
	 * of the measurement, not other load (nb_cpu_other_pct); 0 otherwise. */
	double cpu_peer_s;
	bool closed;	   /* a later step, the end marker or the end of reception closed it */
	bool unreconciled; /* the sender's counts disagree with ours: not a valid result */
};

/* Expected datagrams in the window (the header's count, or highest window sequence + 1 when
 * open-ended), lost
 * (expected - unique, never negative) and the achieved rate in bit/s (NaN for < 2 datagrams). */
uint64_t nb_stream_step_expected(const struct nb_stream_step *s);
uint64_t nb_stream_step_lost(const struct nb_stream_step *s);
double nb_stream_step_rate_bps(const struct nb_stream_step *s);
/* False when the counts cannot be: more distinct datagrams than sent, or a sequence number
 * beyond the window. */
bool nb_stream_step_valid(const struct nb_stream_step *s);

/* A stream without netbench header: only what can be counted. */
struct nb_stream_foreign {
	uint64_t datagrams, bytes;
	uint64_t first_ns, last_ns, first_bytes;
	struct nb_cpu_load cpu;
};
double nb_stream_foreign_rate_bps(const struct nb_stream_foreign *f);

/* What nb_stream_rx_datagram saw, as bits, so the caller can take CPU samples at step edges. */
enum {
	NB_RX_COUNTED = 0x01,  /* a netbench datagram was counted */
	NB_RX_NEW_STEP = 0x02, /* a datagram opened a new step (the previous one, if any, closed) */
	NB_RX_FIN = 0x04,      /* the end marker of the stream arrived (first copy) */
	NB_RX_FOREIGN = 0x08,  /* a datagram without netbench header */
	NB_RX_FIRST_FOREIGN = 0x10, /* ... the first one */
	NB_RX_OTHER_STREAM = 0x20,  /* a netbench datagram of another stream: ignored */
	NB_RX_WARMUP = 0x40,	    /* a datagram of the current step's warm-up: not counted */
	NB_RX_WINDOW = 0x80,	    /* the first datagram of the current step's window */
};

struct nb_stream_rx {
	uint32_t stream_id;
	bool locked; /* stream_id is the stream being counted */
	bool fin;
	uint64_t other_stream_datagrams;
	size_t nsteps;
	struct nb_stream_step steps[NB_STREAM_MAX_STEPS];
	uint64_t steps_dropped; /* datagrams of steps beyond NB_STREAM_MAX_STEPS */
	struct nb_stream_foreign foreign;
	uint8_t seen[NB_STREAM_WINDOW / 8]; /* bit per sequence number, modulo the window */
	struct nb_hist gap_hist;	    /* the current step's gaps */
};

/* Nothing of any stream arrived: no datagram in any step (warm-up included), no foreign one,
 * none of another netbench stream. NULL (no receiver) counts as nothing. */
bool nb_stream_rx_nothing(const struct nb_stream_rx *rx);

int nb_stream_rx_new(struct nb_stream_rx **rx);
void nb_stream_rx_free(struct nb_stream_rx *rx);
void nb_stream_rx_reset(struct nb_stream_rx *rx);
/* Counts one datagram that arrived at arrival_ns (CLOCK_REALTIME ns); returns NB_RX_* bits. */
unsigned nb_stream_rx_datagram(struct nb_stream_rx *rx, const uint8_t *buf, size_t len,
			       uint64_t arrival_ns);
/* Brings the current step's gap percentiles up to date (earlier steps' are final). */
void nb_stream_rx_gaps_update(struct nb_stream_rx *rx);
/* The step being received, or NULL. */
struct nb_stream_step *nb_stream_rx_current(struct nb_stream_rx *rx);

#endif
