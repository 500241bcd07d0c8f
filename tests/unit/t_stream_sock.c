/* SPDX-License-Identifier: BSD-2-Clause */
/* Stream socket option checks: each bad combination is refused with a reason before any socket
 * is opened; good ones pass. Needs no privileges and no network beyond loopback. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "core/stream/stream_sock.h"
#include "tap.h"

static int check(const char *addr, const char *iface, const char *source, int ttl, bool loop,
		 bool sending, char *err)
{
	struct nb_stream_sock_opts o = {.addr = addr,
					.port = 12345,
					.iface = iface,
					.source = source,
					.ttl = ttl,
					.loop = loop,
					.family = AF_UNSPEC};
	err[0] = '\0';
	return nb_stream_sock_check(&o, sending, err, 256);
}

int main(void)
{
	char err[256];
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};

	inet_pton(AF_INET, "225.1.2.3", &a4.sin_addr);
	CHECK(nb_addr_is_multicast((struct sockaddr *)&a4), "225.1.2.3 is multicast");
	inet_pton(AF_INET, "239.255.255.255", &a4.sin_addr);
	CHECK(nb_addr_is_multicast((struct sockaddr *)&a4), "239.255.255.255 is multicast");
	inet_pton(AF_INET, "223.255.255.255", &a4.sin_addr);
	CHECK(!nb_addr_is_multicast((struct sockaddr *)&a4), "223.255.255.255 is not");
	inet_pton(AF_INET, "240.0.0.1", &a4.sin_addr);
	CHECK(!nb_addr_is_multicast((struct sockaddr *)&a4), "240.0.0.1 is not");
	inet_pton(AF_INET6, "ff3e::1234", &a6.sin6_addr);
	CHECK(nb_addr_is_multicast((struct sockaddr *)&a6), "ff3e::1234 is multicast");
	inet_pton(AF_INET6, "fe80::1", &a6.sin6_addr);
	CHECK(!nb_addr_is_multicast((struct sockaddr *)&a6), "fe80::1 is not");
	CHECK(nb_udp_max_payload(AF_INET) == 65507 && nb_udp_max_payload(AF_INET6) == 65527,
	      "largest UDP payloads");

	CHECK(check("225.1.2.3", NULL, NULL, 4, true, true, err) == 0, "group with ttl and loop");
	CHECK(check("127.0.0.1", NULL, NULL, -1, false, true, err) == 0, "plain unicast");
	CHECK(check("127.0.0.1", NULL, NULL, 4, false, true, err) == -EINVAL &&
		  strstr(err, "--ttl applies to multicast only") && strstr(err, "224.0.0.0/4"),
	      "unicast with --ttl: %s", err);
	CHECK(check("127.0.0.1", NULL, NULL, -1, true, true, err) == -EINVAL &&
		  strstr(err, "--loop"),
	      "unicast with --loop: %s", err);
	CHECK(check("127.0.0.1", NULL, "127.0.0.2", -1, false, false, err) == -EINVAL &&
		  strstr(err, "--source"),
	      "unicast with --source: %s", err);
	CHECK(check("240.1.2.3", NULL, NULL, -1, false, true, err) == -EINVAL &&
		  strstr(err, "224.0.0.0/4"),
	      "class E address: %s", err);
	CHECK(check("255.255.255.255", NULL, NULL, -1, false, true, err) == -EINVAL,
	      "broadcast address refused");
	CHECK(check("0.0.0.0", NULL, NULL, -1, false, true, err) == -EINVAL,
	      "sending to the unspecified address refused");
	CHECK(check("0.0.0.0", NULL, NULL, -1, false, false, err) == 0,
	      "receiving on the unspecified address is fine");
	CHECK(check("225.1.2.3", "nbtstr-none0", NULL, -1, false, false, err) == -ENODEV &&
		  strstr(err, "nbtstr-none0"),
	      "missing interface: %s", err);
	CHECK(check("225.1.2.3", "lo", NULL, -1, false, false, err) == 0, "lo has IPv4");
	CHECK(check("232.1.2.3", NULL, "225.0.0.1", -1, false, false, err) == -EINVAL,
	      "multicast source refused: %s", err);
	CHECK(check("232.1.2.3", NULL, "::1", -1, false, false, err) == -EINVAL,
	      "source of the other family refused: %s", err);
	CHECK(check("232.1.2.3", NULL, "198.18.0.1", -1, false, true, err) == -EINVAL,
	      "--source on the sender refused: %s", err);
	CHECK(check("232.1.2.3", NULL, "198.18.0.1", -1, false, false, err) == 0,
	      "source-specific join accepted");
	CHECK(check("ff3e::4321", NULL, "2001:db8::1", 8, false, false, err) == 0,
	      "IPv6 SSM group accepted");
	return tap_done();
}
