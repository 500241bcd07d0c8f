/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's policy rules: traffic only to the controller unless widened, duration and rate
 * caps, and address comparison across IPv4 and IPv4-mapped IPv6. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "core/session/agent.h"
#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "tap.h"

int main(void)
{
	struct nb_agent_policy pol = {.max_time_ns = 10 * NB_NS_PER_S, .max_rate_bps = 1000000};
	struct nb_agent_ctx ctx = {.policy = &pol};
	struct sockaddr_in6 *peer = (struct sockaddr_in6 *)&ctx.peer;
	struct sockaddr_in ctl = {.sin_family = AF_INET}, other = {.sin_family = AF_INET};
	char err[256];

	/* The controller reached a dual-stack agent: its address is IPv4-mapped. */
	peer->sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::ffff:198.18.0.1", &peer->sin6_addr);
	inet_pton(AF_INET, "198.18.0.1", &ctl.sin_addr);
	inet_pton(AF_INET, "198.18.0.2", &other.sin_addr);
	CHECK(nb_net_same_host((struct sockaddr *)&ctl, (struct sockaddr *)peer),
	      "IPv4 equals its IPv4-mapped IPv6 form");
	CHECK(nb_agent_check_target(&ctx, (struct sockaddr *)&ctl, err, sizeof(err)) == 0,
	      "the controller's own address is allowed");
	CHECK(nb_agent_check_target(&ctx, (struct sockaddr *)&other, err, sizeof(err)) == -EPERM &&
		      strstr(err, "refused by rule target") && strstr(err, "198.18.0.2"),
	      "another address is refused, naming the rule and the address: %s", err);
	pol.allow_any_target = true;
	CHECK(nb_agent_check_target(&ctx, (struct sockaddr *)&other, err, sizeof(err)) == 0,
	      "--allow-target-any widens it");

	CHECK(nb_agent_check_caps(&ctx, 5 * NB_NS_PER_S, 500000, err, sizeof(err)) == 0,
	      "within both caps");
	CHECK(nb_agent_check_caps(&ctx, 11 * NB_NS_PER_S, 500000, err, sizeof(err)) == -EPERM &&
		      strstr(err, "max-time"),
	      "too long: %s", err);
	CHECK(nb_agent_check_caps(&ctx, NB_NS_PER_S, 2000000, err, sizeof(err)) == -EPERM &&
		      strstr(err, "max-rate"),
	      "too fast: %s", err);
	CHECK(nb_agent_check_caps(&ctx, NB_NS_PER_S, 0, err, sizeof(err)) == -EPERM &&
		      strstr(err, "unlimited"),
	      "unpaced under a rate cap: %s", err);
	pol.max_rate_bps = 0;
	CHECK(nb_agent_check_caps(&ctx, NB_NS_PER_S, 0, err, sizeof(err)) == 0,
	      "no rate cap: unpaced allowed");
	CHECK(nb_agent_tests[0] != NULL && nb_agent_tests[0]->type == NB_TEST_TPUT,
	      "the test table starts with tput");
	for (size_t i = 0; nb_agent_tests[i]; i++)
		CHECK(nb_agent_tests[i]->setup && nb_agent_tests[i]->start &&
			      nb_agent_tests[i]->snapshot && nb_agent_tests[i]->stop &&
			      nb_agent_tests[i]->free && nb_agent_tests[i]->name,
		      "test kind %s has every callback", nb_agent_tests[i]->name);
	return tap_done();
}
