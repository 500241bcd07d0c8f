/* SPDX-License-Identifier: BSD-2-Clause */
/* The table of the emulated boards' architectures (lab_board_arch.h). */
#include "core/lab/lab_board_arch.h"

#include <stdio.h>
#include <string.h>

static const struct nb_lab_board_arch archs[] = {
    {
	.name = "armhf",
	.qemu = "qemu-system-arm",
	.package = "qemu-system-arm",
	/* virtio-mmio devices in modern (1.0) mode: the kernel's virtio_crypto binds no
	 * legacy one. */
	.machine = {"-M", "virt", "-cpu", "cortex-a15", "-smp", "2", "-m", "256", "-global",
		    "virtio-mmio.force-legacy=false", NULL},
	.console = "ttyAMA0",
	.nic = "virtio-net-device",
	.serial = "virtio-serial-device",
	.crypto = "virtio-crypto-device,cryptodev=c0",
    },
    {
	.name = "x86_64",
	.qemu = "qemu-system-x86_64",
	.package = "qemu-system-x86",
	.machine = {"-M", "pc", "-accel", "tcg", "-cpu", "max", "-smp", "2", "-m", "256", NULL},
	.console = "ttyS0",
	.nic = "virtio-net-pci",
	/* Intel 82574L, driven by e1000e (a module of Debian's kernel, in the image). */
	.nic_alt = "e1000e",
	.serial = "virtio-serial-pci",
	.crypto = "virtio-crypto-pci,cryptodev=c0",
    },
    {
	/* An e500v2 with gianfar's eTSEC NICs; its virtio-serial control port is on the
	 * ppce500 machine's PCI bus, and it has no crypto engine (qemu has no SEC/talitos:
	 * its kernel's crypto is software only). Its image is built from Debian's sources:
	 * Debian has no 32-bit PowerPC user space. */
	.name = "ppc",
	.qemu = "qemu-system-ppc",
	.package = "qemu-system-ppc",
	/* One CPU: the e500v2 of qemu's ppce500 does not bring up a second one (-smp 2
	 * hangs). */
	.machine = {"-M", "ppce500", "-cpu", "e500v2", "-smp", "1", "-m", "256", NULL},
	.console = "ttyS0",
	.nic = "eTSEC",
	.serial = "virtio-serial-pci",
	.crypto = NULL,
	.from_source = true,
    },
};

#define N_ARCHS (sizeof(archs) / sizeof(archs[0]))

const struct nb_lab_board_arch *nb_lab_board_arch(const char *name)
{
	for (size_t i = 0; name && i < N_ARCHS; i++)
		if (!strcmp(name, archs[i].name))
			return &archs[i];
	return NULL;
}

void nb_lab_board_arch_list(const char *prefix, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_ARCHS && o < len; i++) {
		const char *sep = !i ? "" : i + 1 == N_ARCHS ? " or " : ", ";
		int w = snprintf(buf + o, len - o, "%s%s%s", sep, prefix, archs[i].name);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}
