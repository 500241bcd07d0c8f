/* SPDX-License-Identifier: BSD-2-Clause */
/* Clock and RPS settings of the observed box, with the saved values to put back. Every write is
 * recorded before it is made, so a restore after a partial failure undoes what was done. */
#include "core/observe/obs_tune.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAVED_MAX 512

struct saved {
	char path[900];
	char value[160];
};

struct nb_obs_tune {
	size_t n;
	struct saved s[SAVED_MAX];
};

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_str(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC);
	ssize_t n;
	size_t len = strlen(v);
	if (fd < 0)
		return -errno;
	n = write(fd, v, len);
	int e = errno;
	close(fd);
	return n == (ssize_t)len ? 0 : n < 0 ? -e : -EIO;
}

/* Saves path's value (once: the first value is the one to restore), then writes v. */
static int change(struct nb_obs_tune *t, const char *path, const char *v)
{
	char old[160];
	int ret;
	bool seen = false;
	if ((ret = read_str(path, old, sizeof(old))))
		return ret;
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->s[i].path, path))
			seen = true;
	if (!seen) {
		if (t->n == SAVED_MAX)
			return -E2BIG;
		snprintf(t->s[t->n].path, sizeof(t->s[0].path), "%s", path);
		snprintf(t->s[t->n].value, sizeof(t->s[0].value), "%s", old);
		t->n++;
	}
	return write_str(path, v);
}

static struct nb_obs_tune *get(struct nb_obs_tune **t)
{
	if (!*t)
		*t = calloc(1, sizeof(**t));
	return *t;
}

void nb_obs_tune_restore(struct nb_obs_tune *t)
{
	if (!t)
		return;
	/* Reverse order; a limit refused on the way back (min above max) gets a second pass. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = t->n; i-- > 0;)
			(void)write_str(t->s[i].path, t->s[i].value);
	free(t);
}

static unsigned long read_khz(const char *dir, const char *file)
{
	char p[700], b[64];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (read_str(p, b, sizeof(b)))
		return 0;
	return strtoul(b, NULL, 10);
}

static int set_policy(struct nb_obs_tune *t, const char *dir, uint32_t khz, bool *userspace)
{
	char p[700], govs[256] = "", v[32];
	unsigned long lo = read_khz(dir, "cpuinfo_min_freq"),
		      hi = read_khz(dir, "cpuinfo_max_freq");
	int ret;
	if (lo && hi && (khz < lo || khz > hi))
		return -ERANGE;
	snprintf(p, sizeof(p), "%s/scaling_available_governors", dir);
	(void)read_str(p, govs, sizeof(govs));
	snprintf(v, sizeof(v), "%u", khz);
	*userspace = strstr(govs, "userspace") != NULL;
	if (*userspace) {
		snprintf(p, sizeof(p), "%s/scaling_governor", dir);
		if ((ret = change(t, p, "userspace")))
			return ret;
		snprintf(p, sizeof(p), "%s/scaling_setspeed", dir);
		return change(t, p, v);
	}
	/* Widen first (min to the floor), then pin: max to khz, min to khz. */
	char floor[32];
	snprintf(floor, sizeof(floor), "%lu", lo ? lo : khz);
	snprintf(p, sizeof(p), "%s/scaling_min_freq", dir);
	if ((ret = change(t, p, floor)))
		return ret;
	snprintf(p, sizeof(p), "%s/scaling_max_freq", dir);
	if ((ret = change(t, p, v)))
		return ret;
	snprintf(p, sizeof(p), "%s/scaling_min_freq", dir);
	return change(t, p, v);
}

int nb_obs_clock_set(struct nb_obs_tune **tp, const char *root, uint32_t khz, char *note,
		     size_t len)
{
	char base[300], dir[600];
	struct dirent *e;
	DIR *d;
	int n = 0, ret = 0;
	bool userspace = false;
	struct nb_obs_tune *t;

	snprintf(base, sizeof(base), "%s/sys/devices/system/cpu/cpufreq", root ? root : "");
	d = opendir(base);
	while (d && (e = readdir(d)) && !ret) {
		if (strncmp(e->d_name, "policy", 6))
			continue;
		if (!(t = get(tp))) {
			ret = -ENOMEM;
			break;
		}
		snprintf(dir, sizeof(dir), "%s/%s", base, e->d_name);
		ret = set_policy(t, dir, khz, &userspace);
		n++;
	}
	if (d)
		closedir(d);
	if (!n) {
		snprintf(note, len,
			 "cpufreq: this kernel exposes no CPU clock control (no %s/policy*): the "
			 "clock stays as it is",
			 "/sys/devices/system/cpu/cpufreq");
		return -ENOENT;
	}
	if (ret == -ERANGE)
		snprintf(note, len, "cpufreq: %u MHz is outside %s's limits (%lu-%lu MHz)",
			 khz / 1000, dir, read_khz(dir, "cpuinfo_min_freq") / 1000,
			 read_khz(dir, "cpuinfo_max_freq") / 1000);
	else if (ret)
		snprintf(note, len, "cpufreq: cannot set %u MHz in %s: %s", khz / 1000, dir,
			 strerror(-ret));
	else
		snprintf(note, len, "cpufreq: %d polic%s set to %u MHz (%s)", n,
			 n == 1 ? "y" : "ies", khz / 1000,
			 userspace ? "userspace governor" : "scaling_min_freq = scaling_max_freq");
	return ret;
}

int nb_obs_rps_set(struct nb_obs_tune **tp, const char *root, uint64_t mask, char *note, size_t len)
{
	char base[300], qdir[600], p[900], v[32];
	struct dirent *e, *q;
	DIR *d, *dq;
	int n = 0, ret = 0;
	struct nb_obs_tune *t = get(tp);

	if (!t)
		return -ENOMEM;
	snprintf(v, sizeof(v), "%llx", (unsigned long long)mask);
	snprintf(base, sizeof(base), "%s/sys/class/net", root ? root : "");
	if (!(d = opendir(base))) {
		snprintf(note, len, "rps: %s: %s", base, strerror(errno));
		return -ENOENT;
	}
	while ((e = readdir(d)) && !ret) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo"))
			continue;
		snprintf(qdir, sizeof(qdir), "%s/%s/queues", base, e->d_name);
		if (!(dq = opendir(qdir)))
			continue;
		while ((q = readdir(dq)) && !ret) {
			if (strncmp(q->d_name, "rx-", 3))
				continue;
			snprintf(p, sizeof(p), "%s/%s/rps_cpus", qdir, q->d_name);
			ret = change(t, p, v);
			n++;
		}
		closedir(dq);
	}
	closedir(d);
	if (ret)
		snprintf(note, len, "rps: cannot write %s: %s", p, strerror(-ret));
	else if (!n) {
		snprintf(note, len, "rps: no receive queue with rps_cpus (kernel without RPS)");
		ret = -ENOENT;
	} else
		snprintf(note, len, "rps: %d receive queue%s steered to CPU mask %s", n,
			 n == 1 ? "" : "s", v);
	return ret;
}
