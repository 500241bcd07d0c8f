/* SPDX-License-Identifier: BSD-2-Clause */
/* Request marshalling of the kernel engines (devcrypto, AF_ALG), apart from the system calls so
 * that unit tests can check it on machines without /dev/crypto or AF_ALG. */
#ifndef NB_CRYPTO_KERNEL_H
#define NB_CRYPTO_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/crypto/compat_cryptodev.h"
#include "core/crypto/crypto_algo.h"

/* Fills the CIOCGSESSION request for a's cipher half (mac_half false) or HMAC half. Returns 0,
 * -EOPNOTSUPP when cryptodev has no such operation, or -ENOENT when a has no such half. */
int nb_cryptodev_session_fill(const struct nb_crypto_algo *a, const struct nb_crypto_keys *k,
			      bool mac_half, struct nb_cryptodev_session_op *s);
/* CIOCCRYPT for one request: the cipher over in (mac_half false) or the HMAC over in. */
void nb_cryptodev_crypt_fill(const struct nb_crypto_algo *a, uint32_t ses, bool mac_half,
			     const struct nb_crypto_req *r, const uint8_t *in,
			     struct nb_cryptodev_crypt_op *op);
/* CIOCAUTHCRYPT for one AEAD request. */
void nb_cryptodev_auth_fill(const struct nb_crypto_algo *a, uint32_t ses,
			    const struct nb_crypto_req *r, struct nb_cryptodev_crypt_auth_op *op);

/* The key of the kernel's authenc() template: an rtattr carrying the cipher key length
 * (big-endian), then the HMAC key, then the cipher key. Returns the length or -E2BIG. */
int nb_afalg_authenc_key(const struct nb_crypto_keys *k, uint8_t *buf, size_t cap);
/* Control messages of one AF_ALG sendmsg: encrypt, the IV (when iv_len > 0), and the AAD
 * length (when assoclen >= 0). Returns the control length or -E2BIG. */
int nb_afalg_cmsg(uint8_t *buf, size_t cap, const uint8_t *iv, uint32_t iv_len, int assoclen);
#define NB_AFALG_CMSG_SPACE 128

#endif
