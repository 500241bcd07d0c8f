/* SPDX-License-Identifier: BSD-2-Clause */
/* The memory probe's pieces: the chain is one cycle through every line, the sweep's sizes, the
 * cache-step search on synthetic curves, sysfs and meminfo parsing, and a small real probe
 * whose ordering holds on any machine (a set in L1 is faster than one far beyond the caches). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem/mem.h"
#include "core/mem/mem_int.h"
#include "tap.h"

/* Follows the chain from line 0: true when it returns to the start after exactly n steps and
 * visited every line once on the way. */
static int single_cycle(char *buf, size_t n, size_t line)
{
	unsigned char *seen = calloc(n, 1);
	char *p = buf;
	size_t steps = 0;
	int ok = 1;

	do {
		size_t off = (size_t)(p - buf);
		if (off % line || off / line >= n || seen[off / line]) {
			ok = 0;
			break;
		}
		seen[off / line] = 1;
		p = *(char **)p;
		steps++;
	} while (p != buf && steps <= n);
	ok = ok && p == buf && steps == n;
	free(seen);
	return ok;
}

static void test_chain(void)
{
	static const size_t counts[] = {1, 2, 3, 16, 1000, 65536};
	const size_t line = 64;

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		size_t n = counts[c];
		char *buf = malloc(n * line);
		uint32_t *idx = malloc(n * sizeof(*idx));
		nb_mem_chain_build(buf, n, line, NB_MEM_RANDOM, idx, 12345 + n);
		CHECK(single_cycle(buf, n, line), "random chain of %zu lines is one cycle over all",
		      n);
		nb_mem_chain_build(buf, n, line, NB_MEM_SEQ, idx, 1);
		CHECK(single_cycle(buf, n, line), "sequential chain of %zu lines is one cycle", n);
		if (n > 1)
			CHECK(*(char **)buf == buf + line,
			      "sequential chain goes to the next line");
		free(buf);
		free(idx);
	}
	/* The random chain must not be the sequential one (it is meant to defeat prefetchers):
	 * count the lines whose successor is the next line. */
	{
		size_t n = 4096, adjacent = 0;
		char *buf = malloc(n * 64);
		uint32_t *idx = malloc(n * sizeof(*idx));
		nb_mem_chain_build(buf, n, 64, NB_MEM_RANDOM, idx, 7);
		for (size_t i = 0; i < n; i++)
			adjacent += *(char **)(buf + i * 64) == buf + ((i + 1) % n) * 64;
		CHECK(adjacent < 16, "random chain rarely steps to the next line (%zu of %zu)",
		      adjacent, n);
		void *end = nb_mem_chase(buf, (uint64_t)n * 16);
		CHECK(end == buf, "chasing 16 full cycles returns to the start");
		free(buf);
		free(idx);
	}
	/* Odd stride: 32-byte lines as on Cortex-A9 or e500. */
	{
		size_t n = 777;
		char *buf = malloc(n * 32);
		uint32_t *idx = malloc(n * sizeof(*idx));
		nb_mem_chain_build(buf, n, 32, NB_MEM_RANDOM, idx, 99);
		CHECK(single_cycle(buf, n, 32), "32-byte stride chain is one cycle");
		free(buf);
		free(idx);
	}
}

static void test_sweep(void)
{
	uint64_t s[NB_MEM_MAX_POINTS];
	size_t n = nb_mem_sweep_sizes(1024, 256ULL << 20, true, s, NB_MEM_MAX_POINTS);
	int ok = 1;

	CHECK(n == 19 && s[0] == 1024 && s[n - 1] == 256ULL << 20, "quick sweep: 19 doublings");
	for (size_t i = 1; i < n; i++)
		ok &= s[i] == 2 * s[i - 1];
	CHECK(ok, "quick sweep doubles");
	n = nb_mem_sweep_sizes(1024, 256ULL << 20, false, s, NB_MEM_MAX_POINTS);
	CHECK(n == 37 && s[1] == 1536 && s[2] == 2048, "full sweep has the 1.5x points (%zu)", n);
	n = nb_mem_sweep_sizes(3000, 10000, false, s, NB_MEM_MAX_POINTS);
	CHECK(n == 6 && s[0] == 3000 && s[1] == 3072 && s[5] == 10000, "odd bounds kept (%zu)", n);
	n = nb_mem_sweep_sizes(4096, 4096, false, s, NB_MEM_MAX_POINTS);
	CHECK(n == 1 && s[0] == 4096, "min = max is one point");
	n = nb_mem_sweep_sizes(1024, 1ULL << 40, false, s, 8);
	CHECK(n == 8 && s[7] == 1ULL << 40, "a full table still ends at the largest set");
	CHECK(nb_mem_sweep_sizes(8192, 4096, false, s, 8) == 0, "min > max gives nothing");
}

/* A synthetic machine: levels[i] ns up to edges[i] bytes, then memory; noise in percent is a
 * fixed pseudo-random wobble. */
static size_t synth(const uint64_t *edges, const double *levels, size_t nlev, double mem_ns,
		    double noise_pct, bool quick, uint64_t *sizes, double *ns)
{
	size_t n = nb_mem_sweep_sizes(1024, 256ULL << 20, quick, sizes, NB_MEM_MAX_POINTS);
	uint32_t r = 1;

	for (size_t i = 0; i < n; i++) {
		double v = mem_ns;
		for (size_t k = nlev; k-- > 0;)
			if (sizes[i] <= edges[k])
				v = levels[k];
		r = r * 1103515245u + 12345u;
		ns[i] =
		    v * (1.0 + noise_pct / 100.0 * (((double)(r >> 16 & 0x7fff) / 16384.0) - 1.0));
	}
	return n;
}

static void test_steps(void)
{
	uint64_t sizes[NB_MEM_MAX_POINTS];
	double ns[NB_MEM_MAX_POINTS];
	struct nb_mem_step st[NB_MEM_MAX_CACHES];
	static const uint64_t edges[] = {32 << 10, 1 << 20, 32 << 20};
	static const double levels[] = {1.2, 4.0, 14.0};
	size_t n, k;

	for (int quick = 0; quick < 2; quick++) {
		n = synth(edges, levels, 3, 95.0, 0, quick, sizes, ns);
		k = nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES);
		CHECK(k == 3 && st[0].size_bytes == edges[0] && st[1].size_bytes == edges[1] &&
			  st[2].size_bytes == edges[2],
		      "3 sharp steps found at 32K, 1M, 32M (%s sweep, %zu found)",
		      quick ? "quick" : "full", k);
		CHECK(k == 3 && fabs(st[0].ns_below - 1.2) < 1e-9 &&
			  fabs(st[2].ns_above - 95) < 1e-9,
		      "step levels are the plateaus");
		n = synth(edges, levels, 3, 95.0, 8, quick, sizes, ns);
		k = nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES);
		CHECK(k == 3 && st[0].size_bytes == edges[0] && st[1].size_bytes == edges[1] &&
			  st[2].size_bytes == edges[2],
		      "3 steps found through 8 %% noise (%s sweep)", quick ? "quick" : "full");
	}
	/* A step spread over two samples (associativity, replacement) is one step, at its foot. */
	n = synth(edges, levels, 3, 95.0, 0, false, sizes, ns);
	for (size_t i = 0; i < n; i++)
		if (sizes[i] == 1536 << 10)
			ns[i] = 8.0; /* halfway from L2 (4) to L3 (14) */
	k = nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES);
	CHECK(k == 3 && st[1].size_bytes == 1 << 20, "gradual step counted once, at 1M");

	/* Flat curves: nothing, with or without noise, and a slow ramp is no step either. */
	{
		static const uint64_t none[] = {0};
		static const double flat[] = {0};
		n = synth(none, flat, 0, 80.0, 0, false, sizes, ns);
		CHECK(nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES) == 0, "flat: none");
		n = synth(none, flat, 0, 80.0, 15, false, sizes, ns);
		CHECK(nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES) == 0,
		      "flat with 15 %% noise: none");
		for (size_t i = 0; i < n; i++)
			ns[i] = 10.0 * pow(1.08, (double)i); /* +8 % per sample */
		CHECK(nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES) == 0,
		      "slow ramp: none");
	}
	/* One cache only (a small microcontroller-class core): one step. */
	{
		static const uint64_t e1[] = {16 << 10};
		static const double l1[] = {5.0};
		n = synth(e1, l1, 1, 60.0, 3, false, sizes, ns);
		k = nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES);
		CHECK(k == 1 && st[0].size_bytes == 16 << 10, "single cache at 16K");
	}
	/* A step at the very end of the sweep still counts (memory beyond the last cache). */
	{
		static const uint64_t e1[] = {128ULL << 20};
		static const double l1[] = {10.0};
		n = synth(e1, l1, 1, 90.0, 0, true, sizes, ns);
		k = nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES);
		CHECK(k == 1 && st[0].size_bytes == 128ULL << 20, "step before the last point");
	}
	/* Bad input: no crash, no steps. */
	CHECK(nb_mem_infer_steps(sizes, ns, 1, st, NB_MEM_MAX_CACHES) == 0, "one point: none");
	ns[3] = 0;
	CHECK(nb_mem_infer_steps(sizes, ns, n, st, NB_MEM_MAX_CACHES) == 0, "zero latency: none");
	/* The cap holds. */
	n = synth(edges, levels, 3, 95.0, 0, false, sizes, ns);
	CHECK(nb_mem_infer_steps(sizes, ns, n, st, 2) == 2, "at most cap steps");
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_sysfs(void)
{
	char dir[] = "/tmp/nbtmem-sysfs-XXXXXX", sub[256];
	struct nb_mem_cache c[NB_MEM_MAX_CACHES];
	static const char *const idx[][4] = {
	    {"index0", "1", "Data", "32K"},
	    {"index1", "1", "Instruction", "32K"},
	    {"index2", "2", "Unified", "1024K"},
	    {"index3", "3", "Unified", "32768K"},
	};
	uint64_t v = 0;
	size_t n;

	CHECK(nb_mem_parse_cache_size("32K", &v) == 0 && v == 32768, "32K");
	CHECK(nb_mem_parse_cache_size("8M\n", &v) == 0 && v == 8 << 20, "8M with newline");
	CHECK(nb_mem_parse_cache_size("512", &v) == 0 && v == 512, "plain bytes");
	CHECK(nb_mem_parse_cache_size("K", &v) == -EINVAL, "no digits rejected");
	CHECK(nb_mem_parse_cache_size("32Q", &v) == -EINVAL, "unknown suffix rejected");
	CHECK(nb_mem_parse_cache_size("0K", &v) == -EINVAL, "zero rejected");

	if (!mkdtemp(dir)) {
		tap_skip("cannot make a temporary directory");
		return;
	}
	for (size_t i = 0; i < 4; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, idx[i][0]);
		mkdir(sub, 0755);
		put(sub, "level", idx[i][1]);
		put(sub, "type", idx[i][2]);
		put(sub, "size", idx[i][3]);
		put(sub, "coherency_line_size", "64\n");
		put(sub, "shared_cpu_list", "0-1\n");
	}
	snprintf(sub, sizeof(sub), "%s/uevent", dir);
	put(dir, "uevent", "");
	n = nb_mem_sysfs_caches(dir, c, NB_MEM_MAX_CACHES);
	CHECK(n == 4 && c[0].level == 1 && !strcmp(c[0].type, "Data") && c[0].size_bytes == 32768 &&
		  c[0].line_bytes == 64 && !strcmp(c[0].shared_cpus, "0-1"),
	      "sysfs: L1d read first (%zu caches)", n);
	CHECK(n == 4 && c[3].level == 3 && c[3].size_bytes == 32ULL << 20, "sysfs: L3 32M last");
	CHECK(nb_mem_llc_bytes(c, n) == 32ULL << 20, "last-level cache is L3");
	CHECK(nb_mem_llc_bytes(c, 2) == 32768, "without L2/L3 the LLC is L1d, not L1i");
	CHECK(nb_mem_sysfs_caches("/nonexistent/nbtmem", c, NB_MEM_MAX_CACHES) == 0,
	      "missing sysfs: no caches");
	for (size_t i = 0; i < 4; i++) {
		static const char *const files[] = {"level", "type", "size", "coherency_line_size",
						    "shared_cpu_list"};
		for (size_t f = 0; f < 5; f++) {
			snprintf(sub, sizeof(sub), "%s/%s/%s", dir, idx[i][0], files[f]);
			unlink(sub);
		}
		snprintf(sub, sizeof(sub), "%s/%s", dir, idx[i][0]);
		rmdir(sub);
	}
	snprintf(sub, sizeof(sub), "%s/uevent", dir);
	unlink(sub);
	rmdir(dir);
}

static void test_misc(void)
{
	enum nb_mem_pattern p = NB_MEM_SEQ;
	double v[] = {5, 1, 3, 2};

	CHECK(nb_mem_parse_meminfo("MemTotal: 100 kB\nMemFree: 10 kB\nMemAvailable: 50 kB\n") ==
		  50 * 1024,
	      "meminfo: MemAvailable preferred");
	CHECK(nb_mem_parse_meminfo("MemTotal: 100 kB\nMemFree: 10 kB\n") == 10 * 1024,
	      "meminfo: MemFree on kernels before 3.14");
	CHECK(nb_mem_parse_meminfo("garbage") == 0, "meminfo: unknown is 0");
	CHECK(nb_mem_pattern_parse("random", &p) == 0 && p == NB_MEM_RANDOM, "pattern random");
	CHECK(nb_mem_pattern_parse("seq", &p) == 0 && p == NB_MEM_SEQ, "pattern seq");
	CHECK(nb_mem_pattern_parse("stride", &p) == -EINVAL, "unknown pattern rejected");
	CHECK(!strcmp(nb_mem_pattern_name(NB_MEM_SEQ), "seq"), "pattern name");
	CHECK(nb_mem_median(v, 4) == 2.5 && nb_mem_median(v, 3) == 2, "median");
}

/* The bandwidth buffer's rule, and --quick's cap: a 260 MiB L3 must not make quick mode fill
 * and copy two 1 GiB buffers. */
static void test_bw_pick(void)
{
	const uint64_t M = 1ULL << 20, big = UINT64_MAX;
	struct nb_mem_params o = {0}, q = {.quick = true}, qb = {.quick = true, .bw_bytes = 512 * M};
	const char *from = NULL;
	bool capped = true;

	CHECK(nb_mem_bw_pick(&o, 260 * M, 0, big, &from, &capped) == 1040 * M &&
		  !strcmp(from, "sysfs") && !capped,
	      "default: 4x the sysfs LLC, uncapped");
	CHECK(nb_mem_bw_pick(&q, 260 * M, 0, big, &from, &capped) == NB_MEM_BW_QUICK_CAP_BYTES &&
		  !strcmp(from, "quick cap") && !capped,
	      "quick: a 260M L3 gives the 64M cap, named as such");
	CHECK(NB_MEM_BW_QUICK_CAP_BYTES == 64 * M, "the quick cap is 64M");
	CHECK(nb_mem_bw_pick(&q, 8 * M, 0, big, &from, &capped) == 32 * M && !strcmp(from, "sysfs"),
	      "quick: an 8M L3 keeps 4x (32M, under the cap)");
	CHECK(nb_mem_bw_pick(&q, 0, 32 * M, big, &from, &capped) == 64 * M &&
		  !strcmp(from, "quick cap"),
	      "quick: a latency-curve LLC is capped too");
	CHECK(nb_mem_bw_pick(&q, 0, 0, big, &from, &capped) == NB_MEM_BW_DEFAULT_BYTES &&
		  !strcmp(from, "default"),
	      "quick: no cache known: the default");
	CHECK(nb_mem_bw_pick(&qb, 260 * M, 0, big, &from, &capped) == 512 * M &&
		  !strcmp(from, "option"),
	      "quick: --bw-size is never capped");
	CHECK(nb_mem_bw_pick(&o, 0, 16 * M, big, &from, &capped) == 64 * M &&
		  !strcmp(from, "latency curve"),
	      "default: 4x the latency curve's last step");
	CHECK(nb_mem_bw_pick(&o, 256 * 1024, 0, big, &from, &capped) == NB_MEM_BW_MIN_BYTES,
	      "at least 1M");
	CHECK(nb_mem_bw_pick(&o, 260 * M, 0, 100 * M, &from, &capped) == 100 * M && capped,
	      "memory limit caps and says so");
}

static void test_bad_opts(void)
{
	struct nb_mem_result *r = (struct nb_mem_result *)1;
	struct nb_mem_params o = {.min_bytes = 512};

	CHECK(nb_mem_run(&o, &r) == -EINVAL && r == NULL, "min below 1K rejected");
	o = (struct nb_mem_params){.min_bytes = 8192, .max_bytes = 4096};
	CHECK(nb_mem_run(&o, &r) == -EINVAL, "min above max rejected");
	o = (struct nb_mem_params){.threads = NB_MEM_MAX_THREADS + 1};
	CHECK(nb_mem_run(&o, &r) == -EINVAL, "too many threads rejected");
	o = (struct nb_mem_params){.pattern = (enum nb_mem_pattern)7};
	CHECK(nb_mem_run(&o, &r) == -EINVAL, "unknown pattern rejected");
	nb_mem_result_free(NULL);
}

/* A real probe small enough for qemu-user: L1-sized against 16 MiB. Under qemu-user the
 * guest's loads are the host's loads, so the host's caches order them the same way. */
static void test_probe(void)
{
	uint64_t big = 16ULL << 20;
	bool huge;
	void *buf = nb_mem_alloc((size_t)big, &huge);
	uint32_t *idx = malloc((size_t)(big / 64) * sizeof(*idx));
	struct nb_mem_lat_point small_pt, big_pt;

	if (!buf || !idx) {
		tap_skip("no memory for the probe");
		goto out;
	}
	CHECK(nb_mem_latency_point(buf, idx, 4096, 64, NB_MEM_RANDOM, 2000000, 3, &small_pt, NULL) == 0,
	      "4 KiB probe runs");
	CHECK(nb_mem_latency_point(buf, idx, big, 64, NB_MEM_RANDOM, 2000000, 3, &big_pt, NULL) == 0,
	      "16 MiB probe runs");
	CHECK(small_pt.ns_per_load > 0 && small_pt.ns_per_load <= small_pt.ns_per_load_median,
	      "best is no slower than the median (%.2f <= %.2f ns)", small_pt.ns_per_load,
	      small_pt.ns_per_load_median);
	CHECK(small_pt.ns_per_load < big_pt.ns_per_load,
	      "4 KiB set is faster than 16 MiB (%.2f < %.2f ns/load)", small_pt.ns_per_load,
	      big_pt.ns_per_load);
out:
	free(buf);
	free(idx);
}

/* The whole probe, small: every piece wired together, the JSON complete. */
static void test_run(void)
{
	struct nb_mem_params o = {.max_bytes = 64 << 10,
				.quick = true,
				.threads = 2,
				.bw_bytes = 1 << 20,
				.cpu_mhz = 1000};
	struct nb_mem_result *r = NULL;
	char *text = NULL;
	size_t len = 0, open_braces = 0, close_braces = 0;

	CHECK(nb_mem_run(&o, &r) == 0 && r, "a small run succeeds");
	if (!r)
		return;
	CHECK(r->n_lat == 7 && r->lat[0].set_bytes == 1024 && r->lat[6].set_bytes == 64 << 10,
	      "7 quick points from 1K to 64K (%zu)", r->n_lat);
	CHECK(fabs(r->lat[0].cycles_per_load - r->lat[0].ns_per_load) < 1e-9,
	      "cycles at 1000 MHz equal ns");
	CHECK(r->n_bw == 2 && r->bw[0].threads == 1 && r->bw[1].threads == 2,
	      "bandwidth with 1 and 2 threads");
	CHECK(r->n_bw == 2 && r->bw[0].read_mbyte_per_s > 0 && r->bw[1].copy_mbyte_per_s > 0 &&
		  r->bw[0].write_mbyte_per_s > 0,
	      "bandwidth figures positive");
	CHECK(r->bw_bytes == 1 << 20 && !strcmp(r->bw_bytes_from, "option"), "--bw-size honoured");
	if (nb_mem_result_json_text(r, &text, &len) == 0) {
		for (size_t i = 0; i < len; i++) {
			open_braces += text[i] == '{';
			close_braces += text[i] == '}';
		}
		CHECK(text[0] == '{' && strlen(text) == len && strstr(text, "\"points\"") &&
			  strstr(text, "\"read_mbyte_per_s\"") && strstr(text, "\"inferred\"") &&
			  open_braces == close_braces,
		      "JSON text has the sections and balances (%zu bytes)", len);
		free(text);
	} else {
		CHECK(0, "JSON text written");
	}
	nb_mem_result_free(r);
}

int main(void)
{
	test_chain();
	test_sweep();
	test_steps();
	test_sysfs();
	test_misc();
	test_bw_pick();
	test_bad_opts();
	test_probe();
	test_run();
	return tap_done();
}
