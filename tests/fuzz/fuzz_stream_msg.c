/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the stream test's control records, as an agent and a controller read
 * them from each other: the request (role, address, rates, steps, TTL), the receiver's steps,
 * the sender's steps and its pacing decision, each step's kernel profile (the input as one message
 * payload of TLV items); and the same bytes as a stream datagram's header, with the jitter it
 * feeds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/proto.h"
#include "core/stream/stream.h"
#include "core/stream/stream_msg.h"
#include "core/stream/stream_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	static struct nb_stream_req req;
	static struct nb_stream_pacing pc;
	static struct nb_stream_send_step sent[NB_STREAM_MAX_STEPS];
	struct nb_stream_rx *rx = NULL;
	enum nb_stream_end end;
	static struct nb_jitter j;
	static uint64_t now;
	struct nb_stream_hdr h;

	if (nb_stream_hdr_decode(data, size, &h) == 0)
		nb_jitter_update(&j, h.send_ns, now += 1000);
	if (size > NB_MSG_MAX)
		return 0;
	m.type = NB_MSG_TEST_REQ;
	m.len = (uint32_t)size;
	memcpy(m.data, data, size);
	if (nb_msg_validate(&m))
		return 0;
	nb_stream_req_get(&m, &req);
	nb_stream_sent_get(&m, sent, NB_STREAM_MAX_STEPS);
	nb_stream_pacing_get(&m, &pc);
	{
		struct nb_prof_result *prof[NB_STREAM_MAX_STEPS];
		if (nb_stream_prof_get(&m, prof, NB_STREAM_MAX_STEPS) == 0)
			for (size_t i = 0; i < NB_STREAM_MAX_STEPS; i++)
				free(prof[i]);
	}
	if (nb_stream_rx_new(&rx) == 0) {
		nb_stream_rx_get(&m, rx, &end);
		nb_stream_rx_free(rx);
	}
	return 0;
}
