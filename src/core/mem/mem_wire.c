/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem on the wire: the run's parameters and its whole result as TLV items of the control
 * protocol, on the cursor, each decoded item checked for length and range; and the bound of a
 * run, which the request states as its duration. */
#include "core/mem/mem_wire.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/timeutil.h"
#include "core/base/cursor.h"

/* Fixed record sizes on the wire. */
enum {
	LOAD_BYTES = NB_LOAD_WIRE_BYTES,
	SUMMARY_BYTES = 6 * 8 + 12 * 4 + 2 * 8,
	LAT_BYTES = 5 * 8 + 4,
	STEP_BYTES = 3 * 8,
	CACHE_TYPE_BYTES = sizeof(((struct nb_mem_cache *)0)->type),
	CACHE_SHARED_BYTES = sizeof(((struct nb_mem_cache *)0)->shared_cpus),
	SYSFS_BYTES = 4 + 8 + 4 + CACHE_TYPE_BYTES + CACHE_SHARED_BYTES,
	BW_BYTES = 3 * 4 + 6 * 8 + LOAD_BYTES,
};

/* The CPU-load record every test shares (nb_proto_encode_load), at the cursor. */
static void put_load(struct nb_cur *b, const struct nb_cpu_load *l)
{
	uint8_t *q = nb_cur_reserve(b, LOAD_BYTES);
	if (q)
		nb_proto_encode_load(q, l);
}

static void get_load(struct nb_cur *b, struct nb_cpu_load *l)
{
	const uint8_t *q = nb_cur_get_bytes(b, LOAD_BYTES);
	if (!q || nb_proto_decode_load(q, l))
		b->bad = true;
}

int nb_mem_put_params(struct nb_msg *m, const struct nb_mem_params *o)
{
	int ret = nb_msg_put_u64(m, NB_T_MEM_MIN_BYTES, o->min_bytes);
	if (!ret)
		ret = nb_msg_put_u64(m, NB_T_MEM_MAX_BYTES, o->max_bytes);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_MEM_PATTERN, (uint32_t)o->pattern);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_MEM_THREADS, o->threads);
	if (!ret)
		ret = nb_msg_put_u64(m, NB_T_MEM_BW_BYTES, o->bw_bytes);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_MEM_QUICK, o->quick);
	return ret;
}

int nb_mem_get_params(const struct nb_msg *m, struct nb_mem_params *o)
{
	uint32_t pattern, quick;

	memset(o, 0, sizeof(*o));
	if (nb_msg_get_u64(m, NB_T_MEM_MIN_BYTES, &o->min_bytes) ||
	    nb_msg_get_u64(m, NB_T_MEM_MAX_BYTES, &o->max_bytes) ||
	    nb_msg_get_u32(m, NB_T_MEM_PATTERN, &pattern) ||
	    nb_msg_get_u32(m, NB_T_MEM_THREADS, &o->threads) ||
	    nb_msg_get_u64(m, NB_T_MEM_BW_BYTES, &o->bw_bytes) ||
	    nb_msg_get_u32(m, NB_T_MEM_QUICK, &quick) || quick > 1)
		return -EBADMSG;
	/* Kept as sent (a bad value is nb_mem_params_check's to name), but within the enum's
	 * storage: an int-sized enum cannot hold every u32. */
	o->pattern = pattern > NB_MEM_SEQ ? (enum nb_mem_pattern)(NB_MEM_SEQ + 1)
					  : (enum nb_mem_pattern)pattern;
	o->quick = quick;
	return 0;
}

/* The bandwidth buffer's origin is one of a few constant strings; the decoded result points at
 * ours so that it owns no memory of its own. */
static const char *const bw_from_names[] = {"option", "sysfs", "latency curve", "default",
					    "quick cap"};

int nb_mem_put_result(struct nb_msg *m, const struct nb_mem_result *r)
{
	uint8_t b[BW_BYTES > SYSFS_BYTES ? (BW_BYTES > SUMMARY_BYTES ? BW_BYTES : SUMMARY_BYTES)
					 : SYSFS_BYTES];
	struct nb_cur w = nb_cur_writer(b, sizeof(b));
	int ret;

	nb_cur_put_u64(&w, r->opts.min_bytes);
	nb_cur_put_u64(&w, r->opts.max_bytes);
	nb_cur_put_u64(&w, r->requested_max_bytes);
	nb_cur_put_u64(&w, r->opts.bw_bytes);
	nb_cur_put_u64(&w, r->avail_bytes);
	nb_cur_put_u64(&w, r->bw_bytes);
	nb_cur_put_u32(&w, (uint32_t)r->opts.pattern);
	nb_cur_put_u32(&w, r->opts.threads);
	nb_cur_put_u32(&w, r->opts.quick);
	nb_cur_put_u32(&w, r->opts.cpu_mhz);
	nb_cur_put_u32(&w, r->capped);
	nb_cur_put_u32(&w, r->line_bytes);
	nb_cur_put_u32(&w, r->trials);
	nb_cur_put_u32(&w, r->hugepages);
	nb_cur_put_dbl(&w, r->mem_latency_ns);
	nb_cur_put_dbl(&w, r->mem_latency_cycles);
	/* The counts of the repeated items that follow: a result cut short at an item boundary
	 * is then still noticed. */
	nb_cur_put_u32(&w, (uint32_t)r->n_lat);
	nb_cur_put_u32(&w, (uint32_t)r->n_steps);
	nb_cur_put_u32(&w, (uint32_t)r->n_sysfs);
	nb_cur_put_u32(&w, (uint32_t)r->n_bw);
	ret = nb_msg_put_bytes(m, NB_T_MEM_SUMMARY, b, w.off);
	if (!ret && r->bw_bytes_from)
		ret = nb_msg_put_str(m, NB_T_MEM_BW_FROM, r->bw_bytes_from);
	for (size_t i = 0; i < r->n_lat && !ret; i++) {
		const struct nb_mem_lat_point *p = &r->lat[i];
		w = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u64(&w, p->set_bytes);
		nb_cur_put_dbl(&w, p->ns_per_load);
		nb_cur_put_dbl(&w, p->ns_per_load_median);
		nb_cur_put_dbl(&w, p->cycles_per_load);
		nb_cur_put_u64(&w, p->loads_per_trial);
		nb_cur_put_u32(&w, p->trials_preempted);
		ret = nb_msg_put_bytes(m, NB_T_MEM_LAT_POINT, b, w.off);
	}
	if (!ret) {
		w = nb_cur_writer(b, sizeof(b));
		put_load(&w, &r->lat_cpu);
		ret = nb_msg_put_bytes(m, NB_T_MEM_LAT_CPU, b, w.off);
	}
	for (size_t i = 0; i < r->n_steps && !ret; i++) {
		w = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u64(&w, r->steps[i].size_bytes);
		nb_cur_put_dbl(&w, r->steps[i].ns_below);
		nb_cur_put_dbl(&w, r->steps[i].ns_above);
		ret = nb_msg_put_bytes(m, NB_T_MEM_STEP, b, w.off);
	}
	for (size_t i = 0; i < r->n_sysfs && !ret; i++) {
		const struct nb_mem_cache *c = &r->sysfs[i];
		w = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u32(&w, c->level);
		nb_cur_put_u64(&w, c->size_bytes);
		nb_cur_put_u32(&w, c->line_bytes);
		nb_cur_put_strfield(&w, c->type, CACHE_TYPE_BYTES);
		nb_cur_put_strfield(&w, c->shared_cpus, CACHE_SHARED_BYTES);
		ret = nb_msg_put_bytes(m, NB_T_MEM_SYSFS, b, w.off);
	}
	for (size_t i = 0; i < r->n_bw && !ret; i++) {
		const struct nb_mem_bw_point *p = &r->bw[i];
		w = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u32(&w, p->threads);
		nb_cur_put_u32(&w, p->trials);
		nb_cur_put_u32(&w, p->trials_preempted);
		nb_cur_put_dbl(&w, p->read_mbyte_per_s);
		nb_cur_put_dbl(&w, p->write_mbyte_per_s);
		nb_cur_put_dbl(&w, p->copy_mbyte_per_s);
		nb_cur_put_dbl(&w, p->read_median_mbyte_per_s);
		nb_cur_put_dbl(&w, p->write_median_mbyte_per_s);
		nb_cur_put_dbl(&w, p->copy_median_mbyte_per_s);
		put_load(&w, &p->cpu);
		ret = nb_msg_put_bytes(m, NB_T_MEM_BW, b, w.off);
	}
	return ret;
}

/* The counts the summary announces. */
struct counts {
	uint32_t lat, steps, sysfs, bw;
	bool summary, lat_cpu;
};

static void get_summary(struct nb_cur *b, struct nb_mem_result *r, struct counts *c)
{
	uint32_t pattern;

	r->opts.min_bytes = nb_cur_get_u64(b);
	r->opts.max_bytes = nb_cur_get_u64(b);
	r->requested_max_bytes = nb_cur_get_u64(b);
	r->opts.bw_bytes = nb_cur_get_u64(b);
	r->avail_bytes = nb_cur_get_u64(b);
	r->bw_bytes = nb_cur_get_u64(b);
	pattern = nb_cur_get_u32(b);
	if (pattern > NB_MEM_SEQ)
		b->bad = true;
	r->opts.pattern = pattern == NB_MEM_SEQ ? NB_MEM_SEQ : NB_MEM_RANDOM;
	r->opts.threads = nb_cur_get_u32(b);
	r->opts.quick = nb_cur_get_bool(b);
	r->opts.cpu_mhz = nb_cur_get_u32(b);
	r->capped = nb_cur_get_bool(b);
	r->line_bytes = nb_cur_get_u32(b);
	r->trials = nb_cur_get_u32(b);
	r->hugepages = nb_cur_get_bool(b);
	r->mem_latency_ns = nb_cur_get_dbl(b);
	r->mem_latency_cycles = nb_cur_get_dbl(b);
	c->lat = nb_cur_get_u32(b);
	c->steps = nb_cur_get_u32(b);
	c->sysfs = nb_cur_get_u32(b);
	c->bw = nb_cur_get_u32(b);
}

/* One item into r; -EBADMSG when its length is wrong or it would overflow its array. */
static int get_item(struct nb_mem_result *r, uint16_t tag, const uint8_t *p, size_t n,
		    struct counts *cnt)
{
	struct nb_cur b = nb_cur_reader(p, n);

	switch (tag) {
	case NB_T_MEM_SUMMARY:
		if (n != SUMMARY_BYTES || cnt->summary)
			return -EBADMSG;
		get_summary(&b, r, cnt);
		cnt->summary = true;
		break;
	case NB_T_MEM_BW_FROM:
		if (r->bw_bytes_from)
			return -EBADMSG;
		r->bw_bytes_from = "unknown"; /* a newer agent's reason: shown, not guessed */
		for (size_t i = 0; i < sizeof(bw_from_names) / sizeof(bw_from_names[0]); i++)
			if (n == strlen(bw_from_names[i]) && !memcmp(p, bw_from_names[i], n))
				r->bw_bytes_from = bw_from_names[i];
		break;
	case NB_T_MEM_LAT_POINT: {
		if (n != LAT_BYTES || r->n_lat >= NB_MEM_MAX_POINTS)
			return -EBADMSG;
		struct nb_mem_lat_point *pt = &r->lat[r->n_lat];
		pt->set_bytes = nb_cur_get_u64(&b);
		pt->ns_per_load = nb_cur_get_dbl(&b);
		pt->ns_per_load_median = nb_cur_get_dbl(&b);
		pt->cycles_per_load = nb_cur_get_dbl(&b);
		pt->loads_per_trial = nb_cur_get_u64(&b);
		pt->trials_preempted = nb_cur_get_u32(&b);
		r->n_lat++;
		break;
	}
	case NB_T_MEM_LAT_CPU:
		if (n != LOAD_BYTES || cnt->lat_cpu)
			return -EBADMSG;
		get_load(&b, &r->lat_cpu);
		cnt->lat_cpu = true;
		break;
	case NB_T_MEM_STEP: {
		if (n != STEP_BYTES || r->n_steps >= NB_MEM_MAX_CACHES)
			return -EBADMSG;
		struct nb_mem_step *s = &r->steps[r->n_steps];
		s->size_bytes = nb_cur_get_u64(&b);
		s->ns_below = nb_cur_get_dbl(&b);
		s->ns_above = nb_cur_get_dbl(&b);
		r->n_steps++;
		break;
	}
	case NB_T_MEM_SYSFS: {
		if (n != SYSFS_BYTES || r->n_sysfs >= NB_MEM_MAX_CACHES)
			return -EBADMSG;
		struct nb_mem_cache *c = &r->sysfs[r->n_sysfs];
		c->level = nb_cur_get_u32(&b);
		c->size_bytes = nb_cur_get_u64(&b);
		c->line_bytes = nb_cur_get_u32(&b);
		nb_cur_get_strfield(&b, c->type, CACHE_TYPE_BYTES);
		nb_cur_get_strfield(&b, c->shared_cpus, CACHE_SHARED_BYTES);
		r->n_sysfs++;
		break;
	}
	case NB_T_MEM_BW: {
		if (n != BW_BYTES || r->n_bw >= sizeof(r->bw) / sizeof(r->bw[0]))
			return -EBADMSG;
		struct nb_mem_bw_point *pt = &r->bw[r->n_bw];
		pt->threads = nb_cur_get_u32(&b);
		pt->trials = nb_cur_get_u32(&b);
		pt->trials_preempted = nb_cur_get_u32(&b);
		pt->read_mbyte_per_s = nb_cur_get_dbl(&b);
		pt->write_mbyte_per_s = nb_cur_get_dbl(&b);
		pt->copy_mbyte_per_s = nb_cur_get_dbl(&b);
		pt->read_median_mbyte_per_s = nb_cur_get_dbl(&b);
		pt->write_median_mbyte_per_s = nb_cur_get_dbl(&b);
		pt->copy_median_mbyte_per_s = nb_cur_get_dbl(&b);
		get_load(&b, &pt->cpu);
		r->n_bw++;
		break;
	}
	default:
		return 0; /* the message's other items (CPU sample, clock) and future ones */
	}
	return b.bad ? -EBADMSG : 0;
}

int nb_mem_get_result(const struct nb_msg *m, struct nb_mem_result **out)
{
	struct nb_mem_result *r = calloc(1, sizeof(*r));
	struct counts c = {0};
	size_t off = 0;
	const uint8_t *p;
	uint16_t tag;
	size_t n;
	int ret = -ENOMEM;

	*out = NULL;
	if (!r)
		goto out;
	ret = nb_msg_validate(m);
	while (!ret && nb_msg_next(m, &off, &tag, &p, &n))
		ret = get_item(r, tag, p, n, &c);
	/* Every item is there, as many as announced; printing needs at least one latency point
	 * (memory latency is the largest set's) and sane thread counts. */
	if (!ret &&
	    (!c.summary || !c.lat_cpu || !r->bw_bytes_from || c.lat != r->n_lat ||
	     c.steps != r->n_steps || c.sysfs != r->n_sysfs || c.bw != r->n_bw || !r->n_lat))
		ret = -EBADMSG;
	for (size_t i = 0; i < r->n_bw && !ret; i++)
		if (!r->bw[i].threads || r->bw[i].threads > NB_MEM_MAX_THREADS)
			ret = -EBADMSG;
	if (!ret && (r->opts.threads > NB_MEM_MAX_THREADS || !r->trials))
		ret = -EBADMSG;
out:
	if (ret) {
		nb_mem_result_free(r);
		r = NULL;
	}
	*out = r;
	return ret;
}

uint64_t nb_mem_budget_ns(const struct nb_mem_params *o)
{
	/* The default run takes about 10 s here and the quick one 2 s; a board is slower,
	 * mostly in what grows with the sizes (laying chains, faulting and filling buffers).
	 * Time per GiB of the largest set and of the bandwidth buffer (two of them). */
	uint64_t max = o->max_bytes ? o->max_bytes : NB_MEM_DEFAULT_MAX_BYTES;
	uint64_t gib = (max + (1ULL << 30) - 1) >> 30;
	gib += (2 * o->bw_bytes + (1ULL << 30) - 1) >> 30;
	return ((o->quick ? 30 : 120) + 30 * gib) * NB_NS_PER_S;
}
