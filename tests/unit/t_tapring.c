/* SPDX-License-Identifier: BSD-2-Clause */
/* A tap is told from other interfaces by sysfs's tun_flags, and its transmit drops are read
 * from its statistics, on a directory standing in for /: a tap to an emulated board that
 * dropped 21814 frames, a veth (no tun_flags), names that would leave sysfs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rate/tapring.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char p[256], *s;
	FILE *f;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
}

int main(void)
{
	uint64_t d = 0;
	int ret;

	snprintf(root, sizeof(root), "/tmp/t_tapring.XXXXXX");
	if (!mkdtemp(root))
		return 1;
	put("sys/class/net/gen0/tun_flags", "0x1002\n");
	put("sys/class/net/gen0/statistics/tx_dropped", "21814\n");
	put("sys/class/net/veth0/statistics/tx_dropped", "5\n");
	put("sys/class/net/bad/tun_flags", "0x1002\n");
	put("sys/class/net/bad/statistics/tx_dropped", "many\n");

	CHECK(nb_tapring_is_tap(root, "gen0"), "gen0 with tun_flags is a tap");
	CHECK(!nb_tapring_is_tap(root, "veth0"), "veth0 is not");
	CHECK(!nb_tapring_is_tap(root, "nosuch"), "a missing interface is not");
	CHECK(!nb_tapring_is_tap(root, "../../etc") && !nb_tapring_is_tap(root, ""),
	      "names that leave sysfs are refused");
	ret = nb_tapring_dropped(root, "gen0", &d);
	CHECK(ret == 0 && d == 21814, "gen0's tx_dropped: %llu", (unsigned long long)d);
	CHECK(nb_tapring_dropped(root, "bad", &d) == -EINVAL, "a counter that is no number");
	CHECK(nb_tapring_dropped(root, "nosuch", &d) == -ENOENT, "a missing counter");
	{
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
