/* SPDX-License-Identifier: BSD-2-Clause */
/* Which interface the agent's multicast leaves by (see agent.h): the control connection's own,
 * or one the operator allowed with --mcast-iface. A controller cannot point the agent's
 * multicast at another network. */
#include "core/session/agent.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/base/net.h"
#include "core/base/netif.h"

bool nb_mcast_iface_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	if (!list || !n)
		return false;
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

int nb_mcast_iface_decide(const char *asked, const char *control, const char *allowed, char *out,
			  size_t outlen, char *err, size_t errlen)
{
	const char *use = asked && asked[0] ? asked : control;

	if (!use || !use[0]) {
		snprintf(
		    err, errlen,
		    "refused by rule multicast: the control connection's interface is unknown, "
		    "so the agent does not know where multicast may go");
		return -EPERM;
	}
	if ((!control || strcmp(use, control)) && !nb_mcast_iface_listed(allowed, use)) {
		snprintf(err, errlen,
			 "refused by rule multicast: the agent sends multicast only out of the "
			 "control connection's interface %s, not %s (start the agent with "
			 "--mcast-iface %s to allow it)",
			 control && control[0] ? control : "(unknown)", use, use);
		return -EPERM;
	}
	if ((size_t)snprintf(out, outlen, "%s", use) >= outlen) {
		snprintf(err, errlen, "interface name %s is too long", use);
		return -EINVAL;
	}
	return 0;
}

int nb_agent_mcast_iface(const struct nb_agent_ctx *ctx, const char *asked, char *out,
			 size_t outlen, char *err, size_t errlen)
{
	char control[64] = "";
	if (nb_net_iface_of((const struct sockaddr *)&ctx->local, control, sizeof(control)) < 0)
		control[0] = '\0';
	return nb_mcast_iface_decide(asked, control, ctx->policy->mcast_ifaces, out, outlen, err,
				     errlen);
}
