/* SPDX-License-Identifier: BSD-2-Clause */
/* Frame-size mixes for `netbench rate --imix` (IMIX): sizes and weights, and the repeating
 * pattern that interleaves them in proportion (a smooth weighted round robin: simple IMIX 7:4:1
 * never sends the seven 64-byte frames back to back). Frame k of a flow has the size at pattern
 * position k % length, so what was sent of each size follows from the frame counts alone. */
#ifndef NB_MIX_H
#define NB_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NB_MIX_MAX	   8	/* sizes in a mix */
#define NB_MIX_PATTERN_MAX 1024 /* the weights' sum (after dividing by their gcd) */

struct nb_mix {
	char spec[128]; /* as given: "simple" or "64:7,570:4,1518:1" */
	uint32_t n;
	uint32_t bytes[NB_MIX_MAX], weight[NB_MIX_MAX]; /* frame bytes (FCS included), weights */
	uint32_t plen;
	uint8_t pattern[NB_MIX_PATTERN_MAX]; /* index into bytes for each position */
	double mean_bytes;		     /* the mix's mean frame size */
};

/* "simple" (64:7, 570:4, 1518:1) or SIZE:WEIGHT,... (2 to 8 distinct sizes from min_bytes to
 * max_bytes, weights 1 to 1000, their sum after dividing by the gcd at most 1024). 0, or
 * -EINVAL with err naming the part and the accepted range. */
int nb_mix_parse(const char *spec, uint32_t min_bytes, uint32_t max_bytes, struct nb_mix *m,
		 char *err, size_t errlen);
/* Frames of size index i among a flow's first n frames. */
uint64_t nb_mix_count(const struct nb_mix *m, uint32_t i, uint64_t n);
/* The largest and smallest frame of the mix. */
uint32_t nb_mix_max_bytes(const struct nb_mix *m);
uint32_t nb_mix_min_bytes(const struct nb_mix *m);

/* A mix as SIZE:WEIGHT,... (what nb_mix_parse reads back to the same mix), as --bidir sends it
 * to the agent. 0, or -1 when len is too short. */
int nb_mix_format(const struct nb_mix *m, char *buf, size_t len);

struct nb_rx_snap;
struct nb_trial_counts;
/* A trial's frames of each size: sent (mix_tx, from each flow's frame count and the pattern)
 * and received (mix_rx, the receiver's counts by the size's UDP payload length for family;
 * mine: the snapshot is this trial's). *known: the receiver counts by length. Makes c invalid,
 * with the reason, when a size received more than was sent of it or the sizes do not add up
 * to c->rx. Pure (mix_rx.c). */
void nb_mix_reconcile(const struct nb_mix *m, int family, const uint64_t *tx_flow, uint32_t flows,
		      const struct nb_rx_snap *sn, bool mine, uint64_t *mix_tx, uint64_t *mix_rx,
		      bool *known, struct nb_trial_counts *c);

#endif
