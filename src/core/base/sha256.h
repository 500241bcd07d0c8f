/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104), for the agent's pre-shared-key
 * challenge-response. In the core so that the agent needs libc only. */
#ifndef NB_SHA256_H
#define NB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define NB_SHA256_LEN 32

struct nb_sha256 {
	uint32_t h[8];
	uint64_t total;
	uint8_t buf[64];
	size_t fill;
};

void nb_sha256_init(struct nb_sha256 *c);
void nb_sha256_update(struct nb_sha256 *c, const void *data, size_t len);
void nb_sha256_final(struct nb_sha256 *c, uint8_t out[NB_SHA256_LEN]);
void nb_hmac_sha256(const uint8_t *key, size_t key_len, const void *msg, size_t msg_len,
		    uint8_t out[NB_SHA256_LEN]);
/* Compares in time independent of where the buffers differ. Returns 1 when equal. */
int nb_ct_equal(const uint8_t *a, const uint8_t *b, size_t len);

#endif
