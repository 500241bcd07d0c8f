/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's caps: their wire form and the decisions both ends take on them. */
#include "core/session/caps.h"

#include <errno.h>
#include <stdio.h>

#include "core/base/wirecost.h"

int nb_caps_put(struct nb_msg *m, const struct nb_caps *c)
{
	int ret;
	if ((ret = nb_msg_put_u64(m, NB_T_CAP_MAX_TIME_NS, c->max_time_ns)) ||
	    (ret = nb_msg_put_u64(m, NB_T_CAP_MAX_RATE_BPS, c->max_rate_bps)) ||
	    (ret = nb_msg_put_u64(m, NB_T_CAP_MAX_PPS, c->max_pps)))
		return ret;
	return c->quiet_ns ? nb_msg_put_u64(m, NB_T_CAP_QUIET_NS, c->quiet_ns) : 0;
}

int nb_caps_get(const struct nb_msg *m, struct nb_caps *c)
{
	int a = nb_msg_get_u64(m, NB_T_CAP_MAX_TIME_NS, &c->max_time_ns);
	int b = nb_msg_get_u64(m, NB_T_CAP_MAX_RATE_BPS, &c->max_rate_bps);
	int p = nb_msg_get_u64(m, NB_T_CAP_MAX_PPS, &c->max_pps);
	int q = nb_msg_get_u64(m, NB_T_CAP_QUIET_NS, &c->quiet_ns);

	c->known = false;
	if (q == -ENOENT)
		c->quiet_ns = 0;
	else if (q) {
		c->quiet_ns = 0;
		return -EBADMSG;
	}
	if (a == -ENOENT && b == -ENOENT && p == -ENOENT) {
		c->max_time_ns = c->max_rate_bps = c->max_pps = 0;
		return 0;
	}
	if (a || b || p) {
		c->max_time_ns = c->max_rate_bps = c->max_pps = 0;
		return -EBADMSG;
	}
	c->known = true;
	return 0;
}

int nb_caps_check(const struct nb_caps *c, uint64_t duration_ns, uint64_t wire_bps, char *err,
		  size_t errlen)
{
	if (c->max_time_ns && duration_ns > c->max_time_ns) {
		snprintf(err, errlen, "refused by rule max-time: %.1f s asked, at most %.1f s",
			 (double)duration_ns / 1e9, (double)c->max_time_ns / 1e9);
		return -EPERM;
	}
	if (c->max_rate_bps && (wire_bps == 0 || wire_bps > c->max_rate_bps)) {
		char asked[32];
		if (wire_bps)
			snprintf(asked, sizeof(asked), "%.3f Mbit/s", (double)wire_bps / 1e6);
		else
			snprintf(asked, sizeof(asked), "an unlimited rate");
		snprintf(err, errlen, "refused by rule max-rate: %s asked, at most %.3f Mbit/s",
			 asked, (double)c->max_rate_bps / 1e6);
		return -EPERM;
	}
	return 0;
}

int nb_caps_check_send(const struct nb_caps *c, uint64_t duration_ns, uint64_t payload_bps,
		       uint32_t packet_bytes, uint32_t overhead_bytes, char *err, size_t errlen)
{
	uint64_t pps = 0, wire_bps = 0;
	int ret;

	if (payload_bps &&
	    nb_wire_cost(payload_bps, packet_bytes, overhead_bytes, &pps, &wire_bps) < 0) {
		snprintf(err, errlen,
			 "refused by rule max-rate: the rate asked does not fit 64 bits");
		return -EPERM;
	}
	if ((ret = nb_caps_check(c, duration_ns, wire_bps, err, errlen)))
		return ret;
	if (c->max_pps && (payload_bps == 0 || pps > c->max_pps)) {
		if (payload_bps)
			snprintf(err, errlen,
				 "refused by rule max-pps: %llu packets/s asked, at most %llu",
				 (unsigned long long)pps, (unsigned long long)c->max_pps);
		else
			snprintf(err, errlen,
				 "refused by rule max-pps: an unlimited rate asked, at most %llu "
				 "packets/s",
				 (unsigned long long)c->max_pps);
		return -EPERM;
	}
	return 0;
}
