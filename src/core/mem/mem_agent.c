/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem on the agent's side and on the wire: the test kind that runs the probe in a thread
 * (the control loop stays free for marks, a second controller's "busy" and a vanished
 * controller), the TLV encoding of options and result, and the controller's driver of a run. */
#include "core/mem/mem_agent.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/agent.h"
#include "core/session/job.h"
#include "core/base/timeutil.h"
#include "core/base/cursor.h"

#define POLL_NS	      (NB_NS_PER_S / 2)
#define POLL_SLICE_NS (50 * NB_NS_PER_MS)
#define STOP_REPLY_MS 30000 /* the run has ended by then: STOP only joins a finished thread */

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

int nb_mem_put_opts(struct nb_msg *m, const struct nb_mem_opts *o)
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

int nb_mem_get_opts(const struct nb_msg *m, struct nb_mem_opts *o)
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
	/* Kept as sent (a bad value is nb_mem_opts_check's to name), but within the enum's
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

uint64_t nb_mem_budget_ns(const struct nb_mem_opts *o)
{
	/* The default run takes about 10 s here and the quick one 2 s; a board is slower,
	 * mostly in what grows with the sizes (laying chains, faulting and filling buffers).
	 * Time per GiB of the largest set and of the bandwidth buffer (two of them). */
	uint64_t max = o->max_bytes ? o->max_bytes : NB_MEM_DEFAULT_MAX_BYTES;
	uint64_t gib = (max + (1ULL << 30) - 1) >> 30;
	gib += (2 * o->bw_bytes + (1ULL << 30) - 1) >> 30;
	return ((o->quick ? 30 : 120) + 30 * gib) * NB_NS_PER_S;
}

/* The agent's test state: the run's thread and what it leaves. */
struct mem_agent {
	struct nb_mem_opts opts;
	struct nb_job job; /* the run; its cancel flag is opts.cancel */
	struct nb_mem_result *result;
};

static int mem_job(struct nb_job *job, void *arg)
{
	struct mem_agent *a = arg;
	(void)job;
	return nb_mem_run(&a->opts, &a->result);
}

static void mem_free(void *state)
{
	struct mem_agent *a = state;
	if (!a)
		return;
	/* The controller left before STOP: end the run at its next point rather than finish a
	 * measurement no one will read. */
	nb_job_destroy(&a->job);
	nb_mem_result_free(a->result);
	free(a);
}

static int mem_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
		     struct nb_msg *ack, char *err, size_t errlen)
{
	struct mem_agent *a = calloc(1, sizeof(*a));
	char why[256];
	int ret = -ENOMEM;

	if (!a)
		goto fail;
	nb_job_init(&a->job);
	ret = nb_mem_get_opts(req, &a->opts);
	if (ret) {
		snprintf(err, errlen, "malformed mem request");
		goto fail;
	}
	ret = nb_mem_opts_check(&a->opts, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "mem request out of range: %s", why);
		goto fail;
	}
	/* The agent judges the run by its own estimate, not by the duration the request
	 * claims: a run that may outlast --max-time is refused before it starts. */
	if (ctx->policy->max_time_ns && nb_mem_budget_ns(&a->opts) > ctx->policy->max_time_ns) {
		snprintf(err, errlen,
			 "refused by rule max-time: a mem run with these sizes may take %.0f s, at "
			 "most %.1f s",
			 (double)nb_mem_budget_ns(&a->opts) / 1e9,
			 (double)ctx->policy->max_time_ns / 1e9);
		ret = -EPERM;
		goto fail;
	}
	a->opts.cpu_mhz = 0; /* the agent's own clock, looked up by the run */
	a->opts.cancel = nb_job_cancel_flag(&a->job);
	*state = a;
	return 0;
fail:
	mem_free(a);
	return ret;
}

static int mem_start(void *state, char *err, size_t errlen)
{
	struct mem_agent *a = state;
	int ret = nb_job_start(&a->job, mem_job, a);
	if (ret) {
		snprintf(err, errlen, "cannot start the memory probe: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static int mem_snapshot(void *state, struct nb_msg *snap)
{
	struct mem_agent *a = state;
	return nb_msg_put_u32(snap, NB_T_MEM_DONE, nb_job_done(&a->job) ? 1 : 0);
}

static int mem_stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct mem_agent *a = state;
	int ret;

	/* The controller stops once a mark said done; an early STOP (or the agent's max-time)
	 * cancels the run, which ends at its next check, well within a second. */
	ret = nb_job_finish(&a->job);
	if (!ret && a->result && a->result->interrupted)
		ret = -ECANCELED; /* cut short by the stop: no result to send */
	if (ret) {
		snprintf(err, errlen, "the memory probe failed on the agent: %s", strerror(-ret));
		return ret;
	}
	ret = nb_mem_put_result(final, a->result);
	if (ret)
		snprintf(err, errlen, "cannot report the memory probe's result: %s",
			 strerror(-ret));
	return ret;
}

const struct nb_test_ops nb_mem_ops = {
    .type = NB_TEST_MEM,
    .name = "mem",
    .setup = mem_setup,
    .start = mem_start,
    .snapshot = mem_snapshot,
    .stop = mem_stop,
    .free = mem_free,
};

int nb_mem_run_remote(struct nb_ctl *ctl, const struct nb_mem_opts *o, volatile sig_atomic_t *stop,
		      struct nb_mem_result **out, char *err, size_t errlen)
{
	struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ), *reply = nb_msg_new(0);
	uint64_t budget_ns = nb_mem_budget_ns(o), deadline_ns;
	uint32_t done = 0, mark = 0;
	int ret = -ENOMEM;

	*out = NULL;
	if (!req || !reply) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if ((ret = nb_msg_put_u32(req, NB_T_TEST_TYPE, NB_TEST_MEM)) ||
	    (ret = nb_msg_put_u64(req, NB_T_DURATION_NS, budget_ns)) ||
	    (ret = nb_mem_put_opts(req, o))) {
		snprintf(err, errlen, "cannot build the request: %s", strerror(-ret));
		goto out;
	}
	if ((ret = nb_ctl_request(ctl, req, reply, err, errlen)) ||
	    (ret = nb_ctl_start(ctl, err, errlen)))
		goto out;
	deadline_ns = nb_mono_ns() + budget_ns;
	while (!done) {
		/* In slices, so that an interrupt is seen at once. */
		for (uint64_t t = 0; t < POLL_NS && !(stop && *stop); t += POLL_SLICE_NS)
			nb_sleep_until_ns(nb_mono_ns() + POLL_SLICE_NS);
		if (stop && *stop) {
			snprintf(err, errlen, "interrupted; the agent cancels the run");
			ret = -EINTR;
			goto out;
		}
		if ((ret = nb_ctl_mark(ctl, ++mark, reply, err, errlen)))
			goto out;
		if (nb_msg_get_u32(reply, NB_T_MEM_DONE, &done)) {
			snprintf(err, errlen, "the agent's snapshot says nothing of the run");
			ret = -EBADMSG;
			goto out;
		}
		if (!done && nb_mono_ns() > deadline_ns) {
			snprintf(err, errlen, "the run on the agent did not end within %.0f s",
				 (double)budget_ns / 1e9);
			ret = -ETIMEDOUT;
			goto out;
		}
	}
	if ((ret = nb_ctl_stop(ctl, reply, STOP_REPLY_MS, err, errlen)))
		goto out;
	ret = nb_mem_get_result(reply, out);
	if (ret)
		snprintf(err, errlen, "%s",
			 ret == -ENOMEM ? "out of memory" : "malformed result from the agent");
out:
	nb_msg_free(req);
	nb_msg_free(reply);
	return ret;
}
