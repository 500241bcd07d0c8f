/* SPDX-License-Identifier: BSD-2-Clause */
/* What an observer may change on the device under test, only when its agent was started with
 * --allow-tuning: the CPU clock (cpufreq) for the clock experiment and the CPUs that receive
 * work lands on (RPS). Each setter saves what it found; the restore puts it back, and the agent
 * calls it when the test ends, also when the controller vanished. root: "" or a test directory
 * standing in for /. */
#ifndef NB_OBS_TUNE_H
#define NB_OBS_TUNE_H

#include <stddef.h>
#include <stdint.h>

struct nb_obs_tune;

/* Sets every cpufreq policy to khz: the userspace governor's scaling_setspeed where the kernel
 * offers it, else scaling_min_freq = scaling_max_freq = khz. -ENOENT without cpufreq, -ERANGE
 * outside the hardware's limits; note says in one line what was done or why not. */
int nb_obs_clock_set(struct nb_obs_tune **t, const char *root, uint32_t khz, char *note,
		     size_t len);
/* Writes mask (hex) to every rx queue's rps_cpus of the namespace's interfaces but loopback. */
int nb_obs_rps_set(struct nb_obs_tune **t, const char *root, uint64_t mask, char *note, size_t len);
/* Restores everything the setters changed, in reverse order, and frees t. Accepts NULL. */
void nb_obs_tune_restore(struct nb_obs_tune *t);

#endif
