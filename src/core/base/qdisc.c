/* SPDX-License-Identifier: BSD-2-Clause */
/* The qdisc dump over rtnetlink (RTM_GETQDISC with the interface in the request; kernels that
 * ignore the filter list every interface's, so entries are filtered here as well), the one dump
 * both the pacing check and the observer's counters read. */
#include "core/base/qdisc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "core/base/compat.h"

#define DUMP_BUF_BYTES	32768
#define DUMP_MAX_ROUNDS 4096

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
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	struct timeval tv = {.tv_sec = 1}; /* a kernel that never ends the dump does not hang us */
	char *buf = malloc(DUMP_BUF_BYTES);
	int fd, ret = 0;

	if (!buf)
		return -ENOMEM;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = ifindex;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
		ret = -errno;
		goto out;
	}
	for (int rounds = 0; ret == 0 && rounds < DUMP_MAX_ROUNDS; rounds++) {
		ssize_t n = recv(fd, buf, DUMP_BUF_BYTES, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		ret = chunk(arg, buf, (size_t)n);
	}
	if (ret > 0)
		ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

struct list {
	int ifindex;
	struct nb_qdisc *q;
	size_t max, k;
};

static int list_chunk(void *arg, const void *buf, size_t len)
{
	struct list *l = arg;
	int n = (int)len;

	for (const struct nlmsghdr *nh = buf; NLMSG_OK(nh, (unsigned)n); nh = NLMSG_NEXT(nh, n)) {
		if (nh->nlmsg_type == NLMSG_DONE)
			return 1;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);
			return e->error ? e->error : -EIO;
		}
		if (nh->nlmsg_type != RTM_NEWQDISC ||
		    nh->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg)))
			continue;
		const struct tcmsg *tc = NLMSG_DATA(nh);
		int alen = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof(*tc)));
		struct nb_qdisc *q = &l->q[l->k];
		if (tc->tcm_ifindex != l->ifindex || l->k == l->max)
			continue;
		memset(q, 0, sizeof(*q));
		q->ifindex = tc->tcm_ifindex;
		q->handle = tc->tcm_handle;
		q->parent = tc->tcm_parent;
		for (const struct rtattr *rta =
			 (const struct rtattr *)((const char *)tc + NLMSG_ALIGN(sizeof(*tc)));
		     RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen))
			if (rta->rta_type == TCA_KIND) {
				size_t kl = RTA_PAYLOAD(rta);
				if (kl >= sizeof(q->kind))
					kl = sizeof(q->kind) - 1;
				memcpy(q->kind, RTA_DATA(rta), kl);
				q->kind[kl] = '\0';
			}
		l->k++;
	}
	return 0;
}

int nb_qdisc_list(int ifindex, struct nb_qdisc *q, size_t max)
{
	struct list l = {.ifindex = ifindex, .q = q, .max = max};
	int ret = nb_qdisc_dump(ifindex, list_chunk, &l);
	return ret ? ret : (int)l.k;
}
