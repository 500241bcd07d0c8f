/* SPDX-License-Identifier: BSD-2-Clause */
/* Clock and RPS settings on a directory laid out like sysfs: the userspace governor where the
 * kernel offers it, pinned limits where not, the hardware's range enforced, everything put back
 * by the restore; no cpufreq at all is said in one line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/observe/obs_tune.h"
#include "tap.h"

static char root[64];

static void put(const char *rel, const char *v)
{
	char p[512];
	FILE *f;
	snprintf(p, sizeof(p), "%s%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(v, f);
		fclose(f);
	}
}

static const char *get(const char *rel)
{
	static char b[128];
	char p[512];
	FILE *f;
	snprintf(p, sizeof(p), "%s%s", root, rel);
	b[0] = '\0';
	if ((f = fopen(p, "r"))) {
		if (!fgets(b, sizeof(b), f))
			b[0] = '\0';
		fclose(f);
	}
	b[strcspn(b, "\n")] = '\0';
	return b;
}

static void mk(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	mkdir(p, 0755);
}

static void policy(const char *govs)
{
	mk("/sys");
	mk("/sys/devices");
	mk("/sys/devices/system");
	mk("/sys/devices/system/cpu");
	mk("/sys/devices/system/cpu/cpufreq");
	mk("/sys/devices/system/cpu/cpufreq/policy0");
	put("/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_min_freq", "600000\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq", "1800000\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq", "800000\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", "1800000\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "schedutil\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_setspeed", "<unsupported>\n");
	put("/sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors", govs);
}

#define P0 "/sys/devices/system/cpu/cpufreq/policy0/"

int main(void)
{
	struct nb_obs_tune *t = NULL;
	char note[256];
	char cmd[128];

	snprintf(root, sizeof(root), "/tmp/nb_t_obs_tune.%d", (int)getpid());
	mkdir(root, 0755);

	CHECK(nb_obs_clock_set(&t, root, 1200000, note, sizeof(note)) == -ENOENT &&
		  strstr(note, "exposes no CPU clock control") && !strchr(note, '\n'),
	      "no cpufreq: said in one line: %s", note);
	nb_obs_tune_restore(t);
	t = NULL;

	policy("performance powersave userspace schedutil\n");
	CHECK(nb_obs_clock_set(&t, root, 1200000, note, sizeof(note)) == 0 &&
		  strstr(note, "userspace governor"),
	      "userspace governor offered: used (%s)", note);
	CHECK(!strcmp(get(P0 "scaling_governor"), "userspace") &&
		  !strcmp(get(P0 "scaling_setspeed"), "1200000"),
	      "governor userspace, setspeed 1200000");
	nb_obs_tune_restore(t);
	t = NULL;
	CHECK(!strcmp(get(P0 "scaling_governor"), "schedutil"), "restore: governor back");

	policy("performance schedutil\n");
	CHECK(nb_obs_clock_set(&t, root, 1000000, note, sizeof(note)) == 0 &&
		  strstr(note, "scaling_min_freq = scaling_max_freq"),
	      "no userspace governor: limits pinned (%s)", note);
	CHECK(!strcmp(get(P0 "scaling_max_freq"), "1000000") &&
		  !strcmp(get(P0 "scaling_min_freq"), "1000000"),
	      "min = max = 1000000");
	nb_obs_tune_restore(t);
	t = NULL;
	CHECK(!strcmp(get(P0 "scaling_max_freq"), "1800000") &&
		  !strcmp(get(P0 "scaling_min_freq"), "800000") &&
		  !strcmp(get(P0 "scaling_governor"), "schedutil"),
	      "restore: limits and governor as found");

	CHECK(nb_obs_clock_set(&t, root, 3000000, note, sizeof(note)) == -ERANGE &&
		  strstr(note, "outside") && strstr(note, "600-1800 MHz"),
	      "beyond the hardware's range refused: %s", note);
	nb_obs_tune_restore(t);
	t = NULL;

	mk("/sys/class");
	mk("/sys/class/net");
	mk("/sys/class/net/eth0");
	mk("/sys/class/net/eth0/queues");
	mk("/sys/class/net/eth0/queues/rx-0");
	mk("/sys/class/net/eth0/queues/tx-0");
	mk("/sys/class/net/lo");
	mk("/sys/class/net/lo/queues");
	mk("/sys/class/net/lo/queues/rx-0");
	put("/sys/class/net/eth0/queues/rx-0/rps_cpus", "0\n");
	put("/sys/class/net/lo/queues/rx-0/rps_cpus", "0\n");
	CHECK(nb_obs_rps_set(&t, root, 2, note, sizeof(note)) == 0 &&
		  strstr(note, "1 receive queue steered to CPU mask 2"),
	      "rps: one queue steered (%s)", note);
	CHECK(!strcmp(get("/sys/class/net/eth0/queues/rx-0/rps_cpus"), "2") &&
		  !strcmp(get("/sys/class/net/lo/queues/rx-0/rps_cpus"), "0"),
	      "rps: eth0 steered, loopback left alone");
	nb_obs_tune_restore(t);
	CHECK(!strcmp(get("/sys/class/net/eth0/queues/rx-0/rps_cpus"), "0"), "rps: restored");
	nb_obs_tune_restore(NULL);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0, "temporary tree removed");
	return tap_done();
}
