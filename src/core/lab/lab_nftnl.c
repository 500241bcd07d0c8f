/* SPDX-License-Identifier: BSD-2-Clause */
/* nf_tables through its netlink API (lab_nftnl.h): one batch (begin, flush, table, set and its
 * elements, chain, rules, end) built in one buffer and sent at once, the expressions nft
 * itself makes of the lab's rules (its `nft --debug=netlink` output):
 *   ip saddr A udp dport P drop   meta nfproto, cmp; payload nh+12 (ip6: +8), cmp; meta
 *                                 l4proto, cmp; payload th+2, cmp; immediate drop
 *   ip saddr . meta l4proto . th dport @set drop
 *                                 meta nfproto, cmp; payload nh -> reg 1; meta l4proto ->
 *                                 the next 32-bit register; payload th+2 -> the next; lookup
 *   ct state established,related accept
 *                                 ct state; bitwise & 0x6; cmp neq 0; immediate accept
 * and the listing from three dumps (rules, sets, each set's elements). */
#include "core/lab/lab_nftnl.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/base/json.h"

#ifndef SO_SNDBUFFORCE
#define SO_SNDBUFFORCE 32
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/* Set elements per NEWSETELEM message: its element list is one attribute (at most 64 KiB). */
#define ELEMS_PER_MSG 1000
/* The key of the lab's set: address . inet_proto . inet_service, each padded to 32 bits. */
#define KEY_MAX (16 + 4 + 4)
/* nft's type identifiers (its datatype.h) and their concatenation (6 bits a field). */
#define TYPE_IPADDR	     7
#define TYPE_IP6ADDR	     8
#define TYPE_INET_PROTO	     12
#define TYPE_INET_SERV	     13
#define TYPE_CONCAT(a, b, c) ((((uint32_t)(a) << 6 | (b)) << 6) | (c))
/* ct state bits (nf_conntrack_common.h): established 1 << 1, related 1 << 2. */
#define CT_STATE_EST_REL 0x6u
#define SET_ID		 1

/* A growing buffer of netlink messages; offsets, not pointers, across growth. */
struct nlbuf {
	char *p;
	size_t len, cap;
	size_t last; /* the offset of the latest message */
	bool bad;    /* out of memory, or an attribute past 64 KiB */
};

static void *put(struct nlbuf *b, size_t n)
{
	size_t need = b->len + NLMSG_ALIGN(n);
	void *at;

	if (b->bad)
		return NULL;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *p;
		while (cap < need)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->bad = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	at = b->p + b->len;
	memset(at, 0, NLMSG_ALIGN(n));
	b->len = need;
	return at;
}

static void attr(struct nlbuf *b, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = put(b, NLA_HDRLEN + len);

	if (!a)
		return;
	if (NLA_HDRLEN + len > 0xffff) {
		b->bad = true;
		return;
	}
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
}

static void attr_be32(struct nlbuf *b, uint16_t type, uint32_t v)
{
	uint32_t be = htonl(v);
	attr(b, type, &be, sizeof(be));
}

static void attr_str(struct nlbuf *b, uint16_t type, const char *s)
{
	attr(b, type, s, strlen(s) + 1);
}

static size_t nest_begin(struct nlbuf *b, uint16_t type)
{
	size_t off = b->len;
	struct nlattr *a = put(b, NLA_HDRLEN);

	if (a)
		a->nla_type = NLA_F_NESTED | type;
	return off;
}

static void nest_end(struct nlbuf *b, size_t off)
{
	if (b->bad)
		return;
	if (b->len - off > 0xffff) {
		b->bad = true;
		return;
	}
	((struct nlattr *)(b->p + off))->nla_len = (uint16_t)(b->len - off);
}

/* A message of nf_tables (or nfnetlink's batch begin/end when subsys is 0). */
static size_t msg_begin(struct nlbuf *b, uint16_t type, uint8_t family, uint16_t flags,
			uint32_t seq)
{
	size_t off = b->len;
	struct nlmsghdr *nh = put(b, NLMSG_HDRLEN + sizeof(struct nfgenmsg));

	if (!nh)
		return off;
	b->last = off;
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	nh->nlmsg_seq = seq;
	struct nfgenmsg *g = (struct nfgenmsg *)((char *)nh + NLMSG_HDRLEN);
	g->nfgen_family = family;
	g->version = NFNETLINK_V0;
	if (type == NFNL_MSG_BATCH_BEGIN || type == NFNL_MSG_BATCH_END)
		g->res_id = htons(NFNL_SUBSYS_NFTABLES);
	return off;
}

static void msg_end(struct nlbuf *b, size_t off)
{
	if (!b->bad)
		((struct nlmsghdr *)(b->p + off))->nlmsg_len = (uint32_t)(b->len - off);
}

static uint16_t nft_type(int msg)
{
	return (uint16_t)(NFNL_SUBSYS_NFTABLES << 8 | msg);
}

/* Expressions: each one list element {name, data}; e_end closes both. */
static size_t e_begin(struct nlbuf *b, const char *name, size_t *data)
{
	size_t el = nest_begin(b, NFTA_LIST_ELEM);
	attr_str(b, NFTA_EXPR_NAME, name);
	*data = nest_begin(b, NFTA_EXPR_DATA);
	return el;
}

static void e_end(struct nlbuf *b, size_t el, size_t data)
{
	nest_end(b, data);
	nest_end(b, el);
}

static void e_meta(struct nlbuf *b, uint32_t key, uint32_t dreg)
{
	size_t d, el = e_begin(b, "meta", &d);
	attr_be32(b, NFTA_META_DREG, dreg);
	attr_be32(b, NFTA_META_KEY, key);
	e_end(b, el, d);
}

static void e_payload(struct nlbuf *b, uint32_t base, uint32_t off, uint32_t len, uint32_t dreg)
{
	size_t d, el = e_begin(b, "payload", &d);
	attr_be32(b, NFTA_PAYLOAD_DREG, dreg);
	attr_be32(b, NFTA_PAYLOAD_BASE, base);
	attr_be32(b, NFTA_PAYLOAD_OFFSET, off);
	attr_be32(b, NFTA_PAYLOAD_LEN, len);
	e_end(b, el, d);
}

static void data_value(struct nlbuf *b, uint16_t type, const void *v, size_t len)
{
	size_t n = nest_begin(b, type);
	attr(b, NFTA_DATA_VALUE, v, len);
	nest_end(b, n);
}

static void e_cmp(struct nlbuf *b, uint32_t op, const void *v, size_t len)
{
	size_t d, el = e_begin(b, "cmp", &d);
	attr_be32(b, NFTA_CMP_SREG, NFT_REG_1);
	attr_be32(b, NFTA_CMP_OP, op);
	data_value(b, NFTA_CMP_DATA, v, len);
	e_end(b, el, d);
}

static void e_verdict(struct nlbuf *b, uint32_t verdict)
{
	size_t d, el = e_begin(b, "immediate", &d), im, vd;
	attr_be32(b, NFTA_IMMEDIATE_DREG, NFT_REG_VERDICT);
	im = nest_begin(b, NFTA_IMMEDIATE_DATA);
	vd = nest_begin(b, NFTA_DATA_VERDICT);
	attr_be32(b, NFTA_VERDICT_CODE, verdict);
	nest_end(b, vd);
	nest_end(b, im);
	e_end(b, el, d);
}

/* The i-th match of the lab's rules in binary: address (4 or 16 bytes) and port. */
static int match_bin(size_t i, bool ipv6, uint8_t *addr, uint16_t *port_be)
{
	char text[48];

	nb_lab_rules_addr(text, sizeof(text), i, ipv6);
	*port_be = htons((uint16_t)nb_lab_rules_port(i));
	return inet_pton(ipv6 ? AF_INET6 : AF_INET, text, addr) == 1 ? 0 : -EINVAL;
}

/* The family dependency nft adds to "ip saddr" / "ip6 saddr" in an inet table. */
static void e_nfproto(struct nlbuf *b, bool ipv6)
{
	uint8_t proto = ipv6 ? NFPROTO_IPV6 : NFPROTO_IPV4;
	e_meta(b, NFT_META_NFPROTO, NFT_REG_1);
	e_cmp(b, NFT_CMP_EQ, &proto, 1);
}

static size_t rule_begin(struct nlbuf *b, uint32_t seq, size_t *exprs)
{
	size_t m =
	    msg_begin(b, nft_type(NFT_MSG_NEWRULE), NFPROTO_INET, NLM_F_CREATE | NLM_F_APPEND, seq);
	attr_str(b, NFTA_RULE_TABLE, NB_LAB_TABLE);
	attr_str(b, NFTA_RULE_CHAIN, NB_LAB_CHAIN);
	*exprs = nest_begin(b, NFTA_RULE_EXPRESSIONS);
	return m;
}

static void rule_end(struct nlbuf *b, size_t m, size_t exprs)
{
	nest_end(b, exprs);
	msg_end(b, m);
}

static int rule_linear(struct nlbuf *b, uint32_t seq, size_t i, bool ipv6)
{
	uint8_t addr[16], udp = IPPROTO_UDP;
	uint16_t port;
	size_t x, m;

	if (match_bin(i, ipv6, addr, &port))
		return -EINVAL;
	m = rule_begin(b, seq, &x);
	e_nfproto(b, ipv6);
	e_payload(b, NFT_PAYLOAD_NETWORK_HEADER, ipv6 ? 8 : 12, ipv6 ? 16 : 4, NFT_REG_1);
	e_cmp(b, NFT_CMP_EQ, addr, ipv6 ? 16 : 4);
	e_meta(b, NFT_META_L4PROTO, NFT_REG_1);
	e_cmp(b, NFT_CMP_EQ, &udp, 1);
	e_payload(b, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1);
	e_cmp(b, NFT_CMP_EQ, &port, 2);
	e_verdict(b, NF_DROP);
	rule_end(b, m, x);
	return 0;
}

static void rule_lookup(struct nlbuf *b, uint32_t seq, bool ipv6)
{
	/* The concatenation from NFT_REG_1 on in 32-bit registers (NFT_REG32_00 aliases its
	 * first word): the address takes 1 or 4 of them. */
	uint32_t next = NFT_REG32_00 + (ipv6 ? 4 : 1);
	size_t x, m = rule_begin(b, seq, &x), d, el;

	e_nfproto(b, ipv6);
	e_payload(b, NFT_PAYLOAD_NETWORK_HEADER, ipv6 ? 8 : 12, ipv6 ? 16 : 4, NFT_REG_1);
	/* nft names a 32-bit register that starts a 128-bit one by the latter. */
	e_meta(b, NFT_META_L4PROTO, ipv6 ? NFT_REG_2 : next);
	e_payload(b, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, next + 1);
	el = e_begin(b, "lookup", &d);
	attr_str(b, NFTA_LOOKUP_SET, NB_LAB_SET);
	attr_be32(b, NFTA_LOOKUP_SREG, NFT_REG_1);
	attr_be32(b, NFTA_LOOKUP_SET_ID, SET_ID);
	e_end(b, el, d);
	e_verdict(b, NF_DROP);
	rule_end(b, m, x);
}

static void rule_ct(struct nlbuf *b, uint32_t seq)
{
	uint32_t mask = CT_STATE_EST_REL, zero = 0; /* host order, as the kernel keeps ct state */
	size_t x, m = rule_begin(b, seq, &x), d, el;

	el = e_begin(b, "ct", &d);
	attr_be32(b, NFTA_CT_DREG, NFT_REG_1);
	attr_be32(b, NFTA_CT_KEY, NFT_CT_STATE);
	e_end(b, el, d);
	el = e_begin(b, "bitwise", &d);
	attr_be32(b, NFTA_BITWISE_SREG, NFT_REG_1);
	attr_be32(b, NFTA_BITWISE_DREG, NFT_REG_1);
	attr_be32(b, NFTA_BITWISE_LEN, 4);
	data_value(b, NFTA_BITWISE_MASK, &mask, 4);
	data_value(b, NFTA_BITWISE_XOR, &zero, 4);
	e_end(b, el, d);
	e_cmp(b, NFT_CMP_NEQ, &zero, 4);
	e_verdict(b, NF_ACCEPT);
	rule_end(b, m, x);
}

static void rule_accept(struct nlbuf *b, uint32_t seq)
{
	size_t x, m = rule_begin(b, seq, &x);
	e_verdict(b, NF_ACCEPT);
	rule_end(b, m, x);
}

/* The set and its elements, ELEMS_PER_MSG a message; *seq advances. */
static int add_set(struct nlbuf *b, uint32_t *seq, size_t n, bool ipv6)
{
	size_t alen = ipv6 ? 16 : 4, m = 0, list = 0, el, key;
	uint8_t k[KEY_MAX];
	uint16_t port;

	m = msg_begin(b, nft_type(NFT_MSG_NEWSET), NFPROTO_INET, NLM_F_CREATE, (*seq)++);
	attr_str(b, NFTA_SET_TABLE, NB_LAB_TABLE);
	attr_str(b, NFTA_SET_NAME, NB_LAB_SET);
	attr_be32(b, NFTA_SET_FLAGS, 0);
	attr_be32(b, NFTA_SET_KEY_TYPE,
		  TYPE_CONCAT(ipv6 ? TYPE_IP6ADDR : TYPE_IPADDR, TYPE_INET_PROTO, TYPE_INET_SERV));
	attr_be32(b, NFTA_SET_KEY_LEN, (uint32_t)(alen + 8));
	attr_be32(b, NFTA_SET_ID, SET_ID);
	msg_end(b, m);
	for (size_t i = 0; i < n; i++) {
		if (i % ELEMS_PER_MSG == 0) {
			m = msg_begin(b, nft_type(NFT_MSG_NEWSETELEM), NFPROTO_INET, NLM_F_CREATE,
				      (*seq)++);
			attr_str(b, NFTA_SET_ELEM_LIST_TABLE, NB_LAB_TABLE);
			attr_str(b, NFTA_SET_ELEM_LIST_SET, NB_LAB_SET);
			attr_be32(b, NFTA_SET_ELEM_LIST_SET_ID, SET_ID);
			list = nest_begin(b, NFTA_SET_ELEM_LIST_ELEMENTS);
		}
		memset(k, 0, sizeof(k));
		if (match_bin(i, ipv6, k, &port))
			return -EINVAL;
		k[alen] = IPPROTO_UDP;
		memcpy(k + alen + 4, &port, 2);
		el = nest_begin(b, NFTA_LIST_ELEM);
		key = nest_begin(b, NFTA_SET_ELEM_KEY);
		attr(b, NFTA_DATA_VALUE, k, alen + 8);
		nest_end(b, key);
		nest_end(b, el);
		if (i + 1 == n || (i + 1) % ELEMS_PER_MSG == 0) {
			nest_end(b, list);
			msg_end(b, m);
		}
	}
	return 0;
}

/* What the message of sequence number seq was, for an error. */
struct seqmap {
	uint32_t flush, table, set, elems, chain, rules, accept;
};

static void seq_name(const struct seqmap *s, uint32_t seq, char *buf, size_t len)
{
	if (seq == s->flush)
		snprintf(buf, len, "flush ruleset");
	else if (seq == s->table)
		snprintf(buf, len, "table inet %s", NB_LAB_TABLE);
	else if (s->set && seq == s->set)
		snprintf(buf, len, "set %s", NB_LAB_SET);
	else if (s->set && seq >= s->elems && seq < s->chain)
		snprintf(buf, len, "elements %zu.. of set %s",
			 (size_t)(seq - s->elems) * ELEMS_PER_MSG + 1, NB_LAB_SET);
	else if (seq == s->chain)
		snprintf(buf, len, "chain %s (hook forward)", NB_LAB_CHAIN);
	else if (seq >= s->rules && seq <= s->accept)
		snprintf(buf, len, "rule %u of chain %s", seq - s->rules + 1, NB_LAB_CHAIN);
	else
		snprintf(buf, len, "message %u", seq);
}

static int nl_open(char *err, size_t errlen)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER), one = 1;
	struct timeval tv = {.tv_sec = 5};

	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot open a netfilter netlink socket: %s", strerror(e));
		return -e;
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static int send_all(int fd, const struct nlbuf *b, char *err, size_t errlen)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	int sz = b->len > (size_t)(1 << 30) ? 1 << 30 : (int)b->len + 4096;

	/* One datagram: the socket's send buffer must hold it (root may raise it past rmem). */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (sendto(fd, b->p, b->len, 0, (struct sockaddr *)&sa, sizeof(sa)) != (ssize_t)b->len) {
		int e = errno ? errno : EIO;
		if (err)
			snprintf(err, errlen, "sending %zu bytes of nf_tables messages: %s", b->len,
				 strerror(e));
		return -e;
	}
	return 0;
}

/* The kernel's extended-ack message, when it gave one (NLMSGERR_ATTR_MSG). */
static void ext_msg(const struct nlmsghdr *nh, char *buf, size_t len)
{
	const struct nlmsgerr *e = NLMSG_DATA(nh);
	size_t off = NLMSG_HDRLEN + sizeof(*e), end = nh->nlmsg_len;

	buf[0] = '\0';
	if (!(nh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	while (off + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)((const char *)nh + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > end)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			snprintf(buf, len, ": %.*s", (int)(a->nla_len - NLA_HDRLEN - 1),
				 (const char *)a + NLA_HDRLEN);
			return;
		}
		off += NLA_ALIGN(a->nla_len);
	}
}

/* Reads the answers to a batch: errors of any message, the acknowledgement of the last. */
static int read_acks(int fd, const struct seqmap *s, uint32_t last, char *err, size_t errlen)
{
	static char buf[65536];
	bool acked = false;
	int first = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), acked ? MSG_DONTWAIT : 0);
		if (n < 0) {
			int e = errno;
			if (acked && (e == EAGAIN || e == EWOULDBLOCK))
				break;
			if (e == EINTR)
				continue;
			snprintf(err, errlen, "reading nf_tables' answer: %s%s", strerror(e),
				 e == EAGAIN ? " (no answer in 5 s)" : "");
			return first ? first : -e;
		}
		for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n);
		     nh = NLMSG_NEXT(nh, n)) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);
			char what[96], ext[160];
			if (nh->nlmsg_type != NLMSG_ERROR ||
			    nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				continue;
			if (e->error == 0) {
				acked |= nh->nlmsg_seq == last;
				continue;
			}
			/* The batch was refused whole: the last message will not be acked. */
			acked = true;
			if (first)
				continue;
			first = e->error;
			seq_name(s, nh->nlmsg_seq, what, sizeof(what));
			ext_msg(nh, ext, sizeof(ext));
			snprintf(err, errlen, "nf_tables refused %s: %s%s", what,
				 strerror(-e->error), ext);
		}
	}
	return first;
}

int nb_lab_nftnl_load(const struct nb_lab_rules *r, char *err, size_t errlen)
{
	struct nlbuf b = {0};
	struct seqmap s = {0};
	uint32_t seq = 1, last;
	size_t m, hook;
	int fd, ret = 0;

	err[0] = '\0';
	if (r && (r->kind == NB_LAB_RULES_FILE || r->kind > NB_LAB_RULES_FILE ||
		  r->rules_n > NB_LAB_RULES_MAX)) {
		snprintf(err, errlen, "only the lab's generated rulesets load without nft");
		return -EINVAL;
	}
	msg_end(&b, msg_begin(&b, NFNL_MSG_BATCH_BEGIN, AF_UNSPEC, 0, seq++));
	s.flush = seq;
	msg_end(&b, msg_begin(&b, nft_type(NFT_MSG_DELTABLE), NFPROTO_UNSPEC, 0, seq++));
	if (r) {
		s.table = seq;
		m = msg_begin(&b, nft_type(NFT_MSG_NEWTABLE), NFPROTO_INET, NLM_F_CREATE, seq++);
		attr_str(&b, NFTA_TABLE_NAME, NB_LAB_TABLE);
		msg_end(&b, m);
		if (r->kind == NB_LAB_RULES_SET && r->rules_n > 0) {
			s.set = seq;
			s.elems = seq + 1;
			ret = add_set(&b, &seq, r->rules_n, r->ipv6);
		}
		s.chain = seq;
		m = msg_begin(&b, nft_type(NFT_MSG_NEWCHAIN), NFPROTO_INET, NLM_F_CREATE, seq++);
		attr_str(&b, NFTA_CHAIN_TABLE, NB_LAB_TABLE);
		attr_str(&b, NFTA_CHAIN_NAME, NB_LAB_CHAIN);
		hook = nest_begin(&b, NFTA_CHAIN_HOOK);
		attr_be32(&b, NFTA_HOOK_HOOKNUM, NF_INET_FORWARD);
		attr_be32(&b, NFTA_HOOK_PRIORITY, 0); /* "priority filter" */
		nest_end(&b, hook);
		attr_be32(&b, NFTA_CHAIN_POLICY, NF_DROP);
		attr_str(&b, NFTA_CHAIN_TYPE, "filter");
		msg_end(&b, m);
		s.rules = seq;
		if (r->kind == NB_LAB_RULES_CONNTRACK)
			rule_ct(&b, seq++);
		if (r->kind == NB_LAB_RULES_SET) {
			if (r->rules_n > 0)
				rule_lookup(&b, seq++, r->ipv6);
		} else {
			for (size_t i = 0; i < r->rules_n && !ret; i++)
				ret = rule_linear(&b, seq++, i, r->ipv6);
		}
		s.accept = seq;
		rule_accept(&b, seq++);
	}
	last = seq - 1;
	/* Acknowledge the last command: its ack (or any message's error) ends the answer. */
	if (!b.bad)
		((struct nlmsghdr *)(b.p + b.last))->nlmsg_flags |= NLM_F_ACK;
	msg_end(&b, msg_begin(&b, NFNL_MSG_BATCH_END, AF_UNSPEC, 0, seq++));
	if (ret || b.bad) {
		snprintf(err, errlen, "cannot build the nf_tables messages%s",
			 ret ? "" : " (out of memory)");
		free(b.p);
		return ret ? ret : -ENOMEM;
	}
	fd = nl_open(err, errlen);
	if (fd < 0) {
		free(b.p);
		return fd;
	}
	ret = send_all(fd, &b, err, errlen);
	if (!ret)
		ret = read_acks(fd, &s, last, err, errlen);
	close(fd);
	free(b.p);
	return ret;
}

/* The listing. */

static const char *family_name(uint8_t f)
{
	switch (f) {
	case NFPROTO_INET:
		return "inet";
	case NFPROTO_IPV4:
		return "ip";
	case NFPROTO_IPV6:
		return "ip6";
	case NFPROTO_ARP:
		return "arp";
	case NFPROTO_BRIDGE:
		return "bridge";
	case NFPROTO_NETDEV:
		return "netdev";
	}
	return "unknown";
}

static const struct nlattr *find(const void *attrs, size_t len, uint16_t type)
{
	size_t off = 0;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)((const char *)attrs + off);
		if (a->nla_len < NLA_HDRLEN || off + a->nla_len > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		off += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static const void *payload(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static size_t payload_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

/* A string attribute into buf ("" when absent or unterminated). */
static void str_of(const void *attrs, size_t len, uint16_t type, char *buf, size_t blen)
{
	const struct nlattr *a = find(attrs, len, type);
	size_t n = a ? payload_len(a) : 0;

	buf[0] = '\0';
	if (n && ((const char *)payload(a))[n - 1] == '\0')
		snprintf(buf, blen, "%s", (const char *)payload(a));
}

typedef int (*dump_fn)(void *arg, uint8_t family, const void *attrs, size_t len);

/* One dump of nf_tables objects of msg (NFT_MSG_GETRULE, ...), with table and set names for
 * a set's elements; fn gets each object. */
static int dump(int fd, int msg, uint8_t family, const char *table, const char *set, dump_fn fn,
		void *arg)
{
	static char buf[65536];
	static uint32_t seq = 1;
	struct nlbuf b = {0};
	uint32_t want = ++seq;
	int ret;

	size_t m = msg_begin(&b, nft_type(msg), family, NLM_F_DUMP, want);
	if (table) {
		attr_str(&b, NFTA_SET_ELEM_LIST_TABLE, table);
		attr_str(&b, NFTA_SET_ELEM_LIST_SET, set);
	}
	msg_end(&b, m);
	if (b.bad) {
		free(b.p);
		return -ENOMEM;
	}
	ret = send_all(fd, &b, NULL, 0);
	free(b.p);
	if (ret)
		return ret;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (size_t)n);
		     nh = NLMSG_NEXT(nh, n)) {
			size_t hl = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(struct nfgenmsg));
			if (nh->nlmsg_seq != want)
				continue;
			if (nh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nh);
				if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EBADMSG;
				if (e->error)
					return e->error;
				continue;
			}
			if (nh->nlmsg_len < hl)
				return -EBADMSG;
			const struct nfgenmsg *g = NLMSG_DATA(nh);
			ret = fn(arg, g->nfgen_family, (const char *)nh + hl, nh->nlmsg_len - hl);
			if (ret)
				return ret;
		}
	}
}

#define NAME_MAX_NFT 256
#define SETS_MAX     256

struct listing {
	struct nb_json j;
	size_t sets_n;
	struct {
		uint8_t family;
		char table[NAME_MAX_NFT], name[NAME_MAX_NFT];
	} sets[SETS_MAX];
};

static int on_rule(void *arg, uint8_t family, const void *attrs, size_t len)
{
	struct listing *l = arg;
	char table[NAME_MAX_NFT], chain[NAME_MAX_NFT];
	const struct nlattr *h = find(attrs, len, NFTA_RULE_HANDLE);
	uint64_t handle = 0;

	str_of(attrs, len, NFTA_RULE_TABLE, table, sizeof(table));
	str_of(attrs, len, NFTA_RULE_CHAIN, chain, sizeof(chain));
	if (h && payload_len(h) == 8) {
		memcpy(&handle, payload(h), 8);
		handle = be64toh(handle);
	}
	nb_json_obj_begin(&l->j, NULL);
	nb_json_obj_begin(&l->j, "rule");
	nb_json_str(&l->j, "family", family_name(family));
	nb_json_str(&l->j, "table", table);
	nb_json_str(&l->j, "chain", chain);
	nb_json_u64(&l->j, "handle", handle);
	nb_json_obj_end(&l->j);
	nb_json_obj_end(&l->j);
	return 0;
}

static int on_set(void *arg, uint8_t family, const void *attrs, size_t len)
{
	struct listing *l = arg;

	if (l->sets_n == SETS_MAX)
		return -E2BIG;
	l->sets[l->sets_n].family = family;
	str_of(attrs, len, NFTA_SET_TABLE, l->sets[l->sets_n].table, NAME_MAX_NFT);
	str_of(attrs, len, NFTA_SET_NAME, l->sets[l->sets_n].name, NAME_MAX_NFT);
	l->sets_n++;
	return 0;
}

/* Each element's key in hex, one string of the set's "elem" array. */
static int on_elems(void *arg, uint8_t family, const void *attrs, size_t len)
{
	struct listing *l = arg;
	const struct nlattr *list = find(attrs, len, NFTA_SET_ELEM_LIST_ELEMENTS);
	size_t off = 0, n = list ? payload_len(list) : 0;

	(void)family;
	while (off + NLA_HDRLEN <= n) {
		const struct nlattr *el = (const void *)((const char *)payload(list) + off);
		const struct nlattr *key, *val;
		char hex[2 * 64 + 1] = "";
		if (el->nla_len < NLA_HDRLEN || off + el->nla_len > n)
			return -EBADMSG;
		key = find(payload(el), payload_len(el), NFTA_SET_ELEM_KEY);
		val = key ? find(payload(key), payload_len(key), NFTA_DATA_VALUE) : NULL;
		for (size_t i = 0; val && i < payload_len(val) && i < 64; i++)
			snprintf(hex + 2 * i, 3, "%02x", ((const uint8_t *)payload(val))[i]);
		nb_json_str(&l->j, NULL, hex);
		off += NLA_ALIGN(el->nla_len);
	}
	return 0;
}

int nb_lab_nftnl_list(FILE *out, char *err, size_t errlen)
{
	struct listing *l = calloc(1, sizeof(*l));
	const char *what = "rules";
	int fd, ret;

	err[0] = '\0';
	if (!l)
		return -ENOMEM;
	fd = nl_open(err, errlen);
	if (fd < 0) {
		free(l);
		return fd;
	}
	nb_json_init(&l->j, out);
	nb_json_obj_begin(&l->j, NULL);
	nb_json_arr_begin(&l->j, "nftables");
	ret = dump(fd, NFT_MSG_GETRULE, NFPROTO_UNSPEC, NULL, NULL, on_rule, l);
	if (!ret) {
		what = "sets";
		ret = dump(fd, NFT_MSG_GETSET, NFPROTO_UNSPEC, NULL, NULL, on_set, l);
	}
	for (size_t i = 0; !ret && i < l->sets_n; i++) {
		what = "set elements";
		nb_json_obj_begin(&l->j, NULL);
		nb_json_obj_begin(&l->j, "set");
		nb_json_str(&l->j, "family", family_name(l->sets[i].family));
		nb_json_str(&l->j, "table", l->sets[i].table);
		nb_json_str(&l->j, "name", l->sets[i].name);
		nb_json_arr_begin(&l->j, "elem");
		ret = dump(fd, NFT_MSG_GETSETELEM, l->sets[i].family, l->sets[i].table,
			   l->sets[i].name, on_elems, l);
		nb_json_arr_end(&l->j);
		nb_json_obj_end(&l->j);
		nb_json_obj_end(&l->j);
	}
	nb_json_arr_end(&l->j);
	nb_json_obj_end(&l->j);
	fputc('\n', out);
	if (ret)
		snprintf(err, errlen, "dumping nf_tables' %s: %s", what, strerror(-ret));
	close(fd);
	free(l);
	return ret;
}
