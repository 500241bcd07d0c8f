/* SPDX-License-Identifier: BSD-2-Clause */
/* The qdisc dump over rtnetlink (RTM_GETQDISC with the interface in the request; kernels that
 * ignore the filter list every interface's, so entries are filtered here as well). */
#include "core/base/qdisc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "core/base/compat.h"

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

int nb_qdisc_list(int ifindex, struct nb_qdisc *q, size_t max)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	char buf[16384];
	int fd, ret = 0;
	size_t k = 0;
	bool done = false;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = ifindex;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
		ret = -errno;
		goto out;
	}
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (unsigned)n);
		     nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);
				ret = e->error ? e->error : -EIO;
				goto out;
			}
			if (nh->nlmsg_type != RTM_NEWQDISC ||
			    nh->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg)))
				continue;
			struct tcmsg *tc = NLMSG_DATA(nh);
			int len = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tc)));
			if (tc->tcm_ifindex != ifindex || k == max)
				continue;
			memset(&q[k], 0, sizeof(q[k]));
			q[k].ifindex = tc->tcm_ifindex;
			q[k].handle = tc->tcm_handle;
			q[k].parent = tc->tcm_parent;
			for (struct rtattr *rta =
				 (struct rtattr *)((char *)tc + NLMSG_ALIGN(sizeof(*tc)));
			     RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
				if (rta->rta_type == TCA_KIND) {
					size_t l = RTA_PAYLOAD(rta);
					if (l >= sizeof(q[k].kind))
						l = sizeof(q[k].kind) - 1;
					memcpy(q[k].kind, RTA_DATA(rta), l);
					q[k].kind[l] = '\0';
				}
			k++;
		}
	}
	ret = (int)k;
out:
	close(fd);
	return ret;
}
