/* SPDX-License-Identifier: BSD-2-Clause */
/* A tap is told from other interfaces by sysfs's tun_flags, and its transmit drops are read
 * from its statistics, on a directory standing in for /: a tap to an emulated board that
 * dropped 21814 frames, a veth (no tun_flags), names that would leave sysfs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

	/* The qemu behind the tap: the process whose fdinfo names it, and its CPU time (a
	 * command name with a space and a parenthesis, 1234 + 566 ticks). */
	put("proc/4242/fdinfo/0", "pos:\t0\nflags:\t02\nmnt_id:\t25\nino:\t1\n");
	put("proc/4242/fdinfo/9", "pos:\t0\nflags:\t04002\nmnt_id:\t25\niff:\tgen0\n");
	put("proc/4242/stat", "4242 (qemu-system-ar) x)) R 1 4242 4242 0 -1 4194560 5 0 0 0 "
			      "1234 566 0 0 20 0 3 0 100 0 0\n");
	put("proc/77/fdinfo/3", "pos:\t0\nflags:\t04002\niff:\tgen00\n");
	put("proc/77/stat", "77 (other) S 1 77 77 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0 1 0 0\n");
	put("proc/self/fdinfo/9", "iff:\tgen0\n");
	long pids[4];
	double s = 0;
	size_t n = nb_tapring_owners(root, "gen0", pids, 4);
	CHECK(n == 1 && pids[0] == 4242, "the tap's holder is pid 4242, not gen00's (%zu found)",
	      n);
	long hz = sysconf(_SC_CLK_TCK);
	ret = nb_tapring_proc_cpu_s(root, 4242, &s);
	CHECK(ret == 0 && hz > 0 && s > 1799.5 / (double)hz && s < 1800.5 / (double)hz,
	      "its CPU time: 1800 ticks = %.2f s", s);
	CHECK(nb_tapring_proc_cpu_s(root, 5, &s) == -ENOENT, "a process that is gone");
	put("proc/6/stat", "6 (short\n");
	CHECK(nb_tapring_proc_cpu_s(root, 6, &s) == -EINVAL, "a stat line cut short");
	CHECK(nb_tapring_owners(root, "../x", pids, 4) == 0, "a name that leaves sysfs finds none");
	CHECK(nb_tapring_owner(root, "gen0") == 4242, "one holder: it is the board's qemu");
	/* Another lab's board has a tap named gen0 too (its own L2-gen namespace): the lab's
	 * namespaces tell them apart, by the inode of each process's ns/net among run/netns. */
	put("proc/5151/fdinfo/7", "iff:\tgen0\n");
	CHECK(nb_tapring_owner(root, "gen0") == -1,
	      "two holders and no namespace names: not told apart, not measured");
	put("run/netns/L-gen", "");
	put("run/netns/L-dut", "");
	put("run/netns/L2-dut", "");
	put("proc/self/ns/.keep", "");
	put("proc/4242/ns/.keep", "");
	put("proc/5151/ns/.keep", "");
	char a[256], b[256];
	bool linked = true;
	const char *links[][2] = {{"run/netns/L-gen", "proc/self/ns/net"},
				  {"run/netns/L-dut", "proc/4242/ns/net"},
				  {"run/netns/L2-dut", "proc/5151/ns/net"}};
	for (size_t i = 0; i < 3; i++) {
		snprintf(a, sizeof(a), "%s/%s", root, links[i][0]);
		snprintf(b, sizeof(b), "%s/%s", root, links[i][1]);
		linked &= link(a, b) == 0;
	}
	CHECK(linked && nb_tapring_owner(root, "gen0") == 4242,
	      "this process in L-gen: the qemu in L-dut is its board, not the one in L2-dut");
	/* This process, on the real /proc: its CPU time is what getrusage says, within a tick. */
	struct rusage ru;
	ret = nb_tapring_proc_cpu_s("", (long)getpid(), &s);
	getrusage(RUSAGE_SELF, &ru);
	double self = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	CHECK(ret == 0 && s <= self + 0.02 && s >= self - 0.02 - 2.0 / (double)hz,
	      "this process on /proc: %.3f s, getrusage %.3f s", s, self);
	{
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
