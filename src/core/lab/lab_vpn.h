/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's VPN between the DUT and the sink (`lab up --vpn`), and the crypto driver it must
 * use (`--crypto-driver`). */
#ifndef NB_LAB_VPN_H
#define NB_LAB_VPN_H

#include "core/lab/lab_base.h"

/* kind "esp" or "wireguard"; algo for ESP. */
struct nb_lab_vpn_spec {
	char kind[12];
	char algo[24];
};
/* Parses "esp", "esp:ALGO" (aes-cbc-hmac-sha1, aes-gcm, chacha20-poly1305) or "wireguard".
 * -EINVAL for anything else. */
int nb_lab_vpn_parse(const char *spec, struct nb_lab_vpn_spec *v);
/* ip may quote the argument it could not parse: whatever looks like a key in s (0x and 16 or
 * more hex digits) becomes "0x...", in place, before s goes into an error message. */
void nb_lab_redact_keys(char *s);
/* Builds lab->vpn between the DUT and the sink, with random keys. -EPROTONOSUPPORT with a one
 * line lab->err when the kernel lacks it. */
int nb_lab_vpn_up(struct nb_lab *lab);
/* With a board at one end of an ESP tunnel and a namespace at the other: whether this host's
 * kernel takes an ESP SA (a throwaway one in the generator's namespace). -EPROTONOSUPPORT with
 * the reason in lab->err when it does not; 0 otherwise, and for every other lab. Run before a
 * board boots. */
int nb_lab_vpn_host_check(struct nb_lab *lab);
/* Makes lab->crypto_driver the kernel's choice for its algorithm; *old_priority gets the
 * priority to restore. */
int nb_lab_crypto_driver_set(struct nb_lab *lab, int *old_priority);

#endif
