/* SPDX-License-Identifier: BSD-2-Clause */
/* Kernel pacing capability, detected at run time on the socket that sends: the egress
 * interface from the route to the peer (or the interface given), its qdisc from rtnetlink, and
 * whether the kernel takes SO_TXTIME (Linux 4.19 and later). Without fq the transmit times
 * would be ignored and every group would leave as one burst, so fq is required. */
#include "core/stream/stream_pacing.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include "core/base/compat.h"
#include "core/base/netpath.h"
#include "core/base/qdisc.h"

/* The kernel's struct sock_txtime (linux/net_tstamp.h), which old headers lack. */
struct txtime_opt {
	int32_t clockid;
	uint32_t flags;
};

static int egress_ifindex(int fd, const char *iface, char *name)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);
	struct nb_path path;
	unsigned idx;

	if (iface) {
		idx = if_nametoindex(iface);
		if (!idx)
			return -ENODEV;
		snprintf(name, IF_NAMESIZE, "%s", iface);
		return (int)idx;
	}
	if (getpeername(fd, (struct sockaddr *)&peer, &len) < 0)
		return -errno;
	int ret = nb_path_route((struct sockaddr *)&peer, &path);
	if (ret < 0)
		return ret;
	snprintf(name, IF_NAMESIZE, "%s", path.ifname);
	return path.ifindex;
}

static bool txtime_possible(int fd, const char *iface, struct nb_stream_pacing *pc)
{
	struct nb_qdisc *q = calloc(NB_QDISC_MAX, sizeof(*q));
	struct txtime_opt t = {.clockid = CLOCK_MONOTONIC, .flags = 0};
	int idx = egress_ifindex(fd, iface, pc->ifname), n;
	bool ok = false;

	snprintf(pc->qdisc, sizeof(pc->qdisc), "?");
	if (!q) {
		snprintf(pc->why, sizeof(pc->why), "qdisc list: %s", strerror(ENOMEM));
		goto out;
	}
	if (idx < 0) {
		snprintf(pc->why, sizeof(pc->why), "egress interface unknown: %s", strerror(-idx));
		goto out;
	}
	n = nb_qdisc_list(idx, q, NB_QDISC_MAX);
	if (n < 0) {
		snprintf(pc->why, sizeof(pc->why), "qdisc of %s unknown: %s", pc->ifname,
			 strerror(-n));
		goto out;
	}
	if (!nb_qdisc_is_fq(q, (size_t)n, idx, pc->qdisc, sizeof(pc->qdisc))) {
		snprintf(pc->why, sizeof(pc->why), "%s has qdisc %s, not fq", pc->ifname,
			 pc->qdisc);
		goto out;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_TXTIME, &t, sizeof(t)) < 0) {
		snprintf(pc->why, sizeof(pc->why), "SO_TXTIME: %s", strerror(errno));
		goto out;
	}
	ok = true;
out:
	free(q);
	return ok;
}

int nb_stream_pacing_setup(int fd, const char *iface, struct nb_stream_pacing *pc, char *err,
			   size_t errlen)
{
	bool ok = false;
	int m;

	pc->ifname[0] = '\0';
	pc->why[0] = '\0';
	snprintf(pc->qdisc, sizeof(pc->qdisc), "?");
	if (pc->asked == NB_PACING_AUTO || pc->asked == NB_PACING_TXTIME)
		ok = txtime_possible(fd, iface, pc);
	m = nb_pacing_choose(pc->asked, ok);
	if (m < 0) {
		snprintf(err, errlen,
			 "--pacing txtime: the kernel cannot pace here (%s); an fq qdisc on the "
			 "egress interface does it (tc qdisc replace dev %s root fq)",
			 pc->why, pc->ifname[0] ? pc->ifname : "IFACE");
		return m;
	}
	pc->mode = (enum nb_pacing_mode)m;
	if (pc->mode == NB_PACING_TXTIME)
		pc->why[0] = '\0';
	return 0;
}
