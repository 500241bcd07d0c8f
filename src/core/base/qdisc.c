/* SPDX-License-Identifier: BSD-2-Clause */
/* The qdisc dump over rtnetlink (RTM_GETQDISC with the interface in the request; kernels that
 * ignore the filter list every interface's, so entries are filtered here as well), the one dump
 * both the pacing check and the observer's counters read. */
#include "core/base/qdisc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "core/base/compat.h"
#include "core/base/nldump.h"

bool nb_qdisc_is_fq(const struct nb_qdisc *q, size_t n, int ifindex, char *desc, size_t len)
{
	const struct nb_qdisc *root = NULL;
	const char *child = NULL;
	bool all_fq = true;
	size_t children = 0;

	for (size_t i = 0; i < n; i++)
		if (q[i].ifindex == ifindex && q[i].parent == TC_H_ROOT)
			root = &q[i];
	if (!root) {
		snprintf(desc, len, "none");
		return false;
	}
	if (strcmp(root->kind, "mq") && strcmp(root->kind, "mqprio")) {
		snprintf(desc, len, "%s", root->kind);
		return !strcmp(root->kind, "fq");
	}
	/* A multiqueue root: one child per transmit queue, whose parent's major is the root's. */
	for (size_t i = 0; i < n; i++) {
		if (q[i].ifindex != ifindex || &q[i] == root ||
		    TC_H_MAJ(q[i].parent) != TC_H_MAJ(root->handle))
			continue;
		children++;
		if (strcmp(q[i].kind, "fq"))
			all_fq = false;
		if (!child || strcmp(q[i].kind, "fq"))
			child = q[i].kind;
	}
	snprintf(desc, len, "%s/%s", root->kind, child ? child : "none");
	return children > 0 && all_fq;
}

int nb_qdisc_dump(int ifindex, nb_qdisc_chunk_fn chunk, void *arg)
{
	struct tcmsg tc = {.tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex};
	return nb_nl_dump(RTM_GETQDISC, &tc, sizeof(tc), chunk, arg);
}

struct list {
	int ifindex;
	struct nb_qdisc *q;
	size_t max, k;
};

/* One RTM_NEWQDISC message of the interface asked for: its handle, parent and kind. */
static int list_msg(void *arg, const void *hdr, const void *attrs, size_t alen)
{
	const struct tcmsg *tc = hdr;
	struct list *l = arg;
	struct nb_qdisc *q = &l->q[l->k];

	if (tc->tcm_ifindex != l->ifindex || l->k == l->max)
		return 0;
	memset(q, 0, sizeof(*q));
	q->ifindex = tc->tcm_ifindex;
	q->handle = tc->tcm_handle;
	q->parent = tc->tcm_parent;
	for (const struct rtattr *rta = attrs; RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen))
		if (rta->rta_type == TCA_KIND) {
			size_t kl = RTA_PAYLOAD(rta);
			if (kl >= sizeof(q->kind))
				kl = sizeof(q->kind) - 1;
			memcpy(q->kind, RTA_DATA(rta), kl);
			q->kind[kl] = '\0';
		}
	l->k++;
	return 0;
}

static int list_chunk(void *arg, const void *buf, size_t len)
{
	return nb_nl_walk(buf, len, RTM_NEWQDISC, sizeof(struct tcmsg), list_msg, arg);
}

int nb_qdisc_list(int ifindex, struct nb_qdisc *q, size_t max)
{
	struct list l = {.ifindex = ifindex, .q = q, .max = max};
	int ret = nb_qdisc_dump(ifindex, list_chunk, &l);
	return ret ? ret : (int)l.k;
}
