/* SPDX-License-Identifier: BSD-2-Clause */
/* Reads a tap's identity and transmit drops from sysfs (tapring.h). */
#include "core/rate/tapring.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool name_ok(const char *ifname)
{
	return *ifname && strlen(ifname) < 16 && !strchr(ifname, '/') && strcmp(ifname, ".") &&
	       strcmp(ifname, "..");
}

bool nb_tapring_is_tap(const char *root, const char *ifname)
{
	char path[320];

	if (!name_ok(ifname))
		return false;
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/tun_flags", root, ifname);
	return access(path, F_OK) == 0;
}

int nb_tapring_dropped(const char *root, const char *ifname, uint64_t *dropped)
{
	char path[320], buf[32], *end;
	FILE *f;
	int ret = 0;

	if (!name_ok(ifname))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/statistics/tx_dropped", root, ifname);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		ret = -EIO;
	fclose(f);
	if (ret)
		return ret;
	errno = 0;
	*dropped = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}
