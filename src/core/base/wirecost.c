/* SPDX-License-Identifier: BSD-2-Clause */
/* Wire cost of a paced send (see wirecost.h). */
#include "core/base/wirecost.h"

#include <errno.h>

bool nb_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

bool nb_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

int nb_wire_cost(uint64_t payload_bps, uint32_t payload_bytes, uint32_t overhead_bytes,
		 uint64_t *pps, uint64_t *wire_bps)
{
	uint64_t bits_per_pkt = (uint64_t)payload_bytes * 8, n;

	if (!payload_bytes)
		return -ERANGE;
	n = payload_bps / bits_per_pkt + (payload_bps % bits_per_pkt != 0);
	if (!nb_mul_u64(n, ((uint64_t)payload_bytes + overhead_bytes) * 8, wire_bps))
		return -ERANGE;
	*pps = n;
	return 0;
}
