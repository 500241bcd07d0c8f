/* SPDX-License-Identifier: BSD-2-Clause */
/* The crypto run: probe the engines, check every engine's answers against the reference (known
 * vectors, then soft at every size) and time the good ones. A point's rate comes from request
 * counters and CPU samples read at the window's edges; latency from a per-thread histogram. */
#include "core/crypto/crypto_run.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hist.h"
#include "core/base/timeutil.h"
#include "core/session/ctl.h"

/* xorshift64*: reproducible keys and data, so that two engines see the same input. */
static uint64_t prng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void prng_fill(uint64_t *s, uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(prng_next(s) >> 56);
}

struct keyset {
	uint8_t key[NB_CRYPTO_MAX_KEY], mac_key[NB_CRYPTO_MAX_KEY], iv[16], aad[NB_CRYPTO_MAX_AAD];
	struct nb_crypto_keys k;
};

static void keyset_make(const struct nb_crypto_algo *a, struct keyset *ks)
{
	uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)(a - nb_crypto_algos + 1);
	prng_fill(&s, ks->key, sizeof(ks->key));
	prng_fill(&s, ks->mac_key, sizeof(ks->mac_key));
	prng_fill(&s, ks->iv, sizeof(ks->iv));
	prng_fill(&s, ks->aad, sizeof(ks->aad));
	ks->k = (struct nb_crypto_keys){ks->key, ks->mac_key, a->key_len, a->mac_key_len};
}

const char *nb_crypto_status_name(enum nb_crypto_status s)
{
	switch (s) {
	case NB_CRYPTO_OK:
		return "ok";
	case NB_CRYPTO_UNAVAILABLE:
		return "unavailable";
	case NB_CRYPTO_UNSUPPORTED:
		return "unsupported";
	case NB_CRYPTO_BROKEN:
		return "broken";
	case NB_CRYPTO_FAILED:
		break;
	}
	return "failed";
}

struct nb_crypto_result *nb_crypto_result_new(const struct nb_crypto_params *o)
{
	struct nb_crypto_result *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	nb_crypto_params_copy(&r->opts, o);
	r->ncells = o->nalgos * o->nengines;
	r->cells = calloc(r->ncells ? r->ncells : 1, sizeof(*r->cells));
	if (NB_CRYPTO_PROFILE && o->profile_hz)
		r->prof = calloc(r->ncells * NB_CRYPTO_MAX_SIZES + 1, sizeof(*r->prof));
	if (!r->cells || (NB_CRYPTO_PROFILE && o->profile_hz && !r->prof)) {
		free(r->cells);
		free(r->prof);
		free(r);
		return NULL;
	}
	for (size_t ai = 0; ai < o->nalgos; ai++)
		for (size_t ei = 0; ei < o->nengines; ei++) {
			struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
			c->algo = o->algos[ai];
			c->engine = r->opts.engines[ei];
			c->status = NB_CRYPTO_FAILED;
			snprintf(c->reason, sizeof(c->reason), NB_CRYPTO_NOT_RUN);
			c->crossover_index = -2;
			c->driver.priority = -1;
			c->driver.hw = -1;
			for (size_t si = 0; si < o->nsizes; si++) {
				c->points[si].size_bytes = o->sizes[si];
				c->points[si].padded_bytes =
				    nb_crypto_padded_len(c->algo, o->sizes[si]);
				c->points[si].mbyte_ci95 = NAN;
				snprintf(c->points[si].invalid_reason,
					 sizeof(c->points[si].invalid_reason), NB_CRYPTO_NOT_RUN);
			}
		}
	return r;
}

void nb_crypto_result_free(struct nb_crypto_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; NB_CRYPTO_PROFILE && r->prof && i < r->ncells * NB_CRYPTO_MAX_SIZES; i++)
		free(r->prof[i]);
	free(r->prof);
	free(r->cells);
	nb_ctl_free(r->ctl);
	free(r);
}

struct nb_crypto_cell *nb_crypto_cell_at(const struct nb_crypto_result *r, size_t algo,
					 size_t engine)
{
	return &r->cells[algo * r->opts.nengines + engine];
}

struct nb_prof_result *nb_crypto_point_prof(const struct nb_crypto_result *r,
					    const struct nb_crypto_cell *c, size_t si)
{
	size_t ci = (size_t)(c - r->cells);
	if (!r->prof || ci >= r->ncells || si >= NB_CRYPTO_MAX_SIZES)
		return NULL;
	return r->prof[ci * NB_CRYPTO_MAX_SIZES + si];
}

void nb_crypto_point_prof_set(struct nb_crypto_result *r, const struct nb_crypto_cell *c, size_t si,
			      struct nb_prof_result *pr)
{
	size_t ci = (size_t)(c - r->cells);
	if (!r->prof || ci >= r->ncells || si >= NB_CRYPTO_MAX_SIZES) {
		free(pr);
		return;
	}
	free(r->prof[ci * NB_CRYPTO_MAX_SIZES + si]);
	r->prof[ci * NB_CRYPTO_MAX_SIZES + si] = pr;
}

void nb_crypto_prof_summary(const struct nb_crypto_point *p, const struct nb_prof_result *pr,
			    struct nb_prof_summary *s)
{
	nb_prof_summarize(pr, 0, p->cpu.valid ? p->cpu.busy_cpu_s : NAN, p->valid ? p->ops : 0, s);
}

size_t nb_crypto_prof_drivers(const struct nb_prof_result *pr, struct nb_crypto_prof_driver *d,
			      size_t max)
{
	size_t n = 0;
	if (!pr || !pr->available || !pr->func_samples)
		return 0;
	for (uint32_t i = 0; i < pr->nfunc && i < NB_PROF_FUNCS; i++) {
		const struct nb_prof_func *f = &pr->func[i];
		if (nb_prof_cat_frame(f->name, f->module) != NB_PC_CRYPTO)
			continue;
		const char *m = f->module[0] ? f->module : "built-in";
		size_t k = 0;
		while (k < n && strcmp(d[k].module, m))
			k++;
		if (k == n) {
			if (n == max)
				continue;
			memset(&d[n], 0, sizeof(d[n]));
			snprintf(d[n].module, sizeof(d[n].module), "%s", m);
			n++;
		}
		d[k].samples += f->count;
	}
	for (size_t k = 0; k < n; k++) {
		d[k].share = (double)d[k].samples / (double)pr->func_samples;
		nb_prof_wilson(d[k].samples, pr->func_samples, &d[k].lo, &d[k].hi);
	}
	for (size_t a = 1; a < n; a++) /* the most samples first */
		for (size_t b = a; b > 0 && d[b].samples > d[b - 1].samples; b--) {
			struct nb_crypto_prof_driver t = d[b];
			d[b] = d[b - 1];
			d[b - 1] = t;
		}
	return n;
}

static void set_status(struct nb_crypto_cell *c, enum nb_crypto_status s, const char *why)
{
	c->status = s;
	snprintf(c->reason, sizeof(c->reason), "%s", why);
}

/* Compares e with ref at every size for the same key, IV, AAD and data. */
static int compare_sizes(const struct nb_crypto_params *o, struct nb_crypto_cell *c,
			 const struct nb_crypto_engine *ref)
{
	const struct nb_crypto_algo *a = c->algo;
	struct keyset ks;
	void *se = NULL, *sr = NULL;
	uint8_t *in = NULL, *oe = NULL, *orf = NULL;
	char why[160] = "";
	uint64_t seed = 12345;
	int ret = -ENOMEM;

	keyset_make(a, &ks);
	in = malloc(NB_CRYPTO_MAX_SIZE);
	oe = malloc(NB_CRYPTO_MAX_SIZE + NB_CRYPTO_MAX_TAG);
	orf = malloc(NB_CRYPTO_MAX_SIZE + NB_CRYPTO_MAX_TAG);
	if (!in || !oe || !orf)
		goto out;
	ret = c->engine->session_new(c->engine, a, &ks.k, &se, why, sizeof(why));
	if (!ret)
		ret = ref->session_new(ref, a, &ks.k, &sr, why, sizeof(why));
	if (ret) {
		set_status(c, ret == -EOPNOTSUPP ? NB_CRYPTO_UNSUPPORTED : NB_CRYPTO_FAILED, why);
		goto out;
	}
	for (size_t i = 0; i < o->nsizes; i++) {
		uint32_t len = nb_crypto_padded_len(a, o->sizes[i]);
		uint32_t ol = nb_crypto_out_len(a, len);
		prng_fill(&seed, in, len);
		memset(oe, 0xa5, ol);
		memset(orf, 0x5a, ol);
		struct nb_crypto_req rq = {in, oe, len, ks.iv, ks.aad, o->aad_len};
		ret = c->engine->run(se, &rq);
		if (ret) {
			snprintf(why, sizeof(why), "request of %u bytes failed: %s", len,
				 strerror(-ret));
			set_status(c, NB_CRYPTO_FAILED, why);
			goto out;
		}
		rq.out = orf;
		ret = ref->run(sr, &rq);
		if (ret) {
			snprintf(why, sizeof(why), "%s (reference) failed at %u bytes: %s",
				 ref->name, len, strerror(-ret));
			set_status(c, NB_CRYPTO_FAILED, why);
			goto out;
		}
		for (uint32_t b = 0; b < ol; b++)
			if (oe[b] != orf[b]) {
				snprintf(why, sizeof(why),
					 "output differs from %s at %u bytes (byte %u of %u)",
					 ref->name, o->sizes[i], b, ol);
				set_status(c, NB_CRYPTO_BROKEN, why);
				ret = -EBADMSG;
				goto out;
			}
	}
	ret = 0;
out:
	if (se)
		c->engine->session_free(se);
	if (sr)
		ref->session_free(sr);
	free(in);
	free(oe);
	free(orf);
	return ret;
}

int nb_crypto_check_cell(const struct nb_crypto_params *o, struct nb_crypto_cell *c,
			 const struct nb_crypto_engine *ref)
{
	char why[200] = "";
	const struct nb_crypto_kat *v = nb_crypto_kat_find(c->algo->name);
	int ret = nb_crypto_kat_check(c->engine, c->algo, why, sizeof(why));

	if (ret) {
		set_status(c,
			   ret == -EOPNOTSUPP ? NB_CRYPTO_UNSUPPORTED
			   : ret == -EBADMSG  ? NB_CRYPTO_BROKEN
					      : NB_CRYPTO_FAILED,
			   why);
		return ret;
	}
	if (ref && ref != c->engine) {
		ret = compare_sizes(o, c, ref);
		if (ret)
			return ret;
		snprintf(c->check, sizeof(c->check), "known answer and %s at %zu sizes", ref->name,
			 o->nsizes);
	} else {
		snprintf(c->check, sizeof(c->check), "known answer (%s)", v ? v->source : "?");
	}
	c->status = NB_CRYPTO_OK;
	c->reason[0] = '\0';
	return 0;
}

/* --- timing --- */

struct ctl {
	atomic_int stop;
	atomic_int measuring;
};

/* Cache-line aligned, the counters on a line of their own: a request's counter store must not
 * bounce the line another thread reads its request from. */
struct worker {
	_Alignas(64) pthread_t th;
	bool started;
	struct ctl *ctl;
	const struct nb_crypto_engine *e;
	void *sess;
	struct nb_crypto_req req;
	uint8_t *in, *out;
	struct nb_hist *hist;
	/* Native word: lock-free on 32-bit boards; window deltas are taken modulo its range. */
	_Alignas(64) atomic_ulong ops;
	int err;
	uint64_t lat_n;
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	unsigned long n = 0;
	uint64_t calib_ns = 0;
	unsigned mask = 0; /* time every request until calibrated */

	while (!atomic_load_explicit(&w->ctl->stop, memory_order_relaxed)) {
		bool timed = (n & mask) == 0;
		uint64_t t0 = timed ? nb_mono_ns() : 0;
		int rc = w->e->run(w->sess, &w->req);
		if (rc) {
			w->err = rc;
			break;
		}
		if (timed) {
			uint64_t dt = nb_mono_ns() - t0;
			if (n < 64)
				calib_ns += dt;
			if (atomic_load_explicit(&w->ctl->measuring, memory_order_relaxed)) {
				nb_hist_add(w->hist, dt);
				w->lat_n++;
			}
		}
		n++;
		/* Requests shorter than ~2 us: time one in 16, so that two clock reads per
		 * request do not eat the throughput being measured. */
		if (n == 64)
			mask = calib_ns / 64 < 2000 ? 15 : 0;
		atomic_store_explicit(&w->ops, n, memory_order_relaxed);
	}
	return NULL;
}

static unsigned long ops_sum(struct worker *w, uint32_t n)
{
	unsigned long s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += atomic_load_explicit(&w[i].ops, memory_order_relaxed);
	return s;
}

static void point_invalid(struct nb_crypto_point *pt, const char *why)
{
	pt->valid = false;
	/* Cut to fit, said so to the compiler. */
	snprintf(pt->invalid_reason, sizeof(pt->invalid_reason), "%.*s",
		 (int)sizeof(pt->invalid_reason) - 1, why);
}

static bool stop_requested(const struct nb_crypto_params *o)
{
	return nb_cancelled(o->stop);
}

/* Sleeps until deadline in short steps, so that a stop request is seen. */
static void wait_until(const struct nb_crypto_params *o, uint64_t deadline_ns)
{
	while (!stop_requested(o)) {
		uint64_t now = nb_mono_ns();
		if (now >= deadline_ns)
			return;
		uint64_t step = deadline_ns - now;
		nb_sleep_until_ns(now + (step > 50 * NB_NS_PER_MS ? 50 * NB_NS_PER_MS : step));
	}
}

/* The request counter and the clock at the edges of the window's consecutive equal parts
 * (the CPU and the latency are the whole window's). */
struct edges {
	unsigned long ops[NB_CRYPTO_MAX_REPEAT + 1];
	uint64_t ns[NB_CRYPTO_MAX_REPEAT + 1];
	uint32_t n; /* parts */
};

static void point_init(const struct nb_crypto_algo *a, uint32_t size, struct nb_crypto_point *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->size_bytes = size;
	pt->padded_bytes = nb_crypto_padded_len(a, size);
	pt->lat_p50_us = pt->lat_p99_us = pt->mbyte_ci95 = NAN;
	pt->proc_us_per_kbyte = pt->sys_us_per_kbyte = NAN;
}

/* Each worker's buffers, request and session. Returns 0, -errno, or 1 when the engine refused
 * a session (the point is then invalid, with the engine's reason). */
static int workers_make(const struct nb_crypto_params *o, const struct nb_crypto_engine *e,
			const struct nb_crypto_algo *a, struct keyset *ks, struct ctl *ctl,
			struct worker *w, uint32_t nw, struct nb_crypto_point *pt)
{
	char why[160] = "";
	uint64_t seed = 777;

	for (uint32_t i = 0; i < nw; i++) {
		w[i].ctl = ctl;
		w[i].e = e;
		atomic_init(&w[i].ops, 0);
		w[i].hist = calloc(1, sizeof(*w[i].hist));
		size_t cap = pt->padded_bytes + NB_CRYPTO_MAX_TAG;
		/* Cache-line aligned, as a network buffer is; some engines want alignment. */
		if (!w[i].hist || posix_memalign((void **)&w[i].in, 64, cap) ||
		    posix_memalign((void **)&w[i].out, 64, cap))
			return -ENOMEM;
		prng_fill(&seed, w[i].in, pt->padded_bytes);
		w[i].req = (struct nb_crypto_req){w[i].in, w[i].out, pt->padded_bytes,
						  ks->iv,  ks->aad,  o->aad_len};
		if (e->session_new(e, a, &ks->k, &w[i].sess, why, sizeof(why))) {
			point_invalid(pt, why);
			return 1;
		}
	}
	return 0;
}

static int workers_start(struct worker *w, uint32_t nw, struct ctl *ctl)
{
	for (uint32_t i = 0; i < nw; i++) {
		int ret = -pthread_create(&w[i].th, NULL, worker_main, &w[i]);
		if (ret) {
			atomic_store(&ctl->stop, 1);
			return ret;
		}
		w[i].started = true;
	}
	return 0;
}

/* The measured window after the warm-up: its edges, the CPU load over it (pt->cpu) and the
 * kernel profile of it (in *prof_out); the workers stopped at its end. */
static int window_measure(const struct nb_crypto_params *o, struct worker *w, uint32_t nw,
			  struct ctl *ctl, struct nb_prof *prof, struct nb_prof_result **prof_out,
			  struct edges *ed, struct nb_crypto_point *pt)
{
	wait_until(o, nb_mono_ns() + o->warmup_ns);

	struct nb_cpu_sample *cs = calloc(2, sizeof(*cs)); /* large: not on the stack */
	if (!cs) {
		atomic_store(&ctl->stop, 1);
		return -ENOMEM;
	}
	/* Counters, clock and the latency switch together at each edge; the CPU sample (a read
	 * of /proc/stat, tens of microseconds) right after them. */
	ed->n = o->repeat >= 1 && o->repeat <= NB_CRYPTO_MAX_REPEAT ? o->repeat : 1;
	ed->ops[0] = ops_sum(w, nw);
	ed->ns[0] = nb_mono_ns();
	atomic_store(&ctl->measuring, 1);
	nb_cpu_sample_now(&cs[0]);
	/* The kernel profile: right after the opening CPU sample, right before the closing one
	 * (the same window as the point's CPU figures). */
	if (!NB_CRYPTO_PROFILE)
		prof = NULL;
	bool prof_on = prof && nb_prof_start(prof) == 0;
	for (uint32_t k = 1; k <= ed->n; k++) {
		wait_until(o, ed->ns[0] + o->time_ns * k / ed->n);
		ed->ops[k] = ops_sum(w, nw);
		ed->ns[k] = nb_mono_ns();
	}
	atomic_store(&ctl->measuring, 0);
	if (prof)
		nb_prof_stop(prof);
	nb_cpu_sample_now(&cs[1]);
	if (prof && prof_out && (*prof_out = malloc(sizeof(**prof_out)))) {
		if (prof_on) {
			nb_prof_result(prof, *prof_out);
			if (!o->profile_folded)
				(*prof_out)->folded_len = 0;
		} else {
			memset(*prof_out, 0, sizeof(**prof_out));
			(*prof_out)->hz = o->profile_hz;
			snprintf((*prof_out)->why, sizeof((*prof_out)->why),
				 "the profiler did not start");
		}
	}
	atomic_store(&ctl->stop, 1);
	for (uint32_t i = 0; i < nw; i++) {
		pthread_join(w[i].th, NULL);
		w[i].started = false;
	}
	nb_cpu_load(&cs[0], &cs[1], &pt->cpu);
	free(cs);
	return 0;
}

/* The point's figures from the window, or why it has none. */
static void point_figures(const struct nb_crypto_params *o, struct worker *w, uint32_t nw,
			  uint32_t size, const struct edges *ed, struct nb_crypto_point *pt)
{
	char why[160];

	pt->ops = (uint64_t)(unsigned long)(ed->ops[ed->n] - ed->ops[0]);
	pt->window_s = (double)(ed->ns[ed->n] - ed->ns[0]) / 1e9;
	uint64_t lat_n = 0;
	for (uint32_t i = 0; i < nw; i++) {
		lat_n += w[i].lat_n;
		if (w[i].err && !pt->invalid_reason[0]) {
			snprintf(why, sizeof(why), "request failed: %s", strerror(-w[i].err));
			point_invalid(pt, why);
		}
	}
	if (pt->invalid_reason[0])
		return;
	if (stop_requested(o)) {
		point_invalid(pt, NB_CRYPTO_CUT);
		return;
	}
	if (pt->ops == 0 || lat_n == 0) {
		point_invalid(pt, "no request completed inside the window (use a longer --time)");
		return;
	}
	for (uint32_t i = 1; i < nw; i++)
		nb_hist_merge(w[0].hist, w[i].hist);
	uint64_t bytes = pt->ops * size;
	pt->valid = true;
	pt->ops_per_s = (double)pt->ops / pt->window_s;
	pt->mbyte_per_s = (double)bytes / pt->window_s / 1e6;
	pt->lat_samples = lat_n;
	pt->lat_p50_us = (double)nb_hist_quantile(w[0].hist, 0.50) / 1e3;
	pt->lat_p99_us = (double)nb_hist_quantile(w[0].hist, 0.99) / 1e3;
	pt->proc_us_per_kbyte = nb_cpu_us_per_kbyte(pt->cpu.proc_cpu_s, bytes);
	pt->sys_us_per_kbyte = pt->cpu.valid ? nb_cpu_us_per_kbyte(pt->cpu.busy_cpu_s, bytes) : NAN;
	double rates[NB_CRYPTO_MAX_REPEAT];
	for (uint32_t k = 0; k < ed->n; k++) {
		double part_s = (double)(ed->ns[k + 1] - ed->ns[k]) / 1e9;
		rates[k] = part_s > 0 ? (double)(unsigned long)(ed->ops[k + 1] - ed->ops[k]) *
					    size / part_s / 1e6
				      : NAN;
	}
	pt->windows = ed->n;
	pt->mbyte_ci95 = nb_crypto_ci95(rates, ed->n);
}

static void workers_free(const struct nb_crypto_engine *e, struct ctl *ctl, struct worker *w,
			 uint32_t nw)
{
	if (!w)
		return;
	atomic_store(&ctl->stop, 1);
	for (uint32_t i = 0; i < nw; i++) {
		if (w[i].started)
			pthread_join(w[i].th, NULL);
		if (w[i].sess)
			e->session_free(w[i].sess);
		free(w[i].hist);
		free(w[i].in);
		free(w[i].out);
	}
	free(w);
}

static int time_point(const struct nb_crypto_params *o, const struct nb_crypto_engine *e,
		      const struct nb_crypto_algo *a, uint32_t size, struct nb_crypto_point *pt,
		      struct nb_prof *prof, struct nb_prof_result **prof_out)
{
	uint32_t nw = o->inflight ? o->inflight : 1;
	struct worker *w = NULL;
	struct edges ed;
	struct ctl ctl;
	struct keyset ks;
	int ret;

	point_init(a, size, pt);
	atomic_init(&ctl.stop, 0);
	atomic_init(&ctl.measuring, 0);
	keyset_make(a, &ks);
	if (posix_memalign((void **)&w, 64, nw * sizeof(*w)))
		return -ENOMEM;
	memset(w, 0, nw * sizeof(*w));
	ret = workers_make(o, e, a, &ks, &ctl, w, nw, pt);
	if (!ret)
		ret = workers_start(w, nw, &ctl);
	if (!ret)
		ret = window_measure(o, w, nw, &ctl, prof, prof_out, &ed, pt);
	if (!ret)
		point_figures(o, w, nw, size, &ed, pt);
	workers_free(e, &ctl, w, nw);
	return ret > 0 ? 0 : ret; /* a session refused: the point says why */
}

/* Student's t, two-sided 95 %, for 1 to NB_CRYPTO_MAX_REPEAT - 1 degrees of freedom: a table,
 * so that the board's agent carries no quantile code (t_crypto checks it against
 * nb_student_t95). */
static const double t95[NB_CRYPTO_MAX_REPEAT] = {NAN,	   12.70620, 4.302653, 3.182446, 2.776445,
						 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
						 2.228139, 2.200985, 2.178813, 2.160369, 2.144787,
						 2.131450, 2.119905, 2.109816, 2.100922, 2.093024};

double nb_crypto_t95(size_t dof)
{
	return dof >= 1 && dof < NB_CRYPTO_MAX_REPEAT ? t95[dof] : NAN;
}

double nb_crypto_ci95(const double *x, size_t n)
{
	double mean = 0, ss = 0;
	if (n < 2 || n > NB_CRYPTO_MAX_REPEAT)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double ci = nb_crypto_t95(n - 1) * sqrt(ss / (double)(n - 1) / (double)n);
	return isfinite(ci) ? ci : NAN;
}

static double combined_ci(const struct nb_crypto_point *p, const struct nb_crypto_point *q)
{
	return sqrt(p->mbyte_ci95 * p->mbyte_ci95 + q->mbyte_ci95 * q->mbyte_ci95);
}

bool nb_crypto_faster(const struct nb_crypto_point *p, const struct nb_crypto_point *q)
{
	double ci = combined_ci(p, q);
	return p->mbyte_per_s - q->mbyte_per_s > (isfinite(ci) ? ci : 0);
}

bool nb_crypto_differ(const struct nb_crypto_point *p, const struct nb_crypto_point *q)
{
	double ci = combined_ci(p, q);
	return p->valid && q->valid && isfinite(ci) && fabs(p->mbyte_per_s - q->mbyte_per_s) > ci;
}

int nb_crypto_crossover(const struct nb_crypto_cell *e, const struct nb_crypto_cell *ref,
			size_t nsizes)
{
	int first = -1;
	for (size_t i = nsizes; i-- > 0;) {
		const struct nb_crypto_point *p = &e->points[i], *q = &ref->points[i];
		if (!p->valid || !q->valid || !nb_crypto_faster(p, q))
			break;
		first = (int)i;
	}
	return first;
}

/* The fastest CPU implementation among the kernel drivers measured for algorithm ai (at the
 * largest size both were timed at), or NULL. */
static const struct nb_crypto_cell *best_cpu_driver(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_cell *best = NULL;
	for (size_t ei = 0; ei < r->opts.nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || !c->have_driver || c->driver.hw != 0)
			continue;
		for (size_t si = r->opts.nsizes; si-- > 0;) {
			const struct nb_crypto_point *p = &c->points[si];
			if (!p->valid)
				continue;
			if (!best || !best->points[si].valid ||
			    p->mbyte_per_s > best->points[si].mbyte_per_s)
				best = c;
			break;
		}
	}
	return best;
}

/* Each hardware driver against the best software one (the kernel's own CPU drivers, what
 * kernel IPsec would use; soft where no CPU driver was measured); the rest against soft. */
static void crossovers(struct nb_crypto_result *r, size_t ai, const struct nb_crypto_cell *soft)
{
	const struct nb_crypto_cell *cpu = best_cpu_driver(r, ai);
	if (soft && soft->status != NB_CRYPTO_OK)
		soft = NULL;
	for (size_t ei = 0; ei < r->opts.nengines; ei++) {
		struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || c == soft)
			continue;
		const struct nb_crypto_cell *ref = soft;
		if (c->have_driver && c->driver.hw == 1 && cpu)
			ref = cpu;
		if (!ref || ref == c)
			continue;
		c->crossover_ref = ref->engine;
		c->crossover_index = nb_crypto_crossover(c, ref, r->opts.nsizes);
	}
}

bool nb_crypto_point_whole(const struct nb_crypto_point *p)
{
	return p->valid || (strcmp(p->invalid_reason, NB_CRYPTO_NOT_RUN) &&
			    strcmp(p->invalid_reason, NB_CRYPTO_CUT));
}

bool nb_crypto_cell_reached(const struct nb_crypto_cell *c)
{
	return !(c->status == NB_CRYPTO_FAILED && !strcmp(c->reason, NB_CRYPTO_NOT_RUN));
}

bool nb_crypto_algo_any_whole(const struct nb_crypto_result *r, size_t algo)
{
	for (size_t ei = 0; ei < r->opts.nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, algo, ei);
		for (size_t si = 0; c->status == NB_CRYPTO_OK && si < r->opts.nsizes; si++)
			if (nb_crypto_point_whole(&c->points[si]))
				return true;
	}
	return false;
}

/* A checked cell: each size timed (its profile kept), then the kernel driver that ran it. */
static int cell_time(const struct nb_crypto_params *o, struct nb_crypto_result *r,
		     struct nb_crypto_cell *c, const struct nb_crypto_algo *a, struct nb_prof *prof)
{
	char why[200];
	int ret;

	for (size_t si = 0; si < o->nsizes && !stop_requested(o); si++) {
		struct nb_prof_result *pr = NULL;
		ret = time_point(o, c->engine, a, o->sizes[si], &c->points[si], prof, &pr);
		if (NB_CRYPTO_PROFILE)
			nb_crypto_point_prof_set(r, c, si, pr);
		if (ret)
			return ret;
	}
	if (c->engine->driver) {
		void *s = NULL;
		struct keyset ks;
		keyset_make(a, &ks);
		if (!c->engine->session_new(c->engine, a, &ks.k, &s, why, sizeof(why))) {
			c->have_driver = c->engine->driver(s, &c->driver) == 0;
			c->engine->session_free(s);
		}
	}
	return 0;
}

int nb_crypto_run(const struct nb_crypto_params *o, nb_crypto_progress_fn progress, void *arg,
		  struct nb_crypto_result **out)
{
	struct nb_crypto_result *r = nb_crypto_result_new(o);
	struct nb_prof *prof = NULL;
	char why[200];
	int ret = -ENOMEM;

	if (!r)
		goto out;
	/* One profiler for the run (the kernel's symbols are read once); a profiler that could
	 * not open still exists and gives every point "unavailable: why". */
	if (NB_CRYPTO_PROFILE && o->profile_hz) {
		ret = nb_prof_open(&prof, o->profile_hz, NB_PROF_KIB_DEFAULT, 0, why, sizeof(why));
		if (ret == -EINVAL || ret == -ENOMEM)
			goto out;
	}
	for (size_t ei = 0; ei < o->nengines; ei++) {
		why[0] = '\0';
		r->engine_ok[ei] = o->engines[ei]->probe(why, sizeof(why)) == 0;
		snprintf(r->engine_reason[ei], sizeof(r->engine_reason[ei]), "%s", why);
	}
	char soft_why[200] = "";
	bool soft_ok = nb_crypto_soft.probe(soft_why, sizeof(soft_why)) == 0;

	for (size_t ai = 0; ai < o->nalgos && !stop_requested(o); ai++) {
		const struct nb_crypto_algo *a = o->algos[ai];
		/* Soft is the reference if it runs here and gets the known answer right, whether
		 * or not it is among the engines being timed; else the built-in one. */
		const struct nb_crypto_engine *ref = NULL;
		if (soft_ok && nb_crypto_kat_check(&nb_crypto_soft, a, why, sizeof(why)) == 0)
			ref = &nb_crypto_soft;
		else if (nb_crypto_kat_check(&nb_crypto_ref, a, why, sizeof(why)) == 0)
			ref = &nb_crypto_ref; /* no OpenSSL here (agent, static build) */
		struct nb_crypto_cell *soft_cell = NULL;
		for (size_t ei = 0; ei < o->nengines; ei++)
			if (o->engines[ei] == &nb_crypto_soft)
				soft_cell = nb_crypto_cell_at(r, ai, ei);
		/* Soft first: the others' crossovers need its numbers. */
		for (size_t pass = 0; pass < 2; pass++)
			for (size_t ei = 0; ei < o->nengines && !stop_requested(o); ei++) {
				struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
				if ((c == soft_cell) != (pass == 0))
					continue;
				if (!r->engine_ok[ei]) {
					set_status(c, NB_CRYPTO_UNAVAILABLE, r->engine_reason[ei]);
				} else if (nb_crypto_check_cell(o, c, ref) == 0 &&
					   (ret = cell_time(o, r, c, a, prof))) {
					goto out;
				}
			}
		if (stop_requested(o)) {
			/* Cut: its whole points are kept; a crossover needs every size. */
			if (progress && nb_crypto_algo_any_whole(r, ai))
				progress(arg, r, ai);
			break;
		}
		crossovers(r, ai, soft_cell);
		if (progress)
			progress(arg, r, ai);
	}
	r->interrupted = stop_requested(o);
	*out = r;
	r = NULL;
	ret = 0;
out:
	nb_prof_free(prof);
	nb_crypto_result_free(r);
	return ret;
}
