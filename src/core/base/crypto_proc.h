/* SPDX-License-Identifier: BSD-2-Clause */
/* /proc/crypto: the kernel's registered implementations, which one the kernel would pick for a
 * name, and whether a driver name is a CPU implementation or a hardware engine. Below the
 * tests: crypto's engines and the lab's --crypto-driver both read it. */
#ifndef NB_CRYPTO_PROC_H
#define NB_CRYPTO_PROC_H

#include <stdbool.h>
#include <stddef.h>

/* Which kernel driver serves a session, where the engine can tell. */
struct nb_crypto_driver {
	char name[64];	 /* crypto API name, e.g. "cbc(aes)" */
	char driver[64]; /* implementation, e.g. "cbc-aes-talitos" */
	char module[32];
	int priority;	     /* -1 when unknown */
	int hw;		     /* 1 hardware, 0 CPU, -1 unknown */
	char mac_driver[64]; /* second transform (devcrypto's HMAC half) */
};

/* /proc/crypto: one entry per registered implementation. */
struct nb_proc_crypto_alg {
	char name[64], driver[64], module[32], type[24];
	int priority;
	bool selftest_passed, internal, async;
};
/* Parses /proc/crypto text into algs (at most max); returns the count or -EINVAL. */
int nb_proc_crypto_parse(const char *text, struct nb_proc_crypto_alg *algs, size_t max);
/* The implementation the kernel would pick for name: highest priority, passed its self-test,
 * not internal. NULL if none. */
const struct nb_proc_crypto_alg *nb_proc_crypto_best(const struct nb_proc_crypto_alg *algs,
						     size_t n, const char *name);
const struct nb_proc_crypto_alg *nb_proc_crypto_by_driver(const struct nb_proc_crypto_alg *algs,
							  size_t n, const char *driver);
/* Reads /proc/crypto (path for tests; NULL for the real one) and fills drv for name or driver. */
int nb_proc_crypto_lookup(const char *path, const char *name, const char *driver,
			  struct nb_crypto_driver *drv);
/* 0 when the driver name is a CPU implementation (generic C, AES-NI, ARM CE/NEON...), 1 when
 * it names no known CPU implementation (a hardware engine such as talitos or caam), as a
 * hint; -1 when empty. */
int nb_crypto_driver_is_hw(const char *driver);
/* Instantiates name (a template over implementations, e.g. cbc(aes-generic)) of an AF_ALG type
 * (skcipher, aead, hash) by binding an AF_ALG socket to it; the kernel then lists it in
 * /proc/crypto. Does nothing where the kernel has no AF_ALG or refuses the name. */
void nb_proc_crypto_instantiate(const char *type, const char *name);

#endif
