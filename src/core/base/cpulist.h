/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU lists as the kernel writes them (/sys/devices/system/cpu/online, taskset -c): "0,2-3".
 * Parsing is pure; pinning the calling thread is the one system call here. */
#ifndef NB_CPULIST_H
#define NB_CPULIST_H

#include <stddef.h>
#include <stdint.h>

#define NB_CPULIST_MAX 1023u /* highest CPU number a list may name (CPU_SETSIZE - 1) */

/* Parses a list into cpus[] in the order written, ranges expanded. Returns the count, -EINVAL
 * for text that is not a list (or a range that runs backwards), -ERANGE for a CPU above
 * NB_CPULIST_MAX, -E2BIG for more than max entries. A CPU may not be named twice (-EEXIST). */
int nb_cpulist_parse(const char *s, uint32_t *cpus, size_t max);
/* Writes cpus as "0,1,3" into buf (truncated to len). */
void nb_cpulist_format(const uint32_t *cpus, size_t n, char *buf, size_t len);
/* 0 when the calling thread may run on cpu (it is in its allowed set), else -EINVAL. */
int nb_cpu_allowed(uint32_t cpu);
/* Pins the calling thread to cpu. 0 or a negative errno. */
int nb_cpu_pin_self(uint32_t cpu);

#endif
