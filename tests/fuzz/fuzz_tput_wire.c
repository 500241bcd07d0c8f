/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the tput test's codec: the bytes are a FINAL payload (the agent's
 * receive and send counters, its senders' pacing figures), read as the controller reads them,
 * and, as well, a UDP test datagram whose header feeds the receiver's sequence tracking (loss,
 * reordering, duplicates). Built with -DFUZZ_SEED it writes a valid FINAL payload to stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/proto.h"
#include "core/tput/tput.h"

#ifdef FUZZ_SEED
int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	struct nb_tput_counters c = {.bytes = 1 << 20,
				     .datagrams = 1024,
				     .expected = 1030,
				     .unique = 1020,
				     .reordered = 3,
				     .duplicates = 1,
				     .pacing_cpu_ns = 5000,
				     .pacing_wakeups = 40},
				back;
	if (!m || nb_tput_put_counters(m, NB_T_TPUT_AGENT_RX, &c) ||
	    nb_tput_put_counters(m, NB_T_TPUT_AGENT_TX, &c) || nb_tput_put_pacing(m, &c) ||
	    nb_tput_get_counters(m, NB_T_TPUT_AGENT_RX, &back) || nb_tput_get_pacing(m, &back))
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
	static struct nb_seq_track track;
	static uint64_t datagrams;
	struct nb_tput_counters rx, tx;
	uint32_t stream;
	uint64_t seq;

	if (nb_tput_udp_hdr_get(data, size, &stream, &seq) == 0) {
		nb_seq_track_add(&track, seq);
		/* Each datagram is either new to the receiver or a duplicate, never both nor
		 * neither. (One older than the window counts as new: the reconciliation with the
		 * sender's count is what catches a peer that replays old ones.) */
		if (track.unique + track.duplicates != ++datagrams ||
		    track.reordered > track.unique)
			abort();
	}
	if (size > NB_MSG_MAX)
		return 0;
	m.type = NB_MSG_FINAL;
	m.len = (uint32_t)size;
	memcpy(m.data, data, size);
	if (nb_msg_validate(&m))
		return 0;
	memset(&rx, 0, sizeof(rx));
	memset(&tx, 0, sizeof(tx));
	(void)nb_tput_get_counters(&m, NB_T_TPUT_AGENT_RX, &rx);
	(void)nb_tput_get_counters(&m, NB_T_TPUT_AGENT_TX, &tx);
	(void)nb_tput_get_pacing(&m, &tx);
	return 0;
}
#endif
