/* SPDX-License-Identifier: BSD-2-Clause */
/* The platform a result was measured on: every result carries it (docs/design.md, "Every result
 * carries its context"), for both ends of a test. */
#ifndef NB_SYSINFO_H
#define NB_SYSINFO_H

#include <stdint.h>
#include <sys/socket.h>

#include "core/base/json.h"

struct nb_sysinfo {
	char version[32];
	char gitrev[24];
	char hostname[64];
	char kernel[64];
	char kernel_build[128];
	char arch[32];
	char byte_order[8];
	char cpu_model[128];
	uint32_t ncpu;
	uint32_t cpu_mhz; /* 0 when unknown */
	char iface[32];
	char driver[32];
	char driver_version[32];
	char bus_info[32];
	uint32_t mtu; /* 0 when unknown */
	char virt[40]; /* "none", "qemu-user arm on x86_64", "vm kvm" ... (virt.h); "" unknown */
	uint32_t core_mhz, bus_mhz; /* the device tree's clocks (dtclock.h), 0 when unknown */
};

/* Fills si for this host; with local_addr, also the interface holding that address, its MTU
 * and its driver (ethtool ioctl). Never fails: unknown fields stay empty or 0. */
void nb_sysinfo_get(struct nb_sysinfo *si, const struct sockaddr *local_addr);
/* Finds the interface that owns addr. Returns 0 or -ENOENT. */
/* Describes interface name instead (its MTU and driver), forgetting the one found before. */
void nb_sysinfo_iface(struct nb_sysinfo *si, const char *name);
int nb_iface_of_addr(const struct sockaddr *addr, char *name, size_t len);
void nb_sysinfo_json(struct nb_json *j, const char *key, const struct nb_sysinfo *si);

#endif
