/* SPDX-License-Identifier: BSD-2-Clause */
/* /proc/stat parsing and window arithmetic. Works with every layout since Linux 2.4: 4 columns
 * (2.4), 7 (2.6.0: iowait, irq, softirq), 8 (2.6.11: steal), 9-10 (guest, which the kernel already
 * counts inside user, so it is not added again). */
#include "core/base/cpu.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/base/timeutil.h"

static int parse_cpu_line(const char *p, struct nb_cpu_ticks *t, uint32_t *columns)
{
	uint64_t v[10] = {0};
	uint32_t n = 0;
	char *end;

	while (n < 10) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v[n++] = strtoull(p, &end, 10);
		p = end;
	}
	if (n < 4)
		return -EINVAL;
	t->user = v[0];
	t->nice = v[1];
	t->system = v[2];
	t->idle = v[3];
	t->iowait = v[4];
	t->irq = v[5];
	t->softirq = v[6];
	t->steal = v[7];
	if (columns)
		*columns = n;
	return 0;
}

static uint64_t ticks_busy(const struct nb_cpu_ticks *t)
{
	return t->user + t->nice + t->system + t->irq + t->softirq;
}

static uint64_t ticks_all(const struct nb_cpu_ticks *t)
{
	return ticks_busy(t) + t->idle + t->iowait + t->steal;
}

int nb_cpu_parse_stat_line(const char *line, long *id, struct nb_cpu_ticks *t, uint32_t *columns)
{
	char *end;
	if (!strncmp(line, "cpu ", 4)) {
		*id = -1;
		return parse_cpu_line(line + 3, t, columns);
	}
	if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
		return -EINVAL;
	*id = (long)strtoul(line + 3, &end, 10);
	return parse_cpu_line(end, t, columns);
}

int nb_cpu_parse_stat(const char *text, struct nb_cpu_sample *s)
{
	const char *line = text;
	bool have_total = false;

	s->ncpu = 0;
	while (line && *line) {
		struct nb_cpu_ticks t;
		uint32_t columns;
		long id;
		if (nb_cpu_parse_stat_line(line, &id, &t, &columns) == 0) {
			if (id < 0) {
				s->total = t;
				s->columns = columns;
				have_total = true;
			} else if (s->ncpu < NB_CPU_MAX) {
				s->cpu_id[s->ncpu] = (uint16_t)id;
				s->cpu_busy[s->ncpu] = ticks_busy(&t);
				s->cpu_all[s->ncpu] = ticks_all(&t);
				s->ncpu++;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return have_total ? 0 : -EINVAL;
}

int nb_cpu_sample_now(struct nb_cpu_sample *s)
{
	/* /proc/stat is about 100 bytes per CPU plus interrupt lines; 64 KiB covers the CPUs we
	 * keep and the parser stops caring after the per-CPU lines. */
	enum { BUF = 65536 };
	char *buf = malloc(BUF);
	struct rusage ru;
	ssize_t n, got = 0;
	int fd, ret = -ENOMEM;

	if (!buf)
		return ret;
	memset(s, 0, sizeof(*s));
	fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	while (got < BUF - 1 && (n = read(fd, buf + got, (size_t)(BUF - 1 - got))) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	s->mono_ns = nb_mono_ns();
	ret = nb_cpu_parse_stat(buf, s);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->proc_user_us =
		    (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec;
		s->proc_sys_us =
		    (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
	}
out:
	free(buf);
	return ret;
}

static double pct(uint64_t part, uint64_t all)
{
	return all ? 100.0 * (double)part / (double)all : NAN;
}

void nb_cpu_load(const struct nb_cpu_sample *a, const struct nb_cpu_sample *b,
		 struct nb_cpu_load *l)
{
	struct nb_cpu_ticks d;
	uint64_t all;
	double window_s = (double)(b->mono_ns - a->mono_ns) / 1e9;

	memset(l, 0, sizeof(*l));
	l->window_s = window_s;
	l->busiest_cpu = -1;
	l->ncpu = b->ncpu;
	/* Counters can only grow; a CPU going offline makes the total shrink, which we report as
	 * an invalid window rather than as a negative load. */
#define D(f) d.f = b->total.f >= a->total.f ? b->total.f - a->total.f : 0
	D(user);
	D(nice);
	D(system);
	D(idle);
	D(iowait);
	D(irq);
	D(softirq);
	D(steal);
#undef D
	all = ticks_all(&d);
	l->valid = all > 0 && a->ncpu == b->ncpu && ticks_all(&b->total) >= ticks_all(&a->total);
	l->user_pct = pct(d.user, all);
	l->nice_pct = pct(d.nice, all);
	l->system_pct = pct(d.system, all);
	l->irq_pct = pct(d.irq, all);
	l->softirq_pct = pct(d.softirq, all);
	l->iowait_pct = pct(d.iowait, all);
	l->steal_pct = pct(d.steal, all);
	l->idle_pct = pct(d.idle, all);
	l->busy_pct = pct(ticks_busy(&d), all);
	l->busy_cpu_s = window_s * (double)(b->ncpu ? b->ncpu : 1) * l->busy_pct / 100.0;
	if (!isfinite(l->busy_cpu_s))
		l->busy_cpu_s = NAN;
	for (uint32_t i = 0; i < b->ncpu && a->ncpu == b->ncpu; i++) {
		uint64_t da = b->cpu_all[i] - a->cpu_all[i];
		double p = pct(b->cpu_busy[i] - a->cpu_busy[i], da);
		if (a->cpu_id[i] == b->cpu_id[i] && isfinite(p) && p > l->busiest_cpu_pct) {
			l->busiest_cpu_pct = p;
			l->busiest_cpu = b->cpu_id[i];
		}
	}
	if (window_s > 0) {
		double us = (double)(b->proc_user_us - a->proc_user_us) / 1e6;
		double sy = (double)(b->proc_sys_us - a->proc_sys_us) / 1e6;
		l->proc_user_pct = 100.0 * us / window_s;
		l->proc_sys_pct = 100.0 * sy / window_s;
		l->proc_pct = l->proc_user_pct + l->proc_sys_pct;
		l->proc_cpu_s = us + sy;
	} else {
		l->valid = false;
	}
}

double nb_cpu_us_per_kbyte(double cpu_s, uint64_t bytes)
{
	if (!bytes || !isfinite(cpu_s))
		return NAN;
	return cpu_s * 1e6 / ((double)bytes / 1024.0);
}

double nb_cpu_other_pct(const struct nb_cpu_load *l, double peer_cpu_s)
{
	double own_pct, other_pct;

	if (!l->valid || !(l->window_s > 0))
		return NAN;
	own_pct = l->user_pct + l->nice_pct + l->system_pct;
	/* shares of all CPUs -> CPU-seconds -> percent of one CPU */
	other_pct = own_pct * (double)(l->ncpu ? l->ncpu : 1) -
		    100.0 * (l->proc_cpu_s + (isfinite(peer_cpu_s) ? peer_cpu_s : 0)) / l->window_s;
	if (!isfinite(other_pct))
		return NAN;
	return other_pct > 0 ? other_pct : 0;
}

bool nb_cpu_consistent(const struct nb_cpu_load *l)
{
	double ncpu = l->ncpu ? l->ncpu : 1;
	if (!l->valid || !isfinite(l->proc_cpu_s) || !isfinite(l->busy_cpu_s))
		return false;
	return l->proc_cpu_s <= l->busy_cpu_s * 1.05 + 2 * 0.01 * ncpu;
}

bool nb_cpu_polluted(double other_pct)
{
	return isfinite(other_pct) && other_pct > NB_CPU_POLLUTED_PCT;
}

bool nb_cpu_same_host(const struct nb_cpu_sample *a, const struct nb_cpu_sample *b)
{
	/* USER_HZ is 100 on every Linux architecture: a second is 100 ticks per CPU. The later
	 * sample's total is ahead by the time between them on every CPU. */
	double dt_s = ((double)b->mono_ns - (double)a->mono_ns) / 1e9;
	double dticks = (double)ticks_all(&b->total) - (double)ticks_all(&a->total);

	return a->ncpu && a->ncpu == b->ncpu && fabs(dt_s) < 10.0 &&
	       fabs(dticks - dt_s * 100.0 * a->ncpu) < 50.0 * a->ncpu;
}

int nb_cpu_baseline(uint64_t window_ns, struct nb_cpu_load *load)
{
	struct nb_cpu_sample *s = malloc(2 * sizeof(*s));
	int ret = -ENOMEM;

	if (!s)
		return ret;
	if ((ret = nb_cpu_sample_now(&s[0])) == 0) {
		nb_sleep_until_ns(s[0].mono_ns + window_ns);
		if ((ret = nb_cpu_sample_now(&s[1])) == 0)
			nb_cpu_load(&s[0], &s[1], load);
	}
	free(s);
	return ret;
}
