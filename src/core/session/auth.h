/* SPDX-License-Identifier: BSD-2-Clause */
/* Pre-shared-key challenge-response for the control connection: each side proves knowledge of
 * the key with HMAC-SHA256 over both sides' fresh nonces and its role; the key never crosses the
 * wire and a recorded exchange cannot be replayed. */
#ifndef NB_AUTH_H
#define NB_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define NB_NONCE_LEN 32
#define NB_PSK_MAX   256

/* Reads a key file (trailing newline dropped). -ENOENT/-EACCES from open, -EINVAL when empty,
 * -EFBIG when longer than NB_PSK_MAX bytes. */
int nb_psk_load(const char *path, uint8_t *key, size_t *len);
/* role is "controller" or "agent". */
void nb_auth_proof(const uint8_t *key, size_t key_len, const char *role,
		   const uint8_t cnonce[NB_NONCE_LEN], const uint8_t snonce[NB_NONCE_LEN],
		   uint8_t out[32]);
int nb_random_bytes(void *buf, size_t len);

#endif
