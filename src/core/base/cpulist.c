/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU list parsing and thread pinning (sched_setaffinity on pid 0 pins only the calling thread
 * on Linux, which is what a generator thread wants for itself). */
#include "core/base/cpulist.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int num(const char **p, uint32_t *v)
{
	uint64_t x = 0;
	const char *s = *p;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		x = x * 10 + (uint64_t)(*s++ - '0');
		if (x > 1000000)
			return -ERANGE;
	}
	*p = s;
	*v = (uint32_t)x;
	return 0;
}

int nb_cpulist_parse(const char *s, uint32_t *cpus, size_t max)
{
	size_t n = 0;
	int ret;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		uint32_t lo, hi;
		if ((ret = num(&s, &lo)))
			return ret;
		hi = lo;
		if (*s == '-') {
			s++;
			if ((ret = num(&s, &hi)))
				return ret;
			if (hi < lo)
				return -EINVAL;
		}
		if (hi > NB_CPULIST_MAX)
			return -ERANGE;
		for (uint32_t c = lo; c <= hi; c++) {
			for (size_t i = 0; i < n; i++)
				if (cpus[i] == c)
					return -EEXIST;
			if (n == max)
				return -E2BIG;
			cpus[n++] = c;
		}
		if (!*s)
			return (int)n;
		if (*s++ != ',')
			return -EINVAL;
	}
}

void nb_cpulist_format(const uint32_t *cpus, size_t n, char *buf, size_t len)
{
	size_t off = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%u", i ? "," : "", cpus[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

int nb_cpu_allowed(uint32_t cpu)
{
	cpu_set_t set;
	if (cpu > NB_CPULIST_MAX)
		return -EINVAL;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	return CPU_ISSET(cpu, &set) ? 0 : -EINVAL;
}

int nb_cpu_pin_self(uint32_t cpu)
{
	cpu_set_t set;
	if (cpu > NB_CPULIST_MAX)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}
