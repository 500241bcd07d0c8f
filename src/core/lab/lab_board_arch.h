/* SPDX-License-Identifier: BSD-2-Clause */
/* The emulated boards' architectures: the emulator, its machine arguments and the devices of
 * each, chosen by netbench and never read from a board's image directory (which is data: a
 * kernel and an initramfs). Adding an architecture is one entry in lab_board_arch.c. */
#ifndef NB_LAB_BOARD_ARCH_H
#define NB_LAB_BOARD_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#define NB_LAB_BOARD_MACHINE_MAX 16

struct nb_lab_board_arch {
	const char *name;    /* "armhf": --dut vm:armhf, tests/board/build.sh armhf */
	const char *qemu;    /* the emulator, looked up in PATH: qemu-system-arm */
	const char *package; /* its Debian package: qemu-system-arm */
	/* Machine, CPU, cores and memory, one argument each, NULL-terminated. */
	const char *machine[NB_LAB_BOARD_MACHINE_MAX];
	const char *console; /* the serial console's device in the board: ttyAMA0 */
	const char *nic;     /* qemu's device of a NIC: virtio-net-device */
	/* The other NIC a board of this architecture takes (vm:ARCH,nic=NAME): qemu's device
	 * NAME, whose driver of the same name the board's kernel has; NULL: none. */
	const char *nic_alt;
	const char *serial; /* the control port's bus: virtio-serial-device */
	const char *crypto; /* the crypto engine (virtio-crypto-device,cryptodev=c0); NULL: none */
	/* Its image is built from Debian's sources (tests/board/build.sh), not downloaded. */
	bool from_source;
};

/* The architecture named NAME ("armhf"), NULL when there is none. */
const struct nb_lab_board_arch *nb_lab_board_arch(const char *name);

/* Every architecture's name after PREFIX, as a sentence's list: "vm:armhf or vm:x86_64". */
void nb_lab_board_arch_list(const char *prefix, char *buf, size_t len);

#endif
