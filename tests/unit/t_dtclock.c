/* SPDX-License-Identifier: BSD-2-Clause */
/* Device-tree clocks on property files written as the kernel exposes them (big-endian cells):
 * an MPC8313-like board (core and bus clock on the CPU node, bus clock on the SoC node too), a
 * board whose bus clock is only on the SoC node, a 64-bit cell, qemu's virt machine (CPU nodes
 * without clock-frequency: unknown), malformed properties and no device tree at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/dtclock.h"
#include "tap.h"

static char root[64];

static void mkpath(const char *rel)
{
	char p[512], *s;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

/* A property of n bytes, written as the kernel shows it under /proc/device-tree. */
static void prop(const char *node, const char *name, const uint8_t *b, size_t n)
{
	char p[512];
	FILE *f;
	mkpath(node);
	snprintf(p, sizeof(p), "%s/%s/%s", root, node, name);
	f = fopen(p, "wb");
	fwrite(b, 1, n, f);
	fclose(f);
}

static void prop_u32(const char *node, const char *name, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
	prop(node, name, b, 4);
}

static void fresh(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc", root);
	if (system(cmd) != 0)
		abort();
}

int main(void)
{
	uint32_t core = 1, bus = 1;
	uint64_t v = 0;
	int ret;

	snprintf(root, sizeof(root), "/tmp/t_dtclock.XXXXXX");
	if (!mkdtemp(root))
		return 1;

	static const uint8_t c333[] = {0x13, 0xde, 0x43, 0x55}; /* 333333333 */
	ret = nb_dtclock_cells(c333, 4, &v);
	CHECK(ret == 0 && v == 333333333, "one cell, big-endian: %llu", (unsigned long long)v);
	static const uint8_t c64[] = {0, 0, 0, 1, 0x2a, 0x05, 0xf2, 0x00}; /* 5 GHz */
	CHECK(nb_dtclock_cells(c64, 8, &v) == 0 && v == 5000000000ull, "two cells: 64 bits");
	CHECK(nb_dtclock_cells(c333, 3, &v) == -EINVAL, "three bytes: not a cell");
	static const uint8_t zero[] = {0, 0, 0, 0};
	CHECK(nb_dtclock_cells(zero, 4, &v) == -EINVAL, "zero: no clock");

	/* MPC8313E-RDB-like: 333 MHz core, 166.67 MHz CSB on the CPU node and the SoC node. */
	prop_u32("proc/device-tree/cpus/PowerPC,8313@0", "clock-frequency", 333333333);
	prop_u32("proc/device-tree/cpus/PowerPC,8313@0", "bus-frequency", 166666666);
	prop_u32("proc/device-tree/cpus/PowerPC,8313@0", "timebase-frequency", 41666666);
	prop_u32("proc/device-tree/cpus", "#address-cells", 1);
	prop_u32("proc/device-tree/soc8313@e0000000", "bus-frequency", 166666666);
	ret = nb_dtclock_read(root, &core, &bus);
	CHECK(ret == 0 && core == 333 && bus == 167, "MPC8313: core 333 MHz, bus 167 MHz (%u, %u)",
	      core, bus);

	/* Two cores, the bus clock on the SoC node only (MPC85xx style), a 64-bit core clock. */
	fresh();
	prop("proc/device-tree/cpus/cpu@1", "clock-frequency", c64, 8);
	prop("proc/device-tree/cpus/cpu@0", "clock-frequency", c64, 8);
	prop_u32("proc/device-tree/soc@ffe00000", "bus-frequency", 400000000);
	ret = nb_dtclock_read(root, &core, &bus);
	CHECK(ret == 0 && core == 5000 && bus == 400, "SoC bus clock: core 5000, bus 400 (%u, %u)",
	      core, bus);

	/* qemu -M virt: CPU nodes without clock-frequency ("missing clock-frequency property"). */
	fresh();
	prop("proc/device-tree/cpus/cpu@0", "compatible", (const uint8_t *)"arm,cortex-a15", 15);
	prop("proc/device-tree/cpus/cpu@0", "device_type", (const uint8_t *)"cpu", 4);
	prop("proc/device-tree/cpus/cpu@1", "device_type", (const uint8_t *)"cpu", 4);
	core = bus = 7;
	ret = nb_dtclock_read(root, &core, &bus);
	CHECK(ret == -ENOENT && core == 0 && bus == 0, "qemu virt: both unknown");

	/* A malformed clock (3 bytes) is not believed; the bus clock still is. */
	fresh();
	prop("proc/device-tree/cpus/cpu@0", "clock-frequency", c333, 3);
	prop_u32("proc/device-tree/cpus/cpu@0", "bus-frequency", 100000000);
	ret = nb_dtclock_read(root, &core, &bus);
	CHECK(ret == 0 && core == 0 && bus == 100, "malformed core clock: unknown, bus 100");

	/* No device tree at all (a PC). */
	fresh();
	ret = nb_dtclock_read(root, &core, &bus);
	CHECK(ret == -ENOENT && core == 0 && bus == 0, "no device tree: unknown");

	rmdir(root);
	return tap_done();
}
