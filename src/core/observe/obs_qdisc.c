/* SPDX-License-Identifier: BSD-2-Clause */
/* Queueing discipline counters from an rtnetlink RTM_GETQDISC dump (libc only): a root qdisc's
 * drops (what tbf, fq_codel, pfifo_fast threw away on egress), overlimits (a shaper held frames
 * back) and requeues. Only root qdiscs count: a classful root's own counters already include
 * what its children dropped, and the ingress qdisc is no egress. */
#include <errno.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "core/base/nldump.h"
#include "core/observe/obs.h"

static struct nb_obs_if *by_index(struct nb_obs_snap *s, int ifindex)
{
	for (uint32_t i = 0; i < s->nif; i++)
		if ((int)s->ifs[i].ifindex == ifindex)
			return &s->ifs[i];
	return NULL;
}

/* Walks the attributes of one qdisc message: TCA_STATS2 nests TCA_STATS_QUEUE (struct
 * gnet_stats_queue); older kernels give TCA_STATS (struct tc_stats) only. */
static int qdisc_counters(const struct rtattr *a, size_t len, uint64_t *drops, uint64_t *over,
			  uint64_t *requeues, int *found)
{
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		size_t plen = RTA_PAYLOAD(a);
		if (a->rta_type == TCA_STATS2) {
			const struct rtattr *n = RTA_DATA(a);
			size_t nl = plen;
			for (; RTA_OK(n, nl); n = RTA_NEXT(n, nl)) {
				struct gnet_stats_queue q;
				if (n->rta_type != TCA_STATS_QUEUE)
					continue;
				if (RTA_PAYLOAD(n) < sizeof(q))
					return -EBADMSG;
				memcpy(&q, RTA_DATA(n), sizeof(q));
				*drops = q.drops;
				*over = q.overlimits;
				*requeues = q.requeues;
				*found = 2;
			}
		} else if (a->rta_type == TCA_STATS && *found < 2) {
			struct tc_stats st;
			if (plen < offsetof(struct tc_stats, qlen))
				return -EBADMSG;
			memset(&st, 0, sizeof(st));
			memcpy(&st, RTA_DATA(a), plen < sizeof(st) ? plen : sizeof(st));
			*drops = st.drops;
			*over = st.overlimits;
			*requeues = 0;
			*found = 1;
		}
	}
	return 0;
}

/* One RTM_NEWQDISC message: a root qdisc's counters added to its interface's. */
static int qdisc_msg(void *arg, const void *hdr, const void *attrs, size_t alen)
{
	const struct tcmsg *t = hdr;
	struct nb_obs_snap *s = arg;
	uint64_t drops = 0, over = 0, req = 0;
	int found = 0, ret;

	if (t->tcm_parent != TC_H_ROOT)
		return 0;
	if ((ret = qdisc_counters(attrs, alen, &drops, &over, &req, &found)))
		return ret;
	struct nb_obs_if *i = by_index(s, t->tcm_ifindex);
	if (!i || !found)
		return 0;
	i->have_qdisc = true;
	i->qdisc_drops += drops;
	i->qdisc_overlimits += over;
	i->qdisc_requeues += req;
	return 0;
}

int nb_obs_parse_qdisc(const void *buf, size_t len, struct nb_obs_snap *s)
{
	return nb_nl_walk(buf, len, RTM_NEWQDISC, sizeof(struct tcmsg), qdisc_msg, s);
}
