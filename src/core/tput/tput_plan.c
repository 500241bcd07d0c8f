/* SPDX-License-Identifier: BSD-2-Clause */
/* tput's run against the agent's caps, before any traffic. */
#include "core/tput/tput_plan.h"

#include <errno.h>
#include <stdio.h>

#include "core/base/timeutil.h"
#include "core/base/wirecost.h"
#include "core/tput/tput.h"

void nb_tput_wire_shape(enum nb_tput_proto proto, uint32_t block, bool v6, uint32_t *packet_bytes,
			uint32_t *overhead_bytes)
{
	if (proto == NB_TPUT_UDP) {
		*packet_bytes = block;
		*overhead_bytes = v6 ? NB_WIRE_UDP6_BYTES : NB_WIRE_UDP4_BYTES;
	} else {
		*packet_bytes = block < NB_WIRE_TCP_MSS ? block : NB_WIRE_TCP_MSS;
		*overhead_bytes = v6 ? NB_WIRE_TCP6_BYTES : NB_WIRE_TCP4_BYTES;
	}
}

uint64_t nb_tput_step_duration_ns(const struct nb_tput_params *p)
{
	return p->warmup_ns + p->time_ns + NB_NS_PER_S;
}

int nb_tput_check_plan(const struct nb_caps *caps, const struct nb_tput_params *p,
		       const uint64_t *sizes, size_t nsizes, bool agent_sends, bool v6, char *err,
		       size_t errlen)
{
	uint64_t duration_ns = nb_tput_step_duration_ns(p), total = 0;
	char why[192];

	if (!caps->known)
		return 0;
	if (nb_caps_check(caps, duration_ns, 1, why, sizeof(why))) {
		snprintf(
		    err, errlen,
		    "the agent's caps refuse this run before any traffic: -t %.3g s with -O %.3g s "
		    "(each step's test lasts %.3g s): %s (its serve --max-time)",
		    (double)p->time_ns / 1e9, (double)p->warmup_ns / 1e9, (double)duration_ns / 1e9,
		    why);
		return -EPERM;
	}
	if (!agent_sends)
		return 0;
	if (p->rate_bps && !nb_mul_u64(p->rate_bps, p->streams, &total))
		total = UINT64_MAX;
	for (size_t i = 0; i < nsizes; i++) {
		uint32_t pkt, over;
		char asked[96];
		nb_tput_wire_shape(p->proto, (uint32_t)sizes[i], v6, &pkt, &over);
		if (!nb_caps_check_send(caps, duration_ns, total, pkt, over, why, sizeof(why)))
			continue;
		if (p->rate_bps)
			snprintf(asked, sizeof(asked), "-b %.6g Mbit/s x -P %u stream%s",
				 (double)p->rate_bps / 1e6, p->streams, p->streams == 1 ? "" : "s");
		else
			snprintf(asked, sizeof(asked), "no -b (unpaced), -P %u stream%s",
				 p->streams, p->streams == 1 ? "" : "s");
		snprintf(
		    err, errlen,
		    "the agent's caps refuse this run before any traffic: %s sent by the agent "
		    "in %llu-byte blocks: %s (its serve --max-rate/--max-pps)",
		    asked, (unsigned long long)sizes[i], why);
		return -EPERM;
	}
	return 0;
}

static const char *dir_words(uint32_t dir)
{
	return dir == NB_TPUT_DIR_TX   ? "the agent receives"
	       : dir == NB_TPUT_DIR_RX ? "the agent sends"
	       : dir == 3	       ? "both directions"
				       : "no known direction";
}

int nb_tput_conn_admit(uint32_t streams, uint32_t plan_dir, uint64_t seen[2], uint32_t stream,
		       uint32_t dir, char *err, size_t errlen)
{
	const char *why = NULL;
	uint64_t bit;

	if (dir != NB_TPUT_DIR_TX && dir != NB_TPUT_DIR_RX)
		why = "names no single direction";
	else if (!(dir & plan_dir))
		why = "is for a direction the test did not ask for";
	else if (stream >= streams || stream >= 64)
		why = "names a stream the test did not ask for";
	if (why) {
		snprintf(err, errlen,
			 "refused by rule data-connections: a data connection for stream %u (%s) "
			 "%s; the test asked for %u stream%s, %s",
			 stream, dir_words(dir), why, streams, streams == 1 ? "" : "s",
			 dir_words(plan_dir));
		return -EPERM;
	}
	bit = 1ULL << stream;
	if (seen[dir - 1] & bit) {
		snprintf(err, errlen,
			 "refused by rule data-connections: a second data connection for stream %u "
			 "(%s); the test asked for one per stream and direction",
			 stream, dir_words(dir));
		return -EPERM;
	}
	seen[dir - 1] |= bit;
	return 0;
}
