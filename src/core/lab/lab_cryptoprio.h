/* SPDX-License-Identifier: BSD-2-Clause */
/* Changing a kernel crypto driver's priority (crypto_user netlink), for `lab up
 * --crypto-driver`. */
#ifndef NB_LAB_CRYPTOPRIO_H
#define NB_LAB_CRYPTOPRIO_H

#include <stddef.h>

/* CRYPTO_MSG_UPDATEALG for the driver: sets its priority (priority >= 0), and in any case drops
 * the template instances built on it, so that the next transform is built anew. Returns 0 or a
 * negative errno with the reason in why. Needs CAP_NET_ADMIN. */
int nb_crypto_user_update(const char *driver, int priority, char *why, size_t len);

/* What nb_crypto_driver_raise did: the driver's algorithm, its priority before and after, and
 * the driver the kernel chose before (empty when it was this one already). */
struct nb_crypto_raise {
	char name[64];
	int old_priority, priority;
	char former[64];
};

/* Makes driver this kernel's choice for its algorithm (a template driver such as
 * cbc(aes-generic) is instantiated first): above every other driver of that algorithm, and the
 * former choice's template instances dropped, so that the next transform (an SA's) is built
 * on driver. With algos (NULL-terminated), a driver whose algorithm is none of them is refused
 * (-EINVAL) before anything changes; -ENOENT for a driver this kernel does not have. The reason
 * goes into why. */
int nb_crypto_driver_raise(const char *driver, const char *const *algos, struct nb_crypto_raise *r,
			   char *why, size_t len);

#endif
