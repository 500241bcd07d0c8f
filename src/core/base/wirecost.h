/* SPDX-License-Identifier: BSD-2-Clause */
/* What a paced send costs on the wire: packets per second and bits per second with every
 * header and the Ethernet framing counted, from a payload rate and a payload per packet.
 * Overflow-checked, since both numbers may come from a peer. */
#ifndef NB_WIRECOST_H
#define NB_WIRECOST_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes on the wire around one payload: preamble 8, Ethernet header 14, FCS 4, gap 12, plus
 * IP and the transport header. */
#define NB_WIRE_ETH_BYTES  38u
#define NB_WIRE_UDP4_BYTES (NB_WIRE_ETH_BYTES + 20u + 8u)
#define NB_WIRE_UDP6_BYTES (NB_WIRE_ETH_BYTES + 40u + 8u)
#define NB_WIRE_TCP4_BYTES (NB_WIRE_ETH_BYTES + 20u + 32u) /* with timestamps */
#define NB_WIRE_TCP6_BYTES (NB_WIRE_ETH_BYTES + 40u + 32u)
#define NB_WIRE_TCP_MSS	   1448u /* payload of a full segment on a 1500-byte MTU */

/* payload_bps spread over packets of payload_bytes (> 0): *pps rounded up, *wire_bps the
 * framed bits. Returns 0, or -ERANGE when a product does not fit 64 bits. */
int nb_wire_cost(uint64_t payload_bps, uint32_t payload_bytes, uint32_t overhead_bytes,
		 uint64_t *pps, uint64_t *wire_bps);
/* a * b and a + b into *out; false when the result does not fit. */
bool nb_mul_u64(uint64_t a, uint64_t b, uint64_t *out);
bool nb_add_u64(uint64_t a, uint64_t b, uint64_t *out);

#endif
