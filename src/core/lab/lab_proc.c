/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's processes and namespaces: a namespace's processes (ip netns pids) and stopping them,
 * and telling a pid from a pid file apart from one reused since. */
#include "core/lab/lab_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/timeutil.h"
#include "core/lab/lab_exec.h"

bool nb_lab_ns_exists(const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	return stat(path, &st) == 0;
}

bool nb_lab_pid_alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

long nb_lab_read_pid(const char *path)
{
	FILE *f = fopen(path, "re");
	long pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

/* Whether pid's executable's name begins with prefix ("netbench", "qemu-system-"). */
static bool exe_is(long pid, const char *prefix)
{
	char path[64], exe[4096], *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	p = strrchr(exe, '/');
	return !strncmp(p ? p + 1 : exe, prefix, strlen(prefix));
}

/* Whether pid is still the agent that wrote the pid file: a netbench executable running
 * `serve`, started no later than the file was written. A pid reused by another process since
 * (after a reboot or a crash) fails one of these and is left alone. */
bool nb_lab_is_our_agent(long pid, const char *pid_path)
{
	char path[64], buf[4096], *p;
	struct stat st;
	ssize_t n;
	FILE *f;
	unsigned long long start_ticks = 0, btime = 0;
	long hz = sysconf(_SC_CLK_TCK);
	bool serve = false;
	int fd;

	if (pid <= 0 || stat(pid_path, &st) < 0 || hz <= 0 || !exe_is(pid, "netbench"))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (!strcmp(buf + i, "serve"))
			serve = true;
	if (!serve)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = (ssize_t)fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n > 0 ? n : 0] = '\0';
	/* Field 22, counted after the command name, which may hold spaces and parentheses. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2,
			 "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
			 "%*d %*d %llu",
			 &start_ticks) != 1)
		return false;
	f = fopen("/proc/stat", "re");
	if (!f)
		return false;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	if (!btime)
		return false;
	/* The agent writes its pid file after it starts; one second of slack for the tick. */
	return btime + start_ticks / (unsigned long long)hz <= (unsigned long long)st.st_mtime + 1;
}

/* Whether pid is a qemu system emulator (the lab's board), not a pid reused since. */
bool nb_lab_is_qemu(long pid)
{
	return exe_is(pid, "qemu-system-");
}

/* Processes in namespace ns (ip netns pids), at most max, into pids. */
unsigned nb_lab_ns_pids(struct nb_lab *lab, const char *ns, long *pids, unsigned max)
{
	struct nb_lab_run *r = nb_lab_run_new();
	unsigned np = 0;
	char *p, *end;

	if (!r || !nb_lab_ns_exists(ns) ||
	    nb_lab_runl(lab, NULL, r, "ip", "netns", "pids", ns, NULL))
		goto out;
	for (p = r->out; *p && np < max; p = end) {
		long pid = strtol(p, &end, 10);
		if (end == p)
			end = p + 1;
		else if (pid > 1 && pid != (long)getpid())
			pids[np++] = pid;
	}
out:
	nb_lab_run_free(r);
	return np;
}

/* Signals every process in namespace ns, gives them a moment to exit, then kills the rest.
 * Returns how many there were. */
unsigned nb_lab_kill_ns_pids(struct nb_lab *lab, const char *ns)
{
	uint64_t deadline;
	long pids[256];
	unsigned np = nb_lab_ns_pids(lab, ns, pids, 256), n;

	for (unsigned i = 0; i < np; i++)
		kill((pid_t)pids[i], SIGTERM);
	n = np;
	deadline = nb_mono_ns() + 2 * NB_NS_PER_S;
	for (unsigned i = 0; i < np; i++) {
		while (nb_lab_pid_alive(pids[i]) && nb_mono_ns() < deadline)
			nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
		if (nb_lab_pid_alive(pids[i]))
			kill((pid_t)pids[i], SIGKILL);
	}
	return n;
}
