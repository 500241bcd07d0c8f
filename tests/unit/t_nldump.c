/* SPDX-License-Identifier: BSD-2-Clause */
/* The shared rtnetlink dump: the walk over built messages (other types passed over, a message
 * shorter than its family header and a truncated datagram refused, NLMSG_ERROR's errno, a
 * callback's error ends the walk, NLMSG_DONE ends the dump), then real dumps of this host's
 * links and of loopback's qdiscs (no root needed; under qemu-user, which does not carry a qdisc
 * dump, that one is skipped). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include "core/base/nldump.h"
#include "core/base/qdisc.h"
#include "tap.h"

static _Alignas(4) char buf[4096];
static size_t len;

static void put(unsigned short type, size_t body)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + len);
	memset(h, 0, NLMSG_LENGTH(body));
	h->nlmsg_type = type;
	h->nlmsg_len = (unsigned)NLMSG_LENGTH(body);
	len += NLMSG_ALIGN(h->nlmsg_len);
}

struct seen {
	int msgs, fail;
	int lo;
	size_t attrs;
};

static int count(void *arg, const void *hdr, const void *attrs, size_t alen)
{
	struct seen *s = arg;
	(void)attrs;
	s->msgs++;
	s->attrs += alen;
	if (((const struct ifinfomsg *)hdr)->ifi_index == (int)if_nametoindex("lo"))
		s->lo = 1;
	return s->fail;
}

static int links(void *arg, const void *b, size_t n)
{
	return nb_nl_walk(b, n, RTM_NEWLINK, sizeof(struct ifinfomsg), count, arg);
}

int main(void)
{
	struct seen s = {0};

	put(RTM_NEWLINK, sizeof(struct ifinfomsg) + 8);
	put(RTM_NEWADDR, 4);
	put(RTM_NEWLINK, sizeof(struct ifinfomsg));
	int ret = nb_nl_walk(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg), count, &s);
	CHECK(ret == 0 && s.msgs == 2 && s.attrs == 8,
	      "two links walked, the other type passed over (%d messages, %zu attribute bytes)",
	      s.msgs, s.attrs);
	put(NLMSG_DONE, 4);
	s = (struct seen){0};
	CHECK(nb_nl_walk(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg), count, &s) == 1 &&
		  s.msgs == 2,
	      "NLMSG_DONE: the dump is complete");
	s = (struct seen){.fail = -EPERM};
	CHECK(nb_nl_walk(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg), count, &s) == -EPERM &&
		  s.msgs == 1,
	      "the callback's error ends the walk at the first message");
	s = (struct seen){0};
	CHECK(nb_nl_walk(buf, len - 4, RTM_NEWLINK, sizeof(struct ifinfomsg), count, &s) ==
		  -EBADMSG,
	      "a datagram that ends inside a message: -EBADMSG");
	len = 0;
	put(RTM_NEWLINK, 4);
	CHECK(nb_nl_walk(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg), count, &s) == -EBADMSG,
	      "a link message shorter than struct ifinfomsg: -EBADMSG");
	len = 0;
	put(NLMSG_ERROR, sizeof(struct nlmsgerr));
	((struct nlmsgerr *)NLMSG_DATA((struct nlmsghdr *)buf))->error = -EACCES;
	CHECK(nb_nl_walk(buf, len, RTM_NEWLINK, sizeof(struct ifinfomsg), count, &s) == -EACCES,
	      "NLMSG_ERROR: its errno");

	/* The real kernel: every link of this network namespace, loopback among them. */
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	s = (struct seen){0};
	ret = nb_nl_dump(RTM_GETLINK, &ifi, sizeof(ifi), links, &s);
	CHECK(ret == 0 && s.msgs >= 1 && s.lo, "RTM_GETLINK dump: %d (%s), %d links, lo %s", ret,
	      strerror(ret < 0 ? -ret : 0), s.msgs, s.lo ? "among them" : "MISSING");
	struct nb_qdisc q[NB_QDISC_MAX];
	int nq = nb_qdisc_list((int)if_nametoindex("lo"), q, NB_QDISC_MAX);
	/* qemu-user translates link dumps but answers a qdisc dump with EOPNOTSUPP. */
	if (nq == -EOPNOTSUPP && getenv("NB_EMULATED"))
		tap_skip("RTM_GETQDISC dump of lo: the user-mode emulator does not carry it");
	else
		CHECK(nq >= 0, "RTM_GETQDISC dump of lo: %d qdisc(s)%s%s", nq, nq > 0 ? ", " : "",
		      nq > 0 ? q[0].kind : "");
	return tap_done();
}
