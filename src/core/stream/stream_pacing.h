/* SPDX-License-Identifier: BSD-2-Clause */
/* How a stream sender paces: the mode asked for resolved against what the kernel can do on the
 * sending socket's egress interface (SO_TXTIME and an fq qdisc there), and the transmit-time
 * socket option set up when the kernel paces. */
#ifndef NB_STREAM_PACING_H
#define NB_STREAM_PACING_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/pacer.h"

struct nb_stream_pacing {
	enum nb_pacing_mode asked; /* what the user asked for (auto by default) */
	enum nb_pacing_mode mode;  /* what the sender uses: spin, burst or txtime */
	uint32_t burst_asked;	   /* --burst, 0: about 1 ms worth per wake-up */
	char ifname[IF_NAMESIZE];  /* egress interface, "" when unknown */
	char qdisc[40];		   /* its qdisc ("fq", "noqueue", "mq/fq", ...), "?" unknown */
	char why[96];		   /* why not txtime, when auto fell back ("" otherwise) */
};

/* Resolves pc->asked for the connected datagram socket fd (iface: the interface the sender was
 * told to use, or NULL) into pc->mode, enabling SO_TXTIME when the mode is txtime. Returns 0, or
 * -EOPNOTSUPP with a reason in err when txtime was asked for and the kernel cannot. */
int nb_stream_pacing_setup(int fd, const char *iface, struct nb_stream_pacing *pc, char *err,
			   size_t errlen);

#endif
