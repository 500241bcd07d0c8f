/* SPDX-License-Identifier: BSD-2-Clause */
/* crypto's kernel profile of each point: the request carries the rate and the stacks flag and
 * refuses them malformed; a point's profile round-trips through the agent's item (its place,
 * counts, names, stacks), drops its stacks and then says "did not fit" when too large, and a
 * bad place or payload is rejected; the crypto category by driver groups real kernel symbol
 * names by module; the JSON carries the profile, ns per byte and the drivers. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wire.h"
#include "core/crypto/crypto_json.h"
#include "core/crypto/crypto_run.h"
#include "core/crypto/crypto_wire.h"
#include "core/session/proto.h"
#include "tap.h"

static void opts_make(struct nb_crypto_params *o)
{
	char bad[64];
	nb_crypto_params_default(o);
	nb_crypto_select_algos(o, "aes-128-cbc,hmac-sha1", bad, sizeof(bad));
	nb_crypto_select_engines(o, "soft,afalg", bad, sizeof(bad));
	o->nsizes = 2;
	o->sizes[0] = 64, o->sizes[1] = 1024;
	o->profile_hz = 997;
}

static void test_request(void)
{
	struct nb_crypto_params o, back;
	struct nb_msg *m = nb_msg_new(NB_MSG_TEST_REQ);
	char err[256] = "";

	opts_make(&o);
	o.profile_folded = true;
	CHECK(nb_crypto_put_request(m, &o) == 0 &&
		  nb_crypto_get_request(m, &back, err, sizeof(err)) == 0,
	      "a request with a profile round-trips (%s)", err);
	CHECK(back.profile_hz == 997 && back.profile_folded, "rate and stacks flag");
	uint64_t b0 = nb_crypto_bound_ns(&back);
	back.profile_hz = 0;
	CHECK(b0 > nb_crypto_bound_ns(&back), "the bound allows for reading the kernel's symbols");

	struct {
		const char *what;
		uint16_t tag;
		uint32_t v;
		bool with_hz;
	} bads[] = {
	    {"a 0 Hz profile", NB_T_CRYPTO_PROFILE_HZ, 0, false},
	    {"stacks without a profile", NB_T_CRYPTO_PROFILE_FOLDED, 1, false},
	    {"a stacks flag of 2", NB_T_CRYPTO_PROFILE_FOLDED, 2, true},
	};
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct nb_crypto_params q = o;
		q.profile_hz = bads[i].with_hz ? 997 : 0;
		q.profile_folded = false;
		nb_msg_reset(m, NB_MSG_TEST_REQ);
		nb_msg_put_u32(m, bads[i].tag, bads[i].v);
		nb_crypto_put_request(m, &q);
		err[0] = '\0';
		CHECK(nb_crypto_get_request(m, &back, err, sizeof(err)) == -EINVAL && err[0],
		      "refused: %s (%s)", bads[i].what, err);
	}
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_msg_put_bytes(m, NB_T_CRYPTO_PROFILE_HZ, "\x00\x01", 2);
	o.profile_hz = 0;
	nb_crypto_put_request(m, &o);
	CHECK(nb_crypto_get_request(m, &back, err, sizeof(err)) == -EINVAL,
	      "refused: a 2-byte profile rate");
	nb_msg_free(m);
}

/* A profile as the virtio-crypto engine gives it: its driver, the interrupt and the wait. */
static void prof_fill(struct nb_prof_result *p)
{
	static const struct {
		const char *name, *mod;
		uint64_t n;
	} f[] = {
	    {"virtio_crypto_skcipher_crypt_req", "virtio_crypto", 40},
	    {"pv_native_safe_halt", "", 30},
	    {"crypto_aes_encrypt", "aes_generic", 12},
	    {"virtio_crypto_dataq_callback", "virtio_crypto", 8},
	    {"_raw_spin_unlock_irqrestore", "", 6},
	    {"crypto_cbc_encrypt", "cbc", 4},
	};
	memset(p, 0, sizeof(*p));
	p->available = true;
	p->hz = 997;
	p->window_ns = 200000000;
	p->ncpu = 1;
	p->cpu[0].samples = 200;
	p->cpu[0].cat[NB_PC_CRYPTO] = 64;
	p->cpu[0].cat[NB_PC_IDLE] = 60;
	p->cpu[0].cat[NB_PC_IRQ] = 30;
	p->cpu[0].cat[NB_PC_SCHED] = 46;
	p->func_samples = 200;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(p->func[i].name, sizeof(p->func[i].name), "%s", f[i].name);
		snprintf(p->func[i].module, sizeof(p->func[i].module), "%s", f[i].mod);
		p->func[i].count = f[i].n;
	}
	p->nfunc = sizeof(f) / sizeof(f[0]);
	p->folded_len = (size_t)snprintf(p->folded, sizeof(p->folded),
					 "do_idle;pv_native_safe_halt 30\n"
					 "af_alg_sendmsg;virtio_crypto_skcipher_crypt_req 40\n");
}

static void test_wire(void)
{
	struct nb_crypto_params o;
	struct nb_prof_result *p = malloc(sizeof(*p));
	uint8_t *buf = NULL;
	size_t len = 0;

	opts_make(&o);
	struct nb_crypto_result *r = nb_crypto_result_new(&o);
	prof_fill(p);
	CHECK(nb_crypto_prof_encode(p, 1, 1, 1, 32768, &buf, &len) == 0,
	      "a point's profile encodes");
	CHECK(nb_crypto_prof_decode(r, buf, len) == 0, "... and decodes");
	const struct nb_crypto_cell *c = nb_crypto_cell_at(r, 1, 1);
	const struct nb_prof_result *q = nb_crypto_point_prof(r, c, 1);
	CHECK(q && q->available && q->cpu[0].cat[NB_PC_CRYPTO] == 64 && q->nfunc == 6 &&
		  !strcmp(q->func[0].module, "virtio_crypto") && q->folded_len == p->folded_len,
	      "... into the point it names, counts, names and stacks whole");
	CHECK(!nb_crypto_point_prof(r, c, 0) &&
		  !nb_crypto_point_prof(r, nb_crypto_cell_at(r, 0, 1), 1),
	      "... and no other point");
	/* Bad places and payloads. */
	uint8_t *bad = malloc(len);
	memcpy(bad, buf, len);
	nb_put_be16(bad + 4, 2); /* size index 2 of 2 sizes */
	CHECK(nb_crypto_prof_decode(r, bad, len) == -EBADMSG,
	      "a size index out of range: rejected");
	memcpy(bad, buf, len);
	nb_put_be16(bad + 2, 2);
	CHECK(nb_crypto_prof_decode(r, bad, len) == -EBADMSG, "an engine out of range: rejected");
	CHECK(nb_crypto_prof_decode(r, buf, 5) == -EBADMSG, "no place: rejected");
	CHECK(nb_crypto_prof_decode(r, buf, len - 3) == -EBADMSG, "a truncated profile: rejected");
	free(bad);
	struct nb_crypto_params np = o;
	np.profile_hz = 0;
	struct nb_crypto_result *r0 = nb_crypto_result_new(&np);
	CHECK(nb_crypto_prof_decode(r0, buf, len) == -EBADMSG,
	      "a profile nobody asked for: rejected");
	nb_crypto_result_free(r0);
	free(buf);
	/* Too large: the stacks go first, then the profile says so. */
	size_t whole = len;
	CHECK(nb_crypto_prof_encode(p, 0, 0, 0, whole - 1, &buf, &len) == 0 && len < whole &&
		  nb_crypto_prof_decode(r, buf, len) == 0,
	      "a profile over its room drops its stacks (%zu bytes)", len);
	q = nb_crypto_point_prof(r, nb_crypto_cell_at(r, 0, 0), 0);
	CHECK(q && q->available && q->folded_len == 0 && q->nfunc == 6,
	      "... and keeps the rest (%d %zu %u)", q ? q->available : -1, q ? q->folded_len : 0,
	      q ? q->nfunc : 0);
	free(buf);
	CHECK(nb_crypto_prof_encode(p, 0, 0, 1, 120, &buf, &len) == 0 && len <= 120 &&
		  nb_crypto_prof_decode(r, buf, len) == 0,
	      "smaller still: sent as unavailable");
	q = nb_crypto_point_prof(r, nb_crypto_cell_at(r, 0, 0), 1);
	CHECK(q && !q->available && strstr(q->why, "did not fit"), "... saying why (%s)",
	      q ? q->why : "?");
	free(buf);
	nb_crypto_result_free(r);
	free(p);
}

static void test_drivers(void)
{
	struct nb_prof_result *p = malloc(sizeof(*p));
	struct nb_crypto_prof_driver d[4];
	prof_fill(p);
	size_t n = nb_crypto_prof_drivers(p, d, 4);
	CHECK(n == 3, "three crypto modules among the top functions (%zu)", n);
	CHECK(n == 3 && !strcmp(d[0].module, "virtio_crypto") && d[0].samples == 48 &&
		  !strcmp(d[1].module, "aes_generic") && !strcmp(d[2].module, "cbc"),
	      "virtio_crypto's two functions together first, then aes_generic, cbc");
	CHECK(n && fabs(d[0].share - 0.24) < 1e-9 && d[0].lo < 0.24 && d[0].hi > 0.24 &&
		  d[0].lo > 0.17 && d[0].hi < 0.31,
	      "share 24 %% of the samples with its 95 %% interval [%.3f, %.3f]", d[0].lo, d[0].hi);
	CHECK(nb_crypto_prof_drivers(p, d, 1) == 1 && !strcmp(d[0].module, "virtio_crypto"),
	      "at most max");
	strcpy(p->func[2].module, "");
	n = nb_crypto_prof_drivers(p, d, 4);
	CHECK(n == 3 && !strcmp(d[1].module, "built-in"), "a built-in driver is named built-in");
	p->available = false;
	CHECK(nb_crypto_prof_drivers(p, d, 4) == 0, "none from an unavailable profile");
	free(p);
}

static void test_json(void)
{
	struct nb_crypto_params o;
	char *t = NULL;
	size_t len;
	opts_make(&o);
	struct nb_crypto_result *r = nb_crypto_result_new(&o);
	struct nb_crypto_cell *c = nb_crypto_cell_at(r, 0, 1);
	struct nb_prof_result *p = malloc(sizeof(*p));
	prof_fill(p);
	c->status = NB_CRYPTO_OK;
	for (size_t si = 0; si < 2; si++) {
		struct nb_crypto_point *pt = &c->points[si];
		pt->valid = true;
		pt->ops = 10000;
		pt->window_s = 0.2;
		pt->cpu.valid = true;
		pt->cpu.busy_cpu_s = 0.14;
	}
	nb_crypto_point_prof_set(r, c, 1, p);
	CHECK(nb_crypto_result_json_text(r, 0, &t, &len) == 0, "JSON written");
	CHECK(t && strstr(t, "\"profile_crypto_drivers\"") && strstr(t, "\"virtio_crypto\"") &&
		  strstr(t, "\"profile_ns_per_byte\""),
	      "a point with a profile: the profile, ns per byte, crypto by driver");
	/* crypto: 64 of the 140 busy samples x 0.14 s / 10000 requests = 6400 ns, 6.25 per byte */
	CHECK(t && strstr(t, "\"ns_per_frame\": 6400") && strstr(t, "\"crypto\": 6.25"),
	      "crypto's ns per request and per byte from the busy samples");
	CHECK(t && strstr(t, "\"profile\": null"), "a point without one: null");
	free(t);
	nb_crypto_result_free(r);
}

int main(void)
{
	test_request();
	test_wire();
	test_drivers();
	test_json();
	return tap_done();
}
