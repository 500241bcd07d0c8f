/* SPDX-License-Identifier: BSD-2-Clause */
/* Interface counters from one rtnetlink RTM_GETLINK dump (IFLA_STATS64, the counters sysfs's
 * statistics files show one per file): on a slow board one dump costs a fraction of the ten
 * files per interface it replaces. Loopback and names too long to keep are skipped. */
#include <errno.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "core/base/nldump.h"
#include "core/observe/obs.h"

/* Fills i from one link message's attributes; 0 when it has a name and the counters. */
static int link_attrs(const struct rtattr *a, size_t len, struct nb_obs_if *i)
{
	bool name = false, stats = false;
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		size_t plen = RTA_PAYLOAD(a);
		if (a->rta_type == IFLA_IFNAME) {
			size_t n = strnlen(RTA_DATA(a), plen);
			if (!n || n >= NB_OBS_IFNAME)
				return -ENAMETOOLONG;
			memcpy(i->name, RTA_DATA(a), n);
			i->name[n] = '\0';
			name = true;
		} else if (a->rta_type == IFLA_STATS64) {
			struct rtnl_link_stats64 st;
			if (plen < offsetof(struct rtnl_link_stats64, rx_missed_errors) +
				       sizeof(st.rx_missed_errors))
				return -EBADMSG;
			memset(&st, 0, sizeof(st));
			/* memcpy: the attribute is 4-byte aligned, the counters are 64-bit. */
			memcpy(&st, RTA_DATA(a), plen < sizeof(st) ? plen : sizeof(st));
			i->rx_packets = st.rx_packets;
			i->tx_packets = st.tx_packets;
			i->rx_bytes = st.rx_bytes;
			i->tx_bytes = st.tx_bytes;
			i->rx_dropped = st.rx_dropped;
			i->rx_missed = st.rx_missed_errors;
			i->rx_fifo = st.rx_fifo_errors;
			i->rx_over = st.rx_over_errors;
			i->tx_dropped = st.tx_dropped;
			i->tx_errors = st.tx_errors;
			stats = true;
		}
	}
	return name && stats ? 0 : -ENODATA;
}

/* One RTM_NEWLINK message: an interface with its counters, or passed over. */
static int link_msg(void *arg, const void *hdr, const void *attrs, size_t alen)
{
	const struct ifinfomsg *ifi = hdr;
	struct nb_obs_snap *s = arg;
	struct nb_obs_if one;
	int ret;

	memset(&one, 0, sizeof(one));
	ret = link_attrs(attrs, alen, &one);
	if (ret == -EBADMSG)
		return ret;
	if (ret || !strcmp(one.name, "lo") || s->nif >= NB_OBS_IFS)
		return 0;
	one.ifindex = (uint32_t)ifi->ifi_index;
	s->ifs[s->nif++] = one;
	return 0;
}

int nb_obs_parse_links(const void *buf, size_t len, struct nb_obs_snap *s)
{
	return nb_nl_walk(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg), link_msg, s);
}
