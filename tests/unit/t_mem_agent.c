/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem through the agent: the options and the whole result survive the TLV round trip
 * bit for bit; truncated, duplicated, out-of-range and random input is rejected (and never
 * read out of bounds); the agent's test kind runs a small probe, refuses bad requests, and a
 * session that ends mid-run cancels the probe instead of waiting for it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/agent.h"
#include "core/mem/mem_wire.h"
#include "core/base/timeutil.h"
#include "core/base/wire.h"
#include "tap.h"

extern const struct nb_test_ops nb_mem_ops;

static void fill_load(struct nb_cpu_load *l, double base)
{
	l->window_s = base;
	l->user_pct = base + 1;
	l->nice_pct = base + 2;
	l->system_pct = base + 3;
	l->irq_pct = base + 4;
	l->softirq_pct = base + 5;
	l->iowait_pct = base + 6;
	l->steal_pct = base + 7;
	l->idle_pct = base + 8;
	l->busy_pct = base + 9;
	l->proc_user_pct = base + 10;
	l->proc_sys_pct = base + 11;
	l->proc_pct = base + 12;
	l->busiest_cpu = -1;
	l->busiest_cpu_pct = base + 13;
	l->ncpu = 3;
	l->busy_cpu_s = base + 14;
	l->proc_cpu_s = base + 15;
	l->valid = true;
}

/* A result with every field set to something distinct, NaN cycles included. */
static struct nb_mem_result *sample(void)
{
	struct nb_mem_result *r = calloc(1, sizeof(*r));

	r->opts = (struct nb_mem_params){.min_bytes = 1024,
				       .max_bytes = 3ULL << 33, /* above 2^32: 64-bit fields */
				       .pattern = NB_MEM_SEQ,
				       .threads = 7,
				       .bw_bytes = 5ULL << 20,
				       .quick = true,
				       .cpu_mhz = 1234};
	r->requested_max_bytes = 1ULL << 36;
	r->avail_bytes = 123456789012ULL;
	r->capped = true;
	r->line_bytes = 128;
	r->trials = 15;
	r->hugepages = true;
	r->n_lat = NB_MEM_MAX_POINTS;
	for (size_t i = 0; i < r->n_lat; i++)
		r->lat[i] = (struct nb_mem_lat_point){.set_bytes = 1024ULL << (i % 40),
						      .ns_per_load = 1.0 / 3 + (double)i,
						      .ns_per_load_median = 2.5e-7 * (double)i,
						      .cycles_per_load = i % 2 ? NAN : 1e300,
						      .loads_per_trial = 16ULL * i + (1ULL << 40),
						      .trials_preempted = (uint32_t)i};
	fill_load(&r->lat_cpu, 0.125);
	r->n_steps = NB_MEM_MAX_CACHES;
	for (size_t i = 0; i < r->n_steps; i++)
		r->steps[i] = (struct nb_mem_step){32768ULL << i, 1.1 * (double)i, -0.0};
	r->n_sysfs = 3;
	for (size_t i = 0; i < r->n_sysfs; i++) {
		r->sysfs[i].level = (uint32_t)i + 1;
		snprintf(r->sysfs[i].type, sizeof(r->sysfs[i].type), "%s",
			 i ? "Unified" : "Instruction");
		r->sysfs[i].size_bytes = 32768ULL << (2 * i);
		r->sysfs[i].line_bytes = 64;
		/* fills the field: 31 characters and the NUL */
		snprintf(r->sysfs[i].shared_cpus, sizeof(r->sysfs[i].shared_cpus),
			 "0-%c,100-131,200-231,300-331,400", (char)('0' + i));
	}
	r->mem_latency_ns = 98.765;
	r->mem_latency_cycles = NAN;
	r->bw_bytes = 64ULL << 20;
	r->bw_bytes_from = "latency curve";
	r->n_bw = 2;
	for (size_t i = 0; i < 2; i++) {
		r->bw[i] = (struct nb_mem_bw_point){.threads = (uint32_t)(1 + 6 * i),
						    .read_mbyte_per_s = 12345.678 + (double)i,
						    .write_mbyte_per_s = 2345.5,
						    .copy_mbyte_per_s = 345.25,
						    .read_median_mbyte_per_s = 45.125,
						    .write_median_mbyte_per_s = 5.0625,
						    .copy_median_mbyte_per_s = 0.5,
						    .trials = 10,
						    .trials_preempted = (uint32_t)(3 * i)};
		fill_load(&r->bw[i].cpu, 10.0 * (double)(i + 1));
	}
	return r;
}

static bool same_double(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a)); /* bit for bit: NaN and -0.0 included */
}

static bool same_load(const struct nb_cpu_load *a, const struct nb_cpu_load *b)
{
	return same_double(a->window_s, b->window_s) && same_double(a->user_pct, b->user_pct) &&
	       same_double(a->nice_pct, b->nice_pct) && same_double(a->system_pct, b->system_pct) &&
	       same_double(a->irq_pct, b->irq_pct) && same_double(a->softirq_pct, b->softirq_pct) &&
	       same_double(a->iowait_pct, b->iowait_pct) &&
	       same_double(a->steal_pct, b->steal_pct) && same_double(a->idle_pct, b->idle_pct) &&
	       same_double(a->busy_pct, b->busy_pct) &&
	       same_double(a->proc_user_pct, b->proc_user_pct) &&
	       same_double(a->proc_sys_pct, b->proc_sys_pct) &&
	       same_double(a->proc_pct, b->proc_pct) && a->busiest_cpu == b->busiest_cpu &&
	       same_double(a->busiest_cpu_pct, b->busiest_cpu_pct) && a->ncpu == b->ncpu &&
	       same_double(a->busy_cpu_s, b->busy_cpu_s) &&
	       same_double(a->proc_cpu_s, b->proc_cpu_s) && a->valid == b->valid;
}

static void test_round_trip(void)
{
	struct nb_mem_result *r = sample(), *d = NULL;
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	char *ja = NULL, *jb = NULL;
	size_t na = 0, nb = 0;
	bool lat_ok = true, steps_ok = true, sysfs_ok = true, bw_ok = true;

	/* What the agent's FINAL carries besides the result: ignored by the decoder. */
	nb_msg_put_u64(m, NB_T_MONO_NS, 42);
	int put = nb_mem_put_result(m, r);
	CHECK(put == 0, "a full result (96 points) fits one message: %u bytes", m->len);
	nb_msg_put_str(m, 599, "a newer agent's item");
	CHECK(nb_mem_get_result(m, &d) == 0 && d, "it decodes");
	if (!d)
		goto out;
	CHECK(d->opts.min_bytes == 1024 && d->opts.max_bytes == 3ULL << 33 &&
		  d->opts.pattern == NB_MEM_SEQ && d->opts.threads == 7 &&
		  d->opts.bw_bytes == 5ULL << 20 && d->opts.quick && d->opts.cpu_mhz == 1234 &&
		  !d->opts.stop,
	      "options as run survive");
	CHECK(d->requested_max_bytes == 1ULL << 36 && d->avail_bytes == 123456789012ULL &&
		  d->capped && d->line_bytes == 128 && d->trials == 15 && d->hugepages &&
		  d->bw_bytes == 64ULL << 20 && !strcmp(d->bw_bytes_from, "latency curve") &&
		  same_double(d->mem_latency_ns, 98.765) && isnan(d->mem_latency_cycles),
	      "summary fields survive");
	CHECK(d->n_lat == r->n_lat && d->n_steps == r->n_steps && d->n_sysfs == r->n_sysfs &&
		  d->n_bw == r->n_bw,
	      "item counts survive");
	for (size_t i = 0; i < d->n_lat; i++) {
		const struct nb_mem_lat_point *a = &r->lat[i], *b = &d->lat[i];
		lat_ok &= a->set_bytes == b->set_bytes &&
			  same_double(a->ns_per_load, b->ns_per_load) &&
			  same_double(a->ns_per_load_median, b->ns_per_load_median) &&
			  same_double(a->cycles_per_load, b->cycles_per_load) &&
			  a->loads_per_trial == b->loads_per_trial &&
			  a->trials_preempted == b->trials_preempted;
	}
	CHECK(lat_ok, "latency points survive bit for bit (NaN cycles too)");
	CHECK(same_load(&r->lat_cpu, &d->lat_cpu), "the sweep's CPU load survives");
	for (size_t i = 0; i < d->n_steps; i++)
		steps_ok &= d->steps[i].size_bytes == r->steps[i].size_bytes &&
			    same_double(d->steps[i].ns_below, r->steps[i].ns_below) &&
			    same_double(d->steps[i].ns_above, r->steps[i].ns_above);
	CHECK(steps_ok, "inferred steps survive (-0.0 too)");
	for (size_t i = 0; i < d->n_sysfs; i++)
		sysfs_ok &= d->sysfs[i].level == r->sysfs[i].level &&
			    d->sysfs[i].size_bytes == r->sysfs[i].size_bytes &&
			    d->sysfs[i].line_bytes == r->sysfs[i].line_bytes &&
			    !strcmp(d->sysfs[i].type, r->sysfs[i].type) &&
			    !strcmp(d->sysfs[i].shared_cpus, r->sysfs[i].shared_cpus);
	CHECK(sysfs_ok, "sysfs caches survive, a string filling its field included");
	for (size_t i = 0; i < d->n_bw; i++) {
		const struct nb_mem_bw_point *a = &r->bw[i], *b = &d->bw[i];
		bw_ok &= a->threads == b->threads && a->trials == b->trials &&
			 a->trials_preempted == b->trials_preempted &&
			 same_double(a->read_mbyte_per_s, b->read_mbyte_per_s) &&
			 same_double(a->write_mbyte_per_s, b->write_mbyte_per_s) &&
			 same_double(a->copy_mbyte_per_s, b->copy_mbyte_per_s) &&
			 same_double(a->read_median_mbyte_per_s, b->read_median_mbyte_per_s) &&
			 same_double(a->write_median_mbyte_per_s, b->write_median_mbyte_per_s) &&
			 same_double(a->copy_median_mbyte_per_s, b->copy_median_mbyte_per_s) &&
			 same_load(&a->cpu, &b->cpu);
	}
	CHECK(bw_ok, "bandwidth points and their CPU loads survive");
	/* The JSON the controller prints is the agent's JSON. */
	CHECK(nb_mem_result_json_text(r, &ja, &na) == 0 &&
		  nb_mem_result_json_text(d, &jb, &nb) == 0 && na == nb && !memcmp(ja, jb, na),
	      "the decoded result writes the same JSON as the original");
out:
	free(ja);
	free(jb);
	nb_mem_result_free(d);
	nb_mem_result_free(r);
	nb_msg_free(m);
}

/* Copies src into dst item by item; edit may change each item (return false to drop it). */
typedef bool (*edit_fn)(uint16_t tag, uint8_t *p, size_t *n, void *arg);

static void rebuild(const struct nb_msg *src, struct nb_msg *dst, edit_fn edit, void *arg)
{
	size_t off = 0, n;
	const uint8_t *p;
	uint16_t tag;
	uint8_t buf[1024];

	nb_msg_reset(dst, src->type);
	while (nb_msg_next(src, &off, &tag, &p, &n)) {
		memcpy(buf, p, n);
		if (edit(tag, buf, &n, arg))
			nb_msg_put_bytes(dst, tag, buf, n);
	}
}

struct target {
	uint16_t tag;
	int seen, which; /* which occurrence of the tag to edit */
	size_t at;	 /* byte offset for set_u32 */
	uint32_t value;
};

static bool cut_one(uint16_t tag, uint8_t *p, size_t *n, void *arg)
{
	struct target *t = arg;
	if (tag == t->tag && t->seen++ == t->which)
		(*n)--;
	return true;
}

static bool drop_one(uint16_t tag, uint8_t *p, size_t *n, void *arg)
{
	struct target *t = arg;
	return !(tag == t->tag && t->seen++ == t->which);
}

static bool set_u32(uint16_t tag, uint8_t *p, size_t *n, void *arg)
{
	struct target *t = arg;
	if (tag == t->tag && t->seen++ == t->which)
		nb_put_be32(p + t->at, t->value);
	return true;
}

static bool fill_type(uint16_t tag, uint8_t *p, size_t *n, void *arg)
{
	struct target *t = arg;
	if (tag == t->tag && t->seen++ == t->which)
		memset(p + 16, 'A', sizeof(((struct nb_mem_cache *)0)->type));
	return true;
}

static bool rejected(const struct nb_msg *m)
{
	struct nb_mem_result *d = (struct nb_mem_result *)1;
	int ret = nb_mem_get_result(m, &d);
	return ret == -EBADMSG && d == NULL;
}

static void test_bad_input(void)
{
	static const uint16_t tags[] = {NB_T_MEM_SUMMARY, NB_T_MEM_BW_FROM, NB_T_MEM_LAT_POINT,
					NB_T_MEM_LAT_CPU, NB_T_MEM_STEP,    NB_T_MEM_SYSFS,
					NB_T_MEM_BW};
	struct nb_mem_result *r = sample();
	struct nb_msg *good = nb_msg_new(NB_MSG_FINAL), *m = nb_msg_new(NB_MSG_FINAL);
	bool all = true;
	uint32_t len;
	uint64_t seed = 0x1234567;

	nb_mem_put_result(good, r);
	len = good->len;

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		struct target t = {.tag = tags[i], .which = tags[i] == NB_T_MEM_LAT_POINT ? 50 : 0};
		if (tags[i] != NB_T_MEM_BW_FROM) {
			rebuild(good, m, cut_one, &t);
			CHECK(rejected(m), "an item of tag %u one byte short is rejected", tags[i]);
		}
		t.seen = 0;
		rebuild(good, m, drop_one, &t);
		CHECK(rejected(m), "a missing item of tag %u is rejected", tags[i]);
	}
	/* A message cut anywhere: mid-item (not a whole TLV) or at an item boundary (fewer items
	 * than the summary announces). */
	memcpy(m, good, sizeof(*m));
	for (uint32_t cut = 0; cut < len; cut++) {
		m->len = cut;
		all &= rejected(m);
	}
	CHECK(all, "the result cut at every one of its %u bytes is rejected", len);

	memcpy(m, good, sizeof(*m));
	nb_mem_put_result(m, r);
	CHECK(rejected(m), "a result sent twice (duplicate summary) is rejected");

	struct {
		const char *what;
		uint16_t tag;
		size_t at;
		uint32_t value;
	} fields[] = {
	    {"pattern 2", NB_T_MEM_SUMMARY, 48, 2},
	    {"quick flag 2", NB_T_MEM_SUMMARY, 56, 2},
	    {"capped flag 0x100", NB_T_MEM_SUMMARY, 64, 0x100},
	    {"more latency points announced than sent", NB_T_MEM_SUMMARY, 96, 97},
	    {"fewer bandwidth points announced", NB_T_MEM_SUMMARY, 108, 1},
	    {"bandwidth with 0 threads", NB_T_MEM_BW, 0, 0},
	    {"a CPU load's valid flag 7", NB_T_MEM_LAT_CPU, 136, 7},
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct target t = {
		    .tag = fields[i].tag, .at = fields[i].at, .value = fields[i].value};
		rebuild(good, m, set_u32, &t);
		CHECK(rejected(m), "%s is rejected", fields[i].what);
	}
	{
		struct target t = {.tag = NB_T_MEM_SYSFS, .which = 1};
		rebuild(good, m, fill_type, &t);
		CHECK(rejected(m), "a cache type without its NUL is rejected");
	}

	/* 97 latency points: more than the array holds. */
	memcpy(m, good, sizeof(*m));
	{
		struct target t = {.tag = NB_T_MEM_SUMMARY, .at = 96, .value = 97};
		const uint8_t *p;
		size_t n;
		rebuild(good, m, set_u32, &t);
		nb_msg_get_bytes(good, NB_T_MEM_LAT_POINT, &p, &n);
		nb_msg_put_bytes(m, NB_T_MEM_LAT_POINT, p, n);
		CHECK(rejected(m), "97 latency points are rejected (at most %d)",
		      NB_MEM_MAX_POINTS);
	}

	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(rejected(m), "an empty message is rejected");

	/* Random bytes, and a good result with random bytes changed: never a crash or an
	 * out-of-bounds read (ASan runs this too); random payloads are rejected. */
	all = true;
	for (int k = 0; k < 2000; k++) {
		struct nb_mem_result *d = NULL;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		m->len = (uint32_t)(seed >> 40) % 4096;
		for (uint32_t i = 0; i < m->len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			m->data[i] = (uint8_t)(seed >> 56);
		}
		all &= nb_mem_get_result(m, &d) != 0;
		nb_mem_result_free(d);
	}
	CHECK(all, "2000 random payloads are rejected");
	all = true;
	for (int k = 0; k < 2000; k++) {
		struct nb_mem_result *d = NULL;
		memcpy(m, good, sizeof(*m));
		for (int e = 0; e < 4; e++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			m->data[(seed >> 33) % m->len] ^= (uint8_t)(1u << ((seed >> 20) % 8));
		}
		if (nb_mem_get_result(m, &d) == 0)
			all &= d && d->n_lat >= 1 && d->n_lat <= NB_MEM_MAX_POINTS &&
			       d->n_bw <= 2 && d->n_steps <= NB_MEM_MAX_CACHES &&
			       d->n_sysfs <= NB_MEM_MAX_CACHES;
		nb_mem_result_free(d);
	}
	CHECK(all, "2000 results with flipped bits are rejected or decode within bounds");
	nb_msg_free(good);
	nb_msg_free(m);
	nb_mem_result_free(r);
}

static void test_opts(void)
{
	struct nb_mem_params o = {.min_bytes = 4096,
				.max_bytes = 1ULL << 35,
				.pattern = NB_MEM_SEQ,
				.threads = 3,
				.bw_bytes = 2ULL << 20,
				.quick = true,
				.cpu_mhz = 999},
			   d;
	struct nb_msg *m = nb_msg_new(NB_MSG_TEST_REQ), *m2 = nb_msg_new(NB_MSG_TEST_REQ);
	char err[256] = "";

	nb_mem_put_params(m, &o);
	CHECK(nb_mem_get_params(m, &d) == 0 && d.min_bytes == 4096 && d.max_bytes == 1ULL << 35 &&
		  d.pattern == NB_MEM_SEQ && d.threads == 3 && d.bw_bytes == 2ULL << 20 &&
		  d.quick && d.cpu_mhz == 0 && !d.stop,
	      "options survive (the clock stays local)");
	{
		struct target t = {.tag = NB_T_MEM_QUICK};
		rebuild(m, m2, drop_one, &t);
		CHECK(nb_mem_get_params(m2, &d) == -EBADMSG,
		      "a request without --quick is malformed");
		t = (struct target){.tag = NB_T_MEM_QUICK, .value = 2};
		rebuild(m, m2, set_u32, &t);
		CHECK(nb_mem_get_params(m2, &d) == -EBADMSG, "quick 2 is malformed");
		t = (struct target){.tag = NB_T_MEM_PATTERN, .value = 0x80000000u};
		rebuild(m, m2, set_u32, &t);
		CHECK(nb_mem_get_params(m2, &d) == 0 &&
			  nb_mem_params_check(&d, err, sizeof(err)) == -EINVAL,
		      "pattern 2^31 decodes and the check refuses it: %s", err);
	}
	d = (struct nb_mem_params){0};
	CHECK(nb_mem_params_check(&d, err, sizeof(err)) == 0, "all defaults pass the check");
	d = (struct nb_mem_params){.min_bytes = 512ULL << 20};
	CHECK(nb_mem_params_check(&d, err, sizeof(err)) == -EINVAL && strstr(err, "the default"),
	      "--min above the default --max is refused: %s", err);
	d = (struct nb_mem_params){.max_bytes = 1ULL << 37};
	CHECK(nb_mem_params_check(&d, err, sizeof(err)) == -EINVAL, "128 GiB is refused: %s", err);
	d = (struct nb_mem_params){.threads = NB_MEM_MAX_THREADS + 1};
	CHECK(nb_mem_params_check(&d, err, sizeof(err)) == -EINVAL, "257 threads are refused: %s",
	      err);
	d = (struct nb_mem_params){.bw_bytes = 4096};
	CHECK(nb_mem_params_check(&d, err, sizeof(err)) == -EINVAL, "a 4 KiB buffer is refused: %s",
	      err);
	CHECK(nb_mem_params_check(&d, NULL, 0) == -EINVAL, "the check takes no error buffer too");

	d = (struct nb_mem_params){.quick = true};
	CHECK(nb_mem_budget_ns(&d) >= 30 * NB_NS_PER_S &&
		  nb_mem_budget_ns(&d) < nb_mem_budget_ns(&(struct nb_mem_params){0}),
	      "the quick run asks less time than the default one");
	CHECK(nb_mem_budget_ns(&(struct nb_mem_params){.max_bytes = 8ULL << 30}) <= 600 * NB_NS_PER_S,
	      "an 8 GiB sweep still fits the agent's default max-time");
	nb_msg_free(m);
	nb_msg_free(m2);
}

static void test_agent_ops(void)
{
	struct nb_agent_policy pol = {.max_time_ns = 600 * NB_NS_PER_S};
	struct nb_agent_ctx ctx = {.policy = &pol};
	struct nb_mem_params o = {.min_bytes = 1024,
				.max_bytes = 256 << 10,
				.threads = 2,
				.bw_bytes = 1 << 20,
				.quick = true};
	struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ), *ack = nb_msg_new(NB_MSG_TEST_ACK);
	struct nb_msg *snap = nb_msg_new(NB_MSG_SNAP), *fin = nb_msg_new(NB_MSG_FINAL);
	struct nb_mem_result *d = NULL;
	void *state = NULL;
	char err[512] = "";
	uint32_t done = 0;
	uint64_t t0;

	CHECK(nb_mem_ops.type == NB_TEST_MEM && !strcmp(nb_mem_ops.name, "mem"),
	      "the test kind is mem");
	nb_mem_put_params(req, &o);
	CHECK(nb_mem_ops.setup(&ctx, req, &state, ack, err, sizeof(err)) == 0 && state,
	      "setup accepts a small quick run");
	CHECK(nb_mem_ops.start(state, err, sizeof(err)) == 0, "start returns at once");
	t0 = nb_mono_ns();
	while (!done && nb_mono_ns() - t0 < 120 * NB_NS_PER_S) {
		nb_msg_reset(snap, NB_MSG_SNAP);
		if (nb_mem_ops.snapshot(state, snap) || nb_msg_get_u32(snap, NB_T_MEM_DONE, &done))
			break;
		nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
	}
	CHECK(done == 1, "a snapshot says done after %.1f s", (double)(nb_mono_ns() - t0) / 1e9);
	CHECK(nb_mem_ops.stop(state, fin, err, sizeof(err)) == 0, "stop reports the result%s%s",
	      err[0] ? ": " : "", err);
	CHECK(nb_mem_get_result(fin, &d) == 0 && d, "the agent's result decodes");
	if (d)
		CHECK(d->lat[d->n_lat - 1].set_bytes == 256 << 10 && d->n_bw == 2 &&
			  d->bw[1].threads == 2 && d->bw[0].read_mbyte_per_s > 0 &&
			  d->lat[0].ns_per_load > 0,
		      "it holds the run asked for: 1 KiB to 256 KiB, 1 and 2 threads");
	nb_mem_result_free(d);
	nb_mem_ops.free(state);

	/* Refused requests name the reason. */
	struct nb_mem_params bad = {.min_bytes = 8 << 20, .max_bytes = 4 << 20};
	nb_msg_reset(req, NB_MSG_TEST_REQ);
	nb_mem_put_params(req, &bad);
	state = NULL;
	CHECK(nb_mem_ops.setup(&ctx, req, &state, ack, err, sizeof(err)) == -EINVAL && !state &&
		  strstr(err, "larger than the largest"),
	      "setup refuses --min above --max: %s", err);
	nb_msg_reset(req, NB_MSG_TEST_REQ);
	nb_msg_put_u64(req, NB_T_MEM_MIN_BYTES, 0);
	CHECK(nb_mem_ops.setup(&ctx, req, &state, ack, err, sizeof(err)) == -EBADMSG && !state,
	      "setup refuses a request without the options: %s", err);

	/* The controller vanishes mid-run: free cancels at the next point, not after the
	 * whole (default-length) sweep. */
	o = (struct nb_mem_params){.max_bytes = 32 << 20, .bw_bytes = 8 << 20, .threads = 1};
	nb_msg_reset(req, NB_MSG_TEST_REQ);
	nb_mem_put_params(req, &o);
	state = NULL;
	if (nb_mem_ops.setup(&ctx, req, &state, ack, err, sizeof(err)) == 0 &&
	    nb_mem_ops.start(state, err, sizeof(err)) == 0) {
		nb_sleep_until_ns(nb_mono_ns() + 200 * NB_NS_PER_MS);
		t0 = nb_mono_ns();
		nb_mem_ops.free(state);
		double s = (double)(nb_mono_ns() - t0) / 1e9;
		CHECK(s < 5, "free during a run cancels it in %.2f s", s);
	} else {
		CHECK(false, "a full-length run starts: %s", err);
	}
	nb_msg_free(req);
	nb_msg_free(ack);
	nb_msg_free(snap);
	nb_msg_free(fin);
}

int main(void)
{
	test_round_trip();
	test_bad_input();
	test_opts();
	test_agent_ops();
	return tap_done();
}
