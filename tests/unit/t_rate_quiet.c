/* SPDX-License-Identifier: BSD-2-Clause */
/* A rate receiver holds its ports only while its controller is there (docs/security.md), with
 * a real agent on loopback (quiet limit 1 s): a request for 2 destination addresses x 64 ports
 * (received on the ports' wildcard address) holds no port; START binds them; a controller that
 * then sends nothing finds its test ended by rule quiet-time and every port free within the
 * limit, and the agent serves the next controller. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/rate/rate_agent.h"
#include "core/session/agent.h"
#include "core/session/ctl.h"
#include "core/base/timeutil.h"
#include "tap.h"

#define PORTS 64

static nb_cancel_t agent_stop;

struct agent {
	struct nb_agent_opts opts;
	int fd;
};

static void *agent_main(void *arg)
{
	struct agent *a = arg;
	nb_agent_run(a->fd, &a->opts);
	return NULL;
}

/* Whether UDP 0.0.0.0:port can be bound now (false: in use). */
static bool port_free(uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* A base of PORTS free ports in the unprivileged range, or 0. */
static uint16_t free_range(void)
{
	for (uint32_t base = 41000; base + PORTS < 60000; base += 997) {
		uint32_t i = 0;
		while (i < PORTS && port_free((uint16_t)(base + i)))
			i++;
		if (i == PORTS)
			return (uint16_t)base;
	}
	return 0;
}

static void rate_req(struct nb_msg *m, uint16_t base)
{
	static const uint8_t lo[4] = {127, 0, 0, 1};
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_msg_put_u32(m, NB_T_TEST_TYPE, NB_TEST_RATE);
	nb_msg_put_u64(m, NB_T_DURATION_NS, 300 * NB_NS_PER_S);
	nb_msg_put_u64(m, NB_T_RATE_BPS, 1000);
	nb_msg_put_u32(m, NB_T_PORT, base);
	nb_msg_put_bytes(m, NB_T_RATE_ADDR, lo, sizeof(lo));
	nb_msg_put_u32(m, NB_T_RATE_ADDR_COUNT, 2);
	nb_msg_put_u32(m, NB_T_RATE_PORT_COUNT, PORTS);
}

static struct nb_ctl *open_ctl(uint16_t port, char *err, size_t errlen)
{
	for (int tries = 0; tries < 50; tries++) {
		struct nb_ctl *ctl = NULL;
		if (!nb_ctl_open(&ctl, "127.0.0.1", port, AF_INET, NULL, 0, err, errlen))
			return ctl;
		if (!strstr(err, "busy"))
			return NULL;
		nb_sleep_until_ns(nb_mono_ns() + 100 * NB_NS_PER_MS);
	}
	return NULL;
}

int main(void)
{
	struct agent ag = {
	    .opts = {.policy = {.max_time_ns = 600 * NB_NS_PER_S, .quiet_ns = NB_NS_PER_S}}};
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	struct nb_msg *req = nb_msg_new(0), *reply = nb_msg_new(0);
	pthread_t th;
	char err[512] = "";
	int fd = nb_agent_listen("127.0.0.1", 0);
	uint16_t base = free_range();

	if (fd < 0 || getsockname(fd, (struct sockaddr *)&sa, &sl) || !req || !reply || !base) {
		tap_skip("no loopback socket or no free range of %d UDP ports here", PORTS);
		return tap_done();
	}
	ag.fd = fd;
	ag.opts.stop = &agent_stop;
	if (pthread_create(&th, NULL, agent_main, &ag)) {
		tap_skip("no thread for the agent");
		return tap_done();
	}
	uint16_t port = ntohs(sa.sin_port);
	struct nb_ctl *ctl = open_ctl(port, err, sizeof(err));
	CHECK(ctl != NULL, "a session with the agent (%s)", ctl ? "" : err);
	if (!ctl)
		goto out;
	ctl->caps.quiet_ns = 0; /* this controller sends no ALIVE: an attacker's */
	rate_req(req, base);
	int ret = nb_ctl_request(ctl, req, reply, err, sizeof(err));
	CHECK(ret == 0, "2 addresses x %d ports from %u: accepted (%s)", PORTS, base,
	      ret ? err : "");
	CHECK(port_free(base) && port_free((uint16_t)(base + PORTS - 1)),
	      "after the request alone no port of the range is held");
	ret = nb_ctl_start(ctl, err, sizeof(err));
	CHECK(ret == 0, "START accepted (%s)", ret ? err : "");
	CHECK(!port_free(base) && !port_free((uint16_t)(base + PORTS - 1)),
	      "after START the receiver holds the range on the wildcard address");
	uint64_t t0 = nb_mono_ns();
	while (nb_mono_ns() - t0 < 10 * NB_NS_PER_S &&
	       !(port_free(base) && port_free((uint16_t)(base + PORTS - 1))))
		nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
	double freed_s = (double)(nb_mono_ns() - t0) / 1e9;
	CHECK(freed_s <= 2.5, "silent from START: every port free %.2f s later (limit 1 s)",
	      freed_s);
	err[0] = '\0';
	ret = nb_ctl_mark(ctl, 1, reply, err, sizeof(err));
	CHECK(ret != 0 && strstr(err, "test stopped by rule quiet-time"),
	      "the silent controller is told why (%s)", err);
	nb_ctl_free(ctl);

	ctl = open_ctl(port, err, sizeof(err));
	rate_req(req, base);
	ret = ctl ? nb_ctl_request(ctl, req, reply, err, sizeof(err)) : -1;
	if (!ret)
		ret = nb_ctl_start(ctl, err, sizeof(err));
	if (!ret)
		ret = nb_ctl_stop(ctl, reply, 5000, err, sizeof(err));
	CHECK(ret == 0, "the agent serves the next controller, whose test starts and stops (%s)",
	      ret ? err : "");
	nb_ctl_free(ctl);
out:
	agent_stop = 1;
	pthread_join(th, NULL);
	close(fd);
	nb_msg_free(req);
	nb_msg_free(reply);
	return tap_done();
}
