/* SPDX-License-Identifier: BSD-2-Clause */
/* --flow-fields and the source ranges of spread flows (flows.h). */
#include "core/rate/flows.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t bit;
} fields[] = {
    {"src-ip", NB_FLOW_SRC_IP},
    {"dst-ip", NB_FLOW_DST_IP},
    {"sport", NB_FLOW_SPORT},
    {"dport", NB_FLOW_DPORT},
};

int nb_flow_fields_parse(const char *s, uint32_t *mask, char *err, size_t errlen)
{
	char buf[128], *tok, *save = NULL;

	*mask = 0;
	if (!*s || strlen(s) >= sizeof(buf) || s[0] == ',' || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,")) {
		snprintf(err, errlen,
			 "'%s' is not a comma-separated list of src-ip, dst-ip, sport, "
			 "dport",
			 s);
		return -EINVAL;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (!strcmp(tok, fields[i].name))
				break;
		if (i == sizeof(fields) / sizeof(fields[0])) {
			snprintf(err, errlen,
				 "unknown field '%s' (accepted: src-ip, dst-ip, sport, "
				 "dport)",
				 tok);
			return -EINVAL;
		}
		*mask |= fields[i].bit;
	}
	return 0;
}

const char *nb_flow_fields_str(uint32_t mask, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (mask & fields[i].bit) {
			int n = snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					 off ? "," : "", fields[i].name);
			if (n > 0)
				off += (size_t)n;
		}
	return buf;
}

/* The lowest 32 bits of the address (host order), and where they live. */
static uint8_t *low32(struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET6 ? ((struct sockaddr_in6 *)a)->sin6_addr.s6_addr + 12
					: (uint8_t *)&((struct sockaddr_in *)a)->sin_addr;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void nb_flow_addr_add(struct sockaddr_storage *addr, uint32_t k)
{
	uint8_t *p = low32(addr);
	put32(p, get32(p) + k);
}

static bool same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
	return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
	       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
}

int nb_flow_src_range(const struct sockaddr *addr, unsigned plen, uint32_t flows,
		      const struct sockaddr_storage *avoid, size_t navoid,
		      struct sockaddr_storage *first, uint64_t *avail, char *err, size_t errlen)
{
	unsigned bits = addr->sa_family == AF_INET6 ? 128 : 32;
	unsigned host = plen < bits ? bits - plen : 0, h = host > 32 ? 32 : host;
	uint64_t size = (uint64_t)1 << h;
	uint32_t mask = h == 32 ? 0 : ~(uint32_t)0 << h, lo;
	char a[INET6_ADDRSTRLEN] = "?";

	memset(first, 0, sizeof(*first));
	memcpy(first, addr,
	       addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
					   : sizeof(struct sockaddr_in));
	inet_ntop(addr->sa_family, low32(first) - (addr->sa_family == AF_INET6 ? 12 : 0), a,
		  sizeof(a));
	if (addr->sa_family == AF_INET6 && host > 32) {
		/* Only the lowest 32 bits vary: clear the host bits above them. */
		uint8_t *p = ((struct sockaddr_in6 *)first)->sin6_addr.s6_addr;
		for (unsigned b = plen; b < 96; b++)
			p[b / 8] &= (uint8_t) ~(0x80u >> (b % 8));
	}
	/* The upper half of the host part; IPv4's last address is the broadcast. */
	*avail = h < 2 ? 0 : size / 2 - (addr->sa_family == AF_INET ? 1 : 0);
	if (h >= 2) {
		lo = (get32(low32(first)) & mask) + (uint32_t)(size / 2);
		put32(low32(first), lo);
	}
	if (flows > *avail) {
		snprintf(err, errlen,
			 "%u flows by source address do not fit %s/%u: its upper half holds %llu",
			 flows, a, plen, (unsigned long long)*avail);
		return -ERANGE;
	}
	for (size_t i = 0; i < navoid; i++) {
		struct sockaddr_storage x = *first;
		for (uint32_t k = 0; k < flows; k++, nb_flow_addr_add(&x, 1))
			if (same_addr(&x, &avoid[i])) {
				inet_ntop(x.ss_family,
					  low32(&x) - (x.ss_family == AF_INET6 ? 12 : 0), a,
					  sizeof(a));
				snprintf(err, errlen,
					 "flow %u's source address %s is a host of the path (this "
					 "host or the next hop): use fewer flows",
					 k, a);
				return -ERANGE;
			}
	}
	return 0;
}

int nb_flow_prefix_len(const struct sockaddr *addr, unsigned *plen)
{
	struct ifaddrs *all, *i;
	int ret = -ENOENT;

	if (getifaddrs(&all) < 0)
		return -errno;
	for (i = all; i; i = i->ifa_next) {
		const uint8_t *m;
		size_t n;
		if (!i->ifa_addr || !i->ifa_netmask || i->ifa_addr->sa_family != addr->sa_family)
			continue;
		if (addr->sa_family == AF_INET6
			? memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
				 &((const struct sockaddr_in6 *)addr)->sin6_addr, 16)
			: ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr !=
			      ((const struct sockaddr_in *)addr)->sin_addr.s_addr)
			continue;
		m = addr->sa_family == AF_INET6
			? ((struct sockaddr_in6 *)i->ifa_netmask)->sin6_addr.s6_addr
			: (const uint8_t *)&((struct sockaddr_in *)i->ifa_netmask)->sin_addr;
		n = addr->sa_family == AF_INET6 ? 16 : 4;
		*plen = 0;
		for (size_t b = 0; b < n * 8 && (m[b / 8] & (0x80u >> (b % 8))); b++)
			(*plen)++;
		ret = 0;
		break;
	}
	freeifaddrs(all);
	return ret;
}
