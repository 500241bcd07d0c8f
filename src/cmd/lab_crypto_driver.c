/* SPDX-License-Identifier: BSD-2-Clause */
/* `netbench lab crypto-driver DRIVER [ALGO...]`: raises DRIVER above every other driver of its
 * algorithm in this kernel (core/lab/lab_cryptoprio.c, crypto_user netlink), so that the next
 * transform, an ESP SA's, is built on it. The lab runs it inside a board, before the SAs; the
 * board is powered off at `lab down`, so nothing is restored. */
#include "cmd/lab_crypto_driver.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/lab/lab_cryptoprio.h"

int lab_crypto_driver(int argc, char **argv)
{
	struct nb_crypto_raise r;
	char why[400];
	int ret;

	if (argc < 2 || argv[1][0] == '-')
		cli_usage_error(
		    "crypto-driver needs a DRIVER (a driver line of /proc/crypto), then "
		    "the ALGOs it may implement");
	if (geteuid() != 0)
		cli_fail(0, "crypto-driver needs root (crypto_user's netlink API needs "
			    "CAP_NET_ADMIN)");
	ret = nb_crypto_driver_raise(argv[1], argc > 2 ? (const char *const *)argv + 2 : NULL, &r,
				     why, sizeof(why));
	if (ret)
		cli_fail(0, "crypto-driver: %s", why);
	if (r.former[0])
		printf("%s for %s: priority %d -> %d, above %s\n", argv[1], r.name, r.old_priority,
		       r.priority, r.former);
	else
		printf("%s for %s: priority %d, already the kernel's choice\n", argv[1], r.name,
		       r.priority);
	return 0;
}
