/* SPDX-License-Identifier: BSD-2-Clause */
/* A built-in reference for every algorithm in plain C (libc only): AES, CBC, GCM,
 * ChaCha20-Poly1305, SHA-1 and HMAC (SHA-256 is the core's sha256.c). Slow and simple on
 * purpose; it is never timed. It stands in for OpenSSL where there is none (the agent, static
 * builds) so that a board's kernel engines are still compared with an independent result at
 * every request size. */
#include "core/crypto/crypto_algo.h"
#include "core/base/sha256.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- AES (FIPS 197) --- */

struct aes {
	uint8_t sbox[256];
	uint8_t rk[16 * 15];
	int rounds;
};

static uint8_t rotl8(uint8_t x, int n)
{
	return (uint8_t)(x << n | x >> (8 - n));
}

static uint8_t xtime(uint8_t x)
{
	return (uint8_t)(x << 1 ^ ((x >> 7) * 0x1b));
}

/* The S-box from its definition: multiplicative inverse in GF(2^8), then the affine map.
 * p walks the powers of 3 and q those of its inverse, so q = p^-1 at every step. */
static void aes_sbox(uint8_t *sbox)
{
	uint8_t p = 1, q = 1;
	do {
		p = (uint8_t)(p ^ (p << 1) ^ (p & 0x80 ? 0x1b : 0));
		q ^= (uint8_t)(q << 1);
		q ^= (uint8_t)(q << 2);
		q ^= (uint8_t)(q << 4);
		if (q & 0x80)
			q ^= 0x09;
		sbox[p] =
		    (uint8_t)(q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63);
	} while (p != 1);
	sbox[0] = 0x63;
}

static int aes_init(struct aes *a, const uint8_t *key, uint32_t key_len)
{
	int nk = (int)key_len / 4;
	if (key_len != 16 && key_len != 32)
		return -EINVAL;
	aes_sbox(a->sbox);
	a->rounds = nk + 6;
	memcpy(a->rk, key, key_len);
	uint8_t rcon = 1;
	for (int i = nk; i < 4 * (a->rounds + 1); i++) {
		uint8_t t[4];
		memcpy(t, a->rk + 4 * (i - 1), 4);
		if (i % nk == 0) {
			uint8_t t0 = t[0];
			t[0] = (uint8_t)(a->sbox[t[1]] ^ rcon);
			t[1] = a->sbox[t[2]];
			t[2] = a->sbox[t[3]];
			t[3] = a->sbox[t0];
			rcon = xtime(rcon);
		} else if (nk > 6 && i % nk == 4) {
			for (int j = 0; j < 4; j++)
				t[j] = a->sbox[t[j]];
		}
		for (int j = 0; j < 4; j++)
			a->rk[4 * i + j] = a->rk[4 * (i - nk) + j] ^ t[j];
	}
	return 0;
}

static void aes_encrypt(const struct aes *a, const uint8_t in[16], uint8_t out[16])
{
	uint8_t s[16], t[16];
	for (int i = 0; i < 16; i++)
		s[i] = in[i] ^ a->rk[i];
	for (int r = 1; r <= a->rounds; r++) {
		/* SubBytes and ShiftRows: byte (row, col) comes from (row, col + row). */
		for (int c = 0; c < 4; c++)
			for (int row = 0; row < 4; row++)
				t[row + 4 * c] = a->sbox[s[row + 4 * ((c + row) % 4)]];
		if (r != a->rounds) {
			for (int c = 0; c < 4; c++) {
				uint8_t *x = t + 4 * c, all = x[0] ^ x[1] ^ x[2] ^ x[3], x0 = x[0];
				/* MixColumns: each byte gains 2*x ^ 3*next = x ^ all ^ 2*(x ^
				 * next). */
				x[0] ^= all ^ xtime(x[0] ^ x[1]);
				x[1] ^= all ^ xtime(x[1] ^ x[2]);
				x[2] ^= all ^ xtime(x[2] ^ x[3]);
				x[3] ^= all ^ xtime(x[3] ^ x0);
			}
		}
		for (int i = 0; i < 16; i++)
			s[i] = t[i] ^ a->rk[16 * r + i];
	}
	memcpy(out, s, 16);
}

/* --- GCM (NIST SP 800-38D) --- */

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

/* X = X * H in GF(2^128), bit-reflected as the GCM specification writes it. */
static void gf_mul(uint8_t x[16], const uint8_t h[16])
{
	uint64_t zh = 0, zl = 0, vh = be64(h), vl = be64(h + 8);
	for (int i = 0; i < 128; i++) {
		if (x[i / 8] >> (7 - i % 8) & 1) {
			zh ^= vh;
			zl ^= vl;
		}
		uint64_t lsb = vl & 1;
		vl = vl >> 1 | vh << 63;
		vh >>= 1;
		if (lsb)
			vh ^= 0xe100000000000000ull;
	}
	put_be64(x, zh);
	put_be64(x + 8, zl);
}

static void ghash(uint8_t y[16], const uint8_t h[16], const uint8_t *d, size_t len)
{
	for (size_t off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;
		for (size_t i = 0; i < n; i++)
			y[i] ^= d[off + i];
		gf_mul(y, h);
	}
}

static void gcm_encrypt(const struct aes *a, const struct nb_crypto_req *r, uint8_t *tag)
{
	uint8_t h[16] = {0}, j0[16], ctr[16], ks[16], y[16] = {0}, lens[16];
	aes_encrypt(a, h, h);
	memcpy(j0, r->iv, 12);
	j0[12] = j0[13] = j0[14] = 0;
	j0[15] = 1;
	memcpy(ctr, j0, 16);
	for (uint32_t off = 0; off < r->len; off += 16) {
		for (int i = 15; i >= 12 && ++ctr[i] == 0; i--) /* inc32 */
			;
		aes_encrypt(a, ctr, ks);
		for (uint32_t i = 0; i < 16 && off + i < r->len; i++)
			r->out[off + i] = r->in[off + i] ^ ks[i];
	}
	ghash(y, h, r->aad, r->aad_len);
	ghash(y, h, r->out, r->len);
	put_be64(lens, (uint64_t)r->aad_len * 8);
	put_be64(lens + 8, (uint64_t)r->len * 8);
	ghash(y, h, lens, 16);
	aes_encrypt(a, j0, ks);
	for (int i = 0; i < 16; i++)
		tag[i] = y[i] ^ ks[i];
}

/* --- ChaCha20 and Poly1305 (RFC 8439) --- */

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint32_t rotl32(uint32_t x, int n)
{
	return x << n | x >> (32 - n);
}

#define QR(a, b, c, d)                                                                             \
	do {                                                                                       \
		a += b, d ^= a, d = rotl32(d, 16);                                                 \
		c += d, b ^= c, b = rotl32(b, 12);                                                 \
		a += b, d ^= a, d = rotl32(d, 8);                                                  \
		c += d, b ^= c, b = rotl32(b, 7);                                                  \
	} while (0)

static void chacha_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
			 uint8_t out[64])
{
	uint32_t s[16], x[16];
	s[0] = 0x61707865; /* "expand 32-byte k" */
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	for (int i = 0; i < 8; i++)
		s[4 + i] = le32(key + 4 * i);
	s[12] = counter;
	for (int i = 0; i < 3; i++)
		s[13 + i] = le32(nonce + 4 * i);
	memcpy(x, s, sizeof(x));
	for (int i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
		put_le32(out + 4 * i, x[i] + s[i]);
}

/* Poly1305 with five 26-bit limbs and 64-bit products (fits 32-bit boards). */
struct poly {
	uint32_t r[5], h[5], pad[4];
};

static void poly_init(struct poly *p, const uint8_t key[32])
{
	uint8_t k[16];
	memcpy(k, key, 16);
	k[3] &= 15, k[7] &= 15, k[11] &= 15, k[15] &= 15; /* clamp */
	k[4] &= 252, k[8] &= 252, k[12] &= 252;
	uint32_t t0 = le32(k), t1 = le32(k + 4), t2 = le32(k + 8), t3 = le32(k + 12);
	p->r[0] = t0 & 0x3ffffff;
	p->r[1] = (t0 >> 26 | t1 << 6) & 0x3ffffff;
	p->r[2] = (t1 >> 20 | t2 << 12) & 0x3ffffff;
	p->r[3] = (t2 >> 14 | t3 << 18) & 0x3ffffff;
	p->r[4] = t3 >> 8;
	memset(p->h, 0, sizeof(p->h));
	for (int i = 0; i < 4; i++)
		p->pad[i] = le32(key + 16 + 4 * i);
}

/* One block of up to 16 bytes; a short block gets its 0x01 byte inside the 16. */
static void poly_block(struct poly *p, const uint8_t *m, size_t n)
{
	uint8_t b[16] = {0};
	uint32_t hibit = n == 16 ? 1u << 24 : 0;
	memcpy(b, m, n);
	if (n < 16)
		b[n] = 1;
	uint32_t t0 = le32(b), t1 = le32(b + 4), t2 = le32(b + 8), t3 = le32(b + 12);
	uint32_t *h = p->h, *r = p->r;
	h[0] += t0 & 0x3ffffff;
	h[1] += (t0 >> 26 | t1 << 6) & 0x3ffffff;
	h[2] += (t1 >> 20 | t2 << 12) & 0x3ffffff;
	h[3] += (t2 >> 14 | t3 << 18) & 0x3ffffff;
	h[4] += t3 >> 8 | hibit;
	/* h * r mod 2^130 - 5: limbs above 2^130 wrap around times 5. */
	uint64_t s1 = r[1] * 5ull, s2 = r[2] * 5ull, s3 = r[3] * 5ull, s4 = r[4] * 5ull;
	uint64_t d0 = (uint64_t)h[0] * r[0] + h[1] * s4 + h[2] * s3 + h[3] * s2 + h[4] * s1;
	uint64_t d1 =
	    (uint64_t)h[0] * r[1] + (uint64_t)h[1] * r[0] + h[2] * s4 + h[3] * s3 + h[4] * s2;
	uint64_t d2 = (uint64_t)h[0] * r[2] + (uint64_t)h[1] * r[1] + (uint64_t)h[2] * r[0] +
		      h[3] * s4 + h[4] * s3;
	uint64_t d3 = (uint64_t)h[0] * r[3] + (uint64_t)h[1] * r[2] + (uint64_t)h[2] * r[1] +
		      (uint64_t)h[3] * r[0] + h[4] * s4;
	uint64_t d4 = (uint64_t)h[0] * r[4] + (uint64_t)h[1] * r[3] + (uint64_t)h[2] * r[2] +
		      (uint64_t)h[3] * r[1] + (uint64_t)h[4] * r[0];
	d1 += d0 >> 26;
	d2 += d1 >> 26;
	d3 += d2 >> 26;
	d4 += d3 >> 26;
	h[0] = (uint32_t)d0 & 0x3ffffff;
	h[1] = (uint32_t)d1 & 0x3ffffff;
	h[2] = (uint32_t)d2 & 0x3ffffff;
	h[3] = (uint32_t)d3 & 0x3ffffff;
	h[4] = (uint32_t)d4 & 0x3ffffff;
	uint64_t c = (d4 >> 26) * 5 + h[0];
	h[0] = (uint32_t)c & 0x3ffffff;
	h[1] += (uint32_t)(c >> 26);
}

static void poly_update(struct poly *p, const uint8_t *m, size_t len, bool pad16)
{
	size_t off = 0;
	for (; len - off >= 16; off += 16)
		poly_block(p, m + off, 16);
	if (off < len) {
		uint8_t b[16] = {0};
		memcpy(b, m + off, len - off);
		/* The AEAD pads its parts with zeros to 16 bytes: full blocks, then. */
		if (pad16)
			poly_block(p, b, 16);
		else
			poly_block(p, b, len - off);
	}
}

static void poly_final(struct poly *p, uint8_t tag[16])
{
	uint32_t *h = p->h, g[5], c;
	/* Full carry, then h - p where that is not negative. */
	c = h[1] >> 26, h[1] &= 0x3ffffff;
	h[2] += c, c = h[2] >> 26, h[2] &= 0x3ffffff;
	h[3] += c, c = h[3] >> 26, h[3] &= 0x3ffffff;
	h[4] += c, c = h[4] >> 26, h[4] &= 0x3ffffff;
	h[0] += c * 5, c = h[0] >> 26, h[0] &= 0x3ffffff;
	h[1] += c;
	g[0] = h[0] + 5, c = g[0] >> 26, g[0] &= 0x3ffffff;
	g[1] = h[1] + c, c = g[1] >> 26, g[1] &= 0x3ffffff;
	g[2] = h[2] + c, c = g[2] >> 26, g[2] &= 0x3ffffff;
	g[3] = h[3] + c, c = g[3] >> 26, g[3] &= 0x3ffffff;
	g[4] = h[4] + c - (1u << 26);
	uint32_t use_g = (g[4] >> 31) - 1; /* all ones when h >= p */
	for (int i = 0; i < 5; i++)
		h[i] = (h[i] & ~use_g) | (g[i] & use_g);
	uint32_t w[4] = {h[0] | h[1] << 26, h[1] >> 6 | h[2] << 20, h[2] >> 12 | h[3] << 14,
			 h[3] >> 18 | h[4] << 8};
	uint64_t f = 0;
	for (int i = 0; i < 4; i++) {
		f = (uint64_t)w[i] + p->pad[i] + (f >> 32);
		put_le32(tag + 4 * i, (uint32_t)f);
	}
}

static void chacha_poly_encrypt(const uint8_t key[32], const struct nb_crypto_req *r, uint8_t *tag)
{
	uint8_t block[64], lens[16];
	struct poly p;
	chacha_block(key, 0, r->iv, block);
	poly_init(&p, block);
	for (uint32_t off = 0, ctr = 1; off < r->len; off += 64, ctr++) {
		chacha_block(key, ctr, r->iv, block);
		for (uint32_t i = 0; i < 64 && off + i < r->len; i++)
			r->out[off + i] = r->in[off + i] ^ block[i];
	}
	poly_update(&p, r->aad, r->aad_len, true);
	poly_update(&p, r->out, r->len, true);
	put_le32(lens, r->aad_len);
	put_le32(lens + 4, 0);
	put_le32(lens + 8, r->len);
	put_le32(lens + 12, 0);
	poly_update(&p, lens, 16, true);
	poly_final(&p, tag);
}

/* --- SHA-1 (FIPS 180-4) and HMAC (RFC 2104); SHA-256 is the core's (sha256.h) --- */

struct sha1 {
	uint32_t h[5];
	uint8_t buf[64];
	size_t fill;
	uint64_t total;
};

static void sha1_init(struct sha1 *s)
{
	static const uint32_t h0[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	memset(s, 0, sizeof(*s));
	memcpy(s->h, h0, sizeof(h0));
}

static void sha1_block(struct sha1 *s, const uint8_t *b)
{
	uint32_t w[80], v[5];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
		       (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rotl32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	memcpy(v, s->h, sizeof(v));
	for (int i = 0; i < 80; i++) {
		uint32_t f, k, b1 = v[1], c = v[2], d = v[3];
		if (i < 20)
			f = (b1 & c) | (~b1 & d), k = 0x5a827999;
		else if (i < 40)
			f = b1 ^ c ^ d, k = 0x6ed9eba1;
		else if (i < 60)
			f = (b1 & c) | (b1 & d) | (c & d), k = 0x8f1bbcdc;
		else
			f = b1 ^ c ^ d, k = 0xca62c1d6;
		uint32_t t = rotl32(v[0], 5) + f + v[4] + k + w[i];
		v[4] = d;
		v[3] = c;
		v[2] = rotl32(b1, 30);
		v[1] = v[0];
		v[0] = t;
	}
	for (int i = 0; i < 5; i++)
		s->h[i] += v[i];
}

static void sha1_update(struct sha1 *s, const uint8_t *d, size_t len)
{
	s->total += len;
	while (len) {
		size_t n = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->buf + s->fill, d, n);
		s->fill += n, d += n, len -= n;
		if (s->fill == 64) {
			sha1_block(s, s->buf);
			s->fill = 0;
		}
	}
}

static void sha1_final(struct sha1 *s, uint8_t out[20])
{
	uint8_t pad[72] = {0x80}, lenb[8];
	size_t padn = (s->fill < 56 ? 56 : 120) - s->fill;
	put_be64(lenb, s->total * 8);
	sha1_update(s, pad, padn);
	sha1_update(s, lenb, 8);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

static void hmac_sha1(const uint8_t *key, uint32_t key_len, const uint8_t *d, size_t len,
		      uint8_t out[20])
{
	struct sha1 s;
	uint8_t k[64] = {0}, pad[64], inner[20];
	if (key_len > 64) {
		sha1_init(&s);
		sha1_update(&s, key, key_len);
		sha1_final(&s, k);
	} else {
		memcpy(k, key, key_len);
	}
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha1_init(&s);
	sha1_update(&s, pad, 64);
	sha1_update(&s, d, len);
	sha1_final(&s, inner);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha1_init(&s);
	sha1_update(&s, pad, 64);
	sha1_update(&s, inner, 20);
	sha1_final(&s, out);
}

static void hmac(bool is256, const uint8_t *key, uint32_t key_len, const uint8_t *d, size_t len,
		 uint8_t *out)
{
	if (is256)
		nb_hmac_sha256(key, key_len, d, len, out);
	else
		hmac_sha1(key, key_len, d, len, out);
}

/* --- the engine --- */

struct ref_sess {
	const struct nb_crypto_algo *a;
	struct aes aes;
	uint8_t key[NB_CRYPTO_MAX_KEY], mac_key[NB_CRYPTO_MAX_KEY];
	uint32_t mac_key_len;
};

static int ref_probe(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 0;
}

static int ref_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		   const struct nb_crypto_keys *k, void **out, char *why, size_t len)
{
	struct ref_sess *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->a = a;
	if (k->key_len > sizeof(s->key) || k->mac_key_len > sizeof(s->mac_key) ||
	    (a->kind != NB_CRYPTO_MAC && strncmp(a->name, "aes-", 4) == 0 &&
	     aes_init(&s->aes, k->key, k->key_len))) {
		snprintf(why, len, "reference: bad key length for %s", a->name);
		free(s);
		return -EINVAL;
	}
	memcpy(s->key, k->key, k->key_len);
	memcpy(s->mac_key, k->mac_key, k->mac_key_len);
	s->mac_key_len = k->mac_key_len;
	*out = s;
	return 0;
}

static int ref_run(void *p, const struct nb_crypto_req *r)
{
	struct ref_sess *s = p;
	const struct nb_crypto_algo *a = s->a;

	switch (a->kind) {
	case NB_CRYPTO_MAC:
		hmac(a->tag_len == 32, s->mac_key, s->mac_key_len, r->in, r->len, r->out);
		return 0;
	case NB_CRYPTO_AEAD:
		if (strncmp(a->name, "aes-", 4))
			chacha_poly_encrypt(s->key, r, r->out + r->len);
		else
			gcm_encrypt(&s->aes, r, r->out + r->len);
		return 0;
	case NB_CRYPTO_CIPHER:
	case NB_CRYPTO_CIPHER_MAC:
		break;
	}
	if (r->len % 16)
		return -EINVAL;
	uint8_t chain[16];
	memcpy(chain, r->iv, 16);
	for (uint32_t off = 0; off < r->len; off += 16) {
		for (int i = 0; i < 16; i++)
			chain[i] ^= r->in[off + i];
		aes_encrypt(&s->aes, chain, chain);
		memcpy(r->out + off, chain, 16);
	}
	if (a->kind == NB_CRYPTO_CIPHER_MAC)
		hmac(false, s->mac_key, s->mac_key_len, r->out, r->len, r->out + r->len);
	return 0;
}

const struct nb_crypto_engine nb_crypto_ref = {
    .name = "reference",
    .summary = "built-in portable C, never timed",
    .kernel = false,
    .probe = ref_probe,
    .session_new = ref_new,
    .driver = NULL,
    .run = ref_run,
    .session_free = free,
};
