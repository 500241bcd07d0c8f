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

#endif
