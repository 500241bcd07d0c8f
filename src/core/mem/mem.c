/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem's orchestration: options to defaults and limits (available memory, address
 * space), the latency sweep, the caches sysfs lists and bandwidth. The measurements themselves
 * are in mem_latency.c and mem_bw.c, the result's JSON in mem_json.c. */
/* 64-bit inode numbers from readdir on 32-bit builds: without it glibc's readdir fails with
 * EOVERFLOW on file systems with large inode numbers (overlayfs, XFS). */
#define _FILE_OFFSET_BITS 64

#include "core/mem/mem_int.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/result.h"
#include "core/base/sysinfo.h"
#include "core/session/ctl.h"

#define SYSFS_CACHE_DIR "/sys/devices/system/cpu/cpu0/cache"

const char *nb_mem_pattern_name(enum nb_mem_pattern p)
{
	return p == NB_MEM_SEQ ? "seq" : "random";
}

int nb_mem_pattern_parse(const char *s, enum nb_mem_pattern *p)
{
	if (!strcmp(s, "random"))
		*p = NB_MEM_RANDOM;
	else if (!strcmp(s, "seq"))
		*p = NB_MEM_SEQ;
	else
		return -EINVAL;
	return 0;
}

int nb_mem_parse_cache_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'K':
	case 'k':
		v <<= 10;
		end++;
		break;
	case 'M':
	case 'm':
		v <<= 20;
		end++;
		break;
	case 'G':
	case 'g':
		v <<= 30;
		end++;
		break;
	}
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end || !v)
		return -EINVAL;
	*bytes = v;
	return 0;
}

uint64_t nb_mem_parse_meminfo(const char *text)
{
	uint64_t avail = 0, free_kb = 0;
	const char *p = text;

	while (p && *p) {
		unsigned long long kb;
		if (sscanf(p, "MemAvailable: %llu kB", &kb) == 1)
			avail = kb;
		else if (sscanf(p, "MemFree: %llu kB", &kb) == 1)
			free_kb = kb;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	/* MemAvailable exists since Linux 3.14; older kernels have only MemFree. */
	return (avail ? avail : free_kb) * 1024;
}

static uint64_t avail_memory_bytes(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/meminfo", "r");
	uint64_t bytes = 0;

	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		fclose(f);
		bytes = nb_mem_parse_meminfo(buf);
	}
	if (!bytes) {
		long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
		if (pages > 0 && psz > 0)
			bytes = (uint64_t)pages * (uint64_t)psz;
	}
	return bytes;
}

static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return ret;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		ret = 0;
	}
	fclose(f);
	return ret;
}

static int cmp_cache(const void *a, const void *b)
{
	const struct nb_mem_cache *x = a, *y = b;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return strcmp(x->type, y->type);
}

size_t nb_mem_sysfs_caches(const char *dir, struct nb_mem_cache *c, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < cap) {
		char sub[400], v[64];
		struct nb_mem_cache e = {0};
		if (strncmp(de->d_name, "index", 5))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (read_line(sub, "level", v, sizeof(v)) || (e.level = (uint32_t)atoi(v)) == 0)
			continue;
		if (read_line(sub, "size", v, sizeof(v)) ||
		    nb_mem_parse_cache_size(v, &e.size_bytes))
			continue;
		if (read_line(sub, "type", e.type, sizeof(e.type)))
			snprintf(e.type, sizeof(e.type), "Unknown");
		if (!read_line(sub, "coherency_line_size", v, sizeof(v)))
			e.line_bytes = (uint32_t)atoi(v);
		if (read_line(sub, "shared_cpu_list", e.shared_cpus, sizeof(e.shared_cpus)))
			e.shared_cpus[0] = 0;
		c[n++] = e;
	}
	closedir(d);
	qsort(c, n, sizeof(*c), cmp_cache);
	return n;
}

uint64_t nb_mem_bw_pick(const struct nb_mem_params *o, uint64_t sysfs_llc_bytes,
			uint64_t curve_llc_bytes, uint64_t limit_bytes, const char **from,
			bool *capped_by_memory)
{
	uint64_t b;

	*capped_by_memory = false;
	if (o->bw_bytes) {
		b = o->bw_bytes;
		*from = "option";
	} else if (sysfs_llc_bytes) {
		b = 4 * sysfs_llc_bytes;
		*from = "sysfs";
	} else if (curve_llc_bytes) {
		b = 4 * curve_llc_bytes;
		*from = "latency curve";
	} else {
		b = NB_MEM_BW_DEFAULT_BYTES;
		*from = "default";
	}
	/* Quick mode's time is the bandwidth buffer's: four times a 256 MiB L3 is 1 GiB per
	 * buffer and about 10 s. The cap keeps it to seconds; the front end says when the
	 * buffer is then no longer beyond the last-level cache. */
	if (o->quick && !o->bw_bytes && b > NB_MEM_BW_QUICK_CAP_BYTES) {
		b = NB_MEM_BW_QUICK_CAP_BYTES;
		*from = "quick cap";
	}
	if (b < NB_MEM_BW_MIN_BYTES)
		b = NB_MEM_BW_MIN_BYTES;
	/* Two buffers (copy's source and destination) within the same half of the memory. */
	if (b > limit_bytes) {
		b = limit_bytes;
		*capped_by_memory = true;
	}
	return b;
}

uint64_t nb_mem_bw_llc_bytes(const struct nb_mem_result *r)
{
	uint64_t llc = nb_mem_llc_bytes(r->sysfs, r->n_sysfs);
	return llc ? llc : r->n_steps ? r->steps[r->n_steps - 1].size_bytes : 0;
}

uint64_t nb_mem_llc_bytes(const struct nb_mem_cache *c, size_t n)
{
	uint64_t best = 0;
	uint32_t level = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(c[i].type, "Instruction") && c[i].level >= level) {
			if (c[i].level > level || c[i].size_bytes > best)
				best = c[i].size_bytes;
			level = c[i].level;
		}
	return best;
}

/* The chain's stride: one L1 data cache line, so every load is to a new line. */
static uint32_t line_size(const struct nb_mem_cache *c, size_t n)
{
	long v = 0;

	for (size_t i = 0; i < n && !v; i++)
		if (c[i].level == 1 && strcmp(c[i].type, "Instruction") && c[i].line_bytes)
			v = c[i].line_bytes;
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
	if (v <= 0)
		v = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
#endif
	if (v < 16 || v > 512 || (v & (v - 1)))
		v = 64;
	return (uint32_t)v;
}

void nb_mem_result_free(struct nb_mem_result *r)
{
	if (r)
		nb_ctl_free(r->ctl);
	free(r);
}

/* Trial lengths: a trial must be long against the clock's resolution and short against the
 * scheduler's slice (so that on a busy machine some trials run unpreempted), and all of them
 * must fit the time budget (30 s, 5 s quick). */
#define LAT_TRIAL_NS	   (3 * 1000 * 1000ULL)
#define LAT_TRIALS	   15
#define LAT_TRIAL_NS_QUICK (1 * 1000 * 1000ULL)
#define LAT_TRIALS_QUICK   7
#define BW_TRIALS	   10
#define BW_TRIALS_QUICK	   5

static bool cancelled(const struct nb_mem_result *r)
{
	return nb_cancelled(r->opts.stop);
}

static size_t bw_rounds(const struct nb_mem_result *r)
{
	return r->opts.threads > 1 ? 2 : 1;
}

static void report(const struct nb_mem_result *r, size_t step, size_t nsteps, bool bw, uint64_t set,
		   uint32_t threads, const uint64_t *lat_sizes, size_t n_lat_sizes)
{
	struct nb_mem_progress ev = {
	    .step = step,
	    .nsteps = nsteps,
	    .bandwidth = bw,
	    .set_bytes = set,
	    .threads = threads,
	    .last_ns_per_load = r->n_lat ? r->lat[r->n_lat - 1].ns_per_load : NAN,
	    .last_read_mbyte_per_s = r->n_bw ? r->bw[r->n_bw - 1].read_mbyte_per_s : NAN,
	    .lat_sizes = lat_sizes,
	    .n_lat_sizes = n_lat_sizes,
	};
	if (r->opts.progress)
		r->opts.progress(r->opts.progress_arg, &ev);
}

static int run_latency(struct nb_mem_result *r)
{
	uint64_t sizes[NB_MEM_MAX_POINTS];
	size_t n = nb_mem_sweep_sizes(r->opts.min_bytes, r->opts.max_bytes, r->opts.quick, sizes,
				      NB_MEM_MAX_POINTS);
	size_t lines = (size_t)(r->opts.max_bytes / r->line_bytes);
	void *buf = nb_mem_alloc((size_t)r->opts.max_bytes, &r->hugepages);
	uint32_t *idx = malloc(lines * sizeof(*idx));
	struct nb_cpu_sample a, b;
	double ns[NB_MEM_MAX_POINTS];
	uint64_t faulted_bytes = 0;
	int ret = -ENOMEM;

	if (!buf || !idx)
		goto out;
	r->trials = r->opts.quick ? LAT_TRIALS_QUICK : LAT_TRIALS;
	r->mem_latency_ns = NAN; /* until the whole curve is measured */
	r->mem_latency_cycles = NAN;
	nb_cpu_sample_now(&a);
	for (size_t i = 0; i < n; i++) {
		struct nb_mem_lat_point *pt = &r->lat[i];
		uint64_t set = sizes[i] / r->line_bytes * r->line_bytes;
		if (cancelled(r)) {
			/* Keep the points measured; the curve's inference needs the sizes too. */
			r->interrupted = true;
			n = i;
			break;
		}
		report(r, i, n + bw_rounds(r), false, set, 1, sizes, n);
		/* Page faults before the point's trials; the set grows, so fault in the growth
		 * only, which keeps the first points (and a cancel) as quick as they are small. */
		ret = 0;
		if (set > faulted_bytes) {
			ret = nb_mem_fill((char *)buf + faulted_bytes, 0x33, set - faulted_bytes,
					  r->opts.stop);
			faulted_bytes = set;
		}
		/* The point looks at the cancel flag as it goes, so a cancel ends even the
		 * largest point within milliseconds. */
		if (!ret)
			ret =
			    nb_mem_latency_point(buf, idx, set, r->line_bytes, r->opts.pattern,
						 r->opts.quick ? LAT_TRIAL_NS_QUICK : LAT_TRIAL_NS,
						 r->trials, pt, r->opts.stop);
		if (ret == -ECANCELED) {
			r->interrupted = true;
			n = i;
			break;
		}
		if (ret)
			goto out;
		if (r->opts.cpu_mhz)
			pt->cycles_per_load = pt->ns_per_load * r->opts.cpu_mhz / 1000.0;
		ns[i] = pt->ns_per_load;
		r->n_lat = i + 1;
	}
	nb_cpu_sample_now(&b);
	nb_cpu_load(&a, &b, &r->lat_cpu);
	ret = 0;
	if (!n)
		goto out;
	r->n_steps = nb_mem_infer_steps(sizes, ns, n, r->steps, NB_MEM_MAX_CACHES);
	/* Interrupted: the largest set measured is not the memory behind the caches. */
	if (!r->interrupted) {
		r->mem_latency_ns = r->lat[n - 1].ns_per_load;
		r->mem_latency_cycles = r->lat[n - 1].cycles_per_load;
	}
out:
	free(idx);
	free(buf);
	return ret;
}

static int run_bandwidth(struct nb_mem_result *r)
{
	bool huge;
	void *a = nb_mem_alloc((size_t)r->bw_bytes, &huge);
	void *b = nb_mem_alloc((size_t)r->bw_bytes, &huge);
	uint32_t counts[2] = {1, r->opts.threads};
	uint32_t trials = r->opts.quick ? BW_TRIALS_QUICK : BW_TRIALS;
	int ret = -ENOMEM;

	if (!a || !b)
		goto out;
	ret = -ECANCELED;
	if (cancelled(r))
		goto out;
	/* Fault the pages in (and make them huge) before any window opens: the kernel's page
	 * zeroing is not the bus bandwidth asked for, nor the CPU load of measuring it. The
	 * data is not zero, as packets are not. */
	report(r, r->n_lat, r->n_lat + bw_rounds(r), true, r->bw_bytes, counts[0], NULL, 0);
	if ((ret = nb_mem_fill(a, 0x11, r->bw_bytes, r->opts.stop)) ||
	    (ret = nb_mem_fill(b, 0x22, r->bw_bytes, r->opts.stop)))
		goto out;
	for (size_t k = 0; k < bw_rounds(r); k++) {
		struct nb_cpu_sample s0, s1;
		struct nb_mem_bw_point *pt = &r->bw[k];
		if (cancelled(r)) {
			ret = -ECANCELED;
			goto out;
		}
		report(r, r->n_lat + k, r->n_lat + bw_rounds(r), true, r->bw_bytes, counts[k], NULL,
		       0);
		nb_cpu_sample_now(&s0);
		ret = nb_mem_bandwidth(a, b, r->bw_bytes, counts[k], trials, pt, r->opts.stop);
		if (ret)
			goto out;
		nb_cpu_sample_now(&s1);
		nb_cpu_load(&s0, &s1, &pt->cpu);
		r->n_bw = k + 1;
	}
	ret = 0;
out:
	free(a);
	free(b);
	return ret;
}

int nb_mem_params_check(const struct nb_mem_params *o, char *err, size_t errlen)
{
	uint64_t min = o->min_bytes ? o->min_bytes : NB_MEM_MIN_SET_BYTES;
	uint64_t max = o->max_bytes ? o->max_bytes : NB_MEM_DEFAULT_MAX_BYTES;

	/* The caller's buffer may be NULL (nb_mem_run only wants the verdict). */
	if (!err)
		errlen = 0;
	if (min < NB_MEM_MIN_SET_BYTES || min > NB_MEM_MAX_OPT_BYTES ||
	    max > NB_MEM_MAX_OPT_BYTES) {
		snprintf(err, errlen,
			 "working sets from %llu to %llu bytes asked (1 KiB to 64 GiB)",
			 (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	if (max < min) {
		snprintf(err, errlen,
			 "smallest working set (%llu bytes%s) is larger than the largest (%llu "
			 "bytes%s)",
			 (unsigned long long)min, o->min_bytes ? "" : ", the default",
			 (unsigned long long)max, o->max_bytes ? "" : ", the default");
		return -EINVAL;
	}
	if (o->threads > NB_MEM_MAX_THREADS) {
		snprintf(err, errlen, "%u bandwidth threads asked (at most %d)", o->threads,
			 NB_MEM_MAX_THREADS);
		return -EINVAL;
	}
	if (o->pattern != NB_MEM_RANDOM && o->pattern != NB_MEM_SEQ) {
		snprintf(err, errlen, "unknown access pattern %d (random or seq)", (int)o->pattern);
		return -EINVAL;
	}
	if (o->bw_bytes &&
	    (o->bw_bytes < NB_MEM_BW_MIN_BYTES || o->bw_bytes > NB_MEM_MAX_OPT_BYTES)) {
		snprintf(err, errlen, "bandwidth buffer of %llu bytes asked (1 MiB to 64 GiB)",
			 (unsigned long long)o->bw_bytes);
		return -EINVAL;
	}
	return 0;
}

int nb_mem_run(const struct nb_mem_params *opts, struct nb_mem_result **out)
{
	struct nb_mem_result *r = calloc(1, sizeof(*r));
	uint64_t half, addr_cap = (uint64_t)SIZE_MAX / 4;
	bool bw_capped;
	int ret = -ENOMEM;

	if (!r)
		goto out;
	r->opts = *opts;
	if (!r->opts.min_bytes)
		r->opts.min_bytes = NB_MEM_MIN_SET_BYTES;
	if (!r->opts.max_bytes)
		r->opts.max_bytes = NB_MEM_DEFAULT_MAX_BYTES;
	if (!r->opts.threads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		r->opts.threads = n < 1			   ? 1
				  : n > NB_MEM_MAX_THREADS ? NB_MEM_MAX_THREADS
							   : (uint32_t)n;
	}
	ret = nb_mem_params_check(&r->opts, NULL, 0);
	if (ret)
		goto out;
	r->requested_max_bytes = r->opts.max_bytes;
	r->n_sysfs = nb_mem_sysfs_caches(SYSFS_CACHE_DIR, r->sysfs, NB_MEM_MAX_CACHES);
	r->line_bytes = line_size(r->sysfs, r->n_sysfs);
	if (!r->opts.cpu_mhz) {
		struct nb_sysinfo si;
		nb_sysinfo_get(&si, NULL);
		r->opts.cpu_mhz = si.cpu_mhz;
	}
	/* Half of the available memory, and a quarter of a 32-bit address space: the probe must
	 * not push the board into swap or the OOM killer. */
	r->avail_bytes = avail_memory_bytes();
	half = r->avail_bytes ? r->avail_bytes / 2 : UINT64_MAX;
	half = half < addr_cap ? half : addr_cap;
	if (r->opts.max_bytes > half) {
		r->opts.max_bytes = half < r->opts.min_bytes ? r->opts.min_bytes : half;
		r->capped = true;
	}
	ret = run_latency(r);
	if (ret || r->interrupted)
		goto out;

	r->bw_bytes = nb_mem_bw_pick(&r->opts, nb_mem_llc_bytes(r->sysfs, r->n_sysfs),
				     r->n_steps ? r->steps[r->n_steps - 1].size_bytes : 0, half / 2,
				     &r->bw_bytes_from, &bw_capped);
	if (bw_capped)
		r->capped = true;
	r->bw_bytes &= ~(uint64_t)4095;
	ret = run_bandwidth(r);
	if (ret == -ECANCELED) {
		r->interrupted = true; /* the latency curve and the rounds done are kept */
		ret = 0;
	}
out:
	if (ret) {
		nb_mem_result_free(r);
		r = NULL;
	}
	*out = r;
	return ret;
}
