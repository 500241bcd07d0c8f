/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem on the wire: the probe's parameters and its whole result as TLV items of the
 * control protocol (tags 500-599, explicit big-endian, doubles as IEEE 754 bits). The agent's
 * side is mem_agent.c (nb_mem_ops), the controller's mem_ctl.c. */
#ifndef NB_MEM_WIRE_H
#define NB_MEM_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem/mem.h"
#include "core/session/proto.h"

enum nb_mem_tag {
	/* TEST_REQ: the options (all required) */
	NB_T_MEM_MIN_BYTES = 500, /* u64, 0 = default */
	NB_T_MEM_MAX_BYTES = 501, /* u64, 0 = default */
	NB_T_MEM_PATTERN = 502,	  /* u32, enum nb_mem_pattern */
	NB_T_MEM_THREADS = 503,	  /* u32, 0 = the agent's online CPUs */
	NB_T_MEM_BW_BYTES = 504,  /* u64, 0 = 4x the agent's last-level cache */
	NB_T_MEM_QUICK = 505,	  /* u32, 0 or 1 */
	/* SNAP */
	NB_T_MEM_DONE = 509, /* u32: 1 once the run has ended (with a result or an error) */
	/* FINAL: the result */
	NB_T_MEM_SUMMARY = 510,	  /* fixed record: options as run, sizes, flags, memory latency */
	NB_T_MEM_BW_FROM = 511,	  /* string: where the bandwidth buffer size came from */
	NB_T_MEM_LAT_POINT = 512, /* one per working set, ascending */
	NB_T_MEM_LAT_CPU = 513,	  /* CPU load over the latency sweep */
	NB_T_MEM_STEP = 514,	  /* one per inferred cache step */
	NB_T_MEM_SYSFS = 515,	  /* one per cache sysfs lists */
	NB_T_MEM_BW = 516,	  /* one per bandwidth thread count, with its CPU load */
};

/* Appends the options to a TEST_REQ (stop and cpu_mhz stay local: the agent uses its own
 * clock). Returns 0 or -EMSGSIZE. */
int nb_mem_put_params(struct nb_msg *m, const struct nb_mem_params *o);
/* Reads them back: 0, or -EBADMSG when one is missing or malformed. Values are not range
 * checked here: nb_mem_params_check does that. */
int nb_mem_get_params(const struct nb_msg *m, struct nb_mem_params *o);

/* Appends the whole result. Returns 0 or -EMSGSIZE. */
int nb_mem_put_result(struct nb_msg *m, const struct nb_mem_result *r);
/* Decodes a result from a FINAL message into a new nb_mem_result (free with
 * nb_mem_result_free). Returns 0, -ENOMEM, or -EBADMSG for missing, duplicated, truncated or
 * out-of-range items. Items of other tags are ignored. */
int nb_mem_get_result(const struct nb_msg *m, struct nb_mem_result **out);

/* An upper bound of a run's time with these options, on a slow board: what the controller
 * asks of the agent as the test's duration (the agent's --max-time applies to it). */
uint64_t nb_mem_budget_ns(const struct nb_mem_params *o);

#endif
