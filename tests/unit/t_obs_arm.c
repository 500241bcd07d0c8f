/* SPDX-License-Identifier: BSD-2-Clause */
/* The observer's /proc parsers on files captured from an ARM kernel: Debian's 6.1 armmp kernel
 * on qemu's virt machine (Cortex-A15, 2 CPUs, GIC, virtio-mmio NICs), as `lab up --dut
 * vm:armhf` boots it. Its /proc/interrupts names GIC lines and per-CPU IPIs (no LOC, NMI or
 * RES as on x86), its softnet table has the CPU id column of 5.10+, its /proc/stat the same
 * columns as x86, its /proc/cpuinfo no "cpu MHz" (a BogoMIPS line instead). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe/obs.h"
#include "tap.h"

static const char stat_text[] =
    "cpu  20 0 573 1594 0 0 10 0 0 0\n"
    "cpu0 7 0 257 806 0 0 6 0 0 0\n"
    "cpu1 13 0 316 788 0 0 4 0 0 0\n"
    "intr 2425 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 60 381 0 0 0 0 0 0 1963 0 5 0 0 0 10 7\n"
    "ctxt 2025\n"
    "btime 1796140049\n"
    "processes 130\n"
    "procs_running 1\n"
    "procs_blocked 0\n"
    "softirq 1675 0 362 0 21 0 0 1 761 0 530\n";

static const char irq_text[] =
    "           CPU0       CPU1       \n"
    " 26:        896       1073 GIC-0  27 Level     arch_timer\n"
    " 28:          5          0 GIC-0  33 Level     uart-pl011\n"
    " 30:          0          0 GIC-0  34 Level     rtc-pl031\n"
    " 31:          0          0 9030000.pl061   3 Edge      GPIO Key Poweroff\n"
    " 32:         10          0 GIC-0  78 Edge      virtio0\n"
    " 33:          7          0 GIC-0  79 Edge      virtio1\n"
    "IPI0:          0          0  CPU wakeup interrupts\n"
    "IPI1:          0          0  Timer broadcast interrupts\n"
    "IPI2:         22         39  Rescheduling interrupts\n"
    "IPI3:        198        184  Function call interrupts\n"
    "IPI4:          0          0  CPU stop interrupts\n"
    "IPI5:          0          0  IRQ work interrupts\n"
    "IPI6:          0          0  completion interrupts\n"
    "Err:          0\n";

static const char softnet_text[] = "00000006 00000000 00000002 00000000 00000000 00000000 00000000 "
				   "00000000 00000000 00000000 00000000 00000000 00000000\n"
				   "00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
				   "00000000 00000000 00000000 00000000 00000000 00000001\n";

static const char ct_text[] =
    "entries  clashres found new invalid ignore delete chainlength insert insert_failed drop "
    "early_drop icmp_error  expect_new expect_create expect_delete search_restart\n"
    "00000000  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
    "00000000 00000000 00000000  00000000 00000000 00000000 00000000\n"
    "00000000  00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
    "00000000 00000000 00000000  00000000 00000000 00000000 00000000\n";

static const struct nb_obs_irq *find(const struct nb_obs_irq *irq, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(irq[i].name, name))
			return &irq[i];
	return NULL;
}

int main(void)
{
	struct nb_obs_snap *s = calloc(1, sizeof(*s));
	struct nb_obs_irq irq[32];
	const struct nb_obs_irq *q;
	uint32_t nirq = 0;
	uint64_t ifail = 1, drop = 1, edrop = 1;

	int ret = nb_obs_parse_stat(stat_text, s);
	CHECK(ret == 0 && s->ncpu == 2, "stat: 2 CPUs (%u)", s->ncpu);
	CHECK(s->cpu[0].id == 0 && s->cpu[0].user == 7 && s->cpu[0].system == 257 &&
		  s->cpu[0].idle == 806 && s->cpu[0].softirq == 6,
	      "stat: cpu0's columns");
	CHECK(s->cpu[1].id == 1 && s->cpu[1].user == 13 && s->cpu[1].system == 316 &&
		  s->cpu[1].softirq == 4,
	      "stat: cpu1's columns, the intr and softirq lines ignored");

	ret = nb_obs_parse_interrupts(irq_text, irq, 32, &nirq);
	CHECK(ret == 0 && nirq == 14, "interrupts: 14 lines with counts (got %u)", nirq);
	q = find(irq, nirq, "26:arch_timer");
	CHECK(q && q->count == 896 + 1073, "interrupts: the GIC's timer line summed over CPUs");
	q = find(irq, nirq, "32:virtio0");
	CHECK(q && q->count == 10, "interrupts: the first virtio-mmio NIC's line");
	q = find(irq, nirq, "33:virtio1");
	CHECK(q && q->count == 7, "interrupts: the second virtio-mmio NIC's line");
	q = find(irq, nirq, "IPI3");
	CHECK(q && q->count == 198 + 184, "interrupts: an IPI line named by its label");
	q = find(irq, nirq, "31:Poweroff");
	CHECK(q && q->count == 0, "interrupts: a line of a non-GIC chip");
	q = find(irq, nirq, "Err");
	CHECK(q && q->count == 0, "interrupts: the one-number Err line");

	CHECK(nb_obs_parse_softnet(softnet_text, s) == 0 && s->nsoftnet == 2, "softnet: 2 rows");
	CHECK(s->softnet[0].cpu == 0 && s->softnet[0].processed == 6 &&
		  s->softnet[0].squeezed == 2 && s->softnet[1].cpu == 1,
	      "softnet: processed, time_squeeze, CPU id from the 13th column");

	CHECK(nb_obs_parse_ct_stat(ct_text, &ifail, &drop, &edrop) == 0 && ifail == 0 &&
		  drop == 0 && edrop == 0,
	      "nf_conntrack: the 6.1 header with clashres read by name");
	free(s);
	return tap_done();
}
