/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's caps as both ends see them: their wire form in the handshake reply (an older agent
 * states none), and tput's whole-run check before any traffic, which must refuse exactly what
 * the agent would refuse step by step. */
#include <errno.h>
#include <string.h>

#include "core/base/timeutil.h"
#include "core/session/caps.h"
#include "core/tput/tput_plan.h"
#include "tap.h"

int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_HELLO_OK);
	struct nb_caps c = {.known = true,
			    .max_time_ns = 3 * NB_NS_PER_S,
			    .max_rate_bps = 100000000},
		       got;
	char err[512];

	/* Wire form */
	CHECK(nb_caps_put(m, &c) == 0, "caps appended");
	memset(&got, 0xff, sizeof(got));
	CHECK(nb_caps_get(m, &got) == 0 && got.known && got.max_time_ns == c.max_time_ns &&
		  got.max_rate_bps == c.max_rate_bps && got.max_pps == 0,
	      "caps read back");
	nb_msg_reset(m, NB_MSG_HELLO_OK);
	CHECK(nb_caps_get(m, &got) == 0 && !got.known && !got.max_rate_bps,
	      "an agent that states no caps: unknown, no cap");
	nb_msg_put_u64(m, NB_T_CAP_MAX_TIME_NS, 1);
	CHECK(nb_caps_get(m, &got) == -EBADMSG && !got.known, "one cap missing: malformed");
	nb_msg_reset(m, NB_MSG_HELLO_OK);
	nb_msg_put_u32(m, NB_T_CAP_MAX_TIME_NS, 1);
	nb_msg_put_u64(m, NB_T_CAP_MAX_RATE_BPS, 1);
	nb_msg_put_u64(m, NB_T_CAP_MAX_PPS, 1);
	CHECK(nb_caps_get(m, &got) == -EBADMSG, "a cap of the wrong length: malformed");
	/* The quiet limit: stated on its own, absent from an older agent (no ALIVE then). */
	nb_msg_reset(m, NB_MSG_HELLO_OK);
	c.quiet_ns = 30 * NB_NS_PER_S;
	CHECK(nb_caps_put(m, &c) == 0 && nb_caps_get(m, &got) == 0 && got.quiet_ns == c.quiet_ns,
	      "quiet limit read back");
	nb_msg_reset(m, NB_MSG_HELLO_OK);
	c.quiet_ns = 0;
	memset(&got, 0xff, sizeof(got));
	CHECK(nb_caps_put(m, &c) == 0 && nb_caps_get(m, &got) == 0 && got.known && !got.quiet_ns,
	      "no quiet limit stated: 0");
	nb_msg_reset(m, NB_MSG_HELLO_OK);
	nb_msg_put_u32(m, NB_T_CAP_QUIET_NS, 1);
	CHECK(nb_caps_get(m, &got) == -EBADMSG, "a quiet limit of the wrong length: malformed");

	/* tput's plan: -u -r 200M, Tx then Rx, against --max-rate 100M */
	struct nb_tput_params p = {.proto = NB_TPUT_UDP,
				   .streams = 1,
				   .rate_bps = 200000000,
				   .warmup_ns = NB_NS_PER_S / 2,
				   .time_ns = NB_NS_PER_S};
	uint64_t sizes[] = {1024, 8192};
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, true, false, err, sizeof(err)) == -EPERM &&
		  strstr(err, "-b 200 Mbit/s") && strstr(err, "at most 100.000 Mbit/s") &&
		  strstr(err, "--max-rate"),
	      "200M sent by the agent under --max-rate 100M: refused, naming -b and the cap (%s)",
	      err);
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, false, false, err, sizeof(err)) == 0,
	      "the same run with the controller sending only: the rate cap does not apply");
	p.rate_bps = 40000000;
	p.streams = 3;
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, true, false, err, sizeof(err)) == -EPERM &&
		  strstr(err, "-P 3 streams"),
	      "40M x 3 streams: the total is judged (%s)", err);
	p.streams = 2;
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, true, false, err, sizeof(err)) == 0,
	      "40M x 2 streams on the wire under 100M: accepted");
	p.rate_bps = 0;
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, true, false, err, sizeof(err)) == -EPERM &&
		  strstr(err, "unpaced"),
	      "unpaced under a rate cap: refused (%s)", err);
	p.rate_bps = 1000000;
	p.time_ns = 2 * NB_NS_PER_S;
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, false, false, err, sizeof(err)) == -EPERM &&
		  strstr(err, "-t 2 s") && strstr(err, "at most 3.0 s") &&
		  strstr(err, "--max-time"),
	      "-t 2 -O 0.5 (3.5 s tests) under --max-time 3: refused (%s)", err);
	c.known = false;
	CHECK(nb_tput_check_plan(&c, &p, sizes, 2, true, false, err, sizeof(err)) == 0,
	      "caps unknown (an older agent): no check here, the agent judges each step");

	/* The check agrees with the agent's own decision on the step's request. */
	c.known = true;
	p.time_ns = NB_NS_PER_S;
	p.proto = NB_TPUT_TCP;
	p.rate_bps = 30000000;
	p.streams = 3;
	for (int v6 = 0; v6 < 2; v6++)
		for (size_t i = 0; i < 2; i++) {
			uint32_t pkt, over;
			nb_tput_wire_shape(p.proto, (uint32_t)sizes[i], v6, &pkt, &over);
			int agent =
			    nb_caps_check_send(&c, nb_tput_step_duration_ns(&p),
					       p.rate_bps * p.streams, pkt, over, err, sizeof(err));
			int plan =
			    nb_tput_check_plan(&c, &p, &sizes[i], 1, true, v6, err, sizeof(err));
			CHECK(agent == plan,
			      "plan and agent agree (TCP %llu-byte blocks, IPv%d): %d",
			      (unsigned long long)sizes[i], v6 ? 6 : 4, plan);
		}
	nb_msg_free(m);
	return tap_done();
}
