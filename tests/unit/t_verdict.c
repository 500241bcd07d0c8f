/* SPDX-License-Identifier: BSD-2-Clause */
/* The verdict on windows recorded from the lab's four cases (1,000 rules on one DUT CPU, a tbf
 * shaper, a sink with a tiny buffer, a generator held back), on a seed-000-like ingress case,
 * and on loss that no counter explains; the rule-sweep test, cycles per frame and the clock fit
 * on recorded results of both kinds. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe/verdict.h"
#include "core/rate/rate_run.h"
#include "tap.h"

static struct nb_obs_snap *win(void)
{
	struct nb_obs_snap *w = calloc(1, sizeof(*w));
	w->mono_ns = 1200000000;
	w->clk_tck = 100;
	w->ncpu = 2;
	w->cpu[0].id = 0;
	w->cpu[0].user = 60;
	w->cpu[0].idle = 60;
	w->cpu[1].id = 1;
	w->cpu[1].idle = 120;
	w->nsoftnet = 2;
	w->softnet[1].cpu = 1;
	w->nif = 2;
	strcpy(w->ifs[0].name, "nbdut0");
	strcpy(w->ifs[1].name, "nbdut1");
	return w;
}

static void decide(const struct nb_obs_snap *w, uint64_t mask, uint64_t tx, uint64_t rx,
		   bool gen_max, long sink_drops, struct nb_verdict *v)
{
	struct nb_obs_summary m;
	struct nb_verdict_in in = {.offered = tx,
				   .received = rx,
				   .offered_fps = tx / 1.0,
				   .gen_max = gen_max,
				   .dut = w ? &m : NULL,
				   .win = w,
				   .have_sink_drops = sink_drops >= 0,
				   .sink_drops = sink_drops >= 0 ? (uint64_t)sink_drops : 0};
	if (w)
		nb_obs_summarize(w, mask, &m);
	nb_verdict_decide(&in, v);
}

/* Pins a sentence; on a mismatch the line shows what was said. */
#define CHECK_STR(got, want, what)                                                                 \
	do {                                                                                       \
		const char *got_ = (got);                                                          \
		if (!CHECK(!strcmp(got_, want), "%s", what))                                       \
			printf("#   said: %s\n#   want: %s\n", got_, want);                        \
	} while (0)

int main(void)
{
	struct nb_obs_snap *w = win();
	struct nb_verdict v;

	/* 1,000 linear rules, DUT steered to cpu1: softirq 99 %, backlog drops on cpu1 that the
	 * ingress veth counts as rx_dropped too. */
	w->cpu[1].softirq = 119;
	w->cpu[1].idle = 1;
	w->softnet[1].processed = 300000;
	w->softnet[1].dropped = 41200;
	w->softnet[1].squeezed = 14400;
	w->ifs[0].rx_packets = 341200;
	w->ifs[0].rx_dropped = 41200;
	w->ifs[1].tx_packets = 300000;
	decide(w, 1u << 1, 341200, 300000, false, 0, &v);
	CHECK(v.kind == NB_V_DUT_CPU && v.explained && v.lost == 41200 && v.accounted == 41200,
	      "1,000 rules: DUT CPU bound, every loss accounted (%s)", v.text);
	CHECK(strstr(v.text, "DUT cpu1 99 % busy (softirq 99 %)") &&
		  strstr(v.text, "time_squeeze 12k/s") && strstr(v.text, "backlog drops 41.2k") &&
		  strstr(v.text, "NIC missed 0"),
	      "1,000 rules: the verdict quotes cpu, squeeze, backlog and NIC: %s", v.text);

	/* tbf on the egress: qdisc drops, no CPU saturated. */
	free(w);
	w = win();
	w->ifs[0].rx_packets = 200000;
	w->ifs[1].tx_packets = 120000;
	w->ifs[1].qdisc_drops = 80000;
	w->ifs[1].qdisc_overlimits = 190000;
	w->ifs[1].have_qdisc = true;
	decide(w, 0, 200000, 120000, false, 0, &v);
	CHECK(v.kind == NB_V_EGRESS && v.explained && v.by_egress == 80000,
	      "tbf: egress bound (%s)", v.text);
	CHECK(strstr(v.text, "qdisc drops 80k (overlimits 190k)") && strstr(v.text, "on nbdut1"),
	      "tbf: quotes qdisc drops and the interface: %s", v.text);

	/* Tiny receive buffer at the sink: the DUT forwarded everything. */
	free(w);
	w = win();
	w->ifs[0].rx_packets = 500000;
	w->ifs[1].tx_packets = 500000;
	decide(w, 0, 500000, 380000, false, 120000, &v);
	CHECK(v.kind == NB_V_RECEIVER && v.explained, "tiny buffer: receiver bound (%s)", v.text);
	CHECK(strstr(v.text, "socket dropped 120k of 120k"), "tiny buffer: quotes the drops: %s",
	      v.text);
	decide(w, 0, 500000, 380000, false, 118900, &v);
	CHECK(v.kind == NB_V_RECEIVER && v.explained,
	      "1,100 of 120,000 unaccounted is within 1 %%");
	decide(w, 0, 500000, 380000, false, 118700, &v);
	CHECK(v.kind == NB_V_UNEXPLAINED && !v.explained && v.accounted == 118700,
	      "1,300 of 120,000 unaccounted is not: unexplained (%s)", v.text);
	CHECK(strstr(v.text, "120000 lost, counters account for 118700"),
	      "unexplained quotes the counts: %s", v.text);

	/* Generator held back: no rules, nothing lost at its maximum. */
	decide(w, 0, 500000, 500000, true, 0, &v);
	CHECK(v.kind == NB_V_GENERATOR &&
		  strstr(v.text, "500k fps offered, the generator's maximum"),
	      "no loss at the generator's maximum: generator bound (%s)", v.text);
	{
		/* The same at the user's cap (-r 50000): the asked maximum, never the
		 * generator's. */
		struct nb_obs_summary m;
		struct nb_verdict_in in = {.offered = 50000,
					   .received = 50000,
					   .offered_fps = 50000,
					   .gen_max = true,
					   .max_asked = true,
					   .dut = &m,
					   .win = w};
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK_STR(
		    v.text,
		    "no loss at 50k fps offered, the asked maximum (--rate): the DUT's limit, "
		    "if any, lies above it",
		    "no loss at the user's cap: the asked maximum");
		CHECK(v.kind == NB_V_NONE, "the user's cap: nothing to name");
	}
	decide(w, 0, 500000, 500000, false, 0, &v);
	CHECK(v.kind == NB_V_NONE && !strcmp(v.text, "no loss at 500k fps offered"),
	      "no loss below the maximum: nothing to name (%s)", v.text);

	/* Seed 000: the NIC misses frames while no CPU is saturated: ingress (bus) bound. */
	w->ifs[0].rx_missed = 30000;
	w->ifs[0].rx_fifo = 100;
	decide(w, 0, 500000, 469900, false, 0, &v);
	CHECK(v.kind == NB_V_DUT_INGRESS && v.explained, "NIC misses, CPU idle: ingress bound (%s)",
	      v.text);
	CHECK(strstr(v.text, "NIC missed 30k, fifo 100") && strstr(v.text, "cpu0) was at 50 %"),
	      "ingress: quotes the NIC counters and the busiest CPU: %s", v.text);
	/* The same misses with a saturated CPU and time_squeeze: the CPU's. */
	w->cpu[1].softirq = 118;
	w->cpu[1].idle = 2;
	w->softnet[1].squeezed = 500;
	decide(w, 0, 500000, 469900, false, 0, &v);
	CHECK(v.kind == NB_V_DUT_CPU, "NIC misses with a saturated CPU squeezing: CPU bound (%s)",
	      v.text);

	/* An emulated board as DUT, recorded through it (128 B, 415k fps offered): the host's tap
	 * to the board dropped what the board's NIC ring could not take; the board counted
	 * nothing. Its busiest CPU at 75 % over the window: qemu was not run in time (a busy
	 * host), never the board's NIC, DMA or bus, which no counter shows; the same loss with
	 * the board's CPU saturated and squeezing: the board's CPU. */
	free(w);
	w = win();
	w->cpu[0].softirq = 90;
	w->cpu[0].user = 0;
	w->cpu[0].idle = 30;
	w->softnet[0].processed = 5342;
	w->softnet[0].squeezed = 15;
	w->ifs[0].rx_packets = 5342;
	w->ifs[1].tx_packets = 5340;
	{
		struct nb_obs_summary m;
		struct nb_verdict_in in = {.offered = 131075,
					   .received = 5342,
					   .dut = &m,
					   .win = w,
					   .have_sink_drops = true,
					   .ring_dropped = 125733};
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_EMULATOR && v.explained && v.by_nic_ring == 125733 &&
			  v.by_nic == 125733,
		      "board: the tap's drops are the emulator's (%s)", v.text);
		CHECK_STR(v.text,
			  "emulator not scheduled (host busy): the host's tap dropped 126k frames "
			  "the emulated board could not take in time (no counter of the board "
			  "shows its NIC, DMA or bus) while the busiest DUT CPU (cpu0) was at 75 %",
			  "board: the emulator named, never NIC, DMA or bus");
		CHECK(!strcmp(nb_verdict_name(v.kind), "emulator_not_scheduled"),
		      "its kind's name in JSON");
		CHECK(isnan(v.host_other_pct) && !v.board_polluted,
		      "host load not measured: no mark, nothing claimed");
		/* The host measured (its /proc/stat less qemu's and netbench's time): busy with
		 * other work, as when others' tests took 136-166 % of a CPU, the board's figures
		 * are polluted and the emulator's verdict stands; idle, the tap's drops are the
		 * emulation's own speed, still never the board's NIC, DMA or bus. */
		in.emulated = true;
		in.host_other_pct = 151.0;
		nb_verdict_decide(&in, &v);
		CHECK_STR(v.text,
			  "emulator not scheduled (host busy): the host's tap dropped 126k frames "
			  "the emulated board could not take in time (no counter of the board "
			  "shows its NIC, DMA or bus) while the busiest DUT CPU (cpu0) was at 75 "
			  "%; the board's figures are polluted: the host that runs its qemu gave "
			  "151 % of a CPU to other work in the window",
			  "board, host busy with other work: polluted, said with the figure");
		CHECK(v.board_polluted && v.host_other_pct == 151.0, "the mark and the figure");
		in.host_other_pct = 3.0;
		nb_verdict_decide(&in, &v);
		CHECK_STR(v.text,
			  "emulator bound: the host's tap dropped 126k frames qemu did not take in "
			  "time while other work took only 3 % of a host CPU (the emulation's "
			  "speed; no counter of the board shows its NIC, DMA or bus) and the "
			  "busiest DUT CPU (cpu0) was at 75 %",
			  "board, host idle: the emulation's speed, not the host's load");
		CHECK(v.kind == NB_V_EMULATOR && !v.board_polluted, "not polluted at 3 %%");
		in.host_other_pct = 40.0;
		w->cpu[0].softirq = 119;
		w->cpu[0].idle = 1;
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_DUT_CPU && strstr(v.text, "NIC missed 126k") &&
			  v.board_polluted &&
			  strstr(v.text, "; the board's figures are polluted: the host that runs "
					 "its qemu gave 40 % of a CPU to other work"),
		      "board, CPU saturated and squeezing: the board's CPU, its figures polluted "
		      "by the host's other work (%s)",
		      v.text);
		in.emulated = false;
		in.ring_dropped = 0;
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_UNEXPLAINED, "without the tap's count: unexplained (%s)",
		      v.text);
	}

	/* Loss and no counter at all: never a guess. */
	free(w);
	w = win();
	decide(w, 0, 1000, 900, false, 0, &v);
	CHECK(v.kind == NB_V_UNEXPLAINED && v.accounted == 0, "silent loss: unexplained");
	decide(NULL, 0, 1000, 900, false, -1, &v);
	CHECK(v.kind == NB_V_UNEXPLAINED && strstr(v.text, "no observer on the DUT"),
	      "no observer, no sink drops: unexplained, says why (%s)", v.text);
	decide(NULL, 0, 1000, 900, false, 100, &v);
	CHECK(v.kind == NB_V_RECEIVER, "no observer but the sink counted them: receiver bound");
	/* A veth backlog drop on the sink's side shows as softnet drop + DUT egress tx_dropped:
	 * counted once. */
	w->softnet[0].dropped = 500;
	w->ifs[1].tx_dropped = 500;
	decide(w, 0, 10000, 9500, false, 0, &v);
	CHECK(v.explained && v.accounted == 500 && v.kind == NB_V_EGRESS,
	      "a drop two counters saw is counted once (accounted %llu)",
	      (unsigned long long)v.accounted);

	{
		/* Recorded: a board forwarding 64-byte frames out of a 1 Gbit/s NIC (eth1) for a
		 * 1.0 s trial inside a 1.2 s window: 1,488,095 frames, 60 bytes each as tx_bytes
		 * counts them (no FCS): 1000 Mbit/s on the wire with FCS, preamble and gap. */
		struct nb_obs_summary m;
		struct nb_verdict_in in = {.offered = 1488095,
					   .received = 1488095,
					   .offered_fps = 1488095,
					   .gen_max = true,
					   .dut = &m,
					   .active_s = 1.0};
		free(w);
		w = win();
		strcpy(w->ifs[1].name, "eth1");
		w->ifs[0].rx_packets = 1488095;
		w->ifs[1].tx_packets = 1488095;
		w->ifs[1].tx_bytes = 60ull * 1488095;
		w->ifs[1].speed_mbps = 1000;
		in.win = w;
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_EGRESS && v.line_rate && v.explained &&
			  !strcmp(v.text,
				  "egress bound: line rate reached (1000 of 1000 Mbit/s) on "
				  "eth1, nothing lost"),
		      "line rate reached, nothing lost: egress bound (%s)", v.text);
		/* Offered more than the line takes: the qdisc drops the rest. */
		in.offered = 1600000;
		w->ifs[1].qdisc_drops = 111905;
		w->ifs[1].have_qdisc = true;
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_EGRESS && v.explained &&
			  strstr(v.text, "egress bound: line rate reached (1000 of 1000 Mbit/s) on "
					 "eth1; qdisc drops 112k"),
		      "line rate and qdisc drops: both quoted (%s)", v.text);
		/* The same counts on a veth (no link speed believed): no line rate claimed. */
		in.offered = 1488095;
		w->ifs[1].qdisc_drops = 0;
		w->ifs[1].speed_mbps = 0;
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_GENERATOR && !v.line_rate && v.egress_speed_mbps == 0,
		      "speed unknown: no line rate, generator bound (%s)", v.text);
		/* 95 % of the line: not reached. */
		w->ifs[1].speed_mbps = 1000;
		w->ifs[1].tx_packets = 1413690;
		w->ifs[1].tx_bytes = 60ull * 1413690;
		in.offered = in.received = 1413690;
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(v.kind == NB_V_GENERATOR && !v.line_rate && fabs(v.egress_mbps - 950) < 0.1,
		      "95 %% of the line: not line rate (%.1f Mbit/s)", v.egress_mbps);
		/* Without the trial's length, over the observer's 1.2 s window: 833 Mbit/s. */
		w->ifs[1].tx_packets = 1488095;
		w->ifs[1].tx_bytes = 60ull * 1488095;
		in.active_s = 0;
		nb_obs_summarize(w, 0, &m);
		nb_verdict_decide(&in, &v);
		CHECK(!v.line_rate && fabs(v.egress_mbps - 833.3) < 0.1,
		      "the observer's window when the trial's is unknown (%.1f Mbit/s)",
		      v.egress_mbps);
	}

	{
		/* Recorded (the case): 0 rules, --dut-cpus 1, the generator flat out and
		 * nothing lost, cpu1 usr 2.5 % sys 57.5 % softirq 40 % idle 0 %. The DUT CPU is
		 * named, never "not saturated". */
		free(w);
		w = win();
		w->cpu[1].user = 3;
		w->cpu[1].system = 69;
		w->cpu[1].softirq = 48;
		w->cpu[1].idle = 0;
		w->ifs[0].rx_packets = 132000;
		w->ifs[1].tx_packets = 132000;
		decide(w, 1u << 1, 132000, 132000, true, 0, &v);
		CHECK_STR(
		    v.text,
		    "generator's maximum reached (132k fps, nothing lost); DUT cpu1 100 % busy "
		    "(system 58 %): the DUT is at its limit near this rate",
		    "gen max and DUT cpu1 100 %: both said, the DUT at its limit");
		CHECK(v.kind == NB_V_DUT_CPU && v.cpu_at_limit && v.busiest_cpu == 1,
		      "... its kind is the DUT CPU's");
		decide(w, 1u << 1, 132000, 132000, false, 0, &v);
		CHECK_STR(
		    v.text,
		    "no loss at 132k fps offered; DUT cpu1 100 % busy (system 58 %): the DUT is "
		    "at its limit near this rate",
		    "a paced clean trial with the DUT CPU at 100 %: named too");
		/* Loss the sink's socket explains while cpu1 is at 100 %: receiver bound, and the
		 * CPU said beside it. */
		decide(w, 1u << 1, 132000, 120000, false, 12000, &v);
		CHECK_STR(
		    v.text,
		    "receiver bound: the sink's socket dropped 12k of 12k lost frames (receive "
		    "buffer full); DUT cpu1 100 % busy (system 58 %)",
		    "receiver bound with the DUT CPU at its limit: both named");
		/* 94 %: below the limit, the generator's maximum is the verdict. */
		w->cpu[1].idle = 8;
		w->cpu[1].system = 61;
		decide(w, 1u << 1, 132000, 132000, true, 0, &v);
		CHECK(v.kind == NB_V_GENERATOR && !v.cpu_at_limit,
		      "DUT cpu1 at 93 %%: generator bound (%s)", v.text);

		/* Recorded: 9 lost in the trial, 10,183 backlog drops in the observer's window
		 * (the window took in frames outside the trial): misaligned, not unexplained. */
		free(w);
		w = win();
		w->softnet[1].dropped = 10183;
		w->ifs[0].rx_packets = 300000;
		w->ifs[0].rx_dropped = 10183;
		w->ifs[1].tx_packets = 289817;
		decide(w, 1u << 1, 18816, 18807, false, 0, &v);
		CHECK(v.kind == NB_V_MISALIGNED && !v.explained && v.lost == 9 &&
			  v.accounted == 10183,
		      "more drops than lost: misaligned (%s)", v.text);
		CHECK_STR(
		    v.text,
		    "misaligned window: 9 lost in the trial, but the counters saw 10183 drops "
		    "(backlog/rx drops 10.2k, NIC missed+fifo+over 0, qdisc drops 0, tx_dropped "
		    "0, sink socket drops 0, busiest DUT cpu1 0 %): they counted frames outside "
		    "the trial, no verdict from them",
		    "misaligned: quotes the counts, claims nothing");
		CHECK(!strcmp(nb_verdict_name(NB_V_MISALIGNED), "misaligned"),
		      "JSON name misaligned");
		/* The same 10,183 drops in softnet_stat only (the whole kernel's, shared by every
		 * namespace: another lab's traffic on cpu1), 9 lost and the sink's socket dropped
		 * them: receiver bound, the softnet drops not the trial's, never "accounted". */
		w->ifs[0].rx_dropped = 0;
		decide(w, 1u << 1, 18816, 18807, false, 9, &v);
		CHECK(v.kind == NB_V_RECEIVER && v.explained && v.accounted == 9 && v.by_cpu == 0 &&
			  v.softnet_other == 10183,
		      "host-wide softnet drops beyond the loss: not the trial's (%s)", v.text);
		/* Silent devices: 9 lost, 10,183 softnet drops, nothing else counted them: the
		 * softnet drops explain the 9 (a driver that does not count its backlog drops). */
		decide(w, 1u << 1, 18816, 18807, false, 0, &v);
		CHECK(v.kind == NB_V_DUT_CPU && v.explained && v.accounted == 9 &&
			  v.softnet_other == 10174,
		      "softnet drops explain the loss they cover, the rest is another's (%s)",
		      v.text);
	}

	CHECK(!strcmp(nb_verdict_name(NB_V_DUT_CPU), "dut_cpu_bound") &&
		  !strcmp(nb_verdict_name(NB_V_UNEXPLAINED), "unexplained"),
	      "JSON names");

	{
		/* A sweep: linear at 0/100/1000 rules 200k/150k/40k fps, set flat; one failed
		 * point is left out. */
		struct nb_rate_size r[6] = {
		    {.size = 128, .fps = 200000}, {.size = 128, .fps = 150000},
		    {.size = 128, .fps = 40000},  {.size = 128, .fps = 200000},
		    {.size = 128, .fps = 195000}, {.size = 128, .fps = 1, .failed = true}};
		struct nb_rate_sweep_point pt[6] = {
		    {.kind = NB_LAB_RULES_LINEAR, .rules = 0, .res = &r[0]},
		    {.kind = NB_LAB_RULES_LINEAR, .rules = 100, .res = &r[1]},
		    {.kind = NB_LAB_RULES_LINEAR, .rules = 1000, .res = &r[2]},
		    {.kind = NB_LAB_RULES_SET, .rules = 0, .res = &r[3]},
		    {.kind = NB_LAB_RULES_SET, .rules = 100, .res = &r[4]},
		    {.kind = NB_LAB_RULES_SET, .rules = 1000, .res = &r[5]}};
		struct nb_rate_params p = {.nsizes = 1,
					   .sizes = {128},
					   .nkinds = 2,
					   .kinds = {NB_LAB_RULES_LINEAR, NB_LAB_RULES_SET}};
		static struct nb_rate_sweep_fits fits;
		nb_rate_sweep_conclude(&p, pt, 6, &fits);
		CHECK(fits.n == 2 && fits.f[0].kind == NB_LAB_RULES_LINEAR && fits.f[0].have_fit &&
			  fits.f[0].ruleset_bound && fabs(fits.f[0].fewest_ns - 5000) < 1e-6 &&
			  fabs(fits.f[0].most_ns - 25000) < 1e-6,
		      "sweep: linear is ruleset bound, 5000 to 25000 ns per frame (%s)",
		      fits.f[0].bound_text);
		CHECK_STR(
		    fits.f[0].fit_text,
		    "per-frame cost = 4835.2 ns + 20.147 ns x rules (slope 95 % interval 16.116 to "
		    "24.177 ns; 3 points, 1 residual dof, residual 142.7 ns rms)",
		    "sweep: the linear fit with its interval and dof");
		CHECK_STR(fits.f[0].bound_text,
			  "ruleset bound: each rule adds 20.1 ns per frame (95 % interval 16.1 to "
			  "24.2; 5000 ns per frame at the fewest rules, 25000 at the most)",
			  "sweep: ruleset bound, the interval above 0");
		CHECK(fits.f[1].have_fit && !fits.f[1].ruleset_bound &&
			  fabs(fits.f[1].most_ns - 1e9 / 195000) < 1e-6,
		      "sweep: set is not, its failed point left out (%s)", fits.f[1].bound_text);
		CHECK_STR(
		    fits.f[1].bound_text,
		    "ruleset bound or not: not established (2 rule counts fix a line exactly, no "
		    "interval; 5000 ns per frame at the fewest rules, 5128 at the most): measure "
		    "a third rule count, or repeat the sweep",
		    "two rule counts: no interval, nothing claimed, what to measure next");
		/* Noise: 0 and 100 rules differ by 20 % while 1000 rules is between them. */
		r[0].fps = 110000;
		r[1].fps = 132000;
		r[2].fps = 108000;
		nb_rate_sweep_conclude(&p, pt, 6, &fits);
		CHECK(!fits.f[0].ruleset_bound && strstr(fits.f[0].bound_text, "not established") &&
			  strstr(fits.f[0].bound_text, "includes 0"),
		      "noisy sweep: not established (%s)", fits.f[0].bound_text);
		nb_rate_sweep_conclude(&p, pt, 1, &fits);
		CHECK(!fits.f[0].have_fit && !fits.f[0].ruleset_bound && !fits.f[0].bound_text[0] &&
			  !strcmp(fits.f[0].fit_text, "none (needs two rule counts with results)"),
		      "one point: no fit, no claim (%s)", fits.f[0].fit_text);
		/* Fixed-rate trials: the fps is the rate asked, nothing to fit. */
		p.test = NB_RATE_TRIAL;
		nb_rate_sweep_conclude(&p, pt, 6, &fits);
		CHECK(!fits.f[0].have_fit && !fits.f[0].ruleset_bound &&
			  strstr(fits.f[0].fit_text, "-m trial measures at the rate asked"),
		      "a sweep of trials: no fit (%s)", fits.f[0].fit_text);
		p.test = NB_RATE_THROUGHPUT;
		/* The kernel profile's netfilter ns per frame, fitted beside: 40, 2040, 20040 ns at
		 * 0, 100, 1000 rules is 40 ns + 20 ns x rules exactly; none profiled, nothing said.
		 */
		nb_rate_sweep_conclude(&p, pt, 6, &fits);
		CHECK(!fits.f[0].have_nf_fit && !fits.f[0].nf_text[0],
		      "no profile: no netfilter fit, nothing said");
		r[0].nf = (struct nb_rate_prof_nf){.have = true, .ns = 40};
		r[1].nf = (struct nb_rate_prof_nf){.have = true, .ns = 2040};
		r[2].nf = (struct nb_rate_prof_nf){.have = true, .ns = 20040};
		nb_rate_sweep_conclude(&p, pt, 6, &fits);
		CHECK(fits.f[0].have_nf_fit && fabs(fits.f[0].nf_fit.per_rule_ns - 20) < 1e-9 &&
			  fabs(fits.f[0].nf_fit.base_ns - 40) < 1e-6 && fits.f[0].nf_fit.dof == 1,
		      "profile: netfilter 40 ns + 20 ns x rules, 1 residual dof (%s)",
		      fits.f[0].nf_text);
		CHECK(
		    strstr(
			fits.f[0].nf_text,
			"netfilter measured by the kernel profile: 40 ns per frame + 20 ns x rules "
			"(slope 95 % interval") &&
			strstr(fits.f[0].nf_text, "3 points, 1 residual dof)"),
		    "profile: the sentence names its points and dof (%s)", fits.f[0].nf_text);
		r[1].nf.have = false;
		nb_rate_sweep_conclude(&p, pt, 6, &fits);
		CHECK(fits.f[0].have_nf_fit && fits.f[0].nf_fit.dof == 0 &&
			  strstr(fits.f[0].nf_text, "no interval: profile a third"),
		      "profile at two rule counts: no interval, what to measure (%s)",
		      fits.f[0].nf_text);
		r[0].nf.have = r[2].nf.have = false;
	}
	{
		/* Recorded (the case): 1,000 rules, cpu1 100 % busy over a 1.2 s window,
		 * 20,000 frames into its stack (2,000 more refused by its full backlog, never
		 * reaching it), 5,000 forwarded, the receiver counting 4,990. Per frame handled at
		 * ingress, not per frame forwarded: a 100 % busy CPU cannot spend more than its
		 * cycles. */
		struct nb_obs_summary m;
		struct nb_obs_cost k;
		free(w);
		w = win();
		w->cpu[1].softirq = 120;
		w->cpu[1].idle = 0;
		w->softnet[1].dropped = 2000;
		w->ifs[0].rx_packets = 20000;
		w->ifs[0].rx_bytes = 20000 * 60;
		w->ifs[0].rx_dropped = 2000;
		w->ifs[1].tx_packets = 5000;
		w->ifs[1].tx_bytes = 5000 * 60;
		nb_obs_summarize(w, 1u << 1, &m);
		nb_obs_cost_decide(w, &m, 2000, true, 4990, 0, 1500, &k);
		CHECK(k.ingress_frames == 20000 && !strcmp(k.ingress_from, "rx_packets") &&
			  fabs(k.cycles_per_frame - 1.2 * 2e9 / 20000) < 1e-6,
		      "cycles per frame handled: 1.2 s x 2 GHz / 20,000 ingress frames (%.0f)",
		      k.cycles_per_frame);
		CHECK(k.forwarded_frames == 4990 &&
			  !strcmp(k.forwarded_from, "the receiver's count") &&
			  fabs(k.cycles_per_forwarded_frame - 1.2 * 2e9 / 4990) < 1e-6 &&
			  !strcmp(k.clock_from, "cpufreq") && isnan(k.cycles_per_byte),
		      "the forwarded-only figure beside it (%.0f)", k.cycles_per_forwarded_frame);
		CHECK(k.cycles_per_frame <= 1.2 * 2e9 / (w->ifs[0].rx_packets),
		      "never more cycles per frame than the CPU had per frame that reached it");
		nb_obs_cost_decide(w, &m, 2000, false, NB_OBS_FRAMES_EGRESS, 0, 0, &k);
		CHECK(k.forwarded_frames == 5000 && !strcmp(k.forwarded_from, "tx_packets") &&
			  !strcmp(k.clock_from, "/proc/cpuinfo"),
		      "without a receiver's count: the egress interface's packets");
		/* Through a tunnel: 60 MB/s in 1,892 "packets" per second, GSO super-frames of
		 * about 32 KB. Counted as wire packets: bytes / (MTU + 14). */
		w->ifs[0].rx_packets = 2270;
		w->ifs[0].rx_bytes = 72000000;
		w->ifs[0].rx_dropped = 0;
		w->softnet[1].dropped = 0;
		w->ifs[1].tx_packets = 2270;
		w->ifs[1].tx_bytes = 72000000;
		nb_obs_summarize(w, 1u << 1, &m);
		nb_obs_cost_decide(w, &m, 2000, true, NB_OBS_FRAMES_EGRESS, 72000000, 1500, &k);
		CHECK(k.ingress_frames == 47557 && k.forwarded_frames == 47557 &&
			  !strcmp(k.ingress_from, "rx_bytes / (MTU + 14): GSO/GRO super-frames "
						  "counted as segments"),
		      "GSO super-frames counted as segments: %llu (%s)",
		      (unsigned long long)k.ingress_frames, k.ingress_from);
		CHECK(fabs(k.cycles_per_byte - 1.2 * 2e9 / 72e6) < 1e-9, "cycles per byte carried");
		nb_obs_cost_decide(w, &m, 0, false, NB_OBS_FRAMES_EGRESS, 0, 0, &k);
		CHECK(!k.clock_from && isnan(k.cycles_per_frame) &&
			  strstr(k.ingress_from, "MTU unknown, 1500 assumed"),
		      "no clock: no cycles; MTU unknown: said (%s)", k.ingress_from);
	}
	CHECK(fabs(nb_cycles_per_frame(0.5, 2000, 1000000) - 1000) < 1e-9,
	      "0.5 CPU-s at 2 GHz over 1M frames: 1000 cycles/frame");
	CHECK(isnan(nb_cycles_per_frame(0.5, 0, 1000)) && isnan(nb_cycles_per_frame(0.5, 2000, 0)),
	      "unknown clock or no frames: NaN");

	{
		/* Recorded: a CPU-bound forwarder (fps follows the clock) and seed 000's board
		 * (fps flat from 600 to 1200 MHz while openssl speed doubled). */
		double mhz[] = {600, 800, 1000, 1200};
		double cpu[] = {151000, 199500, 251000, 298000};
		double bus[] = {182000, 185500, 187000, 192000};
		struct nb_clock_fit f;
		CHECK(nb_clock_fit(mhz, cpu, 4, &f) == 0 && f.cpu_bound &&
			  fabs(f.exponent - 0.98) < 0.03 && f.r2 > 0.99 &&
			  !strcmp(f.wording, "scales with the core, CPU bound"),
		      "CPU bound: exponent %.2f", f.exponent);
		CHECK(nb_clock_fit(mhz, bus, 4, &f) == 0 && !f.cpu_bound && f.exponent < 0.1 &&
			  !strcmp(f.wording,
				  "does not follow the core clock: bus, memory or NIC bound"),
		      "bus bound: exponent %.2f", f.exponent);
		double same[] = {1000, 1000};
		CHECK(nb_clock_fit(same, cpu, 2, &f) == -EINVAL, "one clock: no fit");
		CHECK(nb_clock_fit(mhz, cpu, 1, &f) == -EINVAL, "one point: no fit");
		double zero[] = {1, 0};
		CHECK(nb_clock_fit(mhz, zero, 2, &f) == -EINVAL, "zero fps: no fit");
		double half[] = {100000, 141421};
		double two[] = {500, 1000};
		CHECK(nb_clock_fit(two, half, 2, &f) == 0 && fabs(f.exponent - 0.5) < 1e-3 &&
			  strstr(f.wording, "only in part"),
		      "exponent 0.5: in part");
	}
	free(w);
	return tap_done();
}
