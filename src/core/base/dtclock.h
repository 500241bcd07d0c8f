/* SPDX-License-Identifier: BSD-2-Clause */
/* The clocks a board's device tree declares: the CPU core clock (cpus/<cpu>/clock-frequency)
 * and the bus clock (the CPU node's bus-frequency or, as on MPC83xx/85xx boards, the SoC node's),
 * so that a result states them without hand-typed tags. Where the kernel has no device tree, or
 * the tree declares no clock (qemu's virt machine), they are unknown. */
#ifndef NB_DTCLOCK_H
#define NB_DTCLOCK_H

#include <stddef.h>
#include <stdint.h>

/* A device-tree integer property as the kernel exposes it: one big-endian 32-bit cell, or two
 * (a 64-bit value, most significant cell first). Returns 0, or -EINVAL for any other length or
 * a zero value. */
int nb_dtclock_cells(const uint8_t *buf, size_t len, uint64_t *value);

/* Reads root/proc/device-tree (root "" for the real system, or a directory standing in for /).
 * *core_mhz and *bus_mhz get the clocks rounded to MHz, 0 where unknown. Returns 0 when at least
 * one is known, -ENOENT otherwise. */
int nb_dtclock_read(const char *root, uint32_t *core_mhz, uint32_t *bus_mhz);

#endif
