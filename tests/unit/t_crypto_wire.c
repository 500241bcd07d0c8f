/* SPDX-License-Identifier: BSD-2-Clause */
/* The crypto test on the control protocol: the request round-trips and bad requests are refused,
 * the run's duration bound covers the windows, and a result (head and every algorithm) decodes
 * back to what was encoded, bit for bit. Every truncation, random garbage, and each kind of
 * mismatch or out-of-range value is rejected without touching the result. The worst case (every
 * engine, 16 sizes, longest strings) fits one item and one SNAP. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto/crypto_json.h"
#include "core/crypto/crypto_run.h"
#include "core/crypto/crypto_wire.h"
#include "core/session/proto.h"
#include "core/base/sha256.h"
#include "core/base/wire.h"
#include "tap.h"

static void opts_make(struct nb_crypto_params *o, const char *algos, size_t nsizes)
{
	char bad[64];
	nb_crypto_params_default(o);
	nb_crypto_select_algos(o, algos, bad, sizeof(bad));
	nb_crypto_select_engines(o, "all", bad, sizeof(bad));
	o->nsizes = nsizes;
	for (size_t i = 0; i < nsizes; i++)
		o->sizes[i] = (uint32_t)(13 + 4093 * i); /* odd sizes: CBC pads them */
}

static void fill_string(char *s, size_t cap, char c)
{
	memset(s, c, cap - 1);
	s[cap - 1] = '\0';
}

/* A result with every kind of cell: measured with valid and invalid points, a kernel driver and
 * a crossover; unavailable; broken. long_strings fills every string to its capacity. */
static void result_fill(struct nb_crypto_result *r, bool long_strings)
{
	const struct nb_crypto_params *o = &r->opts;
	for (size_t ei = 0; ei < o->nengines; ei++) {
		r->engine_ok[ei] = ei != 1;
		snprintf(r->engine_reason[ei], sizeof(r->engine_reason[ei]), "%s",
			 ei == 1 ? "/dev/crypto does not exist" : "");
		if (long_strings)
			fill_string(r->engine_reason[ei], sizeof(r->engine_reason[ei]), 'e');
	}
	for (size_t ai = 0; ai < o->nalgos; ai++)
		for (size_t ei = 0; ei < o->nengines; ei++) {
			struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
			c->status = long_strings	 ? NB_CRYPTO_OK
				    : ei == 1		 ? NB_CRYPTO_UNAVAILABLE
				    : ei == 2 && ai == 1 ? NB_CRYPTO_BROKEN
							 : NB_CRYPTO_OK;
			snprintf(c->reason, sizeof(c->reason), "%s",
				 c->status == NB_CRYPTO_OK ? "" : "output differs at byte 7");
			snprintf(c->check, sizeof(c->check), "known answer and soft at %zu sizes",
				 o->nsizes);
			if (ei == 2 || long_strings) {
				c->have_driver = true;
				snprintf(c->driver.name, sizeof(c->driver.name), "gcm(aes)");
				snprintf(c->driver.driver, sizeof(c->driver.driver),
					 "gcm-aes-caam");
				snprintf(c->driver.module, sizeof(c->driver.module), "caam_jr");
				c->driver.priority = 3000;
				c->driver.hw = 1;
				c->crossover_index = (int)o->nsizes - 1;
			}
			if (long_strings) {
				fill_string(c->reason, sizeof(c->reason), 'r');
				fill_string(c->check, sizeof(c->check), 'c');
				fill_string(c->driver.name, sizeof(c->driver.name), 'n');
				fill_string(c->driver.driver, sizeof(c->driver.driver), 'd');
				fill_string(c->driver.module, sizeof(c->driver.module), 'm');
				fill_string(c->driver.mac_driver, sizeof(c->driver.mac_driver),
					    'h');
			}
			for (size_t si = 0; si < o->nsizes; si++) {
				struct nb_crypto_point *p = &c->points[si];
				p->valid = !long_strings && si != 1;
				if (!p->valid)
					fill_string(p->invalid_reason,
						    long_strings ? sizeof(p->invalid_reason) : 20,
						    'i');
				p->ops = 1000003ull * (si + 1) + ai;
				p->window_s = 0.5 + 1e-9 * (double)ei;
				p->mbyte_per_s = (double)p->ops * p->size_bytes / p->window_s / 1e6;
				p->ops_per_s = (double)p->ops / p->window_s;
				p->lat_p50_us = p->valid ? 0.1 * (double)(si + 1) : NAN;
				p->lat_p99_us = p->valid ? 0.3 * (double)(si + 1) : NAN;
				p->lat_samples = p->ops / 16;
				p->proc_us_per_kbyte = 1.0 / 3.0;
				p->sys_us_per_kbyte = INFINITY;
				p->cpu.window_s = 0.5;
				p->cpu.busy_pct = 51.25;
				p->cpu.softirq_pct = 1e-300;
				p->cpu.proc_pct = 99.5;
				p->cpu.busiest_cpu = (int)si - 1;
				p->cpu.busiest_cpu_pct = 100;
				p->cpu.ncpu = 2;
				p->cpu.busy_cpu_s = 0.51;
				p->cpu.proc_cpu_s = 0.4975;
				p->cpu.valid = si % 2 == 0;
			}
		}
}

static char *json_all(const struct nb_crypto_result *r)
{
	char *text = NULL;
	size_t len;
	if (nb_crypto_result_json_text(r, NB_CRYPTO_JSON_ALL, &text, &len))
		return NULL;
	return text;
}

static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static bool same_points(const struct nb_crypto_cell *a, const struct nb_crypto_cell *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct nb_crypto_point *p = &a->points[i], *q = &b->points[i];
		if (p->size_bytes != q->size_bytes || p->padded_bytes != q->padded_bytes ||
		    p->valid != q->valid || strcmp(p->invalid_reason, q->invalid_reason) ||
		    p->ops != q->ops || p->lat_samples != q->lat_samples ||
		    !same_double(p->window_s, q->window_s) ||
		    !same_double(p->mbyte_per_s, q->mbyte_per_s) ||
		    !same_double(p->lat_p50_us, q->lat_p50_us) ||
		    !same_double(p->sys_us_per_kbyte, q->sys_us_per_kbyte) ||
		    !same_double(p->cpu.softirq_pct, q->cpu.softirq_pct) ||
		    !same_double(p->cpu.proc_cpu_s, q->cpu.proc_cpu_s) ||
		    p->cpu.busiest_cpu != q->cpu.busiest_cpu || p->cpu.valid != q->cpu.valid ||
		    p->cpu.ncpu != q->cpu.ncpu)
			return false;
	}
	return true;
}

static void test_request(void)
{
	struct nb_crypto_params o, back;
	struct nb_msg *m = nb_msg_new(NB_MSG_TEST_REQ);
	char err[256] = "";
	char bad[64];

	nb_crypto_params_default(&o);
	nb_crypto_select_algos(&o, "hmac-sha1,aes-256-gcm", bad, sizeof(bad));
	nb_crypto_select_engines(&o, "afalg,soft", bad, sizeof(bad));
	o.nsizes = 3;
	o.sizes[0] = 1, o.sizes[1] = 1420, o.sizes[2] = 65536;
	o.time_ns = 20000000, o.warmup_ns = 4000000, o.inflight = 7, o.aad_len = 0;
	CHECK(nb_crypto_put_request(m, &o) == 0, "request encodes");
	int ret = nb_crypto_get_request(m, &back, err, sizeof(err));
	CHECK(ret == 0, "request decodes (%s)", err);
	CHECK(back.nalgos == 2 && back.algos[0] == o.algos[0] && back.algos[1] == o.algos[1],
	      "algorithms in order");
	CHECK(back.nengines == 2 && back.engines[0] == &nb_crypto_soft &&
		  back.engines[1] == &nb_crypto_afalg,
	      "engines, soft first");
	CHECK(back.nsizes == 3 && back.sizes[2] == 65536 && back.sizes[0] == 1, "sizes");
	CHECK(back.time_ns == o.time_ns && back.warmup_ns == o.warmup_ns && back.inflight == 7 &&
		  back.aad_len == 0 && back.repeat == 3,
	      "time, warm-up, inflight, aad, repeat");
	CHECK(back.stop == NULL, "no stop flag from the wire");

	/* Each bad field on its own is refused with a reason. */
	struct {
		const char *what;
		uint16_t tag;
		int kind; /* 0 string, 1 sizes, 2 u64, 3 u32 */
		const char *s;
		uint64_t v;
	} bads[] = {
	    {"unknown algorithm", NB_T_CRYPTO_ALGOS, 0, "aes-128-gcm,rot13", 0},
	    {"empty algorithm list", NB_T_CRYPTO_ALGOS, 0, "", 0},
	    {"unknown engine", NB_T_CRYPTO_ENGINES, 0, "qat", 0},
	    {"size 0", NB_T_CRYPTO_SIZES, 1, NULL, 0},
	    {"size above 64k", NB_T_CRYPTO_SIZES, 1, NULL, 65537},
	    {"window of 1 ms", NB_T_CRYPTO_TIME_NS, 2, NULL, 1000000},
	    {"window of 61 s", NB_T_CRYPTO_TIME_NS, 2, NULL, 61000000000ull},
	    {"warm-up longer than the window", NB_T_CRYPTO_WARMUP_NS, 2, NULL, 30000000},
	    {"inflight 0", NB_T_CRYPTO_INFLIGHT, 3, NULL, 0},
	    {"inflight 65", NB_T_CRYPTO_INFLIGHT, 3, NULL, 65},
	    {"aad 65", NB_T_CRYPTO_AAD, 3, NULL, 65},
	    {"repeat 0", NB_T_CRYPTO_REPEAT, 3, NULL, 0},
	    {"repeat 21", NB_T_CRYPTO_REPEAT, 3, NULL, 21},
	};
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		/* The bad item first: getters take the first item with a tag. */
		uint8_t b[4];
		nb_msg_reset(m, NB_MSG_TEST_REQ);
		if (bads[i].kind == 0)
			nb_msg_put_str(m, bads[i].tag, bads[i].s);
		else if (bads[i].kind == 1)
			nb_put_be32(b, (uint32_t)bads[i].v), nb_msg_put_bytes(m, bads[i].tag, b, 4);
		else if (bads[i].kind == 2)
			nb_msg_put_u64(m, bads[i].tag, bads[i].v);
		else
			nb_msg_put_u32(m, bads[i].tag, (uint32_t)bads[i].v);
		nb_crypto_put_request(m, &o);
		err[0] = '\0';
		ret = nb_crypto_get_request(m, &back, err, sizeof(err));
		CHECK(ret == -EINVAL && err[0], "refused: %s (%s)", bads[i].what, err);
	}
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_msg_put_str(m, NB_T_CRYPTO_ALGOS, "all");
	nb_msg_put_str(m, NB_T_CRYPTO_ENGINES, "all");
	CHECK(nb_crypto_get_request(m, &back, err, sizeof(err)) == -EINVAL,
	      "refused: no sizes or times (%s)", err);
	nb_msg_free(m);
}

static void test_bound(void)
{
	struct nb_crypto_params o;
	nb_crypto_params_default(&o);
	uint64_t windows = o.nalgos * o.nengines * o.nsizes * (o.time_ns + o.warmup_ns);
	uint64_t b = nb_crypto_bound_ns(&o);
	CHECK(b > windows && b < 3 * windows, "bound %.1f s covers the windows (%.1f s)",
	      (double)b / 1e9, (double)windows / 1e9);
	o.inflight = 64;
	CHECK(nb_crypto_bound_ns(&o) > b, "more threads, a longer bound");
}

static void test_roundtrip(void)
{
	struct nb_crypto_params o;
	opts_make(&o, "aes-128-cbc,aes-256-gcm", 3);
	struct nb_crypto_result *r = nb_crypto_result_new(&o), *back = nb_crypto_result_new(&o);
	uint8_t *buf = NULL;
	size_t len = 0, ai = 99;

	result_fill(r, false);
	int ret = nb_crypto_head_encode(r, &buf, &len);
	CHECK(ret == 0, "head encodes (%zu bytes)", len);
	CHECK(nb_crypto_head_decode(back, buf, len) == 0, "head decodes");
	CHECK(!back->engine_ok[1] && back->engine_ok[0] &&
		  !strcmp(back->engine_reason[1], r->engine_reason[1]),
	      "engine availability and reason");
	for (size_t n = 0; n < len; n++)
		if (nb_crypto_head_decode(back, buf, n) != -EBADMSG) {
			CHECK(0, "head truncated to %zu bytes is rejected", n);
			break;
		}
	free(buf);

	/* The CPU load as the shared record, then as the nested TLVs of a controller before it:
	 * the algorithms alternate, and every one must decode. */
	for (size_t a = 0; a < o.nalgos; a++) {
		enum nb_crypto_load_form form = a % 2 ? NB_CRYPTO_LOAD_TLV : NB_CRYPTO_LOAD_RECORD;
		ret = nb_crypto_algo_encode(r, a, form, &buf, &len);
		CHECK(ret == 0, "algorithm %zu encodes, CPU load as %s (%zu bytes)", a,
		      form == NB_CRYPTO_LOAD_TLV ? "TLVs" : "the shared record", len);
		CHECK(nb_crypto_algo_decode(back, buf, len, &ai) == 0 && ai == a,
		      "algorithm %zu decodes", a);
		free(buf);
	}
	back->interrupted = r->interrupted;
	char *j1 = json_all(r), *j2 = json_all(back);
	CHECK(j1 && j2 && !strcmp(j1, j2), "the decoded result prints the same JSON");
	free(j1);
	free(j2);
	bool same = true;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct nb_crypto_cell *c = &r->cells[i], *d = &back->cells[i];
		same &= c->status == d->status && !strcmp(c->reason, d->reason) &&
			!strcmp(c->check, d->check) && c->have_driver == d->have_driver &&
			!strcmp(c->driver.driver, d->driver.driver) &&
			c->driver.priority == d->driver.priority && c->driver.hw == d->driver.hw &&
			c->crossover_index == d->crossover_index && c->engine == d->engine &&
			c->algo == d->algo &&
			(c->status != NB_CRYPTO_OK || same_points(c, d, o.nsizes));
	}
	CHECK(same, "every cell and point round-trips bit for bit (NaN and infinity included)");

	/* Each point's windows and interval travel to a controller that sent the repeat, and an
	 * agent before them (the record without them) still decodes, with no interval. */
	for (size_t ai2 = 0; ai2 < o.nalgos; ai2++)
		for (size_t ei = 0; ei < o.nengines; ei++)
			for (size_t si = 0; si < o.nsizes; si++) {
				struct nb_crypto_point *p =
				    &nb_crypto_cell_at(r, ai2, ei)->points[si];
				p->windows = 3;
				p->mbyte_ci95 = si == 2 ? NAN : 0.125 * (double)(si + 1);
			}
	bool kept = true, none = true;
	for (int with = 1; with >= 0; with--) {
		ret = nb_crypto_algo_encode(
		    r, 0, with ? NB_CRYPTO_LOAD_RECORD_WINDOWS : NB_CRYPTO_LOAD_RECORD, &buf, &len);
		ret = ret ? ret : nb_crypto_algo_decode(back, buf, len, &ai);
		free(buf);
		CHECK(ret == 0, "algorithm 0 decodes %s its windows", with ? "with" : "without");
		const struct nb_crypto_point *p = &nb_crypto_cell_at(r, 0, 0)->points[0],
					     *q = &nb_crypto_cell_at(back, 0, 0)->points[0];
		if (with)
			kept = q->windows == 3 && same_double(p->mbyte_ci95, q->mbyte_ci95) &&
			       isnan(nb_crypto_cell_at(back, 0, 0)->points[2].mbyte_ci95);
		else
			none = q->windows == 0 && isnan(q->mbyte_ci95);
	}
	CHECK(kept, "windows and interval round-trip (NaN kept)");
	CHECK(none, "from an agent before intervals: no windows, no interval (NaN)");
	nb_crypto_result_free(r);
	nb_crypto_result_free(back);
}

/* Finds the first item with tag, walking the nested encoding (cells, drivers, points and CPU
 * loads are containers), and rewrites its 32-bit value to v. */
static bool patch_u32(uint8_t *buf, size_t len, uint16_t tag, uint32_t v)
{
	for (size_t off = 0; off + 4 <= len;) {
		uint16_t t = nb_get_be16(buf + off), l = nb_get_be16(buf + off + 2);
		if (t == tag && l == 4) {
			nb_put_be32(buf + off + 4, v);
			return true;
		}
		if ((t == 432 || t == 435 || t == 437 || t == 463) &&
		    patch_u32(buf + off + 4, l, tag, v))
			return true;
		off += 4 + (size_t)l;
	}
	return false;
}

/* Collects the offsets of every item header, nested ones included. */
static size_t headers(const uint8_t *buf, size_t len, size_t base, size_t *out, size_t n)
{
	for (size_t off = 0; off + 4 <= len && n < 4096;) {
		uint16_t t = nb_get_be16(buf + off), l = nb_get_be16(buf + off + 2);
		out[n++] = base + off;
		if (t == 432 || t == 435 || t == 437 || t == 463)
			n = headers(buf + off + 4, l, base + off + 4, out, n);
		off += 4 + (size_t)l;
	}
	return n;
}

static void test_rejects(void)
{
	struct nb_crypto_params o, other;
	opts_make(&o, "aes-128-cbc,chacha20-poly1305", 4);
	struct nb_crypto_result *r = nb_crypto_result_new(&o), *back = nb_crypto_result_new(&o);
	uint8_t *buf = NULL, *copy;
	size_t len = 0, ai;
	char bad[64];

	result_fill(r, false);
	nb_crypto_algo_encode(r, 1, NB_CRYPTO_LOAD_RECORD, &buf, &len);
	copy = malloc(len);
	char *before = json_all(back);

	size_t accepted = 0;
	for (size_t n = 0; n < len; n++)
		accepted += nb_crypto_algo_decode(back, buf, n, &ai) != -EBADMSG;
	CHECK(accepted == 0, "all %zu truncations rejected (%zu accepted)", len, accepted);

	/* Random garbage, and the real thing with one length field spoiled. */
	uint64_t s = 0x1234567;
	accepted = 0;
	for (int t = 0; t < 2000; t++) {
		size_t n = (size_t)(s % len) + 1;
		for (size_t i = 0; i < n; i++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			copy[i] = (uint8_t)(s >> 56);
		}
		accepted += nb_crypto_algo_decode(back, copy, n, &ai) == 0;
	}
	CHECK(accepted == 0, "2000 random buffers rejected (%zu accepted)", accepted);
	/* Every length field grown by one byte, the CPU load in either form. */
	for (int tlv = 0; tlv < 2; tlv++) {
		uint8_t *b2 = NULL;
		size_t l2 = 0, heads[4096], items;
		nb_crypto_algo_encode(r, 1, tlv ? NB_CRYPTO_LOAD_TLV : NB_CRYPTO_LOAD_RECORD, &b2,
				      &l2);
		uint8_t *c2 = malloc(l2);
		items = c2 ? headers(b2, l2, 0, heads, 0) : 0;
		accepted = 0;
		for (size_t i = 0; i < items; i++) {
			memcpy(c2, b2, l2);
			nb_put_be16(c2 + heads[i] + 2,
				    (uint16_t)(nb_get_be16(b2 + heads[i] + 2) + 1));
			accepted += nb_crypto_algo_decode(back, c2, l2, &ai) == 0;
		}
		CHECK(items > 80 && accepted == 0,
		      "%zu length fields grown by one byte, CPU load as %s: all rejected", items,
		      tlv ? "TLVs" : "the shared record");
		free(b2);
		free(c2);
	}

	struct {
		const char *what;
		uint16_t tag;
		uint32_t v;
	} bad_values[] = {
	    {"algorithm index out of range", 430, 2},
	    {"another algorithm's index", 430, 0},
	    {"unknown status", 433, 5},
	    {"crossover beyond the sizes", 436, 4},
	    {"point of another size", 450, 14},
	    {"wrong padded length", 451, 16},
	    {"validity not a boolean", 452, 2},
	    {"hardware flag out of range", 444, 2},
	};
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		memcpy(copy, buf, len);
		bool found = patch_u32(copy, len, bad_values[i].tag, bad_values[i].v);
		CHECK(found && nb_crypto_algo_decode(back, copy, len, &ai) == -EBADMSG,
		      "rejected: %s", bad_values[i].what);
	}
	/* An unknown tag is garbage. */
	memcpy(copy, buf, len);
	nb_put_be16(copy, 499);
	CHECK(nb_crypto_algo_decode(back, copy, len, &ai) == -EBADMSG, "rejected: unknown tag");
	char *after = json_all(back);
	CHECK(before && after && !strcmp(before, after), "no rejected item changed the result");
	free(before);
	free(after);

	/* The same bytes against a result with other engines or sizes. */
	other = o;
	nb_crypto_select_engines(&other, "soft,afalg,devcrypto", bad, sizeof(bad));
	struct nb_crypto_result *x = nb_crypto_result_new(&other);
	CHECK(nb_crypto_algo_decode(x, buf, len, &ai) == -EBADMSG,
	      "rejected: engines in another order");
	nb_crypto_result_free(x);
	other = o;
	other.sizes[3]++;
	x = nb_crypto_result_new(&other);
	CHECK(nb_crypto_algo_decode(x, buf, len, &ai) == -EBADMSG, "rejected: other sizes");
	nb_crypto_result_free(x);
	other = o;
	nb_crypto_select_algos(&other, "aes-128-cbc,aes-128-gcm", bad, sizeof(bad));
	x = nb_crypto_result_new(&other);
	CHECK(nb_crypto_algo_decode(x, buf, len, &ai) == -EBADMSG, "rejected: another algorithm");
	nb_crypto_result_free(x);
	CHECK(nb_crypto_algo_decode(back, buf, len, &ai) == 0 && ai == 1,
	      "the unspoiled item still decodes");
	free(buf);
	free(copy);
	nb_crypto_result_free(r);
	nb_crypto_result_free(back);
}

static void test_worst_case(void)
{
	struct nb_crypto_params o;
	char bad[64];
	opts_make(&o, "aes-128-cbc-hmac-sha1", NB_CRYPTO_MAX_SIZES);
	/* as many cells as an algorithm can have (afalg:DRIVER engines fill the rest) */
	while (o.nengines < NB_CRYPTO_MAX_ENGINES)
		o.engines[o.nengines++] = &nb_crypto_afalg;
	(void)bad;
	struct nb_crypto_result *r = nb_crypto_result_new(&o), *back = nb_crypto_result_new(&o);
	uint8_t *buf = NULL;
	size_t len = 0, ai;

	result_fill(r, true);
	int ret = nb_crypto_algo_encode(r, 0, NB_CRYPTO_LOAD_TLV, &buf, &len);
	CHECK(ret == 0 && len <= 0xffff,
	      "worst case: %zu engines x %d sizes, longest strings: "
	      "%zu bytes in one item",
	      o.nengines, NB_CRYPTO_MAX_SIZES, len);
	CHECK(len + 4 + 8192 + 64 <= NB_MSG_MAX,
	      "and it fits one SNAP beside the agent's CPU sample of 256 CPUs");
	CHECK(ret == 0 && nb_crypto_algo_decode(back, buf, len, &ai) == 0, "and decodes");
	free(buf);
	nb_crypto_result_free(r);
	nb_crypto_result_free(back);
}

/* The bytes on the wire, pinned: the SHA-256 of a known request and of the head and every
 * algorithm of two known results, as the codec wrote them when the digests were taken. A change
 * of the codec that changes a byte fails here, on every target (the encoding is big-endian). */
#define REQ_LEN	      121
#define REQ_SHA256    "9d3bb9020ffd7046a0849a9606eed57ad001557acb4439015d34b144e97c6e02"
#define RESULT_SHA256 "059f636a7c675c0012c4a3a0c2cce5b8c3dfbffe26f3b481b78eddab40c581ba"
#define LONG_SHA256   "e388be5f8b6e60b16ff67a430db187cff491e1959eda0ce9b488dd0807fec9e8"

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void digest_result(struct nb_sha256 *h, const struct nb_crypto_result *r, bool *ok)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	*ok &= nb_crypto_head_encode(r, &buf, &len) == 0;
	nb_sha256_update(h, buf, len);
	free(buf);
	for (size_t a = 0; a < r->opts.nalgos; a++) {
		buf = NULL;
		*ok &= nb_crypto_algo_encode(r, a, NB_CRYPTO_LOAD_TLV, &buf, &len) == 0;
		nb_sha256_update(h, buf, len);
		free(buf);
	}
}

static void test_golden_bytes(void)
{
	struct nb_crypto_params o;
	struct nb_msg *m = nb_msg_new(NB_MSG_TEST_REQ);
	struct nb_sha256 h;
	uint8_t d[NB_SHA256_LEN];
	char text[2 * NB_SHA256_LEN + 1];
	bool ok = true;

	opts_make(&o, "hmac-sha1,aes-128-cbc,aes-256-gcm", 4);
	o.time_ns = 20000000, o.warmup_ns = 4000000, o.inflight = 7, o.aad_len = 13;
	ok &= nb_crypto_put_request(m, &o) == 0;
	/* An agent before NB_T_CRYPTO_LOAD_RECORD reads the tags it knows: the request is the
	 * bytes it has always read, then that one tag. */
	nb_sha256_init(&h);
	nb_sha256_update(&h, m->data, REQ_LEN);
	nb_sha256_final(&h, d);
	hex(d, sizeof(d), text);
	static const uint8_t load_record[16] = {
	    NB_T_CRYPTO_LOAD_RECORD >> 8, NB_T_CRYPTO_LOAD_RECORD & 0xff, 0, 4, 0, 0, 0, 1,
	    NB_T_CRYPTO_REPEAT >> 8,	  NB_T_CRYPTO_REPEAT & 0xff,	  0, 4, 0, 0, 0, 3};
	CHECK(ok && m->len == REQ_LEN + 16 && !strcmp(text, REQ_SHA256) &&
		  !memcmp(m->data + REQ_LEN, load_record, 16),
	      "request bytes unchanged but for NB_T_CRYPTO_LOAD_RECORD and NB_T_CRYPTO_REPEAT "
	      "at the end (%u bytes, sha256 of the first %d %s)",
	      m->len, REQ_LEN, text);
	CHECK(nb_crypto_request_load_form(m) == NB_CRYPTO_LOAD_RECORD_WINDOWS,
	      "an agent reads the request as asking for the shared record and the windows");
	m->len = REQ_LEN + 8;
	CHECK(nb_crypto_request_load_form(m) == NB_CRYPTO_LOAD_RECORD,
	      "a request without the repeat (a controller before it) gets the record alone");
	struct nb_crypto_params back;
	char err[160] = "";
	CHECK(nb_crypto_get_request(m, &back, err, sizeof(err)) == 0 && back.repeat == 1,
	      "and is measured in one window per point, as it was (%s)", err);
	m->len = REQ_LEN;
	CHECK(nb_crypto_request_load_form(m) == NB_CRYPTO_LOAD_TLV,
	      "a request without it (a controller before it) gets the TLVs");
	nb_msg_free(m);

	for (int longs = 0; longs < 2; longs++) {
		opts_make(&o, "aes-128-cbc,aes-256-gcm,hmac-sha256", longs ? 16 : 3);
		struct nb_crypto_result *r = nb_crypto_result_new(&o);
		result_fill(r, longs);
		nb_crypto_cell_at(r, 0, 2)->crossover_ref = o.engines[0];
		nb_sha256_init(&h);
		digest_result(&h, r, &ok);
		nb_sha256_final(&h, d);
		hex(d, sizeof(d), text);
		CHECK(
		    ok && !strcmp(text, longs ? LONG_SHA256 : RESULT_SHA256),
		    "%s result bytes in TLV form unchanged: a controller before the shared record "
		    "reads them (sha256 %s)",
		    longs ? "longest" : "known", text);
		nb_crypto_result_free(r);
	}
}

int main(void)
{
	test_request();
	test_bound();
	test_roundtrip();
	test_rejects();
	test_worst_case();
	test_golden_bytes();
	return tap_done();
}
