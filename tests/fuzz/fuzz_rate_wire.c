/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the rate test's codec: the bytes are the FINAL payload of a trial (the
 * agent receiver's snapshot: per-flow counts, sequence ends, the latency histogram), decoded as
 * the controller decodes it, then reconciled against what the sender sent, merged and its
 * latency quantiles taken, as a trial's result is. Built with -DFUZZ_SEED it writes a valid
 * snapshot to stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hist.h"
#include "core/rate/rate_wire.h"
#include "core/rate/raterx.h"
#include "core/session/proto.h"

#ifdef FUZZ_SEED
int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	static struct nb_rx_snap s, back;
	s.trial = 3;
	s.any = true;
	s.rx = 1598;
	/* Past 1024 flows, so that the counts travel as runs (the decoder with the most to
	 * check); t_raterx covers the plain arrays of fewer flows. */
	s.flows = 1100;
	for (uint32_t f = 0; f < s.flows; f++) {
		s.rx_flow[f] = f < 600 ? 1 : f == 700 ? 0 : 2;
		s.seq_end[f] = f < 600 ? 1 : 2;
	}
	s.mmsg = true;
	for (int i = 0; i < 990; i++)
		nb_hist_add(&s.lat, 20000 + (uint64_t)i * 10);
	if (!m || nb_rate_snap_put(m, &s) || nb_rate_snap_get(m, &back))
		return 1; /* a seed the decoder refuses would fuzz nothing */
	fwrite(m->data, 1, m->len, stdout);
	nb_msg_free(m);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	static struct nb_rx_snap s, sum;
	static uint64_t tx_flow[NB_GEN_MAX_FLOWS];
	struct nb_trial_counts c;

	if (size > NB_MSG_MAX)
		return 0;
	m.type = NB_MSG_FINAL;
	m.len = (uint32_t)size;
	memcpy(m.data, data, size);
	if (nb_msg_validate(&m) || nb_rate_snap_get(&m, &s))
		return 0;
	/* The sender's counts: what the receiver saw, give or take (a sender counts below
	 * 2^40 frames a flow: the sum cannot wrap). */
	for (uint32_t i = 0; i < s.flows; i++)
		tx_flow[i] = (s.seq_end[i] & 0xffffffffffULL) + (i & 1);
	nb_rx_reconcile(tx_flow, s.flows, s.trial, &s, &c);
	if (!memchr(c.why, '\0', sizeof(c.why)) || (c.valid && c.rx > c.tx))
		abort();
	nb_rx_reconcile(tx_flow, s.flows, (uint16_t)(s.trial + 1), &s, &c);
	memset(&sum, 0, sizeof(sum));
	nb_rx_snap_merge(&sum, &s);
	(void)nb_hist_quantile(&sum.lat, 0.5);
	(void)nb_hist_quantile(&sum.lat, 0.99);
	(void)nb_hist_quantile(&s.lat, 1.0);
	return 0;
}
#endif
