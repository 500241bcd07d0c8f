/* SPDX-License-Identifier: BSD-2-Clause */
/* The sampler: one software cpu-clock perf event per online CPU (no PMU needed), kernel and user
 * call chains, each CPU's ring buffer drained by one thread into bounded tables of counts
 * (categories per CPU, functions, stacks). Events are opened disabled and enabled only between
 * nb_prof_start and nb_prof_stop, the window's edges. Memory is fixed at open: the rings
 * (buf_kib per CPU) and the tables; a sample past a table is still counted in its category. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/perf_event.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/base/cpulist.h"
#include "core/base/timeutil.h"
#include "core/base/virt.h"
#include "core/profile/prof.h"

#define FTAB	   2048u /* distinct functions kept */
#define IPC	   4096u /* addresses whose symbol is remembered (a power of two) */
#define STAB	   1024u /* distinct stacks kept */
#define FR_USER	   (-2)	 /* a stack's frame standing for all of its user frames */
#define FR_UNKNOWN (-1)
#define REC_MAX	   (sizeof(struct perf_event_header) + 8 + 8 * 160)

struct ring {
	int fd;
	uint32_t cpu;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	uint64_t size; /* data bytes, a power of two */
	size_t map_len;
};

struct fent {
	long sym; /* FR_USER, FR_UNKNOWN or a symbol index; count 0: free */
	uint64_t count;
};

struct sent {
	uint64_t count; /* 0: free */
	uint32_t hash;
	uint8_t depth;
	int32_t fr[NB_PROF_DEPTH + 1]; /* innermost first */
};

struct nb_prof {
	uint32_t hz, kib;
	uint64_t mask;
	bool ok;
	char why[NB_PROF_WHY];
	struct symref *symref;
	const struct nb_prof_syms *syms;
	struct nb_prof_drivers drv; /* the interfaces' NIC drivers */
	uint8_t *symcat; /* per symbol: 0 not yet known, 1 decides nothing, else category + 2 */
	struct ipc {
		uint64_t ip; /* 0: free */
		long sym;
	} * ipc; /* direct-mapped: a sample's addresses repeat (return addresses above all) */
	size_t nsym;
	size_t nring;
	struct ring ring[NB_PROF_CPUS];
	pthread_t th;
	bool th_on;
	int wake[2];
	pthread_mutex_t mu;
	bool running;
	uint64_t t0, t1, cpu0, cpu1;
	uint64_t stop_ns; /* the last drain, on the caller's thread: the profiler's cost too */
	/* under mu */
	struct nb_prof_cpu cnt[NB_PROF_CPUS];
	uint64_t throttled, func_samples, stacks_past;
	struct fent *ftab;
	struct sent *stab;
	uint8_t rec[REC_MAX];
};

/* The kernel's symbols, loaded once per agent and again only when /proc/modules changes: on a
 * slow board reading kallsyms takes a second or more, and a rate search asks for a window per
 * trial. Shared read-only, counted. */
struct symref {
	struct nb_prof_syms *s;
	uint64_t sig;
	unsigned refs;
};
static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static struct symref *cache;

static uint64_t modules_sig(void)
{
	uint64_t h = 1469598103934665603ull;
	uint8_t b[4096];
	ssize_t n;
	int fd = open("/proc/modules", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((n = read(fd, b, sizeof(b))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ b[i]) * 1099511628211ull;
	close(fd);
	return h;
}

static void symref_put_locked(struct symref *r)
{
	if (r && !--r->refs) {
		nb_prof_syms_free(r->s);
		free(r);
	}
}

static int symref_get(struct symref **out)
{
	uint64_t sig = modules_sig();
	int ret = 0;
	pthread_mutex_lock(&cache_mu);
	if (cache && cache->sig != sig) {
		symref_put_locked(cache);
		cache = NULL;
	}
	if (!cache) {
		struct symref *r = calloc(1, sizeof(*r));
		if (!r)
			ret = -ENOMEM;
		else if ((ret = nb_prof_syms_load(&r->s, "")))
			free(r);
		else {
			r->sig = sig;
			r->refs = 1;
			cache = r;
		}
	}
	if (!ret) {
		cache->refs++;
		*out = cache;
	}
	pthread_mutex_unlock(&cache_mu);
	return ret;
}

static void symref_put(struct symref *r)
{
	pthread_mutex_lock(&cache_mu);
	symref_put_locked(r);
	pthread_mutex_unlock(&cache_mu);
}

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void unavailable(struct nb_prof *p, int err, const char *what)
{
	char v[8] = "?";
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, v, sizeof(v) - 1);
		v[n > 0 ? n : 0] = '\0';
		v[strcspn(v, "\n")] = '\0';
		close(fd);
	}
	p->ok = false;
	if (err == EACCES || err == EPERM)
		snprintf(p->why, sizeof(p->why),
			 "perf events refused (perf_event_paranoid is %s; the agent needs root or "
			 "CAP_PERFMON)",
			 v);
	else if (err == ENOENT || err == ENOSYS || err == EOPNOTSUPP || err == ENODEV)
		snprintf(p->why, sizeof(p->why),
			 "the kernel has no perf events for cpu-clock (CONFIG_PERF_EVENTS)");
	else
		snprintf(p->why, sizeof(p->why), "%s: %s", what, strerror(err));
}

static uint64_t thread_cpu_ns(pthread_t th)
{
	clockid_t cid;
	struct timespec ts;
	if (pthread_getcpuclockid(th, &cid) || clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * NB_NS_PER_S + (uint64_t)ts.tv_nsec;
}

static uint32_t hash_frames(const int32_t *fr, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (uint32_t)fr[i];
		h *= 16777619u;
	}
	return h;
}

static void count_func(struct nb_prof *p, long sym)
{
	uint32_t h = (uint32_t)(sym * 2654435761u) % FTAB;
	for (uint32_t i = 0; i < FTAB; i++) {
		struct fent *f = &p->ftab[(h + i) % FTAB];
		if (f->count && f->sym != sym)
			continue;
		f->sym = sym;
		f->count++;
		return;
	}
}

static void count_stack(struct nb_prof *p, const int32_t *fr, size_t n)
{
	uint32_t h = hash_frames(fr, n);
	for (uint32_t i = 0; i < STAB; i++) {
		struct sent *s = &p->stab[(h + i) % STAB];
		if (s->count &&
		    (s->hash != h || s->depth != n || memcmp(s->fr, fr, n * sizeof(*fr))))
			continue;
		if (!s->count) {
			s->hash = h;
			s->depth = (uint8_t)n;
			memcpy(s->fr, fr, n * sizeof(*fr));
		}
		s->count++;
		return;
	}
	p->stacks_past++;
}

/* The category a frame decides (nb_prof_cat_frame_drv with this box's NIC drivers), or -1:
 * computed once per symbol, since the rules are prefix tests in order (on a slow board, tens of
 * microseconds per sample). */
static int frame_cat(struct nb_prof *p, long s)
{
	if (s < 0 || (size_t)s >= p->nsym || !p->symcat)
		return nb_prof_cat_frame_drv(nb_prof_syms_name(p->syms, s),
					     nb_prof_syms_module(p->syms, s), &p->drv);
	if (!p->symcat[s]) {
		int c = nb_prof_cat_frame_drv(nb_prof_syms_name(p->syms, s),
					      nb_prof_syms_module(p->syms, s), &p->drv);
		p->symcat[s] = (uint8_t)(c < 0 ? 1 : c + 2);
	}
	return p->symcat[s] == 1 ? -1 : p->symcat[s] - 2;
}

/* The symbol holding ip, from the cache of addresses seen or the table's binary search. */
static long find_sym(struct nb_prof *p, uint64_t ip)
{
	struct ipc *e = &p->ipc[((ip >> 2) * 0x9e3779b97f4a7c15ull) >> 52]; /* IPC = 2^12 */
	if (e->ip != ip || !ip) {
		e->ip = ip;
		e->sym = nb_prof_syms_find(p->syms, ip);
	}
	return e->sym;
}

/* One PERF_RECORD_SAMPLE's call chain: u64 nr, u64 ips[nr], with context markers. Its category
 * is nb_prof_cat_stack_drv's over the kept frames: the innermost that decides; no kernel frame
 * but user ones: user; kernel frames none of which decides: other. */
static void take_sample(struct nb_prof *p, size_t ri, const uint8_t *b, size_t len)
{
	uint64_t nr;
	int32_t fr[NB_PROF_DEPTH + 1];
	size_t nk = 0;
	int cat = -1;
	bool user = false, kernel = false;
	if (len < 8)
		return;
	memcpy(&nr, b, 8);
	if (nr > (len - 8) / 8)
		nr = (len - 8) / 8;
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t ip;
		memcpy(&ip, b + 8 + 8 * i, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			kernel = ip == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		if (!kernel) {
			user = true;
			continue;
		}
		if (nk < NB_PROF_DEPTH) {
			long s = find_sym(p, ip);
			fr[nk++] = s < 0 ? FR_UNKNOWN : (int32_t)s;
			if (cat < 0)
				cat = frame_cat(p, s);
		}
	}
	struct nb_prof_cpu *c = &p->cnt[ri];
	c->samples++;
	c->cat[cat >= 0 ? (enum nb_prof_cat)cat
	       : nk	? NB_PC_OTHER
	       : user	? NB_PC_USER
			: NB_PC_OTHER]++;
	if (p->mask && (c->cpu >= 64 || !((p->mask >> c->cpu) & 1)))
		return;
	p->func_samples++;
	count_func(p, nk ? fr[0] : user ? FR_USER : FR_UNKNOWN);
	size_t n = nk;
	if (user || !nk)
		fr[n++] = user ? FR_USER : FR_UNKNOWN;
	count_stack(p, fr, n);
}

/* n bytes of the ring from offset off (wrapping at its end). */
static void ring_copy(const struct ring *r, uint64_t off, void *dst, size_t n)
{
	size_t o = (size_t)(off & (r->size - 1)), first = (size_t)r->size - o;
	if (first >= n) {
		memcpy(dst, r->data + o, n);
	} else {
		memcpy(dst, r->data + o, first);
		memcpy((uint8_t *)dst + first, r->data, n - first);
	}
}

/* Drains one ring (p->mu held). */
static void drain(struct nb_prof *p, size_t ri, bool keep)
{
	struct ring *r = &p->ring[ri];
	uint64_t head, tail = r->meta->data_tail;
	/* A 64-bit head may tear on a 32-bit CPU: read until two reads agree. */
	volatile struct perf_event_mmap_page *vm = r->meta;
	do
		head = vm->data_head;
	while (head != vm->data_head);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (keep && (h.type == PERF_RECORD_SAMPLE || h.type == PERF_RECORD_LOST ||
			     h.type == PERF_RECORD_THROTTLE)) {
			size_t n = h.size < REC_MAX ? h.size : REC_MAX;
			ring_copy(r, tail, p->rec, n);
			const uint8_t *body = p->rec + sizeof(h);
			size_t blen = n - sizeof(h);
			if (h.type == PERF_RECORD_SAMPLE) {
				take_sample(p, ri, body, blen);
			} else if (h.type == PERF_RECORD_LOST && blen >= 16) {
				uint64_t lost;
				memcpy(&lost, body + 8, 8);
				p->cnt[ri].lost += lost;
			} else if (h.type == PERF_RECORD_THROTTLE) {
				p->throttled++;
			}
		}
		tail += h.size;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	r->meta->data_tail = tail;
}

static void *reader(void *arg)
{
	struct nb_prof *p = arg;
	struct pollfd pf[NB_PROF_CPUS + 1];
	for (size_t i = 0; i < p->nring; i++)
		pf[i] = (struct pollfd){.fd = p->ring[i].fd, .events = POLLIN};
	pf[p->nring] = (struct pollfd){.fd = p->wake[0], .events = POLLIN};
	for (;;) {
		/* The kernel wakes the reader when a ring is half full (wakeup_watermark); the
		 * timeout only bounds how old a low rate's samples get: each wakeup costs the box
		 * too. */
		int n = poll(pf, p->nring + 1, 1000);
		if (n < 0 && errno != EINTR)
			break;
		if (pf[p->nring].revents)
			break;
		pthread_mutex_lock(&p->mu);
		for (size_t i = 0; i < p->nring; i++)
			drain(p, i, p->running);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

static void close_rings(struct nb_prof *p)
{
	for (size_t i = 0; i < p->nring; i++) {
		if (p->ring[i].meta)
			munmap(p->ring[i].meta, p->ring[i].map_len);
		close(p->ring[i].fd);
	}
	p->nring = 0;
}

/* The online CPUs. */
static size_t online_cpus(uint32_t *cpus, size_t max)
{
	char b[512];
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, b, sizeof(b) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0) {
		b[n] = '\0';
		b[strcspn(b, "\n")] = '\0';
		uint32_t all[NB_CPULIST_MAX + 1];
		int k = nb_cpulist_parse(b, all, NB_CPULIST_MAX + 1);
		if (k > 0) {
			size_t m = 0;
			for (int i = 0; i < k && m < max; i++)
				cpus[m++] = all[i];
			return m;
		}
	}
	long c = sysconf(_SC_NPROCESSORS_ONLN);
	size_t m = 0;
	for (long i = 0; i < c && m < max; i++)
		cpus[m++] = (uint32_t)i;
	return m;
}

static int open_rings(struct nb_prof *p)
{
	uint32_t cpus[NB_PROF_CPUS];
	size_t ncpu = online_cpus(cpus, NB_PROF_CPUS);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = ((uint64_t)p->kib * 1024) / (uint64_t)page, pw = 1;
	while (pw * 2 <= pages)
		pw *= 2;
	for (size_t i = 0; i < ncpu; i++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_CPU_CLOCK;
		a.sample_period = NB_NS_PER_S / p->hz; /* cpu-clock counts nanoseconds */
		a.sample_type = PERF_SAMPLE_CALLCHAIN;
		a.disabled = 1;
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)(pw * (uint64_t)page / 2);
		a.sample_max_stack = NB_PROF_DEPTH + 2;
		int fd = perf_open(&a, (int)cpus[i]);
		if (fd < 0 && (errno == E2BIG || errno == EINVAL)) {
			a.sample_max_stack = 0; /* a kernel before 4.8 */
			fd = perf_open(&a, (int)cpus[i]);
		}
		if (fd < 0) {
			int e = errno;
			if (e == ENODEV && p->nring)
				continue; /* went offline meanwhile */
			unavailable(p, e, "perf_event_open");
			return -e;
		}
		struct ring *r = &p->ring[p->nring];
		r->fd = fd;
		r->cpu = cpus[i];
		r->map_len = (size_t)((pw + 1) * (uint64_t)page);
		void *m = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			int e = errno;
			close(fd);
			unavailable(p, e, "mapping the perf ring buffer");
			return -e;
		}
		r->meta = m;
		r->data = (uint8_t *)m + page;
		r->size = pw * (uint64_t)page;
		p->cnt[p->nring].cpu = cpus[i];
		p->nring++;
	}
	if (!p->nring) {
		unavailable(p, ENODEV, "no CPU online");
		return -ENODEV;
	}
	return 0;
}

/* The drivers ethtool names for this host's interfaces (loopback has none): the interfaces
 * under test are among them, and whatever other NIC the box has is a NIC driver's work too. */
static void read_drivers(struct nb_prof_drivers *d)
{
	DIR *dir = opendir("/sys/class/net");
	struct dirent *e;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!dir || fd < 0)
		goto out;
	while ((e = readdir(dir))) {
		struct ethtool_drvinfo di = {.cmd = ETHTOOL_GDRVINFO};
		struct ifreq ifr;
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(ifr.ifr_name))
			continue;
		memset(&ifr, 0, sizeof(ifr));
		memcpy(ifr.ifr_name, e->d_name, strlen(e->d_name));
		ifr.ifr_data = (void *)&di;
		if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
			di.driver[sizeof(di.driver) - 1] = '\0';
			nb_prof_drivers_add(d, di.driver);
		}
	}
out:
	if (dir)
		closedir(dir);
	if (fd >= 0)
		close(fd);
}

int nb_prof_open(struct nb_prof **out, uint32_t hz, uint32_t buf_kib, uint64_t cpu_mask, char *why,
		 size_t whylen)
{
	struct nb_prof *p;
	char virt[128];
	int ret;
	if (hz < 1 || hz > NB_PROF_HZ_MAX || buf_kib < 8 || buf_kib > NB_PROF_KIB_MAX) {
		snprintf(why, whylen,
			 "profile: %u Hz and %u KiB asked; 1-%u Hz and 8-%u KiB per CPU", hz,
			 buf_kib, NB_PROF_HZ_MAX, NB_PROF_KIB_MAX);
		return -EINVAL;
	}
	if (!(p = calloc(1, sizeof(*p))))
		return -ENOMEM;
	p->hz = hz;
	p->kib = buf_kib;
	p->mask = cpu_mask;
	p->wake[0] = p->wake[1] = -1;
	pthread_mutex_init(&p->mu, NULL);
	*out = p;
	if (!(p->ftab = calloc(FTAB, sizeof(*p->ftab))) ||
	    !(p->stab = calloc(STAB, sizeof(*p->stab)))) {
		snprintf(why, whylen, "profile: %s", strerror(ENOMEM));
		nb_prof_free(p);
		*out = NULL;
		return -ENOMEM;
	}
	nb_virt_detect(virt, sizeof(virt));
	if (!strncmp(virt, "qemu-user", 9)) {
		snprintf(p->why, sizeof(p->why),
			 "under %s there is no board kernel to profile (the kernel is the host's)",
			 virt);
		ret = -ENOTSUP;
		goto unavail;
	}
	if ((ret = symref_get(&p->symref))) {
		if (ret == -ENOENT)
			snprintf(p->why, sizeof(p->why),
				 "/proc/kallsyms shows no addresses (kptr_restrict, or the agent "
				 "is not root)");
		else
			snprintf(p->why, sizeof(p->why), "cannot read /proc/kallsyms: %s",
				 strerror(-ret));
		goto unavail;
	}
	p->syms = p->symref->s;
	read_drivers(&p->drv);
	p->nsym = nb_prof_syms_count(p->syms);
	if (!(p->symcat = calloc(p->nsym ? p->nsym : 1, 1)) ||
	    !(p->ipc = calloc(IPC, sizeof(*p->ipc)))) {
		snprintf(why, whylen, "profile: %s", strerror(ENOMEM));
		nb_prof_free(p);
		*out = NULL;
		return -ENOMEM;
	}
	if ((ret = open_rings(p)))
		goto unavail;
	if (pipe2(p->wake, O_CLOEXEC)) {
		ret = -errno;
		unavailable(p, errno, "pipe");
		goto unavail;
	}
	if (pthread_create(&p->th, NULL, reader, p)) {
		ret = -EAGAIN;
		unavailable(p, EAGAIN, "the profiler's thread");
		goto unavail;
	}
	p->th_on = true;
	p->ok = true;
	return 0;
unavail:
	close_rings(p);
	snprintf(why, whylen, "%s", p->why);
	return ret;
}

int nb_prof_start(struct nb_prof *p)
{
	if (!p->ok)
		return 0;
	pthread_mutex_lock(&p->mu);
	for (size_t i = 0; i < p->nring; i++) {
		drain(p, i, false);
		uint32_t cpu = p->cnt[i].cpu;
		memset(&p->cnt[i], 0, sizeof(p->cnt[i]));
		p->cnt[i].cpu = cpu;
	}
	memset(p->ftab, 0, FTAB * sizeof(*p->ftab));
	memset(p->stab, 0, STAB * sizeof(*p->stab));
	p->throttled = p->func_samples = p->stacks_past = 0;
	p->running = true;
	p->cpu0 = thread_cpu_ns(p->th);
	p->t0 = nb_mono_ns();
	for (size_t i = 0; i < p->nring; i++)
		ioctl(p->ring[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	pthread_mutex_unlock(&p->mu);
	return 0;
}

void nb_prof_stop(struct nb_prof *p)
{
	if (!p->ok || !p->running)
		return;
	for (size_t i = 0; i < p->nring; i++)
		ioctl(p->ring[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	p->t1 = nb_mono_ns();
	uint64_t d0 = thread_cpu_ns(pthread_self());
	pthread_mutex_lock(&p->mu);
	for (size_t i = 0; i < p->nring; i++)
		drain(p, i, true);
	p->running = false;
	pthread_mutex_unlock(&p->mu);
	uint64_t d1 = thread_cpu_ns(pthread_self());
	p->stop_ns = d1 > d0 ? d1 - d0 : 0;
	p->cpu1 = thread_cpu_ns(p->th);
}

static int cmp_stack_desc(const void *a, const void *b)
{
	uint64_t x = (*(const struct sent *const *)a)->count;
	uint64_t y = (*(const struct sent *const *)b)->count;
	return x < y ? 1 : x > y ? -1 : 0;
}

static const char *frame_name(const struct nb_prof *p, int32_t f)
{
	return f == FR_USER ? "[user]" : nb_prof_syms_name(p->syms, f);
}

/* "name" or "name [module]". */
static size_t frame_text(const struct nb_prof *p, int32_t f, char *b, size_t len)
{
	const char *m = f >= 0 ? nb_prof_syms_module(p->syms, f) : "";
	int n = *m ? snprintf(b, len, "%s [%s]", frame_name(p, f), m)
		   : snprintf(b, len, "%s", frame_name(p, f));
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static void result_stacks(struct nb_prof *p, struct nb_prof_result *r)
{
	/* The stacks by count, the busiest first, while they fit; the rest in one line. */
	struct sent **v = malloc(STAB * sizeof(*v));
	size_t n = 0, o = 0;
	uint64_t rest = p->stacks_past;
	if (!v)
		return;
	for (uint32_t i = 0; i < STAB; i++)
		if (p->stab[i].count)
			v[n++] = &p->stab[i];
	qsort(v, n, sizeof(*v), cmp_stack_desc);
	for (size_t i = 0; i < n; i++) {
		char line[NB_PROF_DEPTH * (NB_PROF_NAME + NB_PROF_MOD + 4) + 32];
		size_t l = 0;
		for (size_t k = v[i]->depth; k-- > 0;) {
			if (l && l < sizeof(line) - 1)
				line[l++] = ';';
			l += frame_text(p, v[i]->fr[k], line + l, sizeof(line) - l);
		}
		l += (size_t)snprintf(line + l, sizeof(line) - l, " %llu\n",
				      (unsigned long long)v[i]->count);
		if (o + l + 48 >= sizeof(r->folded)) {
			rest += v[i]->count;
			continue;
		}
		memcpy(r->folded + o, line, l);
		o += l;
	}
	if (rest)
		o += (size_t)snprintf(r->folded + o, sizeof(r->folded) - o,
				      "[stacks not kept] %llu\n", (unsigned long long)rest);
	r->folded_len = o;
	free(v);
}

void nb_prof_result(struct nb_prof *p, struct nb_prof_result *r)
{
	memset(r, 0, sizeof(*r));
	r->hz = p->hz;
	r->func_mask = p->mask;
	if (!p->ok) {
		snprintf(r->why, sizeof(r->why), "%s", p->why);
		return;
	}
	r->available = true;
	pthread_mutex_lock(&p->mu);
	r->window_ns = p->t1 > p->t0 ? p->t1 - p->t0 : 0;
	r->cpu_ns = (p->cpu1 > p->cpu0 ? p->cpu1 - p->cpu0 : 0) + p->stop_ns;
	r->throttled = p->throttled;
	r->ncpu = (uint32_t)p->nring;
	memcpy(r->cpu, p->cnt, p->nring * sizeof(p->cnt[0]));
	r->func_samples = p->func_samples;
	/* Top functions: repeated selection over the table (FTAB x NB_PROF_FUNCS, once a
	 * window). */
	bool *taken = calloc(FTAB, sizeof(*taken));
	for (uint32_t k = 0; taken && k < NB_PROF_FUNCS; k++) {
		long best = -1;
		for (uint32_t i = 0; i < FTAB; i++)
			if (p->ftab[i].count && !taken[i] &&
			    (best < 0 || p->ftab[i].count > p->ftab[best].count))
				best = i;
		if (best < 0)
			break;
		taken[best] = true;
		struct nb_prof_func *f = &r->func[r->nfunc++];
		long s = p->ftab[best].sym;
		snprintf(f->name, sizeof(f->name), "%s", frame_name(p, (int32_t)s));
		snprintf(f->module, sizeof(f->module), "%s",
			 s >= 0 ? nb_prof_syms_module(p->syms, s) : "");
		f->count = p->ftab[best].count;
	}
	free(taken);
	result_stacks(p, r);
	pthread_mutex_unlock(&p->mu);
}

void nb_prof_free(struct nb_prof *p)
{
	if (!p)
		return;
	if (p->th_on) {
		char c = 'q';
		if (write(p->wake[1], &c, 1) < 0) {
		}
		pthread_join(p->th, NULL);
	}
	if (p->wake[0] >= 0)
		close(p->wake[0]);
	if (p->wake[1] >= 0)
		close(p->wake[1]);
	close_rings(p);
	if (p->symref)
		symref_put(p->symref);
	pthread_mutex_destroy(&p->mu);
	free(p->ftab);
	free(p->stab);
	free(p->symcat);
	free(p->ipc);
	free(p);
}
