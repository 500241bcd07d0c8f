/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 per FIPS 180-4, big-endian message schedule made explicit so it is correct on both
 * byte orders; HMAC per RFC 2104. */
#include "core/base/sha256.h"

#include <string.h>

#include "core/base/wire.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void block(struct nb_sha256 *c, const uint8_t *p)
{
	uint32_t w[64], a, b, d, e, f, g, h, cc, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = nb_get_be32(p + 4 * i);
	for (; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
	e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
		h = g, g = f, f = e, e = d + t1, d = cc, cc = b, b = a, a = t1 + t2;
	}
	c->h[0] += a, c->h[1] += b, c->h[2] += cc, c->h[3] += d;
	c->h[4] += e, c->h[5] += f, c->h[6] += g, c->h[7] += h;
}

void nb_sha256_init(struct nb_sha256 *c)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, iv, sizeof(iv));
	c->total = 0;
	c->fill = 0;
}

void nb_sha256_update(struct nb_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = data;
	c->total += len;
	while (len) {
		size_t n = 64 - c->fill < len ? 64 - c->fill : len;
		memcpy(c->buf + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill == 64) {
			block(c, c->buf);
			c->fill = 0;
		}
	}
}

void nb_sha256_final(struct nb_sha256 *c, uint8_t out[NB_SHA256_LEN])
{
	uint64_t bits = c->total * 8;
	uint8_t pad = 0x80, zero = 0, len[8];
	nb_sha256_update(c, &pad, 1);
	while (c->fill != 56)
		nb_sha256_update(c, &zero, 1);
	nb_put_be64(len, bits);
	nb_sha256_update(c, len, 8);
	for (int i = 0; i < 8; i++)
		nb_put_be32(out + 4 * i, c->h[i]);
}

void nb_hmac_sha256(const uint8_t *key, size_t key_len, const void *msg, size_t msg_len,
		    uint8_t out[NB_SHA256_LEN])
{
	uint8_t k[64] = {0}, pad[64], inner[NB_SHA256_LEN];
	struct nb_sha256 c;

	if (key_len > 64) {
		nb_sha256_init(&c);
		nb_sha256_update(&c, key, key_len);
		nb_sha256_final(&c, k);
	} else if (key_len) {
		memcpy(k, key, key_len);
	}
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	nb_sha256_init(&c);
	nb_sha256_update(&c, pad, 64);
	nb_sha256_update(&c, msg, msg_len);
	nb_sha256_final(&c, inner);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	nb_sha256_init(&c);
	nb_sha256_update(&c, pad, 64);
	nb_sha256_update(&c, inner, sizeof(inner));
	nb_sha256_final(&c, out);
}

int nb_ct_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
	uint8_t d = 0;
	for (size_t i = 0; i < len; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}
