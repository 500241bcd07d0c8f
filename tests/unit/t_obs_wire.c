/* SPDX-License-Identifier: BSD-2-Clause */
/* The observe test's codec: a window survives encoding whole; truncated, oversized, duplicated,
 * unnamed or dangling items are refused; the request's bounds hold. And the qdisc dump parser
 * on netlink bytes laid out as the kernel sends them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "core/base/wire.h"
#include "core/observe/obs_wire.h"
#include "tap.h"

static void fill(struct nb_obs_snap *w)
{
	memset(w, 0, sizeof(*w));
	w->mono_ns = 1500000000;
	w->self_cpu_us = 2500;
	w->clk_tck = 100;
	w->samples = 15;
	w->sample_cpu_ns = 4500000;
	w->edge_cpu_ns = 30000000;
	w->sample_period_ns = 250000000;
	w->peak_busy_pct = 99.5;
	w->peak_cpu = 1;
	w->ncpu = 2;
	w->cpu[0].id = 0;
	w->cpu[0].user = 3;
	w->cpu[1].id = 1;
	w->cpu[1].softirq = 149;
	w->cpu[1].idle = 1;
	w->nsoftnet = 2;
	w->softnet[1].cpu = 1;
	w->softnet[1].dropped = 12345;
	w->softnet[1].squeezed = 77;
	w->nirq = 2;
	strcpy(w->irq[0].name, "41:eth0-rx-0");
	w->irq[0].count = 1000;
	strcpy(w->irq[1].name, "LOC");
	w->irq[1].count = 300;
	w->nif = 2;
	strcpy(w->ifs[0].name, "nbdut0");
	w->ifs[0].ifindex = 2;
	w->ifs[0].rx_packets = 1000000;
	w->ifs[0].rx_dropped = 12345;
	strcpy(w->ifs[1].name, "nbdut1");
	w->ifs[1].tx_packets = 987655;
	w->ifs[1].speed_mbps = 1000;
	w->ifs[1].have_qdisc = true;
	w->ifs[1].qdisc_drops = 4;
	w->ifs[1].neth = 1;
	strcpy(w->ifs[1].eth[0].name, "rx_queue_0_drops");
	w->ifs[1].eth[0].value = 9;
	w->have_conntrack = true;
	w->ct_entries = 10;
	w->ct_max = 65536;
	w->ct_insert_failed = 1;
	w->rps_mask = 0x2;
	w->nfreq = 1;
	w->freq_cpu[0] = 1;
	w->freq_khz[0] = 1800000;
}

static int put_item(struct nb_msg *m, uint16_t tag, size_t n, uint8_t byte)
{
	uint8_t b[256];
	memset(b, byte, sizeof(b));
	return nb_msg_put_bytes(m, tag, b, n);
}

/* One RTM_NEWQDISC message for ifindex with parent and drops/overlimits in TCA_STATS2. */
static size_t qdisc_msg(uint8_t *buf, int ifindex, uint32_t parent, uint32_t drops, uint32_t over)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct tcmsg *t = NLMSG_DATA(h);
	struct rtattr *a, *n;
	struct gnet_stats_queue q = {.drops = drops, .overlimits = over, .requeues = 1};
	memset(buf, 0, 256);
	h->nlmsg_type = RTM_NEWQDISC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	a = (struct rtattr *)((char *)t + NLMSG_ALIGN(sizeof(*t)));
	a->rta_type = TCA_STATS2;
	n = RTA_DATA(a);
	n->rta_type = TCA_STATS_QUEUE;
	n->rta_len = RTA_LENGTH(sizeof(q));
	memcpy(RTA_DATA(n), &q, sizeof(q));
	a->rta_len = RTA_LENGTH(RTA_ALIGN(n->rta_len));
	h->nlmsg_len = NLMSG_LENGTH(NLMSG_ALIGN(sizeof(*t)) + RTA_ALIGN(a->rta_len));
	return NLMSG_ALIGN(h->nlmsg_len);
}

int main(void)
{
	struct nb_obs_snap *w = malloc(sizeof(*w)), *back = malloc(sizeof(*back));
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	struct nb_obs_req r = {.sample_hz = 10, .adapt = true, .clock_khz = 1200000, .rps_mask = 2},
			  r2;
	char err[128];

	fill(w);
	CHECK(nb_obs_window_put(m, w) == 0, "window encodes");
	nb_msg_put_u64(m, NB_T_MONO_NS, 1); /* the session's own items ride along */
	CHECK(nb_obs_window_get(m, back) == 0, "window decodes");
	CHECK(back->mono_ns == w->mono_ns && back->self_cpu_us == 2500 && back->samples == 15 &&
		  back->peak_busy_pct == 99.5 && back->peak_cpu == 1 && back->clk_tck == 100,
	      "head survives");
	CHECK(back->sample_cpu_ns == 4500000 && back->edge_cpu_ns == 30000000 &&
		  back->sample_period_ns == 250000000,
	      "the observer's cost survives");
	CHECK(back->ncpu == 2 && back->cpu[1].softirq == 149 && back->cpu[1].id == 1,
	      "CPUs survive");
	CHECK(back->nsoftnet == 2 && back->softnet[1].dropped == 12345 &&
		  back->softnet[1].squeezed == 77,
	      "softnet survives");
	CHECK(back->nirq == 2 && !strcmp(back->irq[0].name, "41:eth0-rx-0") &&
		  back->irq[0].count == 1000,
	      "interrupts survive");
	CHECK(back->nif == 2 && !strcmp(back->ifs[1].name, "nbdut1") && back->ifs[1].have_qdisc &&
		  back->ifs[1].qdisc_drops == 4 && back->ifs[0].rx_dropped == 12345 &&
		  back->ifs[0].ifindex == 2,
	      "interfaces survive");
	CHECK(back->ifs[1].neth == 1 && !strcmp(back->ifs[1].eth[0].name, "rx_queue_0_drops") &&
		  back->ifs[1].eth[0].value == 9,
	      "driver counters survive");
	CHECK(back->ifs[1].speed_mbps == 1000 && back->ifs[0].speed_mbps == 0,
	      "link speed survives where known, absent stays unknown");
	CHECK(back->have_conntrack && back->ct_max == 65536 && back->ct_insert_failed == 1 &&
		  back->nfreq == 1 && back->freq_khz[0] == 1800000 && back->rps_mask == 2,
	      "conntrack, clock and RPS mask survive");

	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "no head: refused");
	nb_obs_window_put(m, w);
	put_item(m, NB_T_OBS_HEAD, 88, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG && back->ncpu == 0,
	      "two heads: refused, window zeroed");
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_obs_window_put(m, w);
	put_item(m, NB_T_OBS_CPU, 67, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "short CPU item refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_obs_window_put(m, w);
	put_item(m, NB_T_OBS_COST, 24, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "two cost items refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	put_item(m, NB_T_OBS_HEAD, 88, 0);
	put_item(m, NB_T_OBS_COST, 16, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "a short cost item refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	put_item(m, NB_T_OBS_HEAD, 88, 0);
	put_item(m, NB_T_OBS_COST, 24, 0xff);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "a sample period over a minute refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_obs_window_put(m, w);
	put_item(m, NB_T_OBS_IRQ, 8, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "unnamed interrupt line refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_obs_window_put(m, w);
	put_item(m, NB_T_OBS_IRQ, 12, 1);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "control bytes in a name refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_obs_window_put(m, w);
	{
		uint8_t b[20] = {0};
		nb_put_be32(b, 7); /* interface 7 was never sent */
		memcpy(b + 12, "drops", 5);
		nb_msg_put_bytes(m, NB_T_OBS_ETH, b, 17);
	}
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "driver counter of an unsent interface refused");
	{
		uint8_t b[8] = {0};
		nb_msg_reset(m, NB_MSG_FINAL);
		nb_obs_window_put(m, w);
		nb_put_be32(b, 9); /* interface 9 was never sent */
		nb_put_be32(b + 4, 1000);
		nb_msg_put_bytes(m, NB_T_OBS_IF_SPEED, b, 8);
		CHECK(nb_obs_window_get(m, back) == -EBADMSG, "speed of an unsent interface refused");
		nb_msg_reset(m, NB_MSG_FINAL);
		nb_obs_window_put(m, w);
		nb_put_be32(b, 0);
		nb_put_be32(b + 4, NB_OBS_SPEED_MAX_MBPS + 1);
		nb_msg_put_bytes(m, NB_T_OBS_IF_SPEED, b, 8);
		CHECK(nb_obs_window_get(m, back) == -EBADMSG, "a speed past 10 Tbit/s refused");
	}
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_obs_window_put(m, w);
	put_item(m, 650, 4, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "unknown tag of the observe range refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	for (int i = 0; i <= NB_OBS_CPUS; i++)
		put_item(m, NB_T_OBS_FREQ, 8, 0);
	put_item(m, NB_T_OBS_HEAD, 88, 0);
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "more clocks than CPUs refused");
	nb_msg_reset(m, NB_MSG_FINAL);
	{
		uint8_t h[88] = {0};
		nb_put_be32(h + 16, 100);
		nb_put_be64(h + 24, 0x7ff8000000000000ULL); /* NaN peak */
		nb_msg_put_bytes(m, NB_T_OBS_HEAD, h, 88);
	}
	CHECK(nb_obs_window_get(m, back) == -EBADMSG, "a NaN peak share refused");

	nb_msg_reset(m, NB_MSG_TEST_REQ);
	CHECK(nb_obs_req_put(m, &r) == 0 && nb_obs_req_get(m, &r2, err, sizeof(err)) == 0 &&
		  r2.sample_hz == 10 && r2.adapt && r2.clock_khz == 1200000 && r2.rps_mask == 2,
	      "request survives");
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	CHECK(nb_obs_req_get(m, &r2, err, sizeof(err)) == 0 && r2.sample_hz == 10 && !r2.adapt &&
		  !r2.clock_khz && !r2.rps_mask,
	      "an empty request takes the defaults (a fixed rate)");
	nb_msg_put_u32(m, NB_T_OBS_ADAPT, 2);
	CHECK(nb_obs_req_get(m, &r2, err, sizeof(err)) == -EINVAL && strstr(err, "0 or 1"),
	      "an adaptive flag of 2 refused: %s", err);
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_msg_put_u32(m, NB_T_OBS_SAMPLE_HZ, 1000);
	CHECK(nb_obs_req_get(m, &r2, err, sizeof(err)) == -EINVAL && strstr(err, "1 to 100"),
	      "1000 samples/s refused: %s", err);
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_msg_put_u32(m, NB_T_OBS_CLOCK_KHZ, 5);
	CHECK(nb_obs_req_get(m, &r2, err, sizeof(err)) == -EINVAL, "a 5 kHz clock refused");

	/* qdisc dump: a root tbf on ifindex 3 (40 drops), its child (not counted twice), an
	 * ingress qdisc (not egress), then DONE. */
	{
		uint8_t buf[1024];
		size_t n = 0;
		struct nlmsghdr *done;
		fill(w);
		w->ifs[1].ifindex = 3;
		w->ifs[1].have_qdisc = false;
		w->ifs[1].qdisc_drops = 0;
		n += qdisc_msg(buf + n, 3, TC_H_ROOT, 40, 500);
		n += qdisc_msg(buf + n, 3, 0x10001, 40, 0);
		n += qdisc_msg(buf + n, 3, TC_H_INGRESS, 7, 0);
		CHECK(nb_obs_parse_qdisc(buf, n, w) == 0, "qdisc: more to come without DONE");
		CHECK(w->ifs[1].have_qdisc && w->ifs[1].qdisc_drops == 40 &&
			  w->ifs[1].qdisc_overlimits == 500 && w->ifs[1].qdisc_requeues == 1,
		      "qdisc: root counted once (drops %llu)",
		      (unsigned long long)w->ifs[1].qdisc_drops);
		done = (struct nlmsghdr *)(buf + n);
		memset(done, 0, sizeof(*done) + 4);
		done->nlmsg_type = NLMSG_DONE;
		done->nlmsg_len = NLMSG_LENGTH(4);
		CHECK(nb_obs_parse_qdisc(done, NLMSG_ALIGN(done->nlmsg_len), w) == 1, "qdisc: DONE");
		size_t one = qdisc_msg(buf, 3, TC_H_ROOT, 1, 1);
		CHECK(nb_obs_parse_qdisc(buf, one - 8, w) == -EBADMSG, "qdisc: truncated refused");
		((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_LENGTH(2);
		CHECK(nb_obs_parse_qdisc(buf, one, w) == -EBADMSG, "qdisc: short tcmsg refused");
	}

	nb_msg_free(m);
	free(w);
	free(back);
	return tap_done();
}
