/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench stream over the control protocol: the test request, and receive/send counters as
 * TLV items in the stream's tag range (300-399). Loads travel as computed figures, not raw CPU
 * samples: a step's window is measured where the datagrams arrive. */
#ifndef NB_STREAM_MSG_H
#define NB_STREAM_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include "core/session/proto.h"
#include "core/stream/stream.h"
#include "core/stream/stream_pacing.h"
#include "core/stream/stream_run.h"

enum nb_stream_tag {
	NB_T_STR_ROLE = 300,   /* u32: enum nb_stream_role */
	NB_T_STR_ADDR = 301,   /* str: group or unicast address; "" = the controller */
	NB_T_STR_IFACE = 302,  /* str */
	NB_T_STR_SOURCE = 303, /* str: SSM source */
	NB_T_STR_TTL = 304,    /* u32, absent: default */
	NB_T_STR_FLAGS = 305,  /* u32: NB_STR_F_* */
	NB_T_STR_BLOCK = 306,  /* u32 bytes */
	NB_T_STR_RATES = 307,  /* be64 bit/s each */
	NB_T_STR_STEP_NS = 308,
	NB_T_STR_STREAM_ID = 309,
	NB_T_STR_OMIT_NS = 310,	   /* u64: warm-up before each step's window; absent: none */
	NB_T_STR_PACING = 311,	   /* u32: enum nb_pacing_mode asked; absent: auto */
	NB_T_STR_BURST = 312,	   /* u32: datagrams per wake-up; absent: about 1 ms worth */
	NB_T_STR_PROFILE_HZ = 313, /* u32: profile each received step at this rate per CPU */
	NB_T_STR_STEP = 320,	   /* one received step */
	NB_T_STR_FOREIGN = 321,	   /* the foreign stream */
	NB_T_STR_OTHER = 322,	   /* u64: datagrams of other streams */
	NB_T_STR_END = 323,	   /* u32: enum nb_stream_end */
	NB_T_STR_STEP_WARM =
	    324,	     /* the warm-up of the step before it (records stay as they were) */
	NB_T_STR_SENT = 330, /* one sent step */
	NB_T_STR_SENT_WARM = 331,  /* the warm-up of the sent step before it */
	NB_T_STR_SENT_PACE = 332,  /* the pacing of the sent step before it */
	NB_T_STR_PACE_MODE = 333,  /* u32: the sender's resolved enum nb_pacing_mode */
	NB_T_STR_PACE_IFACE = 334, /* str: the sender's egress interface */
	NB_T_STR_PACE_QDISC = 335, /* str: its qdisc */
	NB_T_STR_PACE_WHY = 336,   /* str: why the kernel does not pace, when it does not */
	NB_T_STR_STEP_GAP = 325,   /* inter-arrival gaps of the step before it */
	NB_T_STR_STEP_PROF = 326,  /* u16 step index, then one step's kernel profile: the items
				      of nb_prof_put (core/profile) as a message's payload */
};

enum nb_stream_role { NB_STREAM_AGENT_RECV = 0, NB_STREAM_AGENT_SEND = 1 };
#define NB_STR_F_LOOP  0x1u
#define NB_STR_F_REUSE 0x2u

struct nb_stream_req {
	uint32_t role;
	char addr[256], iface[32], source[256];
	uint16_t port;
	int ttl; /* -1: default */
	uint32_t flags;
	uint32_t block;
	uint64_t rates_bps[NB_STREAM_MAX_STEPS];
	uint32_t nrates;
	uint64_t step_ns;
	uint64_t omit_ns;
	uint32_t stream_id;
	uint32_t pacing;     /* enum nb_pacing_mode asked */
	uint32_t burst;	     /* 0: about 1 ms worth per wake-up */
	uint32_t profile_hz; /* 0: no kernel profile of the receiver's steps */
};

int nb_stream_req_put(struct nb_msg *m, const struct nb_stream_req *r);
/* 0, or -EBADMSG when an item is missing or out of range. */
int nb_stream_req_get(const struct nb_msg *m, struct nb_stream_req *r);

int nb_stream_rx_put(struct nb_msg *m, const struct nb_stream_rx *rx, enum nb_stream_end end);
/* Fills rx (reset first) from the items; 0 or -EBADMSG. */
int nb_stream_rx_get(const struct nb_msg *m, struct nb_stream_rx *rx, enum nb_stream_end *end);

int nb_stream_sent_put(struct nb_msg *m, const struct nb_stream_send_step *s, size_t n);
/* Returns the number of steps found (at most max) or -EBADMSG. */
int nb_stream_sent_get(const struct nb_msg *m, struct nb_stream_send_step *s, size_t max);

/* Each received step's kernel profile (prof[i] NULL: none for step i), without its stacks and
 * with at most NB_STREAM_PROF_FUNCS functions; a step whose profile does not fit in the message
 * is sent as "unavailable: ..." saying so. */
#define NB_STREAM_PROF_FUNCS 8u
int nb_stream_prof_put(struct nb_msg *m, struct nb_prof_result *const *prof, size_t n);
/* Fills prof[0..n) (malloc'd, NULL where a step has none; free each); 0 or -EBADMSG (then
 * every prof[i] is NULL). */
int nb_stream_prof_get(const struct nb_msg *m, struct nb_prof_result **prof, size_t n);

/* The sender's pacing decision (asked mode not carried: the request has it). */
int nb_stream_pacing_put(struct nb_msg *m, const struct nb_stream_pacing *pc);
/* 0 (pc->mode stays as it was when the items are absent: an older agent), or -EBADMSG. */
int nb_stream_pacing_get(const struct nb_msg *m, struct nb_stream_pacing *pc);

#endif
