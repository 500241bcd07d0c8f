/* SPDX-License-Identifier: BSD-2-Clause */
/* /proc/stat parsing on captured samples from old and new kernels, and window arithmetic. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cpu.h"
#include "tap.h"

/* Linux 2.4: four columns. */
static const char stat_24[] = "cpu  1000 10 500 8490\n"
			      "cpu0 1000 10 500 8490\n"
			      "page 5741 1808\n"
			      "intr 1462898\n";
/* Linux 2.6.9: seven columns (iowait, irq, softirq), two CPUs. */
static const char stat_26[] = "cpu  200 0 100 1500 50 20 130\n"
			      "cpu0 150 0 60 700 20 10 60\n"
			      "cpu1 50 0 40 800 30 10 70\n"
			      "intr 114930548 113199788 3 0 5 263 0 4 [... 200 values ...]\n"
			      "ctxt 1990473\n";
/* Linux 6.x: ten columns (steal, guest, guest_nice). */
static const char stat_6a[] = "cpu  100 0 50 800 0 10 40 0 0 0\n"
			      "cpu0 60 0 20 400 0 5 15 0 0 0\n"
			      "cpu1 40 0 30 400 0 5 25 0 0 0\n";
static const char stat_6b[] = "cpu  150 0 70 900 0 20 60 0 0 0\n"
			      "cpu0 70 0 25 490 0 5 15 0 0 0\n"
			      "cpu1 80 0 45 410 0 15 45 0 0 0\n";

int main(void)
{
	struct nb_cpu_sample *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct nb_cpu_load l;

	CHECK(nb_cpu_parse_stat(stat_24, a) == 0, "2.4 layout parses");
	CHECK(a->columns == 4 && a->total.user == 1000 && a->total.idle == 8490 &&
		  a->total.softirq == 0 && a->ncpu == 1,
	      "2.4: four columns, missing ones are 0");
	CHECK(nb_cpu_parse_stat(stat_26, a) == 0, "2.6 layout parses");
	CHECK(a->columns == 7 && a->total.softirq == 130 && a->total.iowait == 50 && a->ncpu == 2 &&
		  a->cpu_busy[1] == 50 + 40 + 10 + 70,
	      "2.6: softirq and per-CPU busy");
	CHECK(nb_cpu_parse_stat("intr 1 2 3\n", a) != 0, "no cpu line is an error");

	CHECK(nb_cpu_parse_stat(stat_6a, a) == 0 && nb_cpu_parse_stat(stat_6b, b) == 0,
	      "6.x layout parses");
	a->mono_ns = 0;
	b->mono_ns = 1000000000ULL; /* 1 s */
	a->proc_user_us = 0;
	b->proc_user_us = 250000;
	b->proc_sys_us = 250000;
	nb_cpu_load(a, b, &l);
	/* delta: user 50, system 20, idle 100, irq 10, softirq 20 -> all 200 */
	CHECK(l.valid, "window valid");
	CHECK(fabs(l.softirq_pct - 10.0) < 1e-9, "softirq share 10%% (%.3f)", l.softirq_pct);
	CHECK(fabs(l.busy_pct - 50.0) < 1e-9, "busy 50%% (%.3f)", l.busy_pct);
	CHECK(fabs(l.idle_pct - 50.0) < 1e-9, "idle 50%%");
	/* cpu1: busy 40+15+10+20 = 85 of 95 ticks */
	CHECK(l.busiest_cpu == 1 && fabs(l.busiest_cpu_pct - 100.0 * 85 / 95) < 1e-9,
	      "busiest CPU is cpu1 at 89.5%% (%d %.2f)", l.busiest_cpu, l.busiest_cpu_pct);
	CHECK(fabs(l.proc_pct - 50.0) < 1e-9 && fabs(l.proc_cpu_s - 0.5) < 1e-9,
	      "process 50%% of one CPU, 0.5 CPU-s");
	CHECK(fabs(l.busy_cpu_s - 1.0) < 1e-9, "system busy 1.0 CPU-s over 2 CPUs x 1 s");
	CHECK(fabs(nb_cpu_us_per_kbyte(1.0, 1024 * 1000) - 1000.0) < 1e-9,
	      "service demand: 1 CPU-s for 1000 KByte = 1000 us/KByte");
	CHECK(isnan(nb_cpu_us_per_kbyte(1.0, 0)), "no bytes, no demand");

	/* Other load: user+system 70 of 200 ticks on 2 CPUs over 1 s = 0.7 CPU-s, the process
	 * 0.5 CPU-s: 20 % of one CPU; irq and softirq are the test's own and left out. */
	CHECK(fabs(nb_cpu_other_pct(&l, 0) - 20.0) < 1e-9, "other load 20%% of a CPU (%.3f)",
	      nb_cpu_other_pct(&l, 0));
	CHECK(fabs(nb_cpu_other_pct(&l, 0.1) - 10.0) < 1e-9,
	      "the peer's 0.1 CPU-s on the same host is not other load");
	CHECK(nb_cpu_other_pct(&l, 1.0) == 0, "other load never below 0");
	CHECK(nb_cpu_polluted(20.0) && !nb_cpu_polluted(5.0) && !nb_cpu_polluted(NAN),
	      "polluted above 5 %% of a CPU, not at it, not when unknown");
	/* Process and system agree: 0.5 CPU-s of the process in 1.0 busy. */
	CHECK(nb_cpu_consistent(&l), "0.5 CPU-s of the process inside 1.0 busy: consistent");
	/* The ARM board's crypto point (TCG guest, 2 CPUs, 0.5 s window): the process 103.94 %
	 * of one CPU, the system 29.73 % busy of 2 CPUs (as ticks: 30 %). The process cannot use
	 * more than the whole system: the guest's tick sampling lost busy time. */
	{
		struct nb_cpu_sample *ta = calloc(1, sizeof(*ta)), *tb = calloc(1, sizeof(*tb));
		struct nb_cpu_load tl;
		CHECK(nb_cpu_parse_stat("cpu  1000 0 1000 8000 0 0 0 0 0 0\n"
					"cpu0 500 0 500 4000 0 0 0 0 0 0\n"
					"cpu1 500 0 500 4000 0 0 0 0 0 0\n",
					ta) == 0 &&
			  /* 100 ticks in 0.5 s on 2 CPUs: user 10, system 20, idle 70: 30 %
			   * busy (the board's 29.73 % at tick resolution). */
			  nb_cpu_parse_stat("cpu  1010 0 1020 8070 0 0 0 0 0 0\n"
					    "cpu0 1005 0 510 4035 0 0 0 0 0 0\n"
					    "cpu1 505 0 510 4035 0 0 0 0 0 0\n",
					    tb) == 0,
		      "board samples parse");
		ta->mono_ns = 0;
		tb->mono_ns = 500000000ULL;
		tb->proc_user_us = 519700; /* 103.94 % of 0.5 s */
		nb_cpu_load(ta, tb, &tl);
		CHECK(tl.valid && fabs(tl.busy_pct - 30.0) < 1e-9 &&
			  fabs(tl.proc_pct - 103.94) < 1e-9 && !nb_cpu_consistent(&tl),
		      "process 103.94 %% of a CPU where 2 CPUs were 30 %% busy: not consistent "
		      "(proc %.3f CPU-s, busy %.3f)",
		      tl.proc_cpu_s, tl.busy_cpu_s);
		/* The edges: one tick per CPU at each end and 5 % are slack, not more. */
		tl.proc_cpu_s = tl.busy_cpu_s * 1.05 + 0.04 - 1e-6;
		CHECK(nb_cpu_consistent(&tl), "within a tick per CPU at each edge and 5 %%");
		tl.proc_cpu_s = tl.busy_cpu_s * 1.05 + 0.04 + 0.001;
		CHECK(!nb_cpu_consistent(&tl), "a millisecond past the slack is not");
		tl.proc_cpu_s = 0;
		tl.valid = false;
		CHECK(!nb_cpu_consistent(&tl), "an invalid window is not consistent");
		free(ta);
		free(tb);
	}
	/* 1 s apart, 2 CPUs: the same kernel's totals differ by 200 ticks. */
	CHECK(nb_cpu_same_host(a, b) && nb_cpu_same_host(b, a),
	      "same host: totals follow the clock");
	b->total.idle += 300;
	CHECK(!nb_cpu_same_host(a, b), "another host: totals 1.5 s per CPU apart");
	b->total.idle -= 300;
	b->mono_ns = 20 * 1000000000ULL;
	CHECK(!nb_cpu_same_host(a, b), "clocks 20 s apart: not the same host");
	b->mono_ns = 1000000000ULL;

	/* A CPU going offline between samples: not a negative load. */
	b->ncpu = 1;
	nb_cpu_load(a, b, &l);
	CHECK(!l.valid, "CPU set change invalidates the window");
	CHECK(!nb_cpu_same_host(a, b), "another CPU count: not the same host");
	nb_cpu_load(a, a, &l);
	CHECK(!l.valid, "empty window is invalid");
	CHECK(isnan(nb_cpu_other_pct(&l, 0)), "no other load of an invalid window");

	CHECK(nb_cpu_sample_now(a) == 0 && a->ncpu > 0 && a->columns >= 4, "live /proc/stat");
	free(a);
	free(b);
	return tap_done();
}
