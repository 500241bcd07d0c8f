/* SPDX-License-Identifier: BSD-2-Clause */
/* Monotonic time in nanoseconds, and sleeping until an absolute monotonic instant. */
#ifndef NB_TIMEUTIL_H
#define NB_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

#define NB_NS_PER_S  1000000000ULL
#define NB_NS_PER_MS 1000000ULL
#define NB_NS_PER_US 1000ULL

static inline uint64_t nb_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NB_NS_PER_S + (uint64_t)ts.tv_nsec;
}

static inline uint64_t nb_real_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NB_NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Sleeps until the monotonic clock reads deadline_ns; returns at once if it is past. */
static inline void nb_sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts = {.tv_sec = (time_t)(deadline_ns / NB_NS_PER_S),
			      .tv_nsec = (long)(deadline_ns % NB_NS_PER_S)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
}

#endif
