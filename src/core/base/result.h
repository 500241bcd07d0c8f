/* SPDX-License-Identifier: BSD-2-Clause */
/* The frame of every JSON result document: schema, version, command line, time, and the
 * platform of each end. The caller adds its measurements and closes the object. */
#ifndef NB_RESULT_H
#define NB_RESULT_H

#include "core/base/cpu.h"
#include "core/base/json.h"
#include "core/base/sysinfo.h"

#define NB_SCHEMA "netbench/1"

/* Opens the top-level object and writes schema, test, netbench version, command line (from
 * /proc/self/cmdline), time (UTC, ISO 8601) and env.local / env.remote (remote may be NULL). */
void nb_result_begin(struct nb_json *j, const char *test, const struct nb_sysinfo *local,
		     const struct nb_sysinfo *remote);
/* The same with env.dut: the platform of the box in the middle that a run through it measured
 * (rate's DUT, seen by its observer), which is then the result's platform (docs/results.md,
 * "measured end"). dut NULL: no env.dut. */
void nb_result_begin_dut(struct nb_json *j, const char *test, const struct nb_sysinfo *local,
			 const struct nb_sysinfo *remote, const struct nb_sysinfo *dut);
/* The agent a remote run went to: its address as the user gave it, and its platform. */
struct nb_result_agent {
	const char *host;
	uint16_t port;
	const struct nb_sysinfo *env;
};
/* nb_result_begin for a run here (agent NULL) or on an agent, whose "agent" object (host, port)
 * follows the frame. */
void nb_result_begin_run(struct nb_json *j, const char *test, const struct nb_sysinfo *local,
			 const struct nb_result_agent *agent);
/* Writes a CPU load object with units in the names (cpu_pct, ...). */
void nb_result_cpu(struct nb_json *j, const char *key, const struct nb_cpu_load *l);
/* "cpu_baseline" (docs/schema.md): null, returning false, when this host's was not measured;
 * else opens it with the pollution threshold, this host's share (other_local_pct) and CPU
 * (local) and returns true: the caller adds the far ends (nb_result_cpu_idle) and closes it. */
bool nb_result_baseline_begin(struct nb_json *j, const struct nb_cpu_idle *local);
/* A far end's baseline: its share under pct_key and its CPU under cpu_key, both null when it
 * is not known. */
void nb_result_cpu_idle(struct nb_json *j, const char *pct_key, const char *cpu_key,
			const struct nb_cpu_idle *b);
/* Fills buf with the command line as one shell-readable string. */
void nb_result_cmdline(char *buf, size_t len);

#endif
