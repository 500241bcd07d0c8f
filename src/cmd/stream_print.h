/* SPDX-License-Identifier: BSD-2-Clause */
/* The tables `netbench stream` prints (cmd/stream_print.c). */
#ifndef NB_CMD_STREAM_PRINT_H
#define NB_CMD_STREAM_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "core/base/sysinfo.h"
#include "core/stream/stream.h"
#include "core/stream/stream_ctl.h"
#include "core/stream/stream_iv.h"
#include "core/stream/stream_pacing.h"
#include "core/stream/stream_run.h"

/* -i: the heading of the interval lines, and one interval as it comes (to f: stdout, or
 * stderr when stdout is the JSON document). */
void stream_print_interval_head(FILE *f, uint64_t interval_ns);
void stream_print_interval(FILE *f, const struct nb_stream_interval *iv);
/* A receiver's steps, headed "who:" when who is not NULL. */
void stream_print_rx(const char *who, const struct nb_stream_rx *rx);
/* Under a receiver's table: where each step's CPU went (the kernel profile), one line per step;
 * nothing when prof is NULL. */
void stream_print_prof(const struct nb_stream_rx *rx, struct nb_prof_result *const *prof);
/* A sender's table: the two header lines, then one row per step. */
void stream_print_send_head(void);
void stream_print_send_row(const struct nb_stream_send_step *s, size_t block);
/* "idle baseline (0.25 s before the traffic): other processes used ..." */
void stream_print_baseline(const struct nb_cpu_idle *b, const struct nb_stream_ctl_agent *agents,
			   size_t nagents);
/* "pacing: burst (...; no kernel pacing: why)" */
void stream_print_pacing(const struct nb_stream_pacing *pc);
/* "agent HOST: name, arch kernel, N CPUs, model, driver", after an empty line. */
void stream_print_agent_head(const char *host, const struct nb_sysinfo *si);

#endif
