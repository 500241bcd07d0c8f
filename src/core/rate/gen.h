/* The test-frame generator of `netbench rate`: engines (one file each, a const table of
 * callbacks) that put frames of one flow on the wire, and the pacer that calls them at a
 * steady rate, in bursts, or as fast as they go. */
#ifndef NB_GEN_H
#define NB_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define NB_GEN_MAX_FLOWS 1024
#define NB_GEN_MAX_BATCH 1024 /* sendmmsg takes at most UIO_MAXIOV (1024) messages */

struct nb_gen_cfg {
	struct sockaddr_storage dst; /* address and port of the receiver */
	socklen_t dst_len;
	uint16_t sport_base; /* flow f uses sport_base + f; 0: ports the kernel picks */
	uint32_t flows;
	uint32_t flow_base; /* this engine's flow f is flow flow_base + f of the trial (threads) */
	uint32_t batch;		  /* most frames per system call */
	uint32_t frame_max_bytes; /* the largest frame any trial will use */
	bool no_mmsg;		  /* udp: use sendmsg even where sendmmsg works */
	int neigh_wait_ms;	  /* packet: how long to wait for ARP */
};

struct nb_gen_engine {
	const char *name;
	/* Opens sockets and resolves what the engine needs; a failure explains itself in err. */
	int (*open)(const struct nb_gen_cfg *cfg, void **state, char *err, size_t errlen);
	/* Prepares frames of frame_bytes (FCS included) for a trial; -EMSGSIZE when too large.
	 * probe_every: mark one frame in that many of flow 0 as a probe (nb_probe_due); 0: none. */
	int (*prepare)(void *state, uint32_t frame_bytes, uint16_t trial, uint32_t probe_every);
	/* Sends up to n frames of one flow, sequence numbers first_seq...; returns the number
	 * handed to the kernel (0 when it pushed back) or a negative errno. */
	int (*send)(void *state, uint32_t flow, uint32_t first_seq, uint32_t n);
	/* Waits until every frame handed over has left (the packet engine's ring). */
	int (*drain)(void *state);
	/* One line on how the engine runs ("sendmmsg, 32 frames per call"). */
	void (*describe)(void *state, char *buf, size_t len);
	void (*close)(void *state);
};

extern const struct nb_gen_engine nb_gen_udp, nb_gen_packet;
/* NULL-terminated table of all engines. */
extern const struct nb_gen_engine *const nb_gen_engines[];
const struct nb_gen_engine *nb_gen_find(const char *name);

/* One trial: rate_fps frames per second (0: as fast as the engine goes) for duration_ns, or
 * exactly frames frames when frames is not 0; with burst > 1, groups of burst frames back to
 * back at the same average rate. */
struct nb_gen_trial {
	uint64_t rate_fps;
	uint64_t duration_ns;
	uint64_t frames;
	uint32_t burst;
	uint32_t flows;
	uint32_t batch;
	volatile int *stop; /* may be NULL */
};

struct nb_gen_stats {
	uint64_t tx_frames;
	uint64_t tx_flow[NB_GEN_MAX_FLOWS];
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC of the first and after the last send */
	uint64_t pushback;	   /* calls that sent nothing because the kernel pushed back */
	uint64_t slipped_frames;   /* frames not sent because the sender was held up */
};

/* Runs one trial on an opened and prepared engine. Returns 0 or the engine's negative errno. */
int nb_gen_run(const struct nb_gen_engine *e, void *state, const struct nb_gen_trial *t,
	       struct nb_gen_stats *s);

#endif
