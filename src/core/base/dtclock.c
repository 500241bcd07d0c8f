/* SPDX-License-Identifier: BSD-2-Clause */
/* Device-tree clocks (dtclock.h): the first CPU node (by name) that declares clock-frequency
 * gives the core clock; its bus-frequency, else the first soc* node's, the bus clock. */
#include "core/base/dtclock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int nb_dtclock_cells(const uint8_t *buf, size_t len, uint64_t *value)
{
	uint64_t v = 0;

	if (len != 4 && len != 8)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		v = v << 8 | buf[i];
	if (!v)
		return -EINVAL;
	*value = v;
	return 0;
}

/* dir/name as an integer property, in MHz (rounded); 0 when absent or malformed. */
static uint32_t prop_mhz(const char *dir, const char *name)
{
	char path[1024];
	uint8_t buf[16];
	uint64_t hz;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0 || nb_dtclock_cells(buf, (size_t)n, &hz))
		return 0;
	return hz / 1000000 > UINT32_MAX ? 0 : (uint32_t)((hz + 500000) / 1000000);
}

/* The first entry of dir (by name) starting with prefix whose property name is known: its
 * value in MHz, 0 when none has it. */
static uint32_t first_node_mhz(const char *dir, const char *prefix, const char *name)
{
	char best[256] = "", path[768];
	uint32_t mhz = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		uint32_t v;
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		v = prop_mhz(path, name);
		if (v && (!best[0] || strcmp(e->d_name, best) < 0)) {
			snprintf(best, sizeof(best), "%s", e->d_name);
			mhz = v;
		}
	}
	closedir(d);
	return mhz;
}

int nb_dtclock_read(const char *root, uint32_t *core_mhz, uint32_t *bus_mhz)
{
	char dt[512], cpus[560];

	snprintf(dt, sizeof(dt), "%s/proc/device-tree", root);
	snprintf(cpus, sizeof(cpus), "%s/cpus", dt);
	/* CPU nodes are "cpu@0" on most boards, "PowerPC,8313@0" on PowerPC ones: any node. */
	*core_mhz = first_node_mhz(cpus, "", "clock-frequency");
	*bus_mhz = first_node_mhz(cpus, "", "bus-frequency");
	if (!*bus_mhz)
		*bus_mhz = first_node_mhz(dt, "soc", "bus-frequency");
	return *core_mhz || *bus_mhz ? 0 : -ENOENT;
}
