/* SPDX-License-Identifier: BSD-2-Clause */
/* The moving parts of netbench stream: a paced sender that runs a sweep of bitrates back to back
 * (one step per rate, each a warm-up then the measurement window, then an end marker), and a
 * receiver loop that counts datagrams per step and samples the CPU at each window's edges (first
 * datagram after the warm-up, first datagram of the next step or the end marker), so the load
 * belongs to exactly the step's window. Both are used by the standalone front end and the agent. */
#ifndef NB_STREAM_RUN_H
#define NB_STREAM_RUN_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cancel.h"
#include "core/base/cpu.h"
#include "core/profile/prof.h"
#include "core/stream/stream.h"

/* Every counter but the omit ones covers the step's window only, after the warm-up. */
struct nb_stream_send_step {
	uint64_t rate_bps;	    /* asked */
	uint32_t count;		    /* datagrams planned in the window (0: open-ended) */
	uint32_t omit_count;	    /* warm-up datagrams planned before the window */
	uint64_t omit_datagrams;    /* warm-up datagrams sent */
	uint64_t datagrams;	    /* sent */
	uint64_t bytes;		    /* sent (UDP payload) */
	uint64_t errors;	    /* send() refused: ENOBUFS, EAGAIN, ICMP errors */
	uint64_t first_ns, last_ns; /* monotonic, first and last send */
	uint64_t late_sends, max_late_ns;
	struct nb_cpu_load cpu;
	double cpu_peer_s;	/* the receiving netbench's CPU-seconds when on this host, else 0 */
	uint32_t pacing_mode;	/* enum nb_pacing_mode the step was paced with */
	uint32_t burst;		/* datagrams per wake-up */
	uint64_t pacing_cpu_ns; /* thread CPU time the pacer spent waiting (sleep and spin) */
	uint64_t wakeups;	/* the pacer's waits */
};

typedef void (*nb_stream_step_fn)(void *arg, size_t i, const struct nb_stream_send_step *s);

struct nb_stream_send_opts {
	int fd;	      /* connected datagram socket */
	size_t block; /* datagram payload bytes, >= NB_STREAM_HDR */
	const uint64_t *rates_bps;
	size_t nrates;
	uint64_t step_ns; /* per rate, the window; 0: the first rate until *stop */
	uint64_t omit_ns; /* per rate, a warm-up before the window; 0: none */
	uint32_t stream_id;
	const nb_cancel_t *stop;   /* may be NULL */
	uint32_t pacing;	   /* enum nb_pacing_mode: spin, burst or txtime (auto: burst) */
	uint32_t burst;		   /* datagrams per wake-up; 0: about 1 ms worth */
	nb_stream_step_fn on_step; /* called after each step, may be NULL */
	void *arg;
	/* Called at each step's window edges, where the sender's CPU is sampled: open before the
	 * window's first datagram, closed after its last. May be NULL; must not block. */
	void (*on_edge)(void *arg, size_t i, bool open);
	void *edge_arg;
};

/* Achieved send rate in bit/s over first..last send (NaN below 2 datagrams). */
double nb_stream_send_rate_bps(const struct nb_stream_send_step *s, size_t block);
/* Datagrams a step of step_ns at rate_bps carries (at least 1). */
uint32_t nb_stream_step_count(uint64_t rate_bps, size_t block, uint64_t step_ns);
/* Datagrams a warm-up of omit_ns carries: 0 when omit_ns is 0, else at least 1. */
uint32_t nb_stream_omit_count(uint64_t rate_bps, size_t block, uint64_t omit_ns);
/* Runs every step, then sends the end marker. steps has nrates entries. 0 or -errno. */
int nb_stream_send_run(const struct nb_stream_send_opts *o, struct nb_stream_send_step *steps);

enum nb_stream_end {
	NB_END_NONE = 0,
	NB_END_FIN,  /* the sender's end marker */
	NB_END_TIME, /* the time limit */
	NB_END_IDLE, /* nothing arrived for idle_ns after traffic */
	NB_END_STOP, /* asked to stop */
};

struct nb_stream_recv {
	int fd;
	uint64_t end_mono_ns; /* 0: no time limit */
	uint64_t idle_ns;     /* 0: never end on idleness */
	bool stop_on_fin;
	const nb_cancel_t *ext_stop; /* may be NULL */
	/* Optional: called for every datagram received (warm-up included, not the end marker)
	 * with its arrival time (CLOCK_REALTIME ns). */
	void (*on_datagram)(void *arg, uint64_t arrival_ns, const uint8_t *buf, size_t len);
	void *on_datagram_arg;
	/* Everything below is the receiver's; read it with nb_stream_recv_copy. */
	nb_cancel_t stop;
	enum nb_stream_end end;
	uint64_t rx_errors;
	bool used_recvmsg; /* recvmmsg missing (ENOSYS): fell back */
	struct nb_stream_rx *rx;
	pthread_mutex_t lock;
	pthread_t thread;
	bool running;
	int cpu_step; /* index of the step whose CPU window is open, -1 none */
	bool foreign_open;
	uint64_t last_arrival_mono_ns, last_sample_mono_ns;
	bool active_since_sample;
	struct nb_cpu_sample step_start, foreign_start, last_active;
	/* The kernel profile of each step's window (nb_stream_recv_profile), NULL without. */
	struct nb_prof *prof;
	bool prof_on;
	struct nb_prof_result *prof_step[NB_STREAM_MAX_STEPS]; /* NULL: the step had none */
};

int nb_stream_recv_new(struct nb_stream_recv **r, int fd);
void nb_stream_recv_free(struct nb_stream_recv *r); /* stops the thread, does not close fd */
/* Asks for the kernel profile of each step's window at hz per CPU (every CPU: where the
 * datagrams are received is the kernel's choice). Before the receiver starts. 0, or -EINVAL
 * when hz is out of range (why says so); any other failure leaves a profiler whose steps say
 * "unavailable: WHY" and returns 0. */
int nb_stream_recv_profile(struct nb_stream_recv *r, uint32_t hz, char *why, size_t whylen);
/* Receives in the calling thread until an end condition; returns 0 or -errno. */
int nb_stream_recv_run(struct nb_stream_recv *r);
/* The same in a thread of its own. */
int nb_stream_recv_start(struct nb_stream_recv *r);
void nb_stream_recv_stop(struct nb_stream_recv *r);
/* Step i as it is now (*s untouched when i is not below the number of steps begun, which is
 * returned), whether the end marker came, and the CPU sample that opened step i's window when
 * it is the one open (*open_known). Cheaper than a copy of every counter. */
size_t nb_stream_recv_peek(struct nb_stream_recv *r, size_t i, struct nb_stream_step *s, bool *fin,
			   struct nb_cpu_sample *open, bool *open_known);
/* A consistent copy of the counters at this instant (the profiles are not copied: read
 * r->prof_step after the receiver stopped). */
void nb_stream_recv_copy(struct nb_stream_recv *r, struct nb_stream_rx *out);

#endif
