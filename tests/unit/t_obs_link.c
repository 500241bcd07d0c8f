/* SPDX-License-Identifier: BSD-2-Clause */
/* The RTM_GETLINK dump parser on messages built as the kernel sends them: loopback skipped,
 * each interface's name, index and IFLA_STATS64 counters (at a 4-byte aligned offset), a name
 * too long to keep skipped, a truncated message and NLMSG_ERROR refused, NLMSG_DONE ends. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "core/observe/obs.h"
#include "tap.h"

static char buf[8192];
static size_t len;

static void put_attr(struct nlmsghdr *h, unsigned short type, const void *data, size_t n)
{
	struct rtattr *a = (struct rtattr *)((char *)h + NLMSG_ALIGN(h->nlmsg_len));
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(n);
	memcpy(RTA_DATA(a), data, n);
	h->nlmsg_len = NLMSG_ALIGN(h->nlmsg_len) + RTA_ALIGN(a->rta_len);
}

static void put_link(int index, const char *name, uint64_t rx, uint64_t missed, uint64_t txdrop)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + len);
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	struct rtnl_link_stats64 st;
	memset(h, 0, NLMSG_LENGTH(sizeof(*ifi)));
	h->nlmsg_type = RTM_NEWLINK;
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	ifi->ifi_index = index;
	put_attr(h, IFLA_MTU, &(unsigned){1500}, 4); /* shifts what follows by 4 bytes */
	put_attr(h, IFLA_IFNAME, name, strlen(name) + 1);
	memset(&st, 0, sizeof(st));
	st.rx_packets = rx;
	st.tx_packets = rx - missed;
	st.rx_bytes = rx * 128;
	st.rx_missed_errors = missed;
	st.rx_fifo_errors = 3;
	st.rx_over_errors = 4;
	st.rx_dropped = 5;
	st.tx_dropped = txdrop;
	st.tx_errors = 6;
	put_attr(h, IFLA_STATS64, &st, sizeof(st));
	len += NLMSG_ALIGN(h->nlmsg_len);
}

static void put_done(void)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + len);
	memset(h, 0, NLMSG_LENGTH(4));
	h->nlmsg_type = NLMSG_DONE;
	h->nlmsg_len = NLMSG_LENGTH(4);
	len += NLMSG_ALIGN(h->nlmsg_len);
}

int main(void)
{
	struct nb_obs_snap *s = calloc(1, sizeof(*s));
	int ret;

	put_link(1, "lo", 10, 0, 0);
	put_link(2, "eth0", 5000000000ull, 21814, 0);
	put_link(3, "a-name-far-too-long", 1, 0, 0);
	put_link(4, "eth1", 4000, 0, 7);
	ret = nb_obs_parse_links(buf, len, s);
	CHECK(ret == 0 && s->nif == 2, "two interfaces kept, loopback and a long name skipped (%u)",
	      s->nif);
	CHECK(!strcmp(s->ifs[0].name, "eth0") && s->ifs[0].ifindex == 2 &&
		  s->ifs[0].rx_packets == 5000000000ull && s->ifs[0].rx_bytes == 640000000000ull &&
		  s->ifs[0].rx_missed == 21814 && s->ifs[0].rx_fifo == 3 &&
		  s->ifs[0].rx_over == 4 && s->ifs[0].rx_dropped == 5 && s->ifs[0].tx_errors == 6,
	      "eth0: index and 64-bit counters");
	CHECK(!strcmp(s->ifs[1].name, "eth1") && s->ifs[1].tx_dropped == 7 &&
		  s->ifs[1].tx_packets == 4000,
	      "eth1: tx counters");
	put_done();
	s->nif = 0;
	CHECK(nb_obs_parse_links(buf, len, s) == 1, "NLMSG_DONE ends the dump");
	s->nif = 0;
	CHECK(nb_obs_parse_links(buf, len - 8, s) == -EBADMSG, "a truncated message is refused");
	{
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		struct nlmsgerr *e = NLMSG_DATA(h);
		memset(buf, 0, sizeof(buf));
		h->nlmsg_type = NLMSG_ERROR;
		h->nlmsg_len = NLMSG_LENGTH(sizeof(*e));
		e->error = -EPERM;
		CHECK(nb_obs_parse_links(buf, h->nlmsg_len, s) == -EPERM, "NLMSG_ERROR: its errno");
	}
	free(s);
	return tap_done();
}
