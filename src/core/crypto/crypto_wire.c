/* SPDX-License-Identifier: BSD-2-Clause */
/* Over 600 lines: the request and the whole result, each field bounded and checked on decode. */
/* Encoding of the crypto measurement for the control protocol: the request by name (so that the
 * agent validates it with the same selectors as the command line), and the result as nested
 * TLVs (u16 tag, u16 length, big-endian values; doubles as IEEE 754 bits). The decoder bounds
 * every length, requires every field, checks every value against the request and commits
 * nothing unless the whole item is good. */
#include "core/crypto/crypto_wire.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/timeutil.h"
#include "core/base/wire.h"

#define ITEM_MAX 0xffffu

/* Nested tags (inside NB_T_CRYPTO_HEAD and NB_T_CRYPTO_RESULT values). */
enum {
	T_ENGINE = 420, /* head: nested engine entry */
	T_NAME = 421,	/* engine name (head entry and cell) */
	T_OK = 422,
	T_REASON = 423,
	T_ALGO_INDEX = 430,
	T_ALGO_NAME = 431,
	T_CELL = 432,
	T_STATUS = 433,
	T_CHECK = 434,
	T_DRIVER = 435,
	T_CROSSOVER = 436,
	T_POINT = 437,
	T_CROSSOVER_VS = 438, /* index of the engine crossover compares with */
	T_DRV_NAME = 440,
	T_DRV_DRIVER = 441,
	T_DRV_MODULE = 442,
	T_DRV_PRIORITY = 443,
	T_DRV_HW = 444,
	T_DRV_MAC = 445,
	T_PT_SIZE = 450,
	T_PT_PADDED = 451,
	T_PT_VALID = 452,
	T_PT_REASON = 453,
	T_PT_OPS = 454,
	T_PT_LAT_SAMPLES = 455,
	T_PT_DOUBLE = 456, /* 456..462: point_doubles[] */
	T_PT_CPU = 463,
	T_CPU_DOUBLE = 470, /* 470..485: cpu_doubles[] */
	T_CPU_BUSIEST = 490,
	T_CPU_NCPU = 491,
	T_CPU_VALID = 492,
};

static const size_t point_doubles[] = {
    offsetof(struct nb_crypto_point, window_s),
    offsetof(struct nb_crypto_point, mbyte_per_s),
    offsetof(struct nb_crypto_point, ops_per_s),
    offsetof(struct nb_crypto_point, lat_p50_us),
    offsetof(struct nb_crypto_point, lat_p99_us),
    offsetof(struct nb_crypto_point, proc_us_per_kbyte),
    offsetof(struct nb_crypto_point, sys_us_per_kbyte),
};
#define N_PT_DOUBLES (sizeof(point_doubles) / sizeof(point_doubles[0]))

static const size_t cpu_doubles[] = {
    offsetof(struct nb_cpu_load, window_s),	 offsetof(struct nb_cpu_load, user_pct),
    offsetof(struct nb_cpu_load, nice_pct),	 offsetof(struct nb_cpu_load, system_pct),
    offsetof(struct nb_cpu_load, irq_pct),	 offsetof(struct nb_cpu_load, softirq_pct),
    offsetof(struct nb_cpu_load, iowait_pct),	 offsetof(struct nb_cpu_load, steal_pct),
    offsetof(struct nb_cpu_load, idle_pct),	 offsetof(struct nb_cpu_load, busy_pct),
    offsetof(struct nb_cpu_load, proc_user_pct), offsetof(struct nb_cpu_load, proc_sys_pct),
    offsetof(struct nb_cpu_load, proc_pct),	 offsetof(struct nb_cpu_load, busiest_cpu_pct),
    offsetof(struct nb_cpu_load, busy_cpu_s),	 offsetof(struct nb_cpu_load, proc_cpu_s),
};
#define N_CPU_DOUBLES (sizeof(cpu_doubles) / sizeof(cpu_doubles[0]))

/* --- request --- */

static int join_names(char *buf, size_t cap, const char *const *names, size_t n)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + off, cap - off, "%s%s", i ? "," : "", names[i]);
		if (w < 0 || (size_t)w >= cap - off)
			return -EMSGSIZE;
		off += (size_t)w;
	}
	return 0;
}

int nb_crypto_put_request(struct nb_msg *m, const struct nb_crypto_opts *o)
{
	const char *names[NB_CRYPTO_MAX_ALGOS > NB_CRYPTO_MAX_ENGINES ? NB_CRYPTO_MAX_ALGOS
								      : NB_CRYPTO_MAX_ENGINES];
	char list[512];
	uint8_t sizes[4 * NB_CRYPTO_MAX_SIZES];
	int ret;

	for (size_t i = 0; i < o->nalgos; i++)
		names[i] = o->algos[i]->name;
	if ((ret = join_names(list, sizeof(list), names, o->nalgos)) ||
	    (ret = nb_msg_put_str(m, NB_T_CRYPTO_ALGOS, list)))
		return ret;
	for (size_t i = 0; i < o->nengines; i++)
		names[i] = o->engines[i]->name;
	if ((ret = join_names(list, sizeof(list), names, o->nengines)) ||
	    (ret = nb_msg_put_str(m, NB_T_CRYPTO_ENGINES, list)))
		return ret;
	for (size_t i = 0; i < o->nsizes; i++)
		nb_put_be32(sizes + 4 * i, o->sizes[i]);
	if ((ret = nb_msg_put_bytes(m, NB_T_CRYPTO_SIZES, sizes, 4 * o->nsizes)) ||
	    (ret = nb_msg_put_u64(m, NB_T_CRYPTO_TIME_NS, o->time_ns)) ||
	    (ret = nb_msg_put_u64(m, NB_T_CRYPTO_WARMUP_NS, o->warmup_ns)) ||
	    (ret = nb_msg_put_u32(m, NB_T_CRYPTO_INFLIGHT, o->inflight)))
		return ret;
	return nb_msg_put_u32(m, NB_T_CRYPTO_AAD, o->aad_len);
}

int nb_crypto_get_request(const struct nb_msg *m, struct nb_crypto_opts *o, char *err,
			  size_t errlen)
{
	char list[512], bad[80];
	const uint8_t *p;
	size_t n;

	nb_crypto_opts_default(o);
	if (nb_msg_get_str(m, NB_T_CRYPTO_ALGOS, list, sizeof(list))) {
		snprintf(err, errlen, "crypto request without algorithms");
		return -EINVAL;
	}
	if (nb_crypto_select_algos(o, list, bad, sizeof(bad))) {
		snprintf(err, errlen, "crypto request: unknown algorithm '%s' (or too many)", bad);
		return -EINVAL;
	}
	if (nb_msg_get_str(m, NB_T_CRYPTO_ENGINES, list, sizeof(list))) {
		snprintf(err, errlen, "crypto request without engines");
		return -EINVAL;
	}
	if (nb_crypto_select_engines(o, list, bad, sizeof(bad))) {
		snprintf(err, errlen, "crypto request: unknown engine '%s' (or too many)", bad);
		return -EINVAL;
	}
	if (nb_msg_get_bytes(m, NB_T_CRYPTO_SIZES, &p, &n) || n == 0 || n % 4 ||
	    n / 4 > NB_CRYPTO_MAX_SIZES) {
		snprintf(err, errlen, "crypto request: sizes missing or more than %d",
			 NB_CRYPTO_MAX_SIZES);
		return -EINVAL;
	}
	o->nsizes = n / 4;
	for (size_t i = 0; i < o->nsizes; i++) {
		o->sizes[i] = nb_get_be32(p + 4 * i);
		if (o->sizes[i] < 1 || o->sizes[i] > NB_CRYPTO_MAX_SIZE) {
			snprintf(err, errlen, "crypto request: size %u out of range (1 to %u)",
				 o->sizes[i], NB_CRYPTO_MAX_SIZE);
			return -EINVAL;
		}
	}
	if (nb_msg_get_u64(m, NB_T_CRYPTO_TIME_NS, &o->time_ns) ||
	    nb_msg_get_u64(m, NB_T_CRYPTO_WARMUP_NS, &o->warmup_ns) ||
	    nb_msg_get_u32(m, NB_T_CRYPTO_INFLIGHT, &o->inflight) ||
	    nb_msg_get_u32(m, NB_T_CRYPTO_AAD, &o->aad_len)) {
		snprintf(err, errlen, "crypto request without time, warm-up, inflight or aad");
		return -EINVAL;
	}
	/* The command line's bounds: 10 ms to 60 s windows, warm-up at most the window. */
	if (o->time_ns < 10 * NB_NS_PER_MS || o->time_ns > 60 * NB_NS_PER_S ||
	    o->warmup_ns > o->time_ns || o->inflight < 1 || o->inflight > NB_CRYPTO_MAX_INFLIGHT ||
	    o->aad_len > NB_CRYPTO_MAX_AAD) {
		snprintf(err, errlen,
			 "crypto request out of range (time %.3f s, warm-up %.3f s, inflight %u, "
			 "aad %u)",
			 (double)o->time_ns / 1e9, (double)o->warmup_ns / 1e9, o->inflight,
			 o->aad_len);
		return -EINVAL;
	}
	return 0;
}

uint64_t nb_crypto_bound_ns(const struct nb_crypto_opts *o)
{
	/* Per point: warm-up, window, a thread and a session per request in flight. Per cell:
	 * the known answer and the comparison at every size, budgeted at 1 us per byte (a slow
	 * board's reference C code and engine together), plus a second. A fixed 5 s for the
	 * probes. Generous on purpose: the agent drops a session that outlives it. */
	uint64_t point_ns = o->warmup_ns + o->time_ns + 100 * NB_NS_PER_MS +
			    (uint64_t)o->inflight * 2 * NB_NS_PER_MS;
	uint64_t bytes = 0;
	for (size_t i = 0; i < o->nsizes; i++)
		bytes += o->sizes[i];
	uint64_t cell_ns = (uint64_t)o->nsizes * point_ns + NB_NS_PER_S + bytes * 1000;
	return 5 * NB_NS_PER_S + (uint64_t)(o->nalgos * o->nengines) * cell_ns;
}

/* --- writer: a fixed 64 KB buffer; nested items are opened and closed --- */

struct wbuf {
	uint8_t *p;
	size_t len;
	int err;
};

static void w_item(struct wbuf *w, uint16_t tag, const void *v, size_t n)
{
	if (w->err)
		return;
	if (n > ITEM_MAX || w->len + 4 + n > ITEM_MAX) {
		w->err = -EMSGSIZE;
		return;
	}
	nb_put_be16(w->p + w->len, tag);
	nb_put_be16(w->p + w->len + 2, (uint16_t)n);
	if (n)
		memcpy(w->p + w->len + 4, v, n);
	w->len += 4 + n;
}

static void w_u32(struct wbuf *w, uint16_t tag, uint32_t v)
{
	uint8_t b[4];
	nb_put_be32(b, v);
	w_item(w, tag, b, 4);
}

static void w_u64(struct wbuf *w, uint16_t tag, uint64_t v)
{
	uint8_t b[8];
	nb_put_be64(b, v);
	w_item(w, tag, b, 8);
}

static void w_dbl(struct wbuf *w, uint16_t tag, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, 8); /* binary64 on every target; only the byte order is fixed here */
	w_u64(w, tag, bits);
}

static void w_str(struct wbuf *w, uint16_t tag, const char *s)
{
	w_item(w, tag, s, strlen(s));
}

/* Opens a nested item; returns its offset for w_close. */
static size_t w_open(struct wbuf *w, uint16_t tag)
{
	size_t at = w->len;
	w_item(w, tag, NULL, 0);
	return at;
}

static void w_close(struct wbuf *w, size_t at)
{
	if (!w->err)
		nb_put_be16(w->p + at + 2, (uint16_t)(w->len - at - 4));
}

static int w_init(struct wbuf *w)
{
	w->len = 0;
	w->err = 0;
	w->p = malloc(ITEM_MAX);
	return w->p ? 0 : -ENOMEM;
}

static int w_finish(struct wbuf *w, uint8_t **buf, size_t *len)
{
	if (w->err) {
		free(w->p);
		return w->err;
	}
	uint8_t *shrunk = realloc(w->p, w->len ? w->len : 1);
	*buf = shrunk ? shrunk : w->p;
	*len = w->len;
	return 0;
}

/* --- reader --- */

struct rbuf {
	const uint8_t *p;
	size_t n, off;
};

/* 1 with an item, 0 at the end, -EBADMSG when an item overruns the buffer. */
static int r_next(struct rbuf *r, uint16_t *tag, struct rbuf *val)
{
	if (r->off == r->n)
		return 0;
	if (r->n - r->off < 4)
		return -EBADMSG;
	size_t len = nb_get_be16(r->p + r->off + 2);
	if (r->n - r->off - 4 < len)
		return -EBADMSG;
	*tag = nb_get_be16(r->p + r->off);
	*val = (struct rbuf){r->p + r->off + 4, len, 0};
	r->off += 4 + len;
	return 1;
}

static int r_u32(const struct rbuf *v, uint32_t *out)
{
	if (v->n != 4)
		return -EBADMSG;
	*out = nb_get_be32(v->p);
	return 0;
}

static int r_i32(const struct rbuf *v, int *out, int lo, int hi)
{
	uint32_t u;
	if (r_u32(v, &u))
		return -EBADMSG;
	int32_t s = (int32_t)u;
	if (s < lo || s > hi)
		return -EBADMSG;
	*out = s;
	return 0;
}

static int r_u64(const struct rbuf *v, uint64_t *out)
{
	if (v->n != 8)
		return -EBADMSG;
	*out = nb_get_be64(v->p);
	return 0;
}

static int r_dbl(const struct rbuf *v, double *out)
{
	uint64_t bits;
	if (r_u64(v, &bits))
		return -EBADMSG;
	memcpy(out, &bits, 8);
	return 0;
}

static int r_bool(const struct rbuf *v, bool *out)
{
	uint32_t u;
	if (r_u32(v, &u) || u > 1)
		return -EBADMSG;
	*out = u;
	return 0;
}

static int r_str(const struct rbuf *v, char *buf, size_t cap)
{
	if (v->n >= cap || memchr(v->p, '\0', v->n))
		return -EBADMSG;
	memcpy(buf, v->p, v->n);
	buf[v->n] = '\0';
	return 0;
}

/* Required fields are counted in a bit mask; a field seen twice is garbage, and so is a tag the
 * decoder does not know (both ends speak the same protocol version, checked at HELLO). */
static int seen(uint64_t *mask, unsigned bit)
{
	if (*mask & (1ull << bit))
		return -EBADMSG;
	*mask |= 1ull << bit;
	return 0;
}

/* --- head --- */

int nb_crypto_head_encode(const struct nb_crypto_result *r, uint8_t **buf, size_t *len)
{
	struct wbuf w;
	int ret = w_init(&w);
	if (ret)
		return ret;
	for (size_t ei = 0; ei < r->opts.nengines; ei++) {
		size_t at = w_open(&w, T_ENGINE);
		w_str(&w, T_NAME, r->opts.engines[ei]->name);
		w_u32(&w, T_OK, r->engine_ok[ei]);
		w_str(&w, T_REASON, r->engine_reason[ei]);
		w_close(&w, at);
	}
	return w_finish(&w, buf, len);
}

int nb_crypto_head_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n)
{
	bool ok[NB_CRYPTO_MAX_ENGINES];
	char reason[NB_CRYPTO_MAX_ENGINES][sizeof(r->engine_reason[0])];
	struct rbuf top = {p, n, 0}, e, v;
	size_t count = 0;
	uint16_t tag;
	int rc;

	while ((rc = r_next(&top, &tag, &e)) == 1) {
		char name[80];
		uint64_t mask = 0;
		if (tag != T_ENGINE || count >= r->opts.nengines)
			return -EBADMSG;
		while ((rc = r_next(&e, &tag, &v)) == 1) {
			if (tag == T_NAME)
				rc = seen(&mask, 0) || r_str(&v, name, sizeof(name)) ? -EBADMSG : 0;
			else if (tag == T_OK)
				rc = seen(&mask, 1) || r_bool(&v, &ok[count]) ? -EBADMSG : 0;
			else if (tag == T_REASON)
				rc = seen(&mask, 2) || r_str(&v, reason[count], sizeof(reason[0]))
					 ? -EBADMSG
					 : 0;
			if (rc)
				return -EBADMSG;
		}
		if (rc || mask != 7 || strcmp(name, r->opts.engines[count]->name))
			return -EBADMSG;
		count++;
	}
	if (rc || count != r->opts.nengines)
		return -EBADMSG;
	for (size_t ei = 0; ei < count; ei++) {
		r->engine_ok[ei] = ok[ei];
		memcpy(r->engine_reason[ei], reason[ei], sizeof(reason[ei]));
	}
	return 0;
}

/* --- one algorithm's cells --- */

static void put_cpu(struct wbuf *w, const struct nb_cpu_load *l)
{
	size_t at = w_open(w, T_PT_CPU);
	for (size_t i = 0; i < N_CPU_DOUBLES; i++)
		w_dbl(w, (uint16_t)(T_CPU_DOUBLE + i),
		      *(const double *)((const char *)l + cpu_doubles[i]));
	w_u32(w, T_CPU_BUSIEST, (uint32_t)l->busiest_cpu);
	w_u32(w, T_CPU_NCPU, l->ncpu);
	w_u32(w, T_CPU_VALID, l->valid);
	w_close(w, at);
}

static void put_point(struct wbuf *w, const struct nb_crypto_point *pt)
{
	size_t at = w_open(w, T_POINT);
	w_u32(w, T_PT_SIZE, pt->size_bytes);
	w_u32(w, T_PT_PADDED, pt->padded_bytes);
	w_u32(w, T_PT_VALID, pt->valid);
	w_str(w, T_PT_REASON, pt->invalid_reason);
	w_u64(w, T_PT_OPS, pt->ops);
	w_u64(w, T_PT_LAT_SAMPLES, pt->lat_samples);
	for (size_t i = 0; i < N_PT_DOUBLES; i++)
		w_dbl(w, (uint16_t)(T_PT_DOUBLE + i),
		      *(const double *)((const char *)pt + point_doubles[i]));
	put_cpu(w, &pt->cpu);
	w_close(w, at);
}

static void put_cell(struct wbuf *w, const struct nb_crypto_result *r,
		     const struct nb_crypto_cell *c)
{
	size_t at = w_open(w, T_CELL);
	w_str(w, T_NAME, c->engine->name);
	w_u32(w, T_STATUS, (uint32_t)c->status);
	w_str(w, T_REASON, c->reason);
	w_str(w, T_CHECK, c->check);
	w_u32(w, T_CROSSOVER, (uint32_t)c->crossover_index);
	for (size_t ei = 0; ei < r->opts.nengines; ei++)
		if (c->crossover_ref == r->opts.engines[ei])
			w_u32(w, T_CROSSOVER_VS, (uint32_t)ei);
	if (c->have_driver) {
		size_t d = w_open(w, T_DRIVER);
		w_str(w, T_DRV_NAME, c->driver.name);
		w_str(w, T_DRV_DRIVER, c->driver.driver);
		w_str(w, T_DRV_MODULE, c->driver.module);
		w_u32(w, T_DRV_PRIORITY, (uint32_t)c->driver.priority);
		w_u32(w, T_DRV_HW, (uint32_t)c->driver.hw);
		w_str(w, T_DRV_MAC, c->driver.mac_driver);
		w_close(w, d);
	}
	/* Only a measured cell has points worth sending; the others' are "not run". */
	if (c->status == NB_CRYPTO_OK)
		for (size_t si = 0; si < r->opts.nsizes; si++)
			put_point(w, &c->points[si]);
	w_close(w, at);
}

int nb_crypto_algo_encode(const struct nb_crypto_result *r, size_t algo, uint8_t **buf, size_t *len)
{
	struct wbuf w;
	int ret;

	if (algo >= r->opts.nalgos)
		return -EINVAL;
	if ((ret = w_init(&w)))
		return ret;
	w_u32(&w, T_ALGO_INDEX, (uint32_t)algo);
	w_str(&w, T_ALGO_NAME, r->opts.algos[algo]->name);
	for (size_t ei = 0; ei < r->opts.nengines; ei++)
		put_cell(&w, r, nb_crypto_cell_at(r, algo, ei));
	return w_finish(&w, buf, len);
}

static int get_cpu(struct rbuf *top, struct nb_cpu_load *l)
{
	struct rbuf v;
	uint64_t mask = 0;
	uint16_t tag;
	int rc;

	memset(l, 0, sizeof(*l));
	while ((rc = r_next(top, &tag, &v)) == 1) {
		if (tag >= T_CPU_DOUBLE && tag < T_CPU_DOUBLE + N_CPU_DOUBLES) {
			size_t i = tag - T_CPU_DOUBLE;
			rc = seen(&mask, (unsigned)i) ||
			     r_dbl(&v, (double *)((char *)l + cpu_doubles[i]));
		} else if (tag == T_CPU_BUSIEST) {
			rc = seen(&mask, 20) || r_i32(&v, &l->busiest_cpu, -1, NB_CPU_MAX * 64);
		} else if (tag == T_CPU_NCPU) {
			rc = seen(&mask, 21) || r_u32(&v, &l->ncpu);
		} else if (tag == T_CPU_VALID) {
			rc = seen(&mask, 22) || r_bool(&v, &l->valid);
		}
		if (rc)
			return -EBADMSG;
	}
	uint64_t want = ((1ull << N_CPU_DOUBLES) - 1) | (7ull << 20);
	return rc || mask != want ? -EBADMSG : 0;
}

static int get_point(struct rbuf *top, struct nb_crypto_point *pt, uint32_t size, uint32_t padded)
{
	struct rbuf v;
	uint64_t mask = 0;
	uint16_t tag;
	int rc;

	memset(pt, 0, sizeof(*pt));
	while ((rc = r_next(top, &tag, &v)) == 1) {
		if (tag >= T_PT_DOUBLE && tag < T_PT_DOUBLE + N_PT_DOUBLES) {
			size_t i = tag - T_PT_DOUBLE;
			rc = seen(&mask, (unsigned)i) ||
			     r_dbl(&v, (double *)((char *)pt + point_doubles[i]));
		} else if (tag == T_PT_SIZE) {
			rc =
			    seen(&mask, 10) || r_u32(&v, &pt->size_bytes) || pt->size_bytes != size;
		} else if (tag == T_PT_PADDED) {
			rc = seen(&mask, 11) || r_u32(&v, &pt->padded_bytes) ||
			     pt->padded_bytes != padded;
		} else if (tag == T_PT_VALID) {
			rc = seen(&mask, 12) || r_bool(&v, &pt->valid);
		} else if (tag == T_PT_REASON) {
			rc = seen(&mask, 13) ||
			     r_str(&v, pt->invalid_reason, sizeof(pt->invalid_reason));
		} else if (tag == T_PT_OPS) {
			rc = seen(&mask, 14) || r_u64(&v, &pt->ops);
		} else if (tag == T_PT_LAT_SAMPLES) {
			rc = seen(&mask, 15) || r_u64(&v, &pt->lat_samples);
		} else if (tag == T_PT_CPU) {
			rc = seen(&mask, 16) || get_cpu(&v, &pt->cpu);
		}
		if (rc)
			return -EBADMSG;
	}
	if (rc || mask != (((1ull << N_PT_DOUBLES) - 1) | (0x7full << 10)))
		return -EBADMSG;
	/* A valid point is a rate from counted requests in a window; an invalid one says why. */
	if (pt->valid ? !(pt->ops > 0 && pt->window_s > 0 && isfinite(pt->mbyte_per_s))
		      : !pt->invalid_reason[0])
		return -EBADMSG;
	return 0;
}

static int get_driver(struct rbuf *top, struct nb_crypto_driver *d)
{
	struct rbuf v;
	uint64_t mask = 0;
	uint16_t tag;
	int rc;

	memset(d, 0, sizeof(*d));
	while ((rc = r_next(top, &tag, &v)) == 1) {
		if (tag == T_DRV_NAME)
			rc = seen(&mask, 0) || r_str(&v, d->name, sizeof(d->name));
		else if (tag == T_DRV_DRIVER)
			rc = seen(&mask, 1) || r_str(&v, d->driver, sizeof(d->driver));
		else if (tag == T_DRV_MODULE)
			rc = seen(&mask, 2) || r_str(&v, d->module, sizeof(d->module));
		else if (tag == T_DRV_PRIORITY)
			rc = seen(&mask, 3) || r_i32(&v, &d->priority, -1, 1 << 30);
		else if (tag == T_DRV_HW)
			rc = seen(&mask, 4) || r_i32(&v, &d->hw, -1, 1);
		else if (tag == T_DRV_MAC)
			rc = seen(&mask, 5) || r_str(&v, d->mac_driver, sizeof(d->mac_driver));
		if (rc)
			return -EBADMSG;
	}
	return rc || mask != 0x3f ? -EBADMSG : 0;
}

static int get_cell(struct rbuf *top, const struct nb_crypto_result *r, size_t ai, size_t ei,
		    struct nb_crypto_cell *c)
{
	const struct nb_crypto_opts *o = &r->opts;
	struct rbuf v;
	char name[80] = "";
	uint64_t mask = 0;
	size_t npoints = 0;
	uint32_t status = 0;
	uint16_t tag;
	int rc;

	*c = *nb_crypto_cell_at(r, ai, ei); /* pointers and the "not run" points */
	c->have_driver = false;
	c->crossover_ref = NULL;
	while ((rc = r_next(top, &tag, &v)) == 1) {
		if (tag == T_NAME) {
			rc = seen(&mask, 0) || r_str(&v, name, sizeof(name));
		} else if (tag == T_STATUS) {
			rc = seen(&mask, 1) || r_u32(&v, &status) || status > NB_CRYPTO_FAILED;
		} else if (tag == T_REASON) {
			rc = seen(&mask, 2) || r_str(&v, c->reason, sizeof(c->reason));
		} else if (tag == T_CHECK) {
			rc = seen(&mask, 3) || r_str(&v, c->check, sizeof(c->check));
		} else if (tag == T_CROSSOVER) {
			rc = seen(&mask, 4) ||
			     r_i32(&v, &c->crossover_index, -2, (int)o->nsizes - 1);
		} else if (tag == T_CROSSOVER_VS) {
			uint32_t vs;
			rc = seen(&mask, 6) || r_u32(&v, &vs) || vs >= o->nengines;
			if (!rc)
				c->crossover_ref = o->engines[vs];
		} else if (tag == T_DRIVER) {
			rc = seen(&mask, 5) || get_driver(&v, &c->driver);
			c->have_driver = true;
		} else if (tag == T_POINT) {
			rc = npoints >= o->nsizes ||
			     get_point(&v, &c->points[npoints], o->sizes[npoints],
				       nb_crypto_padded_len(o->algos[ai], o->sizes[npoints]));
			npoints++;
		}
		if (rc)
			return -EBADMSG;
	}
	if (rc || (mask & 0x1f) != 0x1f || strcmp(name, c->engine->name))
		return -EBADMSG;
	c->status = (enum nb_crypto_status)status;
	return npoints == (c->status == NB_CRYPTO_OK ? o->nsizes : 0) ? 0 : -EBADMSG;
}

int nb_crypto_algo_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n, size_t *algo)
{
	const struct nb_crypto_opts *o = &r->opts;
	struct nb_crypto_cell *cells = calloc(o->nengines ? o->nengines : 1, sizeof(*cells));
	struct rbuf top = {p, n, 0}, v;
	char name[80] = "";
	uint32_t ai = UINT32_MAX;
	uint64_t mask = 0;
	size_t ncells = 0;
	uint16_t tag;
	int rc, ret = -ENOMEM;

	if (!cells)
		return ret;
	ret = -EBADMSG;
	while ((rc = r_next(&top, &tag, &v)) == 1) {
		if (tag == T_ALGO_INDEX) {
			/* Before any cell: a cell is checked against its algorithm's sizes. */
			rc = seen(&mask, 0) || r_u32(&v, &ai) || ai >= o->nalgos;
		} else if (tag == T_ALGO_NAME) {
			rc = seen(&mask, 1) || r_str(&v, name, sizeof(name)) || !(mask & 1) ||
			     strcmp(name, o->algos[ai]->name);
		} else if (tag == T_CELL) {
			rc = mask != 3 || ncells >= o->nengines ||
			     get_cell(&v, r, ai, ncells, &cells[ncells]);
			ncells++;
		}
		if (rc)
			goto out;
	}
	if (rc || mask != 3 || ncells != o->nengines)
		goto out;
	for (size_t ei = 0; ei < ncells; ei++)
		*nb_crypto_cell_at(r, ai, ei) = cells[ei];
	*algo = ai;
	ret = 0;
out:
	free(cells);
	return ret;
}
