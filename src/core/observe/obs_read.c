/* SPDX-License-Identifier: BSD-2-Clause */
/* Reads the live system for the observer: /proc files, /sys/class/net statistics, the driver's
 * counters through the ethtool ioctl (SIOCETHTOOL, ETHTOOL_GSTATS) and qdisc counters through
 * rtnetlink, all with libc only. A source that is absent (no conntrack module, no cpufreq, a
 * driver without statistics) leaves its part empty: the window then says what it lacks. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>

#include "core/base/compat.h"
#include "core/base/nldump.h"
#include "core/base/qdisc.h"
#include "core/base/timeutil.h"
#include "core/observe/obs.h"

#define TEXT_MAX (1u << 20) /* /proc/interrupts on a many-CPU box is large; never more */
#define RAW_IRQS 1024

struct eth_cache {
	uint32_t n; /* driver's counter count */
	char (*names)[ETH_GSTRING_LEN];
	uint32_t nkeep;
	uint32_t keep[NB_OBS_ETHS]; /* indexes of the interesting ones */
	char ifname[NB_OBS_IFNAME];
	bool tried;
};

struct nb_obs_reader {
	char root[256];
	char *buf;
	size_t cap;
	int sock;    /* AF_INET datagram socket for the ethtool ioctl */
	int stat_fd; /* /proc/stat, kept open: each sample reads it again from offset 0 */
	struct nb_obs_irq *raw;
	struct eth_cache eth[NB_OBS_IFS];
};

static void path_of(const struct nb_obs_reader *r, char *out, size_t len, const char *p)
{
	snprintf(out, len, "%s%s", r->root, p);
}

/* Reads fd to its end into r->buf (from offset 0 with pread when positioned, else with read),
 * growing it up to TEXT_MAX, and terminates it. Returns the length, or -ENOMEM; a read that
 * fails ends the reading with its errno in *rerr (0: none). */
static long fill(struct nb_obs_reader *r, int fd, bool positioned, int *rerr)
{
	size_t n = 0;

	*rerr = 0;
	for (;;) {
		if (n + 4096 + 1 > r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 65536;
			char *b;
			if (cap > TEXT_MAX)
				break;
			if (!(b = realloc(r->buf, cap)))
				return -ENOMEM;
			r->buf = b;
			r->cap = cap;
		}
		ssize_t k = positioned ? pread(fd, r->buf + n, r->cap - n - 1, (off_t)n)
				       : read(fd, r->buf + n, r->cap - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			*rerr = errno;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	r->buf[n] = '\0';
	return (long)n;
}

/* Reads a whole file into r->buf; returns its length (what came before a failed read) or a
 * negative errno. */
static long slurp(struct nb_obs_reader *r, const char *p)
{
	char path[512];
	int fd, rerr;
	long n;

	path_of(r, path, sizeof(path), p);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = fill(r, fd, false, &rerr);
	close(fd);
	return n;
}

static int read_u64(struct nb_obs_reader *r, const char *p, uint64_t *v)
{
	long n = slurp(r, p);
	char *e;
	if (n <= 0)
		return n < 0 ? (int)n : -EINVAL;
	*v = strtoull(r->buf, &e, 10);
	return e == r->buf ? -EINVAL : 0;
}

int nb_obs_reader_new(struct nb_obs_reader **out, const char *root)
{
	struct nb_obs_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	snprintf(r->root, sizeof(r->root), "%s", root ? root : "");
	r->raw = calloc(RAW_IRQS, sizeof(*r->raw));
	r->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	r->stat_fd = -1;
	if (!r->raw) {
		nb_obs_reader_free(r);
		return -ENOMEM;
	}
	*out = r;
	return 0;
}

void nb_obs_reader_free(struct nb_obs_reader *r)
{
	if (!r)
		return;
	for (int i = 0; i < NB_OBS_IFS; i++)
		free(r->eth[i].names);
	if (r->sock >= 0)
		close(r->sock);
	if (r->stat_fd >= 0)
		close(r->stat_fd);
	free(r->raw);
	free(r->buf);
	free(r);
}

/* The process's CPU time, all threads, with the running thread's time up to now (getrusage may
 * leave out up to a tick of it: 0.5 % of a CPU over a 2 s window at 100 Hz). */
static uint64_t self_cpu_us(void)
{
	struct timespec ts;
	struct rusage ru;
	if (!clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec +
	       (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
}

uint64_t nb_obs_thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NB_NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* /proc/stat through the kept descriptor: one pread per sample instead of open, read, close
 * (each a system call, dear on a slow board). The kernel formats the file anew at offset 0. */
static long read_stat(struct nb_obs_reader *r)
{
	int rerr;
	long n;

	if (r->stat_fd < 0) {
		char path[512];
		path_of(r, path, sizeof(path), "/proc/stat");
		if ((r->stat_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return -errno;
	}
	n = fill(r, r->stat_fd, true, &rerr);
	if (rerr) {
		close(r->stat_fd);
		r->stat_fd = -1;
		return -rerr;
	}
	return n;
}

int nb_obs_sample_cpu(struct nb_obs_reader *r, struct nb_obs_snap *s)
{
	long n = read_stat(r);
	s->mono_ns = nb_mono_ns();
	s->clk_tck = NB_USER_HZ;
	if (n <= 0)
		return n < 0 ? (int)n : -EINVAL;
	return nb_obs_parse_stat(r->buf, s);
}

/* Only a device behind a bus has a line rate: a veth or a tunnel reports a made-up speed (veth
 * says 10000) that no frame is ever limited by. Unknown speeds read -1. */
static void read_speed(struct nb_obs_reader *r, struct nb_obs_if *i)
{
	char p[128], dev[400];
	uint64_t v = 0;
	snprintf(p, sizeof(p), "/sys/class/net/%.15s/device", i->name);
	path_of(r, dev, sizeof(dev), p);
	snprintf(p, sizeof(p), "/sys/class/net/%.15s/speed", i->name);
	if (!access(dev, F_OK) && !read_u64(r, p, &v) && r->buf[0] != '-' && v > 0 &&
	    v <= NB_OBS_SPEED_MAX_MBPS)
		i->speed_mbps = (uint32_t)v;
}

static void read_if(struct nb_obs_reader *r, struct nb_obs_if *i)
{
	static const struct {
		const char *file;
		size_t off;
	} f[] = {
	    {"rx_packets", offsetof(struct nb_obs_if, rx_packets)},
	    {"tx_packets", offsetof(struct nb_obs_if, tx_packets)},
	    {"rx_bytes", offsetof(struct nb_obs_if, rx_bytes)},
	    {"tx_bytes", offsetof(struct nb_obs_if, tx_bytes)},
	    {"rx_dropped", offsetof(struct nb_obs_if, rx_dropped)},
	    {"rx_missed_errors", offsetof(struct nb_obs_if, rx_missed)},
	    {"rx_fifo_errors", offsetof(struct nb_obs_if, rx_fifo)},
	    {"rx_over_errors", offsetof(struct nb_obs_if, rx_over)},
	    {"tx_dropped", offsetof(struct nb_obs_if, tx_dropped)},
	    {"tx_errors", offsetof(struct nb_obs_if, tx_errors)},
	};
	char p[128];
	uint64_t v = 0;
	snprintf(p, sizeof(p), "/sys/class/net/%.15s/ifindex", i->name);
	if (!read_u64(r, p, &v))
		i->ifindex = (uint32_t)v;
	read_speed(r, i);
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		snprintf(p, sizeof(p), "/sys/class/net/%.15s/statistics/%s", i->name, f[k].file);
		if (!read_u64(r, p, &v))
			*(uint64_t *)((char *)i + f[k].off) = v;
	}
}

/* The driver's counter names, once per interface; then only the values of those kept. */
static void read_ethtool(struct nb_obs_reader *r, struct nb_obs_if *i, struct eth_cache *c)
{
	struct ifreq ifr;
	if (r->sock < 0 || r->root[0])
		return;
	if (!c->tried || strcmp(c->ifname, i->name)) {
		struct ethtool_drvinfo di = {.cmd = ETHTOOL_GDRVINFO};
		struct ethtool_gstrings *gs;
		free(c->names);
		memset(c, 0, sizeof(*c));
		c->tried = true;
		snprintf(c->ifname, sizeof(c->ifname), "%.15s", i->name);
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%.15s", i->name);
		ifr.ifr_data = (void *)&di;
		if (ioctl(r->sock, SIOCETHTOOL, &ifr) < 0 || !di.n_stats || di.n_stats > 65536)
			return;
		gs = calloc(1, sizeof(*gs) + (size_t)di.n_stats * ETH_GSTRING_LEN);
		if (!gs)
			return;
		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = di.n_stats;
		ifr.ifr_data = (void *)gs;
		if (ioctl(r->sock, SIOCETHTOOL, &ifr) == 0 && gs->len == di.n_stats) {
			c->names = malloc((size_t)di.n_stats * ETH_GSTRING_LEN);
			if (c->names) {
				memcpy(c->names, gs->data, (size_t)di.n_stats * ETH_GSTRING_LEN);
				c->n = di.n_stats;
				for (uint32_t k = 0; k < c->n && c->nkeep < NB_OBS_ETHS; k++) {
					c->names[k][ETH_GSTRING_LEN - 1] = '\0';
					if (nb_obs_eth_interesting(c->names[k]))
						c->keep[c->nkeep++] = k;
				}
			}
		}
		free(gs);
	}
	if (!c->nkeep)
		return;
	struct ethtool_stats *st = calloc(1, sizeof(*st) + (size_t)c->n * 8);
	if (!st)
		return;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = c->n;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%.15s", i->name);
	ifr.ifr_data = (void *)st;
	if (ioctl(r->sock, SIOCETHTOOL, &ifr) == 0 && st->n_stats == c->n) {
		for (uint32_t k = 0; k < c->nkeep; k++) {
			snprintf(i->eth[k].name, sizeof(i->eth[k].name), "%s",
				 c->names[c->keep[k]]);
			i->eth[k].value = st->data[c->keep[k]];
		}
		i->neth = c->nkeep;
	}
	free(st);
}

static int qdisc_chunk(void *s, const void *buf, size_t len)
{
	return nb_obs_parse_qdisc(buf, len, s);
}

/* Every interface's root qdisc counters, from one dump. */
static void read_qdiscs(struct nb_obs_reader *r, struct nb_obs_snap *s)
{
	if (r->root[0] || !s->nif)
		return;
	(void)nb_qdisc_dump(0, qdisc_chunk, s);
}

static int link_chunk(void *s, const void *buf, size_t len)
{
	return nb_obs_parse_links(buf, len, s);
}

/* The interfaces and their counters from one RTM_GETLINK dump; 0 when it completed. */
static int dump_links(struct nb_obs_reader *r, struct nb_obs_snap *s)
{
	struct ifinfomsg i = {.ifi_family = AF_UNSPEC};
	if (r->root[0])
		return -ENOTSUP; /* a stand-in directory has sysfs files only */
	return nb_nl_dump(RTM_GETLINK, &i, sizeof(i), link_chunk, s);
}

static void read_ifs(struct nb_obs_reader *r, struct nb_obs_snap *s)
{
	char p[512];
	DIR *d;
	struct dirent *e;
	path_of(r, p, sizeof(p), "/sys/class/net");
	s->nif = 0;
	if (dump_links(r, s) == 0) {
		for (uint32_t k = 0; k < s->nif; k++)
			read_speed(r, &s->ifs[k]);
		goto sorted;
	}
	s->nif = 0; /* sysfs, one file per counter */
	if (!(d = opendir(p)))
		return;
	while ((e = readdir(d)) && s->nif < NB_OBS_IFS) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo") ||
		    strlen(e->d_name) >= NB_OBS_IFNAME)
			continue;
		struct nb_obs_if *i = &s->ifs[s->nif];
		memset(i, 0, sizeof(*i));
		memcpy(i->name, e->d_name, strlen(e->d_name) + 1); /* length checked above */
		read_if(r, i);
		s->nif++;
	}
	closedir(d);
sorted:
	/* readdir and dump order are the kernel's; sort by name so windows match stably. */
	for (uint32_t a = 1; a < s->nif; a++)
		for (uint32_t b = a; b > 0 && strcmp(s->ifs[b - 1].name, s->ifs[b].name) > 0; b--) {
			struct nb_obs_if t = s->ifs[b];
			s->ifs[b] = s->ifs[b - 1];
			s->ifs[b - 1] = t;
		}
	for (uint32_t k = 0; k < s->nif; k++)
		read_ethtool(r, &s->ifs[k], &r->eth[k]);
	read_qdiscs(r, s);
}

/* The CPUs any receive queue of the namespace's interfaces steers to. */
static void read_rps(struct nb_obs_reader *r, struct nb_obs_snap *s)
{
	char p[160];
	s->rps_mask = 0;
	for (uint32_t i = 0; i < s->nif; i++)
		for (int q = 0; q < 64; q++) {
			uint64_t m;
			snprintf(p, sizeof(p), "/sys/class/net/%.15s/queues/rx-%d/rps_cpus",
				 s->ifs[i].name, q);
			if (slurp(r, p) <= 0)
				break;
			if (!nb_obs_parse_cpumask(r->buf, &m))
				s->rps_mask |= m;
		}
}

static void read_cpufreq(struct nb_obs_reader *r, struct nb_obs_snap *s)
{
	char p[128];
	uint64_t v = 0;
	s->nfreq = 0;
	for (uint32_t k = 0; k < s->ncpu; k++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq",
			 s->cpu[k].id);
		if (read_u64(r, p, &v) || v == 0 || v > 100000000u)
			continue;
		s->freq_cpu[s->nfreq] = s->cpu[k].id;
		s->freq_khz[s->nfreq++] = (uint32_t)v;
	}
}

/* Everything of a snapshot but /proc/stat, the clock and the process's CPU time. A window
 * keeps only the closing edge's gauges (RPS masks, conntrack's maximum, the CPU clocks): the
 * opening edge does not read them. */
static void read_counters(struct nb_obs_reader *r, struct nb_obs_snap *s, enum nb_obs_edge edge)
{
	long n;
	if ((n = slurp(r, "/proc/net/softnet_stat")) > 0)
		(void)nb_obs_parse_softnet(r->buf, s);
	if ((n = slurp(r, "/proc/interrupts")) > 0) {
		uint32_t nraw = 0;
		if (!nb_obs_parse_interrupts(r->buf, r->raw, RAW_IRQS, &nraw)) {
			/* Numbered lines (the devices, NIC queues among them) come first in the
			 * file; on a box with more lines than we keep, the named totals go. */
			s->nirq = nraw < NB_OBS_IRQS ? nraw : NB_OBS_IRQS;
			memcpy(s->irq, r->raw, s->nirq * sizeof(s->irq[0]));
		}
	}
	read_ifs(r, s);
	if (edge == NB_OBS_CLOSE) {
		read_rps(r, s);
		read_cpufreq(r, s);
	}
	if (!read_u64(r, "/proc/sys/net/netfilter/nf_conntrack_count", &s->ct_entries)) {
		s->have_conntrack = true;
		if (edge == NB_OBS_CLOSE)
			(void)read_u64(r, "/proc/sys/net/netfilter/nf_conntrack_max", &s->ct_max);
		if ((n = slurp(r, "/proc/net/stat/nf_conntrack")) > 0)
			(void)nb_obs_parse_ct_stat(r->buf, &s->ct_insert_failed, &s->ct_drop,
						   &s->ct_early_drop);
	}
}

int nb_obs_snapshot(struct nb_obs_reader *r, struct nb_obs_snap *s, enum nb_obs_edge edge)
{
	int ret;
	memset(s, 0, sizeof(*s));
	s->peak_cpu = -1;
	if (edge == NB_OBS_OPEN)
		read_counters(r, s, edge);
	if ((ret = nb_obs_sample_cpu(r, s)))
		return ret;
	s->self_cpu_us = self_cpu_us();
	if (edge == NB_OBS_CLOSE)
		read_counters(r, s, edge); /* cpufreq needs the CPU ids of /proc/stat */
	return 0;
}
