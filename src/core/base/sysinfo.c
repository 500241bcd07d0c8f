/* SPDX-License-Identifier: BSD-2-Clause */
/* Host, kernel, CPU and interface facts for result context. Reads /proc/cpuinfo (whose keys
 * differ by architecture: "model name" on x86 and ARM, "cpu" on PowerPC, "Processor" on old
 * ARM kernels), cpufreq in sysfs, and the ethtool driver-info ioctl. */
#include "core/base/sysinfo.h"

#include "core/base/virt.h"
#include "core/base/dtclock.h"

#include <errno.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copies and truncates silently: context strings are informative. */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = src ? strnlen(src, len - 1) : 0;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

static void cpuinfo(struct nb_sysinfo *si)
{
	static const char *const model_keys[] = {"model name", "cpu", "Processor", "cpu model",
						 NULL};
	char line[256], best[128] = "";
	int best_rank = 99;
	double mhz = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char key[64];
		size_t klen;
		if (!colon)
			continue;
		klen = (size_t)(colon - line);
		if (klen >= sizeof(key))
			continue;
		memcpy(key, line, klen);
		key[klen] = '\0';
		trim(key);
		char *val = colon + 1;
		while (*val == ' ')
			val++;
		trim(val);
		for (int i = 0; model_keys[i]; i++)
			if (!strcmp(key, model_keys[i]) && i < best_rank && *val) {
				copy(best, sizeof(best), val);
				best_rank = i;
			}
		/* "cpu MHz : 2400.000" on x86, "clock : 333.333333MHz" on PowerPC. */
		if (mhz == 0 && (!strcmp(key, "cpu MHz") || !strcmp(key, "clock")))
			mhz = strtod(val, NULL);
	}
	fclose(f);
	copy(si->cpu_model, sizeof(si->cpu_model), best);
	if (!si->cpu_mhz && mhz > 0)
		si->cpu_mhz = (uint32_t)(mhz + 0.5);
}

static void cpufreq(struct nb_sysinfo *si)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "re");
	unsigned long khz = 0;

	if (!f)
		return;
	if (fscanf(f, "%lu", &khz) == 1 && khz)
		si->cpu_mhz = (uint32_t)(khz / 1000);
	fclose(f);
}

static int same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	/* An agent listening on a dual-stack socket sees its IPv4 address as ::ffff:a.b.c.d. */
	if (a && b && a->sa_family == AF_INET && b->sa_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((const struct sockaddr_in6 *)b)->sin6_addr))
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr.s6_addr[12], 4);
	if (!a || !b || a->sa_family != b->sa_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
	return 0;
}

int nb_iface_of_addr(const struct sockaddr *addr, char *name, size_t len)
{
	struct ifaddrs *ifa, *i;
	int ret = -ENOENT;

	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		if (same_host(i->ifa_addr, addr)) {
			copy(name, len, i->ifa_name);
			ret = 0;
			break;
		}
	freeifaddrs(ifa);
	return ret;
}

static void iface_facts(struct nb_sysinfo *si)
{
	struct ethtool_drvinfo drv = {.cmd = ETHTOOL_GDRVINFO};
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	copy(ifr.ifr_name, sizeof(ifr.ifr_name), si->iface);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == 0)
		si->mtu = (uint32_t)ifr.ifr_mtu;
	ifr.ifr_data = (void *)&drv;
	/* Loopback and some virtual devices have no driver info: EOPNOTSUPP, left empty. */
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
		copy(si->driver, sizeof(si->driver), drv.driver);
		copy(si->driver_version, sizeof(si->driver_version), drv.version);
		copy(si->bus_info, sizeof(si->bus_info), drv.bus_info);
	}
	close(fd);
}

void nb_sysinfo_iface(struct nb_sysinfo *si, const char *name)
{
	copy(si->iface, sizeof(si->iface), name);
	si->driver[0] = si->driver_version[0] = si->bus_info[0] = '\0';
	si->mtu = 0;
	iface_facts(si);
}

void nb_sysinfo_get(struct nb_sysinfo *si, const struct sockaddr *local_addr)
{
	struct utsname u;
	long n;
	const uint16_t one = 1;

	memset(si, 0, sizeof(*si));
	copy(si->version, sizeof(si->version), NB_VERSION);
	copy(si->gitrev, sizeof(si->gitrev), NB_GITREV);
	if (uname(&u) == 0) {
		copy(si->hostname, sizeof(si->hostname), u.nodename);
		copy(si->kernel, sizeof(si->kernel), u.release);
		copy(si->kernel_build, sizeof(si->kernel_build), u.version);
		copy(si->arch, sizeof(si->arch), u.machine);
	}
	copy(si->byte_order, sizeof(si->byte_order), *(const uint8_t *)&one ? "little" : "big");
	n = sysconf(_SC_NPROCESSORS_ONLN);
	si->ncpu = n > 0 ? (uint32_t)n : 0;
	cpufreq(si);
	cpuinfo(si);
	nb_virt_detect(si->virt, sizeof(si->virt));
	nb_dtclock_read("", &si->core_mhz, &si->bus_mhz);
	if (local_addr && nb_iface_of_addr(local_addr, si->iface, sizeof(si->iface)) == 0)
		iface_facts(si);
}

void nb_sysinfo_json(struct nb_json *j, const char *key, const struct nb_sysinfo *si)
{
	nb_json_obj_begin(j, key);
	nb_json_str(j, "netbench_version", si->version);
	nb_json_str(j, "netbench_gitrev", si->gitrev);
	nb_json_str(j, "hostname", si->hostname);
	nb_json_str(j, "kernel", si->kernel);
	nb_json_str(j, "kernel_build", si->kernel_build);
	nb_json_str(j, "arch", si->arch);
	nb_json_str(j, "byte_order", si->byte_order);
	nb_json_str(j, "cpu_model", si->cpu_model);
	nb_json_u64(j, "cpu_count", si->ncpu);
	if (si->cpu_mhz)
		nb_json_u64(j, "cpu_mhz", si->cpu_mhz);
	else
		nb_json_null(j, "cpu_mhz");
	nb_json_str(j, "iface", si->iface[0] ? si->iface : NULL);
	nb_json_str(j, "driver", si->driver[0] ? si->driver : NULL);
	nb_json_str(j, "driver_version", si->driver_version[0] ? si->driver_version : NULL);
	nb_json_str(j, "bus_info", si->bus_info[0] ? si->bus_info : NULL);
	if (si->mtu)
		nb_json_u64(j, "mtu", si->mtu);
	else
		nb_json_null(j, "mtu");
	nb_json_str(j, "virtualization", si->virt[0] ? si->virt : NULL);
	if (si->core_mhz)
		nb_json_u64(j, "core_mhz", si->core_mhz);
	else
		nb_json_null(j, "core_mhz");
	if (si->bus_mhz)
		nb_json_u64(j, "bus_mhz", si->bus_mhz);
	else
		nb_json_null(j, "bus_mhz");
	nb_json_obj_end(j);
}
