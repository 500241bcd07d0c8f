/* SPDX-License-Identifier: BSD-2-Clause */
/* A generator whose frames leave through a tap: the device behind the tap is an emulated NIC
 * (qemu's virtio-net in an emulated board), and the tap's queue is that NIC's receive ring.
 * Frames the tap drops on transmit were never taken by the board: they are the DUT's ingress
 * drops, the "NIC missed" of real hardware, which the board itself never counts. */
#ifndef NB_TAPRING_H
#define NB_TAPRING_H

#include <stdbool.h>
#include <stdint.h>

/* Whether the interface is a tap or tun device (sysfs tun_flags), in root ("" for the real
 * system, or a directory standing in for /, for tests). */
bool nb_tapring_is_tap(const char *root, const char *ifname);
/* Its tx_dropped counter (sysfs statistics). Returns 0 or -errno. */
int nb_tapring_dropped(const char *root, const char *ifname, uint64_t *dropped);

#endif
