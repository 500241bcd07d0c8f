/* SPDX-License-Identifier: BSD-2-Clause */
/* bench/spin-gaps.c: what interrupts take from one CPU. Pinned to CPU, it reads
 * CLOCK_MONOTONIC in a tight loop for SECONDS and counts every gap between two reads longer
 * than GAP_NS (the loop itself takes well under it): the time something else ran on the CPU,
 * mostly interrupts. Gaps longer than MAX_NS (another process given the CPU by the scheduler,
 * the hypervisor descheduling this virtual CPU) are counted apart: the spin's running time is
 * the wall time less those. With SPIN_RT=1 in the environment it runs at SCHED_FIFO priority 1
 * (no ordinary process takes the CPU from it; the kernel's real-time throttle still does).
 * Prints "GAPS GAP_NS_SUM LONG LONG_NS_SUM WALL_NS LOOPS".
 * Usage: spin-gaps CPU SECONDS [GAP_NS (500) [MAX_NS (200000)]] (bench/profile-cost). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: spin-gaps CPU SECONDS [GAP_NS [MAX_NS]]\n");
		return 2;
	}
	int cpu = atoi(argv[1]);
	double secs = atof(argv[2]);
	uint64_t gap = argc > 3 ? strtoull(argv[3], NULL, 10) : 500;
	uint64_t max = argc > 4 ? strtoull(argv[4], NULL, 10) : 200000;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	struct sched_param sp = {.sched_priority = 1};
	const char *rt = getenv("SPIN_RT");
	if (rt && !strcmp(rt, "1") && sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("spin-gaps: SCHED_FIFO (continuing as an ordinary process)");
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(secs * 1e9), prev = t0, t;
	uint64_t n = 0, sum = 0, nl = 0, suml = 0, loops = 0;
	while ((t = now_ns()) < end) {
		uint64_t d = t - prev;
		if (d > max) {
			nl++;
			suml += d;
		} else if (d > gap) {
			n++;
			sum += d;
		}
		prev = t;
		loops++;
	}
	printf("%llu %llu %llu %llu %llu %llu\n", (unsigned long long)n, (unsigned long long)sum,
	       (unsigned long long)nl, (unsigned long long)suml, (unsigned long long)(t - t0),
	       (unsigned long long)loops);
	return 0;
}
