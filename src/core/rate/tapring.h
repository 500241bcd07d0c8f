/* SPDX-License-Identifier: BSD-2-Clause */
/* A generator whose frames leave through a tap: the device behind the tap is an emulated NIC
 * (qemu's virtio-net in an emulated board), and the tap's queue is that NIC's receive ring.
 * Frames the tap drops on transmit were never taken by the board: they are the DUT's ingress
 * drops, the "NIC missed" of real hardware, which the board itself never counts. */
#ifndef NB_TAPRING_H
#define NB_TAPRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether the interface is a tap or tun device (sysfs tun_flags), in root ("" for the real
 * system, or a directory standing in for /, for tests). */
bool nb_tapring_is_tap(const char *root, const char *ifname);
/* Its tx_dropped counter (sysfs statistics). Returns 0 or -errno. */
int nb_tapring_dropped(const char *root, const char *ifname, uint64_t *dropped);
/* The processes that hold the tap open (the qemu behind the emulated NIC): every process under
 * root/proc with an fdinfo line "iff:<tab>IFNAME" (as the tun driver prints it). Fills at most
 * max pids; returns how many were found. */
size_t nb_tapring_owners(const char *root, const char *ifname, long *pids, size_t max);
/* The one process behind the caller's tap when it can be told: of the owners, those whose network
 * namespace belongs to the caller's lab (named PREFIX-ROLE under root/run/netns like the
 * caller's own, as the lab names them: a board's qemu runs in PREFIX-dut or PREFIX-sink while
 * its tap was moved to PREFIX-gen). Another lab's board has a tap of the same name: with more
 * than one candidate left, or none, returns -1 (the host's load is then not measured). */
long nb_tapring_owner(const char *root, const char *ifname);
/* A process's CPU time (user + system, all threads) in seconds, from root/proc/PID/stat
 * (fields 14 and 15, in clock ticks). Returns 0 or -errno (-EINVAL for text it cannot read). */
int nb_tapring_proc_cpu_s(const char *root, long pid, double *cpu_s);

#endif
