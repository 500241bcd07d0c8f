/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's policy checks, each refusal naming the rule that refused, the caps stated to
 * controllers in the handshake, and the agent's log line. */
#include "core/session/agent_policy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "core/base/wirecost.h"

void nb_agent_log(const struct nb_agent_opts *o, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	if (!o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->log(o->log_arg, line);
}

int nb_agent_check_target(const struct nb_agent_ctx *ctx, const struct sockaddr *dst, char *err,
			  size_t errlen)
{
	char a[64], b[64];
	if (ctx->policy->allow_any_target ||
	    nb_net_same_host(dst, (const struct sockaddr *)&ctx->peer))
		return 0;
	nb_net_addr_str(dst, false, a, sizeof(a));
	nb_net_addr_str((const struct sockaddr *)&ctx->peer, false, b, sizeof(b));
	snprintf(err, errlen,
		 "refused by rule target: traffic to %s is not allowed, only to the controller %s "
		 "(start the agent with --allow-target-any to widen this)",
		 a, b);
	return -EPERM;
}

static struct nb_caps policy_caps(const struct nb_agent_policy *p)
{
	struct nb_caps c = {.known = true,
			    .max_time_ns = p->max_time_ns,
			    .max_rate_bps = p->max_rate_bps,
			    .max_pps = p->max_pps,
			    .quiet_ns = p->quiet_ns};
	return c;
}

int nb_agent_check_caps(const struct nb_agent_ctx *ctx, uint64_t duration_ns, uint64_t rate_bps,
			char *err, size_t errlen)
{
	struct nb_caps c = policy_caps(ctx->policy);
	return nb_caps_check(&c, duration_ns, rate_bps, err, errlen);
}

int nb_agent_check_send(const struct nb_agent_ctx *ctx, uint64_t duration_ns, uint64_t payload_bps,
			uint32_t packet_bytes, uint32_t overhead_bytes, char *err, size_t errlen)
{
	struct nb_caps c = policy_caps(ctx->policy);
	return nb_caps_check_send(&c, duration_ns, payload_bps, packet_bytes, overhead_bytes, err,
				  errlen);
}

void nb_agent_caps(const struct nb_agent_policy *p, struct nb_caps *c)
{
	*c = policy_caps(p);
}

bool nb_mcast_admin_scoped(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 239;
	if (sa->sa_family == AF_INET6) {
		const uint8_t *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		return a[0] == 0xff && (a[1] & 0x0f) >= 1 && (a[1] & 0x0f) <= 5;
	}
	return false;
}

int nb_agent_check_mcast(const struct nb_agent_ctx *ctx, const struct sockaddr *group, int ttl,
			 char *err, size_t errlen)
{
	const struct nb_agent_policy *p = ctx->policy;
	char a[64];
	nb_net_addr_str(group, false, a, sizeof(a));
	if (!p->mcast_any_group && !nb_mcast_admin_scoped(group)) {
		snprintf(err, errlen,
			 "refused by rule multicast: %s is not an administratively scoped group "
			 "(239.0.0.0/8, ff01::/16 to ff05::/16); start the agent with "
			 "--allow-mcast-any to widen this",
			 a);
		return -EPERM;
	}
	if (ttl > (int)p->mcast_max_ttl) {
		snprintf(err, errlen,
			 "refused by rule multicast: TTL/hop limit %d asked, at most %u (start the "
			 "agent with --mcast-ttl to widen this)",
			 ttl, p->mcast_max_ttl);
		return -EPERM;
	}
	return 0;
}
