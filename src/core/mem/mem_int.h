/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared between mem.c (orchestration, sysfs), mem_latency.c and mem_bw.c; not part of
 * the API other modules use. */
#ifndef NB_MEM_INT_H
#define NB_MEM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/mem/mem.h"

/* Keeps a value or the memory behind a pointer alive: the compiler must assume the empty asm
 * reads it and touches all memory, so loops that feed it cannot be dropped. Plain GNU asm with
 * no instructions: works with gcc and clang on x86-64, ppc32 and armhf alike. */
#define NB_MEM_KEEP(p) __asm__ __volatile__("" : : "r"(p) : "memory")

/* Page-aligned (2 MiB-aligned when large) memory, with transparent huge pages requested where
 * the kernel has them (*huge says whether the advice was taken). Free with free(). */
void *nb_mem_alloc(size_t bytes, bool *huge);

/* Lays the chain over set_bytes of buf and times dependent loads: one calibration run (which
 * also warms the caches), then trials runs of at least trial_ns each. */
int nb_mem_latency_point(void *buf, uint32_t *idx, uint64_t set_bytes, uint32_t line_bytes,
			 enum nb_mem_pattern pattern, uint64_t trial_ns, uint32_t trials,
			 struct nb_mem_lat_point *pt, const nb_cancel_t *cancel);

/* Read, write and copy over bytes of a (and b for copy's destination), split between threads
 * worker threads, trials times each; best and median MB/s. Returns 0 or a negative errno. The
 * caller writes both buffers first, so that page faults stay out of every trial. */
int nb_mem_bandwidth(void *a, void *b, uint64_t bytes, uint32_t threads, uint32_t trials,
		     struct nb_mem_bw_point *pt, const nb_cancel_t *cancel);

/* A cancel (STOP, a controller gone, --max-time) must end a run within a second whatever the
 * sizes: every loop whose length grows with a working set looks at the flag at least every
 * NB_MEM_CANCEL_BYTES (a few milliseconds of memory traffic even on a slow board). Each
 * function taking cancel (which may be NULL) returns -ECANCELED once it saw the flag set. */
#define NB_MEM_CANCEL_BYTES (8u << 20)
static inline bool nb_mem_cancelled(const nb_cancel_t *cancel)
{
	return nb_cancelled(cancel);
}
/* memset in slices of NB_MEM_CANCEL_BYTES. */
int nb_mem_fill(void *p, int byte, uint64_t bytes, const nb_cancel_t *cancel);

/* Involuntary context switches of the calling thread so far; -1 where the kernel cannot say
 * (RUSAGE_THREAD is Linux 2.6.26 and later). */
long nb_mem_preemptions(void);

/* Median of n values (sorts v in place). */
double nb_mem_median(double *v, size_t n);

#endif
