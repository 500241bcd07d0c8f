/* SPDX-License-Identifier: BSD-2-Clause */
/* A generator of several threads: each thread has its own engine instance (its own sockets or
 * TX ring), its own block of the trial's flows (so distinct source ports, which RSS and
 * SO_REUSEPORT spread), its own pacer running at its exact share of the rate, and its own
 * counters, summed only once every thread has finished the trial: no lock on the hot path. */
#ifndef NB_GENPOOL_H
#define NB_GENPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "core/rate/gen.h"

#define NB_GEN_MAX_THREADS 64u

/* Part i of total split into parts shares that differ by at most one and add up to total
 * exactly (the first total % parts shares get the extra one). */
uint64_t nb_gen_share(uint64_t total, uint32_t parts, uint32_t i);
/* The first of part i's items when total items are split as nb_gen_share does. */
uint64_t nb_gen_share_base(uint64_t total, uint32_t parts, uint32_t i);
/* Thread i's part of trial t (rate, frame count and flows split by nb_gen_share; duration,
 * burst, batch and stop flag shared). */
void nb_gen_trial_share(const struct nb_gen_trial *t, uint32_t threads, uint32_t i,
			struct nb_gen_trial *part);

struct nb_gen_pool;

/* Opens threads engine instances of e, thread i for flows nb_gen_share(cfg->flows, threads, i)
 * from nb_gen_share_base(...). cpus (ncpus entries, may be 0): thread i is pinned to
 * cpus[i % ncpus]. -EINVAL when threads is 0 or above NB_GEN_MAX_THREADS or more than the
 * flows, or a CPU is not one this process may use; the reason is in err. */
int nb_gen_pool_open(struct nb_gen_pool **pool, const struct nb_gen_engine *e,
		     const struct nb_gen_cfg *cfg, uint32_t threads, const uint32_t *cpus,
		     uint32_t ncpus, char *err, size_t errlen);
/* The engine's set_mix on every thread's instance (before prepare); -EOPNOTSUPP where the
 * engine sends one size only. */
int nb_gen_pool_set_mix(struct nb_gen_pool *pool, const struct nb_mix *mix);
/* The engine's prepare, on every thread's instance. */
int nb_gen_pool_prepare(struct nb_gen_pool *pool, uint32_t frame_bytes, uint16_t trial,
			uint32_t probe_every);
/* Runs one trial on every thread at once (they start together, on one signal) and sums their
 * counters into s: tx_flow by the trial's flow numbers, start the earliest, end the latest.
 * One thread with no CPU to pin runs in the calling thread. 0 or the first negative errno. */
int nb_gen_pool_run(struct nb_gen_pool *pool, const struct nb_gen_trial *t, struct nb_gen_stats *s);
uint32_t nb_gen_pool_threads(const struct nb_gen_pool *pool);
/* Thread i's counters of the last run (tx_flow by its own flow index). */
const struct nb_gen_stats *nb_gen_pool_thread_stats(const struct nb_gen_pool *pool, uint32_t i);
/* Thread i's asked rate in the last run (0: flat out). */
uint64_t nb_gen_pool_thread_rate(const struct nb_gen_pool *pool, uint32_t i);
/* "2 threads pinned to CPUs 0,1; <the first engine's description>". */
void nb_gen_pool_describe(struct nb_gen_pool *pool, char *buf, size_t len);
/* Closes every engine instance; accepts NULL. */
void nb_gen_pool_free(struct nb_gen_pool *pool);

#endif
