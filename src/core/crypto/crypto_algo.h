/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's algorithms (sizes, padding, the kernel's names), the engine interface every
 * engine file implements (OpenSSL in process, /dev/crypto, AF_ALG), and the built-in known-answer
 * vectors that check an engine before it is timed. Core API: no printing. */
#ifndef NB_CRYPTO_ALGO_H
#define NB_CRYPTO_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/crypto_proc.h"

#define NB_CRYPTO_MAX_ALGOS 8
#define NB_CRYPTO_MAX_SIZES 16
/* The three engines, or afalg once per kernel driver; one algorithm of a remote run (every
 * engine at 16 sizes) must fit one 64 KB protocol message beside a CPU sample. */
#define NB_CRYPTO_MAX_ENGINES  6
#define NB_CRYPTO_MAX_INFLIGHT 64
#define NB_CRYPTO_MAX_SIZE     65536u
#define NB_CRYPTO_MAX_AAD      64u
#define NB_CRYPTO_MAX_TAG      32u
#define NB_CRYPTO_MAX_KEY      64u

enum nb_crypto_kind {
	NB_CRYPTO_CIPHER,     /* out = ciphertext */
	NB_CRYPTO_AEAD,	      /* out = ciphertext || tag; AAD authenticated */
	NB_CRYPTO_MAC,	      /* out = tag */
	NB_CRYPTO_CIPHER_MAC, /* ESP-style: out = C || HMAC(C), C = CBC(P) */
};

struct nb_crypto_algo {
	const char *name; /* as the user types it: "aes-128-gcm" */
	enum nb_crypto_kind kind;
	uint32_t key_len, mac_key_len, iv_len, tag_len;
	uint32_t block_len;	 /* requests are padded to this (CBC), 1 otherwise */
	const char *kernel_name; /* crypto API name, as /proc/crypto lists it */
	const char *kernel_type; /* AF_ALG socket type */
};

extern const struct nb_crypto_algo nb_crypto_algos[];
extern const size_t nb_crypto_nalgos;
const struct nb_crypto_algo *nb_crypto_algo_find(const char *name);
/* Bytes the engine processes for a request of size bytes (CBC pads to the block, as ESP does). */
uint32_t nb_crypto_padded_len(const struct nb_crypto_algo *a, uint32_t size);
/* Bytes the engine writes for len input bytes: the tag sits at the end. */
uint32_t nb_crypto_out_len(const struct nb_crypto_algo *a, uint32_t len);

/* One request. out holds nb_crypto_out_len(len) bytes. */
struct nb_crypto_req {
	const uint8_t *in;
	uint8_t *out;
	uint32_t len;
	const uint8_t *iv;
	const uint8_t *aad; /* AEAD only */
	uint32_t aad_len;
};

/* Keys for a session; mac_key only for MAC and CIPHER_MAC. */
struct nb_crypto_keys {
	const uint8_t *key, *mac_key;
	uint32_t key_len, mac_key_len;
};

/* An engine: one file each (crypto_soft.c, crypto_devcrypto.c, crypto_afalg.c). Callbacks
 * return 0 or a negative errno and put a reason into why on failure. A session belongs to one
 * thread. -EOPNOTSUPP from session_new means the engine does not offer the algorithm. */
struct nb_crypto_engine {
	const char *name;
	const char *summary;
	bool kernel;
	int (*probe)(char *why, size_t len);
	int (*session_new)(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
			   const struct nb_crypto_keys *k, void **sess, char *why, size_t len);
	/* Fills drv (kernel engines; NULL callback for soft). */
	int (*driver)(void *sess, struct nb_crypto_driver *drv);
	int (*run)(void *sess, const struct nb_crypto_req *req);
	void (*session_free)(void *sess);
	/* afalg:DRIVER: bind this implementation (a driver name as /proc/crypto lists it) instead
	 * of the kernel's choice for the algorithm; NULL for the kernel's choice. */
	const char *kernel_driver;
};

extern const struct nb_crypto_engine nb_crypto_soft, nb_crypto_devcrypto, nb_crypto_afalg;
/* The built-in reference (portable C, crypto_ref.c): the comparison where soft is absent. Not in
 * the engine table: it is never timed. */
extern const struct nb_crypto_engine nb_crypto_ref;
/* Every engine, soft first (it is the reference). NULL-terminated. */
extern const struct nb_crypto_engine *const nb_crypto_engines[];
const struct nb_crypto_engine *nb_crypto_engine_find(const char *name);

/* A published known-answer vector for an algorithm (NIST SP 800-38A, the GCM specification,
 * RFC 8439, RFC 2202/4231). Built in so that a board without OpenSSL can still check its
 * kernel engines. */
struct nb_crypto_kat {
	const char *algo;
	const char *source;
	const char *key, *mac_key, *iv, *aad, *in, *out; /* hex */
};
extern const struct nb_crypto_kat nb_crypto_kats[];
const struct nb_crypto_kat *nb_crypto_kat_find(const char *algo);
/* Decodes hex into buf; returns the byte count or -EINVAL / -E2BIG. */
int nb_crypto_hex(const char *hex, uint8_t *buf, size_t cap);
/* Runs the algorithm's vector through sess. Returns 0, -EBADMSG on a wrong answer (why names
 * the first differing byte), or the engine's error. */
int nb_crypto_kat_check(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a, char *why,
			size_t len);

/* The kernel drivers of a's transform, best priority first, after instantiating the template
 * over every implementation of its innermost part (cbc(aes-generic) beside cbc(aes)'s
 * hardware driver). Returns the count (0 without AF_ALG). */
size_t nb_crypto_afalg_drivers(const struct nb_crypto_algo *a, char (*drivers)[80], size_t max);

#endif
