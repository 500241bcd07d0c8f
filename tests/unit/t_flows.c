/* SPDX-License-Identifier: BSD-2-Clause */
/* --flow-fields parsing and the source ranges of flows spread by address (core/rate/flows.c):
 * the upper half of the generator's network, without the broadcast address, refusing to take
 * this host's or the next hop's address and to overflow the range; the destination range's
 * checks (flows_dst.c): the address space's end, and which addresses this host owns (its
 * loopback network is its own, a documentation address and a group are not). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include "core/rate/flows.h"
#include "tap.h"

static struct sockaddr_storage v4(const char *s)
{
	struct sockaddr_storage a;
	memset(&a, 0, sizeof(a));
	a.ss_family = AF_INET;
	inet_pton(AF_INET, s, &((struct sockaddr_in *)&a)->sin_addr);
	return a;
}

static struct sockaddr_storage v6(const char *s)
{
	struct sockaddr_storage a;
	memset(&a, 0, sizeof(a));
	a.ss_family = AF_INET6;
	inet_pton(AF_INET6, s, &((struct sockaddr_in6 *)&a)->sin6_addr);
	return a;
}

static const char *str(const struct sockaddr_storage *a, char *buf)
{
	return inet_ntop(a->ss_family,
			 a->ss_family == AF_INET6
			     ? (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr
			     : (const void *)&((const struct sockaddr_in *)a)->sin_addr,
			 buf, INET6_ADDRSTRLEN);
}

int main(void)
{
	char err[256], b[INET6_ADDRSTRLEN], fs[64];
	uint32_t mask;
	uint64_t avail;
	struct sockaddr_storage first, me = v4("198.18.31.1"), last;

	CHECK(nb_flow_fields_parse("src-ip,sport", &mask, err, sizeof(err)) == 0 &&
		  mask == (NB_FLOW_SRC_IP | NB_FLOW_SPORT) &&
		  !strcmp(nb_flow_fields_str(mask, fs, sizeof(fs)), "src-ip,sport"),
	      "src-ip,sport parses and prints back");
	CHECK(nb_flow_fields_parse("dport,dst-ip,sport,src-ip", &mask, err, sizeof(err)) == 0 &&
		  mask == 15,
	      "all four, any order");
	CHECK(nb_flow_fields_parse("src-mac", &mask, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "src-mac") && strstr(err, "src-ip, dst-ip, sport, dport") &&
		  nb_flow_fields_parse("", &mask, err, sizeof(err)) == -EINVAL &&
		  nb_flow_fields_parse("sport,", &mask, err, sizeof(err)) == -EINVAL,
	      "unknown fields and empty lists refused, naming the accepted ones");

	CHECK(nb_flow_src_range((struct sockaddr *)&me, 24, 127, &me, 1, &first, &avail, err,
				sizeof(err)) == 0 &&
		  avail == 127 && !strcmp(str(&first, b), "198.18.31.128"),
	      "a /24: flows from .128, 127 addresses (to .254)");
	last = first;
	nb_flow_addr_add(&last, 126);
	CHECK(!strcmp(str(&last, b), "198.18.31.254"), "the last is .254, not the broadcast");
	CHECK(nb_flow_src_range((struct sockaddr *)&me, 24, 128, &me, 1, &first, &avail, err,
				sizeof(err)) == -ERANGE &&
		  strstr(err, "holds 127"),
	      "128 flows do not fit a /24: %s", err);
	{
		struct sockaddr_storage hi = v4("198.18.31.200");
		CHECK(nb_flow_src_range((struct sockaddr *)&me, 24, 100, &hi, 1, &first, &avail,
					err, sizeof(err)) == -ERANGE &&
			  strstr(err, "198.18.31.200"),
		      "a host of the path inside the range is refused: %s", err);
	}
	{
		struct sockaddr_storage a = v4("10.1.2.3");
		CHECK(nb_flow_src_range((struct sockaddr *)&a, 16, 1000, NULL, 0, &first, &avail,
					err, sizeof(err)) == 0 &&
			  avail == 32767 && !strcmp(str(&first, b), "10.1.128.0"),
		      "a /16: from 10.1.128.0, 32767 addresses");
	}
	{
		struct sockaddr_storage a = v6("2001:db8:31::1");
		CHECK(nb_flow_src_range((struct sockaddr *)&a, 64, 65536, &a, 1, &first, &avail,
					err, sizeof(err)) == 0 &&
			  !strcmp(str(&first, b), "2001:db8:31::8000:0"),
		      "an IPv6 /64: the upper half of the lowest 32 bits, from %s", b);
		nb_flow_addr_add(&first, 0x10001);
		CHECK(!strcmp(str(&first, b), "2001:db8:31::8001:1"), "and counted up: %s", b);
	}
	{
		struct sockaddr_storage a = v4("192.0.2.1");
		CHECK(nb_flow_src_range((struct sockaddr *)&a, 31, 1, NULL, 0, &first, &avail, err,
					sizeof(err)) == -ERANGE,
		      "a /31 has no room: %s", err);
	}
	{
		struct sockaddr_storage a = v4("255.255.255.250"), z = v6("2001:db8::ffff:fff0");
		CHECK(!nb_flow_range_wraps(&a, 6) && nb_flow_range_wraps(&a, 7) &&
			  !nb_flow_range_wraps(&z, 16) && nb_flow_range_wraps(&z, 17),
		      "a range that runs past the lowest 32 bits is told apart");
		CHECK(nb_flow_dst_owned(&a, 7, err, sizeof(err)) == -ERANGE &&
			  strstr(err, "past the address space"),
		      "and refused as a destination range: %s", err);
		nb_flow_dst_any(&z);
		CHECK(!strcmp(str(&z, b), "::"), "the wildcard of IPv6 is ::");
	}
	{
		struct sockaddr_storage lo = v4("127.0.0.1"), doc = v4("192.0.2.1"),
					grp = v4("239.1.1.1"), lo6 = v6("::1");
		int r = nb_flow_dst_owned(&lo, 1, err, sizeof(err));
		if (r) {
			tap_skip("no loopback network here (%s)", err);
		} else {
			CHECK(nb_flow_dst_owned(&lo, 1000, err, sizeof(err)) == 0,
			      "1000 addresses of 127/8 are this host's");
			CHECK(nb_flow_dst_owned(&doc, 3, err, sizeof(err)) == -EADDRNOTAVAIL &&
				  strstr(err, "192.0.2.1 (flow 0) is not an address"),
			      "a documentation address is not: %s", err);
			CHECK(nb_flow_dst_owned(&grp, 1, err, sizeof(err)) == -EADDRNOTAVAIL,
			      "nor a group: %s", err);
			CHECK(nb_flow_dst_owned(&lo6, 2, err, sizeof(err)) == -EADDRNOTAVAIL &&
				  strstr(err, "::2 (flow 1)"),
			      "::1 is, ::2 (flow 1) is not: %s", err);
		}
	}
	return tap_done();
}
