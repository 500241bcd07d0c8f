/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the datagrams a receiver takes from the network: a tput UDP header, a
 * rate test frame or reflected probe, and the rate receiver's per-frame accounting (flows,
 * trials, duplicate and reorder bitmaps), which is included here from its source to reach its
 * static counter. Stream datagrams are in fuzz_stream_msg.c. */
#include "../../src/core/rate/raterx.c"

#include <sys/socket.h>

#include "core/rate/frame.h"
#include "core/tput/tput.h"
#include "core/tput/tput_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_rx *rx;
	static uint64_t now = 1;
	struct nb_payload pl;
	uint32_t stream;
	uint64_t seq;

	if (!rx) {
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || nb_rx_new(&rx, fd, true))
			return 0;
	}
	nb_tput_udp_hdr_get(data, size, &stream, &seq);
	nb_payload_get(data, size, &pl);
	nb_reflect_get(data, size, &pl);
	count(rx->w[0], data, size < 64 ? size : 64, size, now);
	now += 1000;
	return 0;
}
