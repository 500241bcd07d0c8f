/* SPDX-License-Identifier: BSD-2-Clause */
/* Encoding of the crypto result for the control protocol (the request is crypto_request.c): nested
 * TLVs (u16 tag, u16 length, big-endian values; doubles as IEEE 754 bits) written and read with
 * the shared record cursor. Points and drivers are tables of fields; a point's CPU load is the
 * record every test shares (session/proto.h), or for a controller that does not ask for it the
 * nested TLVs of tags 470-492 that crypto used before. The decoder bounds every length, requires
 * every field, checks every value against the request and commits nothing unless the whole item
 * is good. */
#include "core/crypto/crypto_wire.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cursor.h"
#include "core/base/escape.h"

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
	T_PT_DOUBLE = 456,  /* 456..462: point_doubles[] */
	T_PT_CPU = 463,	    /* the CPU load as nested TLVs (T_CPU_*), NB_CRYPTO_LOAD_TLV */
	T_PT_LOAD = 464,    /* the CPU load as the shared record, NB_CRYPTO_LOAD_RECORD */
	T_PT_WINDOWS = 465, /* u32, NB_CRYPTO_LOAD_RECORD_WINDOWS only */
	T_PT_CI95 = 466,    /* double, NB_CRYPTO_LOAD_RECORD_WINDOWS only */
	T_CPU_DOUBLE = 470, /* 470..485: the record's doubles in its order (NB_LOAD_DOUBLES) */
	T_CPU_BUSIEST = 490,
	T_CPU_NCPU = 491,
	T_CPU_VALID = 492,
};

/* --- items: u16 tag, u16 length, value; nested items are opened and closed --- */

static void w_head(struct nb_cur *c, uint16_t tag, size_t n)
{
	if (n > ITEM_MAX)
		c->bad = true;
	nb_cur_put_u16(c, tag);
	nb_cur_put_u16(c, (uint16_t)n);
}

static void w_u32(struct nb_cur *c, uint16_t tag, uint32_t v)
{
	w_head(c, tag, 4);
	nb_cur_put_u32(c, v);
}

static void w_u64(struct nb_cur *c, uint16_t tag, uint64_t v)
{
	w_head(c, tag, 8);
	nb_cur_put_u64(c, v);
}

static void w_str(struct nb_cur *c, uint16_t tag, const char *s)
{
	w_head(c, tag, strlen(s));
	nb_cur_put_bytes(c, s, strlen(s));
}

/* Opens a nested item: its length, reserved, is filled by w_close. */
static uint8_t *w_open(struct nb_cur *c, uint16_t tag)
{
	nb_cur_put_u16(c, tag);
	return nb_cur_reserve(c, 2);
}

static void w_close(struct nb_cur *c, uint8_t *len_at)
{
	if (!c->bad)
		nb_put_be16(len_at, (uint16_t)(c->w + c->off - len_at - 2));
}

/* What an encoder writes: the result, the algorithm, the CPU load's form. */
struct enc {
	const struct nb_crypto_result *r;
	size_t algo;
	enum nb_crypto_load_form form;
};

/* Encodes with fn into a malloc'd buffer of at most one item's value (-EMSGSIZE beyond). */
static int w_run(void (*fn)(struct nb_cur *, const struct enc *), const struct enc *e,
		 uint8_t **buf, size_t *len)
{
	uint8_t *p = malloc(ITEM_MAX);
	if (!p)
		return -ENOMEM;
	struct nb_cur c = nb_cur_writer(p, ITEM_MAX);
	fn(&c, e);
	if (c.bad) {
		free(p);
		return -EMSGSIZE;
	}
	uint8_t *shrunk = realloc(p, c.off ? c.off : 1);
	*buf = shrunk ? shrunk : p;
	*len = c.off;
	return 0;
}

/* 1 with an item (its value in *val), 0 at the end, -EBADMSG when an item overruns. */
static int r_next(struct nb_cur *top, uint16_t *tag, struct nb_cur *val)
{
	if (!nb_cur_left(top))
		return 0;
	*tag = nb_cur_get_u16(top);
	size_t n = nb_cur_get_u16(top);
	const uint8_t *p = nb_cur_get_bytes(top, n);
	if (top->bad)
		return -EBADMSG;
	*val = nb_cur_reader(p, n);
	return 1;
}

static int r_u32(struct nb_cur *v, uint32_t *out)
{
	if (v->len != 4)
		return -EBADMSG;
	*out = nb_cur_get_u32(v);
	return 0;
}

static int r_i32(struct nb_cur *v, int *out, int lo, int hi)
{
	uint32_t u;
	if (r_u32(v, &u) || (int32_t)u < lo || (int32_t)u > hi)
		return -EBADMSG;
	*out = (int32_t)u;
	return 0;
}

static int r_bool(struct nb_cur *v, bool *out)
{
	if (v->len != 4)
		return -EBADMSG;
	*out = nb_cur_get_bool(v);
	return v->bad ? -EBADMSG : 0;
}

static int r_str(struct nb_cur *v, char *buf, size_t cap)
{
	if (v->len >= cap || memchr(v->r, '\0', v->len))
		return -EBADMSG;
	memcpy(buf, v->r, v->len);
	buf[v->len] = '\0';
	nb_esc_inplace(buf, cap, NB_ESC_LINE); /* foreign text: docs/security.md */
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

/* --- tables of fields: every one required but the optional ones (written in the form
 * NB_CRYPTO_LOAD_RECORD_WINDOWS only), encoded in table order --- */

enum kind { K_U32, K_I32, K_BOOL, K_U64, K_DBL, K_STR, K_LOAD };

struct field {
	uint16_t tag;
	uint8_t kind;
	size_t off, cap; /* member's offset and size */
	int lo, hi;	 /* K_I32's range */
	bool opt;	 /* absent from an agent before it */
};

#define FIELD(tag, kind, type, m, lo, hi)                                                          \
	{                                                                                          \
		tag, kind, offsetof(type, m), sizeof(((type *)0)->m), lo, hi, false                \
	}
#define LOAD_DBL(i, m) FIELD(T_CPU_DOUBLE + i, K_DBL, struct nb_cpu_load, m, 0, 0),

static const struct field load_fields[] = {
    NB_LOAD_DOUBLES(LOAD_DBL)
	FIELD(T_CPU_BUSIEST, K_I32, struct nb_cpu_load, busiest_cpu, -1, NB_CPU_MAX * 64),
    FIELD(T_CPU_NCPU, K_U32, struct nb_cpu_load, ncpu, 0, 0),
    FIELD(T_CPU_VALID, K_BOOL, struct nb_cpu_load, valid, 0, 0),
};

#define PT(tag, kind, m) FIELD(tag, kind, struct nb_crypto_point, m, 0, 0)
static const struct field point_fields[] = {
    PT(T_PT_SIZE, K_U32, size_bytes),
    PT(T_PT_PADDED, K_U32, padded_bytes),
    PT(T_PT_VALID, K_BOOL, valid),
    PT(T_PT_REASON, K_STR, invalid_reason),
    PT(T_PT_OPS, K_U64, ops),
    PT(T_PT_LAT_SAMPLES, K_U64, lat_samples),
    PT(T_PT_DOUBLE + 0, K_DBL, window_s),
    PT(T_PT_DOUBLE + 1, K_DBL, mbyte_per_s),
    PT(T_PT_DOUBLE + 2, K_DBL, ops_per_s),
    PT(T_PT_DOUBLE + 3, K_DBL, lat_p50_us),
    PT(T_PT_DOUBLE + 4, K_DBL, lat_p99_us),
    PT(T_PT_DOUBLE + 5, K_DBL, proc_us_per_kbyte),
    PT(T_PT_DOUBLE + 6, K_DBL, sys_us_per_kbyte),
    PT(T_PT_CPU, K_LOAD, cpu),
    {T_PT_WINDOWS, K_U32, offsetof(struct nb_crypto_point, windows), 4, 0, 0, true},
    {T_PT_CI95, K_DBL, offsetof(struct nb_crypto_point, mbyte_ci95), 8, 0, 0, true},
};

#define DRV(tag, kind, m, lo, hi) FIELD(tag, kind, struct nb_crypto_driver, m, lo, hi)
static const struct field driver_fields[] = {
    DRV(T_DRV_NAME, K_STR, name, 0, 0),	    DRV(T_DRV_DRIVER, K_STR, driver, 0, 0),
    DRV(T_DRV_MODULE, K_STR, module, 0, 0), DRV(T_DRV_PRIORITY, K_I32, priority, -1, 1 << 30),
    DRV(T_DRV_HW, K_I32, hw, -1, 1),	    DRV(T_DRV_MAC, K_STR, mac_driver, 0, 0),
};

#define NFIELDS(t) (sizeof(t) / sizeof(t[0]))

static void put_fields(struct nb_cur *c, const struct field *t, size_t n, const void *base,
		       enum nb_crypto_load_form form)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)base + t[i].off;
		uint64_t bits;
		uint8_t *at;
		if (t[i].opt && form != NB_CRYPTO_LOAD_RECORD_WINDOWS)
			continue;
		switch (t[i].kind) {
		case K_U32:
			w_u32(c, t[i].tag, *(const uint32_t *)p);
			break;
		case K_I32:
			w_u32(c, t[i].tag, (uint32_t) * (const int *)p);
			break;
		case K_BOOL:
			w_u32(c, t[i].tag, *(const bool *)p);
			break;
		case K_U64:
			w_u64(c, t[i].tag, *(const uint64_t *)p);
			break;
		case K_DBL:
			memcpy(&bits, p, 8);
			w_u64(c, t[i].tag, bits);
			break;
		case K_STR:
			w_str(c, t[i].tag, p);
			break;
		default: /* K_LOAD */
			if (form != NB_CRYPTO_LOAD_TLV) {
				w_head(c, T_PT_LOAD, NB_LOAD_WIRE_BYTES);
				if ((at = nb_cur_reserve(c, NB_LOAD_WIRE_BYTES)))
					nb_proto_encode_load(at, (const struct nb_cpu_load *)p);
				break;
			}
			at = w_open(c, t[i].tag);
			put_fields(c, load_fields, NFIELDS(load_fields), p, form);
			w_close(c, at);
		}
	}
}

static int get_fields(struct nb_cur *top, const struct field *t, size_t n, void *base);

/* A CPU load in the shared record. Its busiest CPU is held to the range the nested form had. */
static int get_load_record(struct nb_cur *v, struct nb_cpu_load *l)
{
	if (v->len != NB_LOAD_WIRE_BYTES || nb_proto_decode_load(v->r, l) || l->busiest_cpu < -1 ||
	    l->busiest_cpu > NB_CPU_MAX * 64)
		return -EBADMSG;
	return 0;
}

static int get_field(struct nb_cur *v, uint16_t tag, const struct field *f, void *base)
{
	char *p = (char *)base + f->off;
	uint64_t bits;
	switch (f->kind) {
	case K_U32:
		return r_u32(v, (uint32_t *)p);
	case K_I32:
		return r_i32(v, (int *)p, f->lo, f->hi);
	case K_BOOL:
		return r_bool(v, (bool *)p);
	case K_U64:
	case K_DBL:
		if (v->len != 8)
			return -EBADMSG;
		bits = nb_cur_get_u64(v);
		memcpy(p, &bits, 8);
		return 0;
	case K_STR:
		return r_str(v, p, f->cap);
	default: /* K_LOAD: the record, or the nested TLVs of an agent before it */
		if (tag == T_PT_LOAD)
			return get_load_record(v, (struct nb_cpu_load *)p);
		return get_fields(v, load_fields, NFIELDS(load_fields), p);
	}
}

/* Fills base (zeroed by the caller) from the items in top: each of t's fields exactly once. */
static int get_fields(struct nb_cur *top, const struct field *t, size_t n, void *base)
{
	struct nb_cur v;
	uint64_t mask = 0;
	uint16_t tag;
	size_t i;
	int rc;

	while ((rc = r_next(top, &tag, &v)) == 1) {
		/* A CPU load comes in one form or the other, once. */
		for (i = 0; i < n && t[i].tag != tag && !(tag == T_PT_LOAD && t[i].kind == K_LOAD);
		     i++)
			;
		if (i == n || seen(&mask, (unsigned)i) || get_field(&v, tag, &t[i], base))
			return -EBADMSG;
	}
	for (i = 0; i < n; i++)
		mask |= (uint64_t)t[i].opt << i;
	return rc || mask != (1ull << n) - 1 ? -EBADMSG : 0;
}

/* --- head --- */

static void put_head(struct nb_cur *c, const struct enc *en)
{
	const struct nb_crypto_result *r = en->r;
	for (size_t ei = 0; ei < r->opts.nengines; ei++) {
		uint8_t *at = w_open(c, T_ENGINE);
		w_str(c, T_NAME, r->opts.engines[ei]->name);
		w_u32(c, T_OK, r->engine_ok[ei]);
		w_str(c, T_REASON, r->engine_reason[ei]);
		w_close(c, at);
	}
}

int nb_crypto_head_encode(const struct nb_crypto_result *r, uint8_t **buf, size_t *len)
{
	struct enc e = {r, 0, NB_CRYPTO_LOAD_RECORD};
	return w_run(put_head, &e, buf, len);
}

int nb_crypto_head_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n)
{
	bool ok[NB_CRYPTO_MAX_ENGINES];
	char reason[NB_CRYPTO_MAX_ENGINES][sizeof(r->engine_reason[0])];
	struct nb_cur top = nb_cur_reader(p, n), e, v;
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
				rc = seen(&mask, 0) || r_str(&v, name, sizeof(name));
			else if (tag == T_OK)
				rc = seen(&mask, 1) || r_bool(&v, &ok[count]);
			else if (tag == T_REASON)
				rc = seen(&mask, 2) || r_str(&v, reason[count], sizeof(reason[0]));
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

static void put_cell(struct nb_cur *c, const struct nb_crypto_result *r,
		     const struct nb_crypto_cell *cell, enum nb_crypto_load_form form)
{
	uint8_t *at = w_open(c, T_CELL);
	w_str(c, T_NAME, cell->engine->name);
	w_u32(c, T_STATUS, (uint32_t)cell->status);
	w_str(c, T_REASON, cell->reason);
	w_str(c, T_CHECK, cell->check);
	w_u32(c, T_CROSSOVER, (uint32_t)cell->crossover_index);
	for (size_t ei = 0; ei < r->opts.nengines; ei++)
		if (cell->crossover_ref == r->opts.engines[ei])
			w_u32(c, T_CROSSOVER_VS, (uint32_t)ei);
	if (cell->have_driver) {
		uint8_t *d = w_open(c, T_DRIVER);
		put_fields(c, driver_fields, NFIELDS(driver_fields), &cell->driver, form);
		w_close(c, d);
	}
	/* Only a measured cell has points worth sending; the others' are "not run". */
	if (cell->status == NB_CRYPTO_OK)
		for (size_t si = 0; si < r->opts.nsizes; si++) {
			uint8_t *pt = w_open(c, T_POINT);
			put_fields(c, point_fields, NFIELDS(point_fields), &cell->points[si], form);
			w_close(c, pt);
		}
	w_close(c, at);
}

static void put_algo(struct nb_cur *c, const struct enc *e)
{
	w_u32(c, T_ALGO_INDEX, (uint32_t)e->algo);
	w_str(c, T_ALGO_NAME, e->r->opts.algos[e->algo]->name);
	for (size_t ei = 0; ei < e->r->opts.nengines; ei++)
		put_cell(c, e->r, nb_crypto_cell_at(e->r, e->algo, ei), e->form);
}

int nb_crypto_algo_encode(const struct nb_crypto_result *r, size_t algo,
			  enum nb_crypto_load_form form, uint8_t **buf, size_t *len)
{
	struct enc e = {r, algo, form};
	if (algo >= r->opts.nalgos)
		return -EINVAL;
	return w_run(put_algo, &e, buf, len);
}

static int get_point(struct nb_cur *top, struct nb_crypto_point *pt, uint32_t size, uint32_t padded)
{
	memset(pt, 0, sizeof(*pt));
	pt->mbyte_ci95 = NAN; /* an agent before intervals sends none */
	if (get_fields(top, point_fields, NFIELDS(point_fields), pt) || pt->size_bytes != size ||
	    pt->padded_bytes != padded || pt->windows > NB_CRYPTO_MAX_REPEAT || pt->mbyte_ci95 < 0)
		return -EBADMSG;
	/* A valid point is a rate from counted requests in a window; an invalid one says why. */
	if (pt->valid ? !(pt->ops > 0 && pt->window_s > 0 && isfinite(pt->mbyte_per_s))
		      : !pt->invalid_reason[0])
		return -EBADMSG;
	return 0;
}

static int get_cell(struct nb_cur *top, const struct nb_crypto_result *r, size_t ai, size_t ei,
		    struct nb_crypto_cell *c)
{
	const struct nb_crypto_params *o = &r->opts;
	struct nb_cur v;
	char name[80] = "";
	uint64_t mask = 0;
	size_t npoints = 0;
	uint32_t status = 0, vs;
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
			rc = seen(&mask, 6) || r_u32(&v, &vs) || vs >= o->nengines;
			if (!rc)
				c->crossover_ref = o->engines[vs];
		} else if (tag == T_DRIVER) {
			memset(&c->driver, 0, sizeof(c->driver));
			rc = seen(&mask, 5) ||
			     get_fields(&v, driver_fields, NFIELDS(driver_fields), &c->driver);
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
	const struct nb_crypto_params *o = &r->opts;
	struct nb_crypto_cell *cells = calloc(o->nengines ? o->nengines : 1, sizeof(*cells));
	struct nb_cur top = nb_cur_reader(p, n), v;
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
