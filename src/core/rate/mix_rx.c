/* SPDX-License-Identifier: BSD-2-Clause */
/* --imix at a receiver (mix.h): each size's frames sent, from the flows' frame counts and the
 * pattern, against the receiver's counts by payload length; shared by the forward direction
 * and --bidir's reverse. Pure. */
#include <stdio.h>

#include "core/rate/frame.h"
#include "core/rate/mix.h"
#include "core/rate/raterx.h"

void nb_mix_reconcile(const struct nb_mix *m, int family, const uint64_t *tx_flow, uint32_t flows,
		      const struct nb_rx_snap *sn, bool mine, uint64_t *mix_tx, uint64_t *mix_rx,
		      bool *known, struct nb_trial_counts *c)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < m->n; i++) {
		size_t pl = nb_frame_payload_bytes(family, m->bytes[i]);
		mix_tx[i] = 0;
		for (uint32_t f = 0; f < flows; f++)
			mix_tx[i] += nb_mix_count(m, i, tx_flow[f]);
		mix_rx[i] = 0;
		for (uint32_t k = 0; mine && k < sn->nlens; k++)
			if (sn->len_bytes[k] == pl)
				mix_rx[i] += sn->len_rx[k];
	}
	*known = sn->lens_known;
	if (!*known || !c->valid || !mine)
		return;
	/* Each size received at most what was sent of it, and the sizes add up to what was
	 * received: a frame of another length, or more of a size than sent, is not this mix's. */
	for (uint32_t i = 0; i < m->n; i++) {
		sum += mix_rx[i];
		if (mix_rx[i] > mix_tx[i]) {
			c->valid = false;
			snprintf(c->why, sizeof(c->why),
				 "%u-byte frames: received %llu of %llu sent", m->bytes[i],
				 (unsigned long long)mix_rx[i], (unsigned long long)mix_tx[i]);
			return;
		}
	}
	if (sum != c->rx) {
		c->valid = false;
		snprintf(c->why, sizeof(c->why),
			 "the mix's sizes add up to %llu received frames, not %llu",
			 (unsigned long long)sum, (unsigned long long)c->rx);
	}
}

int nb_mix_format(const struct nb_mix *m, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < m->n; i++) {
		int w =
		    snprintf(buf + n, len - n, "%s%u:%u", i ? "," : "", m->bytes[i], m->weight[i]);
		if (w < 0 || (size_t)w >= len - n)
			return -1;
		n += (size_t)w;
	}
	return 0;
}
