/* SPDX-License-Identifier: BSD-2-Clause */
/* The receiver table of `netbench rate`: where a run's frames are counted. local: a counting
 * thread in this process, possibly inside another network namespace; agent: an agent's, one
 * agent test per trial (rate_remote.c); none: nobody counts (send only). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/cpu.h"
#include "core/base/net.h"
#include "core/base/netns.h"
#include "core/base/sysinfo.h"
#include "core/rate/flows.h"
#include "core/rate/gen.h"
#include "core/rate/rate_remote.h"
#include "core/rate/raterx.h"

/* ---- local ---- */

/* Opens the receiving sockets on cfg->dst (cfg->sockets of them as one SO_REUSEPORT group;
 * one where the kernel lacks it), inside the named network namespace if any: a socket keeps
 * the namespace it was created in, so this thread switches there and back. Returns how many. */
static int open_sockets(const struct nb_rx_cfg *cfg, int *fds, char *err, size_t errlen)
{
	const char *ns = cfg->netns && *cfg->netns ? cfg->netns : NULL;
	struct sockaddr_storage where = cfg->dst;
	char addr[64] = "?";
	int back = -1, ret;

	if (ns && (ret = nb_netns_enter(ns, &back, err, errlen)))
		return ret;
	/* A destination range: every address the receiver's own (flows_dst.c), then the
	 * port's wildcard address, which takes datagrams to this host's addresses only. */
	if (cfg->dst_count > 1 &&
	    (ret = nb_flow_dst_owned(&cfg->dst, cfg->dst_count, err, errlen))) {
		if (ns)
			(void)nb_netns_leave(back, err + strlen(err), errlen - strlen(err));
		return ret;
	}
	if (cfg->dst_count > 1)
		nb_flow_dst_any(&where);
	/* A port range: one socket a port, read by cfg->sockets threads. */
	ret = cfg->port_count > 1
		  ? nb_rx_bind_ports((const struct sockaddr *)&where, cfg->port_count, fds)
		  : nb_rx_bind_group((const struct sockaddr *)&where, cfg->dst_len,
				     cfg->sockets ? cfg->sockets : 1, fds);
	if (ret < 0) {
		nb_net_addr_str((const struct sockaddr *)&cfg->dst, false, addr, sizeof(addr));
		snprintf(err, errlen, "receiver cannot bind %s port %u%s%s%s%s: %s", addr,
			 cfg->port, cfg->port_count > 1 ? " and the ports after it" : "",
			 ns ? " in namespace " : "", ns ? ns : "",
			 ret == -EMFILE ? " (one descriptor a port: raise ulimit -n)" : "",
			 strerror(-ret));
	}
	if (ns) {
		int r2 = nb_netns_leave(back, err, errlen);
		if (r2) {
			while (ret > 0)
				close(fds[--ret]);
			ret = r2;
		}
	}
	return ret;
}

static int local_open(const struct nb_rx_cfg *cfg, void **state, struct sockaddr_storage *dst,
		      socklen_t *dst_len, bool *same_clock, struct nb_sysinfo *remote, char *err,
		      size_t errlen)
{
	struct nb_rx *rx = NULL;
	int *fds, n, ret;

	if (cfg->sockets > NB_RX_MAX_SOCKETS || cfg->port_count > NB_RX_FLOWS) {
		snprintf(err, errlen, "receiver: %u sockets, %u ports (at most %u, %u)",
			 cfg->sockets, cfg->port_count, NB_RX_MAX_SOCKETS, NB_RX_FLOWS);
		return -EINVAL;
	}
	fds = calloc(cfg->port_count > NB_RX_MAX_SOCKETS ? cfg->port_count : NB_RX_MAX_SOCKETS,
		     sizeof(int));
	if (!fds) {
		snprintf(err, errlen, "receiver: out of memory");
		return -ENOMEM;
	}
	n = open_sockets(cfg, fds, err, errlen);
	if (n < 0) {
		free(fds);
		return n;
	}
	ret = cfg->port_count > 1 ? nb_rx_new_ports(&rx, fds, (uint32_t)n,
						    cfg->sockets ? cfg->sockets : 1, cfg->no_mmsg)
				  : nb_rx_new_group(&rx, fds, (uint32_t)n, cfg->no_mmsg);
	free(fds);
	/* This process's receiver: no probes ever (one-way latency), so all 16 bits of the
	 * flow id are the flow's. */
	if (!ret && cfg->flows > NB_RX_FLOWS)
		ret = nb_rx_set_flows(rx, cfg->flows, true);
	if (!ret && cfg->rcvbuf)
		ret = nb_rx_set_rcvbuf(rx, (int)cfg->rcvbuf);
	if (!ret)
		ret = nb_rx_start(rx);
	if (ret) {
		snprintf(err, errlen, "receiver: %s", strerror(-ret));
		nb_rx_free(rx);
		return ret;
	}
	*dst = cfg->dst;
	*dst_len = cfg->dst_len;
	*same_clock = true; /* one host: both ends read the same CLOCK_MONOTONIC */
	*state = rx;
	return 0;
}

static int local_begin(void *state, uint16_t trial, uint64_t duration_ns, uint64_t rate_bps,
		       char *err, size_t errlen)
{
	nb_rx_expect(state, trial);
	return 0;
}

static int local_end(void *state, struct nb_rx_snap *snap, struct nb_cpu_load *cpu, char *err,
		     size_t errlen)
{
	nb_rx_snapshot(state, snap);
	return 0;
}

static uint32_t local_threads(void *state)
{
	return nb_rx_sockets(state);
}

static void local_close(void *state)
{
	nb_rx_free(state);
}

const struct nb_rx_engine nb_rx_local = {
    .name = "local",
    .counts = true,
    .open = local_open,
    .begin = local_begin,
    .end = local_end,
    .threads = local_threads,
    .close = local_close,
};

/* ---- agent ---- */

static int agent_open(const struct nb_rx_cfg *cfg, void **state, struct sockaddr_storage *dst,
		      socklen_t *dst_len, bool *same_clock, struct nb_sysinfo *remote, char *err,
		      size_t errlen)
{
	struct nb_rate_remote_cfg rc = {.agent = cfg->agent,
					.dst_addr = cfg->dst_addr,
					.port = cfg->port,
					.dst_count = cfg->dst_count,
					.port_count = cfg->port_count,
					.flows = cfg->flows,
					.no_mmsg = cfg->no_mmsg};
	struct nb_rate_remote *rr = NULL;
	int ret = nb_rate_remote_open(&rr, &rc, dst, dst_len, remote, same_clock, err, errlen);
	if (ret)
		return ret;
	*state = rr;
	return 0;
}

static int agent_begin(void *state, uint16_t trial, uint64_t duration_ns, uint64_t rate_bps,
		       char *err, size_t errlen)
{
	return nb_rate_remote_begin(state, trial, duration_ns, rate_bps, err, errlen);
}

static int agent_end(void *state, struct nb_rx_snap *snap, struct nb_cpu_load *cpu, char *err,
		     size_t errlen)
{
	return nb_rate_remote_end(state, snap, cpu, err, errlen);
}

static void agent_reflect(void *state, const struct sockaddr *addr, uint16_t port, uint32_t max_pps)
{
	nb_rate_remote_reflect(state, addr, port, max_pps);
}

static void agent_close(void *state)
{
	nb_rate_remote_free(state);
}

const struct nb_rx_engine nb_rx_agent = {
    .name = "agent",
    .counts = true,
    .remote = true,
    .open = agent_open,
    .begin = agent_begin,
    .end = agent_end,
    .reflect = agent_reflect,
    .close = agent_close,
};

/* ---- none ---- */

static int none_begin(void *state, uint16_t trial, uint64_t duration_ns, uint64_t rate_bps,
		      char *err, size_t errlen)
{
	return 0;
}

static int none_open(const struct nb_rx_cfg *cfg, void **state, struct sockaddr_storage *dst,
		     socklen_t *dst_len, bool *same_clock, struct nb_sysinfo *remote, char *err,
		     size_t errlen)
{
	*dst = cfg->dst;
	*dst_len = cfg->dst_len;
	*same_clock = false;
	*state = NULL;
	return 0;
}

static int none_end(void *state, struct nb_rx_snap *snap, struct nb_cpu_load *cpu, char *err,
		    size_t errlen)
{
	return 0;
}

static void none_close(void *state)
{
}

const struct nb_rx_engine nb_rx_none = {
    .name = "none",
    .open = none_open,
    .begin = none_begin,
    .end = none_end,
    .close = none_close,
};
