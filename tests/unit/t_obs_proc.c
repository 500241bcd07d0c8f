/* SPDX-License-Identifier: BSD-2-Clause */
/* The observer's parsers on recorded kernel text: /proc/stat per CPU, softnet_stat in the old
 * and new column counts, /proc/interrupts with NIC queue names, nf_conntrack's per-CPU hex
 * table; the window's deltas and the summary's shares, busiest CPU and ingress/egress. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe/obs.h"
#include "tap.h"

static const char stat_a[] = "cpu  20233 0 14526 40354 803 0 325 0 0 0\n"
			     "cpu0 8950 0 6426 22510 110 0 108 0 0 0\n"
			     "cpu1 11283 0 8100 17844 693 0 216 0 0 0\n"
			     "intr 332285 0 0 0\n"
			     "ctxt 672870\n";
/* 100 ticks later: cpu1 spent 95 in softirq, 5 idle; cpu0 10 user, 90 idle. */
static const char stat_b[] = "cpu  20243 0 14526 40449 803 0 420 0 0 0\n"
			     "cpu0 8960 0 6426 22600 110 0 108 0 0 0\n"
			     "cpu1 11283 0 8100 17849 693 0 311 0 0 0\n";
/* An old kernel: four columns only. */
static const char stat_old[] = "cpu  1 2 3 4\ncpu0 1 2 3 4\n";

/* Linux 6.x: 15 columns, the 13th the CPU id. */
static const char softnet_new[] =
	"00007226 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000000 00000000 00000000\n"
	"0000ad6d 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000001 00000000 00000000\n";
static const char softnet_new_b[] =
	"00007226 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000000 00000000 00000000\n"
	"0001ad6d 000003e8 0000000c 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000001 00000000 00000000\n";
/* Linux 4.x: 11 columns, no CPU id. */
static const char softnet_old[] =
	"0000a1b2 00000003 00000010 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000\n";

static const char irq_text[] =
	"           CPU0       CPU1       \n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 26:          0          8  IO-APIC   4-edge      ttyS0\n"
	" 41:       1000       2000  PCI-MSI 524288-edge      eth0-rx-0\n"
	" 42:         10          5  PCI-MSI 524289-edge      eth0-tx-0\n"
	"NMI:          0          0   Non-maskable interrupts\n"
	"LOC:     123456     654321   Local timer interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";
static const char irq_text_b[] =
	"           CPU0       CPU1       \n"
	" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
	" 26:          0          8  IO-APIC   4-edge      ttyS0\n"
	" 41:       1000      12000  PCI-MSI 524288-edge      eth0-rx-0\n"
	" 42:         10          6  PCI-MSI 524289-edge      eth0-tx-0\n"
	"LOC:     123556     654421   Local timer interrupts\n";

static const char ct_text[] =
	"entries  clashres found new invalid ignore delete chainlength insert insert_failed drop "
	"early_drop icmp_error  expect_new expect_create expect_delete search_restart\n"
	"00000000  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000002 00000010 00000001 00000000  00000000 00000000 00000000 00000000\n"
	"00000000  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000003 00000000 00000000 00000000  00000000 00000000 00000000 00000000\n";

int main(void)
{
	struct nb_obs_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)),
			   *w = calloc(1, sizeof(*w));
	struct nb_obs_summary *m = calloc(1, sizeof(*m));
	struct nb_obs_irq irq[8];
	uint32_t nirq = 0;
	uint64_t ifail, drop, edrop;

	CHECK(nb_obs_parse_stat(stat_a, a) == 0 && a->ncpu == 2, "stat: two CPUs");
	CHECK(a->cpu[1].id == 1 && a->cpu[1].user == 11283 && a->cpu[1].softirq == 216 &&
		  a->cpu[1].idle == 17844,
	      "stat: cpu1's columns");
	CHECK(nb_obs_parse_stat(stat_old, b) == 0 && b->ncpu == 1 && b->cpu[0].idle == 4 &&
		  b->cpu[0].softirq == 0,
	      "stat: four columns of an old kernel, the rest 0");
	CHECK(nb_obs_parse_stat("intr 1 2\n", b) == -EINVAL, "stat: no cpu line refused");
	/* The sample stops at the first line past the CPUs: a CPU-like line after the interrupt
	 * line is not read (the kernel never writes one; it shows where parsing ends). */
	CHECK(nb_obs_parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4\nintr 5 6\ncpu1 1 2 3 4\n", b) == 0 &&
		  b->ncpu == 1,
	      "stat: parsing ends with the CPU lines (%u CPUs)", b->ncpu);
	CHECK(nb_obs_parse_stat(stat_b, b) == 0, "stat: second sample");

	CHECK(nb_obs_parse_softnet(softnet_new, a) == 0 && a->nsoftnet == 2 &&
		  a->softnet[1].cpu == 1 && a->softnet[1].processed == 0xad6d,
	      "softnet: 15 columns, CPU id from the 13th");
	CHECK(nb_obs_parse_softnet(softnet_new_b, b) == 0 && b->softnet[1].dropped == 1000 &&
		  b->softnet[1].squeezed == 12,
	      "softnet: dropped and time_squeeze");
	{
		struct nb_obs_snap *o = calloc(1, sizeof(*o));
		CHECK(nb_obs_parse_softnet(softnet_old, o) == 0 && o->nsoftnet == 1 &&
			  o->softnet[0].cpu == 0 && o->softnet[0].dropped == 3 &&
			  o->softnet[0].squeezed == 16,
		      "softnet: 11 columns of Linux 4.x, CPU by row");
		CHECK(nb_obs_parse_softnet("zz\n", o) == -EINVAL, "softnet: garbage refused");
		free(o);
	}

	CHECK(nb_obs_parse_interrupts(irq_text, irq, 8, &nirq) == 0 && nirq == 8,
	      "interrupts: 8 lines (got %u)", nirq);
	CHECK(!strcmp(irq[2].name, "41:eth0-rx-0") && irq[2].count == 3000,
	      "interrupts: NIC queue named, summed over CPUs (%s %llu)", irq[2].name,
	      (unsigned long long)irq[2].count);
	CHECK(!strcmp(irq[5].name, "LOC") && irq[5].count == 777777, "interrupts: named line");
	CHECK(!strcmp(irq[6].name, "ERR") && irq[6].count == 0, "interrupts: one-number line");
	CHECK(nb_obs_parse_interrupts(irq_text, irq, 3, &nirq) == 0 && nirq == 3,
	      "interrupts: bounded by the array");
	CHECK(nb_obs_parse_interrupts("", irq, 8, &nirq) == -EINVAL, "interrupts: empty refused");
	nb_obs_parse_interrupts(irq_text, a->irq, NB_OBS_IRQS, &a->nirq);
	nb_obs_parse_interrupts(irq_text_b, b->irq, NB_OBS_IRQS, &b->nirq);

	CHECK(nb_obs_parse_ct_stat(ct_text, &ifail, &drop, &edrop) == 0 && ifail == 5 &&
		  drop == 16 && edrop == 1,
	      "nf_conntrack: insert_failed, drop, early_drop summed over CPU rows");
	CHECK(nb_obs_parse_ct_stat("entries found\n00000001 0000000x\n", &ifail, &drop, &edrop) ==
		      -EINVAL,
	      "nf_conntrack: without the columns refused");

	CHECK(nb_obs_eth_interesting("rx_missed_errors") && nb_obs_eth_interesting("rx_queue_0_drops") &&
		  nb_obs_eth_interesting("rx_no_buffer_count") &&
		  !nb_obs_eth_interesting("peer_ifindex") && !nb_obs_eth_interesting("rx_packets"),
	      "driver counters: drops, misses, no-buffer kept; packets and ifindex not");

	{
		uint64_t mk = 0;
		CHECK(nb_obs_parse_cpumask("00000002\n", &mk) == 0 && mk == 2, "cpumask: one group");
		CHECK(nb_obs_parse_cpumask("00000001,80000000\n", &mk) == 0 && mk == 0x180000000ULL,
		      "cpumask: two groups");
		CHECK(nb_obs_parse_cpumask("00000003,00000000,00000001\n", &mk) == 0 && mk == 1,
		      "cpumask: CPUs past 63 dropped");
		CHECK(nb_obs_parse_cpulist("1", &mk) == 0 && mk == 2, "cpulist: one CPU");
		CHECK(nb_obs_parse_cpulist("0-2,5", &mk) == 0 && mk == 0x27, "cpulist: range and CPU");
		CHECK(nb_obs_parse_cpulist("64", &mk) == -EINVAL &&
			  nb_obs_parse_cpulist("3-1", &mk) == -EINVAL &&
			  nb_obs_parse_cpulist("1,", &mk) == -EINVAL &&
			  nb_obs_parse_cpulist("a", &mk) == -EINVAL && nb_obs_parse_cpulist("", &mk) == -EINVAL,
		      "cpulist: past 63, backwards, trailing comma, letters, empty refused");
		CHECK(nb_obs_parse_cpumask("zz\n", &mk) == -EINVAL && nb_obs_parse_cpumask("", &mk) == -EINVAL,
		      "cpumask: garbage refused");
	}
	/* interfaces: ingress eth0 took 1000 frames, egress eth1 sent 900; 100 qdisc drops. */
	a->nif = b->nif = 2;
	strcpy(a->ifs[0].name, "eth0");
	strcpy(a->ifs[1].name, "eth1");
	b->ifs[0] = a->ifs[0];
	b->ifs[1] = a->ifs[1];
	a->ifs[0].rx_packets = 5;
	b->ifs[0].rx_packets = 1005;
	b->ifs[0].rx_missed = 7;
	b->ifs[1].tx_packets = 900;
	b->ifs[1].qdisc_drops = 100;
	b->ifs[1].have_qdisc = true;
	b->ifs[1].neth = 1;
	strcpy(b->ifs[1].eth[0].name, "tx_queue_0_drops");
	b->ifs[1].eth[0].value = 3;
	a->mono_ns = 1000000000;
	b->mono_ns = 2000000000;
	a->self_cpu_us = 100;
	b->self_cpu_us = 5100;
	a->clk_tck = b->clk_tck = 100;
	b->have_conntrack = true;
	b->ct_entries = 42;
	b->nfreq = 2;
	b->freq_cpu[0] = 0;
	b->freq_khz[0] = 1000000;
	b->freq_cpu[1] = 1;
	b->freq_khz[1] = 1200000;
	w->peak_cpu = -1;
	nb_obs_peak(a, b, w);
	CHECK(w->peak_cpu == 1 && fabs(w->peak_busy_pct - 95) < 1e-9, "peak: cpu1 at 95 %%");
	nb_obs_window(a, b, w);
	CHECK(w->mono_ns == 1000000000 && w->self_cpu_us == 5000, "window: length and own CPU");
	CHECK(w->peak_cpu == 1, "window: keeps the sampled peak");
	/* A sampled peak below the window's mean (the samples missed the busy tail) is raised to
	 * the mean: some interval of the window was at least that busy. */
	w->peak_cpu = 0;
	w->peak_busy_pct = 90;
	nb_obs_window(a, b, w);
	CHECK(w->peak_cpu == 1 && fabs(w->peak_busy_pct - 95) < 1e-9,
	      "window: a peak is at least the busiest CPU's mean (cpu%d %.1f %%)", w->peak_cpu,
	      w->peak_busy_pct);
	w->peak_cpu = -1;
	nb_obs_window(a, b, w);
	CHECK(w->peak_cpu == -1, "window: no sample, no peak invented");
	w->peak_cpu = 1;
	w->peak_busy_pct = 95;
	CHECK(w->cpu[1].softirq == 95 && w->cpu[1].idle == 5 && w->cpu[0].user == 10,
	      "window: per-CPU tick deltas");
	CHECK(w->softnet[1].dropped == 1000 && w->softnet[1].squeezed == 12 &&
		  w->softnet[1].processed == 0x10000,
	      "window: softnet deltas");
	CHECK(w->nirq == 3 && !strcmp(w->irq[0].name, "41:eth0-rx-0") && w->irq[0].count == 10000 &&
		  !strcmp(w->irq[1].name, "LOC") && w->irq[1].count == 200 && w->irq[2].count == 1,
	      "window: lines that fired, busiest first (%u lines)", w->nirq);
	CHECK(w->ifs[0].rx_packets == 1000 && w->ifs[1].qdisc_drops == 100 &&
		  w->ifs[1].eth[0].value == 3,
	      "window: interface deltas");

	nb_obs_summarize(w, 0, m);
	CHECK(m->busiest_cpu == 1 && fabs(m->busiest_pct - 95) < 1e-9 &&
		  !strcmp(m->busiest_with, "softirq") && fabs(m->busiest_with_pct - 95) < 1e-9,
	      "summary: busiest cpu1 95 %% softirq");
	CHECK(fabs(m->self_cpu_pct - 0.5) < 1e-9, "summary: observer 0.5 %% of a CPU (got %g)",
	      m->self_cpu_pct);
	CHECK(!m->self_over_budget, "summary: 0.5 %% is within the observer's 1 %% budget");
	w->self_cpu_us = 82500; /* the emulated ARM board before its cost was cut: 8.25 % */
	nb_obs_summarize(w, 0, m);
	CHECK(m->self_over_budget && fabs(m->self_cpu_pct - 8.25) < 1e-9,
	      "summary: 8.25 %% is over the budget, and said so");
	w->self_cpu_us = 5000;
	nb_obs_summarize(w, 0, m);
	CHECK(fabs(m->busy_cpu_s - 1.05) < 1e-9, "summary: 1.05 busy CPU-seconds");
	CHECK(m->softnet_dropped == 1000 && m->softnet_squeezed == 12 && m->rx_missed == 7 &&
		  m->qdisc_drops == 100 && m->eth_drops == 3,
	      "summary: drop totals");
	CHECK(m->ingress_if == 0 && m->egress_if == 1, "summary: ingress eth0, egress eth1");
	CHECK(fabs(m->clock_mhz - 1100) < 1e-9, "summary: mean clock 1100 MHz");
	nb_obs_summarize(w, 1u << 0, m);
	CHECK(m->busiest_cpu == 0 && fabs(m->busiest_pct - 10) < 1e-9 && m->softnet_dropped == 0 &&
		  fabs(m->clock_mhz - 1000) < 1e-9 && !strcmp(m->busiest_with, "user"),
	      "summary: only the DUT's CPU 0 selected");
	/* A counter that went back (device reset) counts nothing rather than 2^64. */
	b->ifs[0].rx_packets = 1;
	nb_obs_window(a, b, w);
	CHECK(w->ifs[0].rx_packets == 0, "window: a reset counter gives 0");

	/* The observer's cost: the samples' CPU over the window is what one sample costs times
	 * the samples over the window; the edges' snapshots are stated apart. */
	w->samples = 8;
	w->sample_cpu_ns = 2400000; /* 300 us a sample */
	w->edge_cpu_ns = 31500000;
	w->sample_period_ns = 400000000;
	b->ifs[0].rx_packets = 1005;
	nb_obs_window(a, b, w);
	CHECK(w->samples == 8 && w->sample_cpu_ns == 2400000 && w->edge_cpu_ns == 31500000 &&
		  w->sample_period_ns == 400000000,
	      "window: keeps the samples' cost, the edges' and the longest period");
	nb_obs_summarize(w, 0, m);
	CHECK(m->cost_known && fabs(m->sample_us - 300) < 1e-9 &&
		  fabs(m->sampling_pct - 0.24) < 1e-9 && fabs(m->edge_ms - 31.5) < 1e-9 &&
		  fabs(m->sample_us * w->samples / 1e4 / m->window_s - m->sampling_pct) < 1e-9,
	      "summary: 300 us a sample, 8 samples over 1 s: 0.24 %% of a CPU; edges 31.5 ms");
	w->sample_cpu_ns = w->edge_cpu_ns = 0;
	nb_obs_summarize(w, 0, m);
	CHECK(!m->cost_known, "summary: an agent that does not time its samples: cost unknown");

	/* The sampler's interval at the default rate: the asked 100 ms while a sample costs
	 * little; longer where 100 ms would put the samples over their share of the budget. */
	CHECK(nb_obs_sample_period(100000000, true, 200000, 1) == 100000000,
	      "period: 200 us a sample at 10/s (0.2 %%) keeps 100 ms");
	uint64_t per = nb_obs_sample_period(100000000, true, 4 * 2000000, 4);
	CHECK(per > 100000000 && fabs(2e6 / (double)per * 100 - NB_OBS_SAMPLE_SHARE_PCT) < 1e-6,
	      "period: 2 ms a sample stretches to %.0f ms (%.2f %% of a CPU)", per / 1e6,
	      2e6 / (double)per * 100);
	CHECK(nb_obs_sample_period(100000000, false, 4 * 2000000, 4) == 100000000,
	      "period: a rate the user asked for is kept, whatever it costs");
	CHECK(nb_obs_sample_period(100000000, true, 50000000, 1) == 1000000000,
	      "period: never beyond 1 s");
	CHECK(nb_obs_sample_period(100000000, true, 0, 0) == 100000000,
	      "period: no sample yet, the asked one");

	free(a);
	free(b);
	free(w);
	free(m);
	return tap_done();
}
