/* SPDX-License-Identifier: BSD-2-Clause */
/* /proc/crypto: the kernel's registered implementations, which one the kernel would pick for a
 * name, and whether a driver name is a CPU implementation or a hardware engine. */
#ifndef NB_CRYPTO_PROC_H
#define NB_CRYPTO_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "core/crypto/crypto_algo.h"

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

#endif
