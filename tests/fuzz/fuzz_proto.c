/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for everything that parses bytes from the network or /proc: message
 * headers, TLV validation and every getter, the context blocks, the agent's caps, the CPU-load
 * record, tput and rate counters (with rate --bidir's reverse counts), test frame payloads,
 * /proc/stat. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cpu.h"
#include "core/rate/frame.h"
#include "core/session/caps.h"
#include "core/session/proto.h"
#include "core/rate/rate_wire.h"
#include "core/rate/rate_agent_rev.h"
#include "core/tput/tput.h"
#include "core/tput/tput_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	static struct nb_cpu_sample cpu;
	static struct nb_rx_snap rs;
	static struct nb_rate_rev_counts rc;
	struct nb_payload pl;
	struct nb_sysinfo si;
	struct nb_tput_counters c;
	struct nb_caps caps;
	struct nb_cpu_load load;
	const uint8_t *bytes;
	size_t nbytes;
	uint16_t type;
	uint32_t len, u32;
	uint64_t u64;
	double d;
	char s[256], *text;

	if (size >= NB_MSG_HDR && nb_msg_parse_header(data, &type, &len) == 0 &&
	    len <= size - NB_MSG_HDR) {
		m.type = type;
		m.len = len;
		memcpy(m.data, data + NB_MSG_HDR, len);
		if (nb_msg_validate(&m) == 0) {
			for (uint16_t tag = 0; tag < 600; tag++) {
				nb_msg_get_u32(&m, tag, &u32);
				nb_msg_get_u64(&m, tag, &u64);
				nb_msg_get_double(&m, tag, &d);
				nb_msg_get_str(&m, tag, s, sizeof(s));
				nb_tput_get_counters(&m, tag, &c);
				nb_msg_get_bytes(&m, tag, &bytes, &nbytes);
			}
			nb_rate_snap_get(&m, &rs);
			nb_rate_rev_get(&m, &rc);
			nb_proto_get_sysinfo(&m, &si);
			nb_proto_get_cpu(&m, &cpu);
			nb_caps_get(&m, &caps);
		}
	}
	nb_payload_get(data, size, &pl);
	if (size >= NB_LOAD_WIRE_BYTES) /* the CPU-load record every test's result carries */
		nb_proto_decode_load(data, &load);
	text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
		nb_cpu_parse_stat(text, &cpu);
		free(text);
	}
	return 0;
}
