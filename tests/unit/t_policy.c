/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's policy decisions: wire cost and overflow, the caps with --max-rate and --max-pps,
 * the multicast scope and TTL rule, the target rule with IPv6 scopes, and which pending
 * handshake gives way to a newcomer. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>

#include "core/base/net.h"
#include "core/base/wirecost.h"
#include "core/session/agent.h"
#include "tap.h"

static struct sockaddr_storage v6(const char *a, uint32_t scope)
{
	/* Built as its own type and copied, so that no store goes through another type's lvalue
	 * (at -Os, musl's build kept the scope store out of the returned copy). */
	struct sockaddr_storage ss;
	struct sockaddr_in6 s;
	memset(&ss, 0, sizeof(ss));
	memset(&s, 0, sizeof(s));
	s.sin6_family = AF_INET6;
	inet_pton(AF_INET6, a, &s.sin6_addr);
	s.sin6_scope_id = scope;
	memcpy(&ss, &s, sizeof(s));
	return ss;
}

static struct sockaddr_storage v4(const char *a)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s = (struct sockaddr_in *)&ss;
	memset(&ss, 0, sizeof(ss));
	s->sin_family = AF_INET;
	inet_pton(AF_INET, a, &s->sin_addr);
	return ss;
}

int main(void)
{
	uint64_t pps = 0, wire = 0, out = 0;
	char err[256];
	struct nb_agent_policy pol = {.max_rate_bps = 10000000, .mcast_max_ttl = 1};
	struct nb_agent_ctx ctx = {.policy = &pol};
	struct sockaddr_storage a, b;

	CHECK(nb_wire_cost(9000000, 24, NB_WIRE_UDP4_BYTES, &pps, &wire) == 0 && pps == 46875 &&
		  wire == 46875ULL * 90 * 8,
	      "9 Mbit/s of 24-byte payloads: 46875 packets/s, 33.75 Mbit/s on the wire (%llu)",
	      (unsigned long long)wire);
	CHECK(nb_wire_cost(UINT64_MAX, 24, 66, &pps, &wire) == -ERANGE, "wire cost overflow found");
	CHECK(!nb_mul_u64((1ULL << 63) + 1, 2, &out), "2 x (2^63+1) does not fit");
	CHECK(nb_mul_u64(1000, 2, &out) && out == 2000, "1000 x 2");
	CHECK(!nb_add_u64(UINT64_MAX, 1, &out), "UINT64_MAX + 1 does not fit");
	CHECK(nb_agent_check_send(&ctx, 1, 9000000, 24, NB_WIRE_UDP4_BYTES, err, sizeof(err)) ==
		      -EPERM &&
		  strstr(err, "max-rate"),
	      "9 Mbit/s of 24-byte blocks refused under 10M on the wire: %s", err);
	CHECK(nb_agent_check_send(&ctx, 1, 1000000, 1000, NB_WIRE_UDP4_BYTES, err, sizeof(err)) ==
		  0,
	      "1 Mbit/s of 1000-byte blocks accepted");
	pol.max_pps = 100;
	CHECK(nb_agent_check_send(&ctx, 1, 1000000, 1000, NB_WIRE_UDP4_BYTES, err, sizeof(err)) ==
		      -EPERM &&
		  strstr(err, "max-pps"),
	      "125 packets/s refused under --max-pps 100: %s", err);
	pol.max_pps = 0;
	a = v4("239.1.2.3");
	CHECK(nb_mcast_admin_scoped((struct sockaddr *)&a), "239.1.2.3 is admin scoped");
	a = v4("225.1.2.3");
	CHECK(!nb_mcast_admin_scoped((struct sockaddr *)&a), "225.1.2.3 is not");
	a = v6("ff05::1", 0);
	CHECK(nb_mcast_admin_scoped((struct sockaddr *)&a), "ff05::1 (site) is");
	a = v6("ff15::1:2", 0);
	CHECK(nb_mcast_admin_scoped((struct sockaddr *)&a), "ff15::1:2 (site, transient) is");
	a = v6("ff0e::1:2", 0);
	CHECK(!nb_mcast_admin_scoped((struct sockaddr *)&a), "ff0e::1:2 (global) is not");
	a = v4("239.1.2.3");
	CHECK(nb_agent_check_mcast(&ctx, (struct sockaddr *)&a, 2, err, sizeof(err)) == -EPERM,
	      "TTL 2 refused by default");
	CHECK(nb_agent_check_mcast(&ctx, (struct sockaddr *)&a, 1, err, sizeof(err)) == 0,
	      "TTL 1 to 239.1.2.3 accepted");
	/* Multicast egress: the control connection's interface, or one the operator listed. */
	{
		char via[32];
		CHECK(nb_mcast_iface_decide("", "eth0", NULL, via, sizeof(via), err, sizeof(err)) ==
			      0 &&
			  !strcmp(via, "eth0"),
		      "no interface asked: multicast leaves by the control connection's");
		CHECK(nb_mcast_iface_decide("eth0", "eth0", NULL, via, sizeof(via), err,
					    sizeof(err)) == 0,
		      "the control connection's own interface is allowed");
		CHECK(nb_mcast_iface_decide("eth1", "eth0", NULL, via, sizeof(via), err,
					    sizeof(err)) == -EPERM &&
			  strstr(err, "refused by rule multicast") && strstr(err, "eth1"),
		      "another interface is refused, naming it");
		CHECK(nb_mcast_iface_decide("eth1", "eth0", "lo,eth1", via, sizeof(via), err,
					    sizeof(err)) == 0 &&
			  !strcmp(via, "eth1"),
		      "an interface on --mcast-iface is allowed");
		CHECK(nb_mcast_iface_decide("eth", "eth0", "eth1,eth10", via, sizeof(via), err,
					    sizeof(err)) == -EPERM,
		      "a prefix of a listed name is not that name");
		CHECK(nb_mcast_iface_decide("", "", "eth1", via, sizeof(via), err, sizeof(err)) ==
			  -EPERM,
		      "an unknown control interface and none asked: refused");
		CHECK(nb_mcast_iface_listed("a,b,c", "c") && !nb_mcast_iface_listed("a,b", "") &&
			  !nb_mcast_iface_listed(NULL, "a"),
		      "the list is matched name by name");
	}
	a = v6("fe80::1", 2);
	b = v6("fe80::1", 3);
	CHECK(!nb_net_same_host((struct sockaddr *)&a, (struct sockaddr *)&b),
	      "fe80::1 on link 2 is not fe80::1 on link 3");
	b = v6("fe80::1", 2);
	CHECK(nb_net_same_host((struct sockaddr *)&a, (struct sockaddr *)&b),
	      "same link: same host");
	a = v6("2001:db8::1", 2);
	b = v6("2001:db8::1", 0);
	CHECK(nb_net_same_host((struct sockaddr *)&a, (struct sockaddr *)&b),
	      "a global address has no link");
	return tap_done();
}
