/* SPDX-License-Identifier: BSD-2-Clause */
/* The crypto measurement on the control protocol: the request (options by name), the upper bound
 * of a run's duration that both ends compute alike, and the result as nested TLVs (explicit byte
 * order) that the controller decodes back into a struct nb_crypto_result and prints as a local
 * run would. A result is sent piecewise (the head, then one algorithm per item), because a whole
 * run with several kernel engines exceeds one 64 KB message. The request and the bound live in
 * crypto_request.c, the result's items in crypto_wire.c. */
#ifndef NB_CRYPTO_WIRE_H
#define NB_CRYPTO_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "core/crypto/crypto_run.h"
#include "core/session/proto.h"

/* Tags of the crypto test (range 400-499). Top level of TEST_REQ, SNAP and FINAL: */
enum nb_crypto_tag {
	NB_T_CRYPTO_ALGOS = 400,     /* request: comma-separated algorithm names */
	NB_T_CRYPTO_ENGINES = 401,   /* request: comma-separated engine names */
	NB_T_CRYPTO_SIZES = 402,     /* request: u32 sizes, concatenated */
	NB_T_CRYPTO_TIME_NS = 403,   /* request: u64 window per point */
	NB_T_CRYPTO_WARMUP_NS = 404, /* request: u64 */
	NB_T_CRYPTO_INFLIGHT = 405,  /* request: u32 */
	NB_T_CRYPTO_AAD = 406,	     /* request: u32 AAD bytes */
	NB_T_CRYPTO_BOUND_NS = 407,  /* ack: the agent's bound on the run's duration */
	/* request: u32 1, the controller reads a point's CPU load as the shared record of
	 * session/proto.h. A request without it (a controller before this tag) gets the load as
	 * nested TLVs of its own tags, which this decoder still reads (docs/protocol.md). */
	NB_T_CRYPTO_LOAD_RECORD = 408,
	/* request: u32 windows per point (--repeat); an agent that reads it answers with each
	 * point's windows and interval (NB_CRYPTO_LOAD_RECORD_WINDOWS); an agent before it
	 * passes over it and measures one window per point. */
	NB_T_CRYPTO_REPEAT = 409,
	NB_T_CRYPTO_HEAD = 410,	       /* snap/final: nested, the engines' availability */
	NB_T_CRYPTO_RESULT = 411,      /* snap/final: nested, one algorithm's cells */
	NB_T_CRYPTO_DONE = 412,	       /* snap/final: u32, algorithms complete on the agent */
	NB_T_CRYPTO_FINISHED = 413,    /* snap/final: u32, 1 once the run has ended */
	NB_T_CRYPTO_INTERRUPTED = 414, /* final: u32, 1 when the run was stopped early */
	NB_T_CRYPTO_RUN_ERR = 415,     /* final: u32 errno of a run that failed as a whole */
	NB_T_CRYPTO_NALGOS = 416,      /* final: u32, algorithms sent in all */
	/* request: u32, the kernel profile of each point's window at this rate per CPU; the
	 * agent refuses more than NB_PROF_HZ_MAX and, started with --no-profile, any */
	NB_T_CRYPTO_PROFILE_HZ = 417,
	NB_T_CRYPTO_PROFILE_FOLDED = 418, /* request: u32 1, send each point's folded stacks */
	/* snap/final: u16 algorithm, u16 engine, u16 size index, then the point's kernel profile
	 * (the items of nb_prof_put as a message's payload); sent before its algorithm's item */
	NB_T_CRYPTO_POINT_PROF = 419,
};

/* How a point's CPU load is written: the shared record (session/proto.h, NB_LOAD_WIRE_BYTES),
 * or the nested TLVs a controller that does not ask for the record reads. */
enum nb_crypto_load_form {
	NB_CRYPTO_LOAD_RECORD,
	NB_CRYPTO_LOAD_TLV,
	/* The record, and each point's windows and 95 % interval: for a controller that sent
	 * NB_T_CRYPTO_REPEAT (one before it rejects tags it does not know). */
	NB_CRYPTO_LOAD_RECORD_WINDOWS,
};

/* Writes o's options into a TEST_REQ (the caller adds type and duration), with
 * NB_T_CRYPTO_LOAD_RECORD and NB_T_CRYPTO_REPEAT at the end. */
int nb_crypto_put_request(struct nb_msg *m, const struct nb_crypto_params *o);
/* Reads and checks a request into o (defaults first, then the request's values through the
 * same selectors and bounds as the command line). Returns 0 or -EINVAL with the reason. */
int nb_crypto_get_request(const struct nb_msg *m, struct nb_crypto_params *o, char *err,
			  size_t errlen);
/* A generous upper bound on how long nb_crypto_run takes with o: every point's warm-up and
 * window, thread and session set-up, and the correctness checks of every cell. */
uint64_t nb_crypto_bound_ns(const struct nb_crypto_params *o);
/* The form the controller that sent req reads: the record when it asked for it (with the
 * windows when it sent NB_T_CRYPTO_REPEAT), else TLVs. */
enum nb_crypto_load_form nb_crypto_request_load_form(const struct nb_msg *req);

/* The head (engines, their availability and reasons) as the value of one item; *buf is
 * malloc'd. The decoder fills r->engine_ok/engine_reason; the engine list must match r's. */
int nb_crypto_head_encode(const struct nb_crypto_result *r, uint8_t **buf, size_t *len);
int nb_crypto_head_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n);
/* One algorithm's cells (status, check, driver, crossover, every point with its CPU load in
 * form) as the value of one item, at most 65535 bytes (-EMSGSIZE otherwise); *buf is malloc'd. */
int nb_crypto_algo_encode(const struct nb_crypto_result *r, size_t algo,
			  enum nb_crypto_load_form form, uint8_t **buf, size_t *len);
/* Decodes (a point's CPU load in either form) into r's cells of the algorithm the item names (its
 * index in r's options, returned in *algo), which must have r's engines and sizes in r's order.
 * Returns 0 or -EBADMSG for anything truncated, malformed, out of range or not matching r; r is
 * left as it was on failure. */
int nb_crypto_algo_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n, size_t *algo);

/* The point's profile as the value of one NB_T_CRYPTO_POINT_PROF item (*buf malloc'd), at most
 * max bytes: without its stacks, then as "unavailable: did not fit", when it is larger. */
int nb_crypto_prof_encode(const struct nb_prof_result *pr, size_t algo, size_t engine, size_t si,
			  size_t max, uint8_t **buf, size_t *len);
/* Decodes one item into r's point it names (r needs opts.profile_hz). 0 or -EBADMSG. */
int nb_crypto_prof_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n);

#endif
