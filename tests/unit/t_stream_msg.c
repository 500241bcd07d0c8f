/* SPDX-License-Identifier: BSD-2-Clause */
/* Stream items over the control protocol: request and counters survive a round trip, and
 * malformed items are refused. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stream/stream_msg.h"
#include "tap.h"

int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_TEST_REQ);
	static struct nb_stream_rx rx, back;
	struct nb_stream_req req, got;
	struct nb_stream_send_step sent[2], sback[4];
	enum nb_stream_end end = NB_END_NONE;

	memset(&req, 0, sizeof(req));
	req.role = NB_STREAM_AGENT_RECV;
	strcpy(req.addr, "ff3e::1");
	strcpy(req.iface, "eth0");
	strcpy(req.source, "2001:db8::1");
	req.port = 12345;
	req.ttl = 7;
	req.flags = NB_STR_F_LOOP;
	req.block = 8192;
	req.rates_bps[0] = 4000000;
	req.rates_bps[1] = 12000000;
	req.nrates = 2;
	req.step_ns = 2000000000;
	req.omit_ns = 500000000;
	req.stream_id = 0xdeadbeef;
	CHECK(nb_stream_req_put(m, &req) == 0, "request encoded");
	CHECK(nb_msg_validate(m) == 0, "request is a valid message");
	CHECK(nb_stream_req_get(m, &got) == 0, "request decoded");
	CHECK(!strcmp(got.addr, "ff3e::1") && !strcmp(got.iface, "eth0") &&
		  !strcmp(got.source, "2001:db8::1") && got.port == 12345 && got.ttl == 7 &&
		  got.flags == NB_STR_F_LOOP && got.block == 8192 && got.nrates == 2 &&
		  got.rates_bps[1] == 12000000 && got.step_ns == 2000000000 &&
		  got.stream_id == 0xdeadbeef && got.omit_ns == 500000000,
	      "request round trip keeps every field");
	{
		uint64_t d = 0;
		CHECK(nb_msg_get_u64(m, NB_T_DURATION_NS, &d) == 0 && d == 5000000000ULL,
		      "duration for the agent's cap includes the warm-ups (%llu ns)",
		      (unsigned long long)d);
	}
	CHECK(got.pacing == NB_PACING_AUTO && got.burst == 0,
	      "no pacing items: auto, about 1 ms per wake-up (as an older controller sends)");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.pacing = NB_PACING_SPIN;
	req.burst = 0;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == 0 && got.pacing == NB_PACING_SPIN,
	      "--pacing spin travels to the agent");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.pacing = NB_PACING_BURST;
	req.burst = 32;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == 0 && got.pacing == NB_PACING_BURST && got.burst == 32,
	      "--pacing burst --burst 32 travel to the agent");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.pacing = 7;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "an unknown pacing mode refused");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.pacing = NB_PACING_BURST;
	req.burst = NB_PACER_MAX_BURST + 1;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "a burst beyond %u refused",
	      NB_PACER_MAX_BURST);
	req.pacing = NB_PACING_AUTO;
	req.burst = 0;
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.omit_ns = 0;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == 0 && got.omit_ns == 0,
	      "no warm-up: no item, decoded as 0 (as an older controller sends)");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.omit_ns = NB_STREAM_MAX_OMIT_NS + 1;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "warm-up beyond an hour refused");
	req.omit_ns = 0;
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.block = 10;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "block below the header refused");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	req.block = 8192;
	req.rates_bps[0] = 1;
	nb_stream_req_put(m, &req);
	CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "rate below the minimum refused");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "empty request refused");

	memset(&rx, 0, sizeof(rx));
	rx.nsteps = 2;
	rx.steps[1].step = 1;
	rx.steps[1].closed = true;
	rx.steps[1].step_count = 1000;
	rx.steps[1].omit_count = 250;
	rx.steps[1].warmup_datagrams = 249;
	rx.steps[1].datagrams = 999;
	rx.steps[1].unique = 998;
	rx.steps[1].dups = 1;
	rx.steps[1].jitter.jitter_ns = 1234.5;
	rx.steps[1].gaps = 998;
	rx.steps[1].gap_p50_ns = 52000;
	rx.steps[1].gap_p99_ns = 1000000;
	rx.steps[1].cpu.valid = true;
	rx.steps[1].cpu.softirq_pct = 12.25;
	rx.steps[1].cpu.busiest_cpu = -1;
	rx.steps[1].cpu.ncpu = 2;
	rx.foreign.datagrams = 5;
	rx.foreign.cpu.proc_pct = 3.5;
	rx.other_stream_datagrams = 9;
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_stream_rx_put(m, &rx, NB_END_FIN) == 0, "counters encoded");
	CHECK(nb_msg_validate(m) == 0, "counters are a valid message");
	CHECK(nb_stream_rx_get(m, &back, &end) == 0 && end == NB_END_FIN, "counters decoded");
	CHECK(back.nsteps == 2 && back.steps[1].step == 1 && back.steps[1].closed &&
		  back.steps[1].step_count == 1000 && back.steps[1].datagrams == 999 &&
		  back.steps[1].unique == 998 && back.steps[1].dups == 1 &&
		  back.steps[1].jitter.jitter_ns == 1234.5 && back.steps[1].omit_count == 250 &&
		  back.steps[1].warmup_datagrams == 249 && back.steps[0].omit_count == 0,
	      "step counters round trip, warm-up included");
	CHECK(back.steps[1].cpu.valid && back.steps[1].cpu.softirq_pct == 12.25 &&
		  back.steps[1].cpu.busiest_cpu == -1 && back.steps[1].cpu.ncpu == 2,
	      "step CPU load round trip");
	CHECK(back.steps[1].gaps == 998 && back.steps[1].gap_p50_ns == 52000 &&
		  back.steps[1].gap_p99_ns == 1000000 && back.steps[0].gaps == 0,
	      "step inter-arrival gaps round trip");
	CHECK(back.foreign.datagrams == 5 && back.foreign.cpu.proc_pct == 3.5 &&
		  back.other_stream_datagrams == 9,
	      "foreign counters round trip");
	/* A truncated step record is refused. */
	m->data[2] = 0;
	m->data[3] = 10;
	CHECK(nb_stream_rx_get(m, &back, &end) == -EBADMSG, "short step record refused");

	memset(sent, 0, sizeof(sent));
	sent[0].rate_bps = 4000000;
	sent[1].count = 77;
	sent[1].max_late_ns = 42;
	sent[1].cpu.proc_pct = 1.5;
	sent[1].omit_count = 19;
	sent[1].omit_datagrams = 18;
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_stream_sent_put(m, sent, 2) == 0, "send steps encoded");
	CHECK(nb_stream_sent_get(m, sback, 4) == 2 && sback[0].rate_bps == 4000000 &&
		  sback[1].count == 77 && sback[1].max_late_ns == 42 &&
		  sback[1].cpu.proc_pct == 1.5 && sback[1].omit_count == 19 &&
		  sback[1].omit_datagrams == 18 && sback[0].omit_count == 0,
	      "send steps round trip, warm-up included");
	CHECK(nb_stream_sent_get(m, sback, 1) == -EBADMSG, "more steps than room refused");
	sent[1].pacing_mode = NB_PACING_BURST;
	sent[1].burst = 18;
	sent[1].pacing_cpu_ns = 123456789;
	sent[1].wakeups = 1000;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_stream_sent_put(m, sent, 2);
	CHECK(nb_stream_sent_get(m, sback, 4) == 2 && sback[1].pacing_mode == NB_PACING_BURST &&
		  sback[1].burst == 18 && sback[1].pacing_cpu_ns == 123456789 &&
		  sback[1].wakeups == 1000 && sback[0].burst == 0,
	      "send steps' pacing (mode, burst, pacer CPU, wake-ups) round trip");
	sent[1].burst = NB_PACER_MAX_BURST + 1;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_stream_sent_put(m, sent, 2);
	CHECK(nb_stream_sent_get(m, sback, 4) == -EBADMSG, "a burst beyond the maximum refused");
	{
		struct nb_stream_pacing pc, pb;
		memset(&pc, 0, sizeof(pc));
		pc.mode = NB_PACING_BURST;
		snprintf(pc.ifname, sizeof(pc.ifname), "eth0");
		snprintf(pc.qdisc, sizeof(pc.qdisc), "noqueue");
		snprintf(pc.why, sizeof(pc.why), "eth0 has qdisc noqueue, not fq");
		nb_msg_reset(m, NB_MSG_FINAL);
		CHECK(nb_stream_pacing_put(m, &pc) == 0, "pacing decision encoded");
		memset(&pb, 0, sizeof(pb));
		CHECK(nb_stream_pacing_get(m, &pb) == 0 && pb.mode == NB_PACING_BURST &&
			  !strcmp(pb.ifname, "eth0") && !strcmp(pb.qdisc, "noqueue") &&
			  !strcmp(pb.why, pc.why),
		      "pacing decision round trip");
		nb_msg_reset(m, NB_MSG_FINAL);
		nb_msg_put_u32(m, NB_T_STR_PACE_MODE, 9);
		CHECK(nb_stream_pacing_get(m, &pb) == -EBADMSG, "an unknown pacing mode refused");
		nb_msg_reset(m, NB_MSG_FINAL);
		pb.mode = NB_PACING_SPIN;
		CHECK(nb_stream_pacing_get(m, &pb) == 0 && pb.mode == NB_PACING_SPIN,
		      "an agent that says nothing of pacing leaves the mode as it was");
	}
	/* Each step's kernel profile: round trip without its stacks and with at most 8
	 * functions, a step without one stays NULL, and malformed profiles are refused whole. */
	{
		static struct nb_prof_result pr;
		struct nb_prof_result *in[3] = {NULL, &pr, NULL}, *out[NB_STREAM_MAX_STEPS];
		pr.available = true;
		pr.hz = 997;
		pr.ncpu = 1;
		pr.cpu[0].cpu = 1;
		pr.cpu[0].samples = 30;
		pr.cpu[0].cat[NB_PC_SOCKET] = 20;
		pr.cpu[0].cat[NB_PC_IDLE] = 10;
		pr.func_samples = 30;
		pr.nfunc = 10;
		for (int k = 0; k < 10; k++) {
			snprintf(pr.func[k].name, sizeof(pr.func[k].name), "udp_fn%d", k);
			pr.func[k].count = 1;
		}
		strcpy(pr.folded, "a;b 30\n");
		pr.folded_len = strlen(pr.folded);
		nb_msg_reset(m, NB_MSG_FINAL);
		req.rates_bps[0] = 4000000;
		req.profile_hz = 997;
		CHECK(nb_stream_req_put(m, &req) == 0 && nb_stream_req_get(m, &got) == 0 &&
			  got.profile_hz == 997,
		      "the profile's rate travels in the request");
		nb_msg_reset(m, NB_MSG_FINAL);
		req.profile_hz = 0;
		nb_stream_req_put(m, &req);
		nb_msg_put_u32(m, NB_T_STR_PROFILE_HZ, 0);
		CHECK(nb_stream_req_get(m, &got) == -EBADMSG, "a 0 Hz profile rate refused");
		nb_msg_reset(m, NB_MSG_FINAL);
		CHECK(nb_stream_prof_put(m, in, 3) == 0, "a step's profile encoded");
		CHECK(nb_stream_prof_get(m, out, NB_STREAM_MAX_STEPS) == 0 && !out[0] && out[1] &&
			  !out[2],
		      "... decoded for step 1 only");
		CHECK(out[1] && out[1]->available && out[1]->cpu[0].cat[NB_PC_SOCKET] == 20 &&
			  out[1]->nfunc == NB_STREAM_PROF_FUNCS && out[1]->folded_len == 0 &&
			  !strcmp(out[1]->func[0].name, "udp_fn0"),
		      "... its counts and %u functions, no stacks", NB_STREAM_PROF_FUNCS);
		free(out[1]);
		CHECK(nb_stream_prof_put(m, in, 3) == 0 &&
			  nb_stream_prof_get(m, out, NB_STREAM_MAX_STEPS) == -EBADMSG && !out[1],
		      "a step profiled twice refused");
		nb_msg_reset(m, NB_MSG_FINAL);
		nb_stream_prof_put(m, in, 3);
		CHECK(nb_stream_prof_get(m, out, 1) == -EBADMSG,
		      "a step beyond those asked for refused");
		pr.cpu[0].cat[NB_PC_IDLE] = 11; /* the categories no longer add up */
		nb_msg_reset(m, NB_MSG_FINAL);
		nb_stream_prof_put(m, in, 3);
		CHECK(nb_stream_prof_get(m, out, NB_STREAM_MAX_STEPS) == -EBADMSG && !out[1],
		      "a profile whose categories miss samples refused");
		req.profile_hz = 0;
	}
	/* Control messages come from the network too: random items must be refused or read
	 * within bounds, never crash (run under ASan by make check). */
	{
		uint32_t x = 777;
		int refused = 0;
		for (int i = 0; i < 20000; i++) {
			uint8_t item[400];
			nb_msg_reset(m, NB_MSG_FINAL);
			for (int k = 0; k < 4; k++) {
				size_t n;
				x = x * 1103515245u + 12345u;
				n = (x >> 8) % sizeof(item);
				for (size_t b = 0; b < n; b++)
					item[b] = (uint8_t)(x >> (b % 24));
				nb_msg_put_bytes(m, (uint16_t)(300 + (x >> 4) % 40), item, n);
			}
			refused += nb_stream_rx_get(m, &back, &end) < 0;
			refused += nb_stream_req_get(m, &got) < 0;
			refused += nb_stream_sent_get(m, sback, 4) < 0;
		}
		CHECK(refused > 0, "random stream items: %d refusals, no crash", refused);
	}
	nb_msg_free(m);
	return tap_done();
}
