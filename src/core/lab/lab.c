/* SPDX-License-Identifier: BSD-2-Clause */
/* Over 600 lines: up, down, status and ruleset share the run helpers and the state file. */
/* The namespace lab: three network namespaces joined by two veth pairs, built and removed with
 * iproute2's ip. Every veth is created inside a namespace (never in the host's), so deleting
 * the namespaces removes all of it; processes inside are killed first because a process keeps
 * its namespace alive after `ip netns del`. */
#include "core/lab/lab.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lab/lab_cryptoprio.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_flows.h"
#include "core/base/atomicfile.h"
#include "core/base/timeutil.h"

#define MAX_ARGS 32

const char *const nb_lab_links[4] = {"gen0", "dut0", "dut1", "sink0"};

bool nb_lab_link_in_board(int board_role, int i)
{
	return (board_role == NB_LAB_DUT && (i == 1 || i == 2)) ||
	       (board_role == NB_LAB_SINK && i == 3);
}

struct nb_lab *nb_lab_new(void)
{
	struct nb_lab *lab = calloc(1, sizeof(*lab));

	if (!lab)
		return NULL;
	lab->agent = true;
	lab->port = NB_LAB_PORT;
	lab->board.role = -1;
	nb_lab_set_prefix(lab, NULL);
	return lab;
}

void nb_lab_free(struct nb_lab *lab)
{
	free(lab);
}

int nb_lab_set_prefix(struct nb_lab *lab, const char *prefix)
{
	static const char *const role[3] = {"gen", "dut", "sink"};

	if (!prefix || !*prefix) {
		lab->prefix[0] = '\0';
		for (int i = 0; i < 3; i++)
			snprintf(lab->ns[i], sizeof(lab->ns[i]), "nb%s", role[i]);
		snprintf(lab->run_dir, sizeof(lab->run_dir), "%s", NB_LAB_RUN_DIR);
	} else {
		size_t len = strlen(prefix);
		if (len > NB_LAB_PREFIX_MAX || !((prefix[0] >= 'a' && prefix[0] <= 'z') ||
						 (prefix[0] >= 'A' && prefix[0] <= 'Z')))
			return -EINVAL;
		for (size_t i = 0; i < len; i++)
			if (!strchr(
				"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
				prefix[i]))
				return -EINVAL;
		snprintf(lab->prefix, sizeof(lab->prefix), "%s", prefix);
		for (int i = 0; i < 3; i++)
			snprintf(lab->ns[i], sizeof(lab->ns[i]), "%s-%s", prefix, role[i]);
		snprintf(lab->run_dir, sizeof(lab->run_dir), "%s/%s", NB_LAB_RUN_DIR, prefix);
	}
	snprintf(lab->state_path, sizeof(lab->state_path), "%s/state", lab->run_dir);
	snprintf(lab->pid_path, sizeof(lab->pid_path), "%s/agent.pid", lab->run_dir);
	snprintf(lab->obs_pid_path, sizeof(lab->obs_pid_path), "%s/observer.pid", lab->run_dir);
	return 0;
}

static void note(struct nb_lab *lab, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct nb_lab *lab, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!lab->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lab->note(lab->note_arg, msg);
}

/* Records "cmd args: first line of its error output" in lab->err. */
static void set_err(struct nb_lab *lab, char *const argv[], const char *why)
{
	size_t o = 0;
	const char *nl;
	int w;

	lab->err[0] = '\0';
	for (int i = 0; argv[i] && o < sizeof(lab->err); i++) {
		w = snprintf(lab->err + o, sizeof(lab->err) - o, "%s%s", i ? " " : "", argv[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
	if (o >= sizeof(lab->err) || !why || !*why)
		return;
	nl = strchr(why, '\n');
	snprintf(lab->err + o, sizeof(lab->err) - o, ": %.*s", nl ? (int)(nl - why) : 200, why);
}

/* Runs argv; with r, leaves the output there. Nonzero exit is -EIO with lab->err set. */
static int runv(struct nb_lab *lab, char *const argv[], const char *input, struct nb_lab_run *r)
{
	struct nb_lab_run *own = r ? NULL : nb_lab_run_new();
	struct nb_lab_run *use = r ? r : own;
	int ret = -ENOMEM;

	if (!use)
		goto out;
	ret = nb_lab_exec(argv, input, use);
	if (ret == -ENOENT) {
		set_err(lab, argv, "not found (install iproute2 and nftables)");
		goto out;
	}
	if (ret) {
		set_err(lab, argv, strerror(-ret));
		goto out;
	}
	if (use->status) {
		set_err(lab, argv, *use->err ? use->err : "failed");
		ret = -EIO;
	}
out:
	nb_lab_run_free(own);
	return ret;
}

int nb_lab_cmd(struct nb_lab *lab, char *const argv[], const char *input, struct nb_lab_run *r)
{
	return runv(lab, argv, input, r);
}

/* run(lab, input, r, "ip", "-n", ns, ..., NULL) */
static int run(struct nb_lab *lab, const char *input, struct nb_lab_run *r, ...)
{
	char *argv[MAX_ARGS];
	int n = 0;
	va_list ap;

	va_start(ap, r);
	/* exec takes char *const[]: the strings are not written to. */
	while (n < MAX_ARGS - 1 && (argv[n] = (char *)va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	return runv(lab, argv, input, r);
}

static bool ns_exists(const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	return stat(path, &st) == 0;
}

static bool pid_alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static long read_pid(const char *path)
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

/* Whether pid is still the agent that wrote the pid file: a netbench executable running
 * `serve`, started no later than the file was written. A pid reused by another process since
 * (after a reboot or a crash) fails one of these and is left alone. */
static bool is_our_agent(long pid, const char *pid_path)
{
	char path[64], exe[4096], buf[4096], *p;
	struct stat st;
	ssize_t n;
	FILE *f;
	unsigned long long start_ticks = 0, btime = 0;
	long hz = sysconf(_SC_CLK_TCK);
	bool serve = false;
	int fd;

	if (pid <= 0 || stat(pid_path, &st) < 0 || hz <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	p = strrchr(exe, '/');
	if (strncmp(p ? p + 1 : exe, "netbench", 8))
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
static bool is_qemu(long pid)
{
	char path[64], exe[4096], *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	p = strrchr(exe, '/');
	return !strncmp(p ? p + 1 : exe, "qemu-system-", 12);
}

static bool stopped(struct nb_lab *lab)
{
	return lab->stop && *lab->stop;
}

static void step_pause(struct nb_lab *lab)
{
	if (lab->step_delay_ms)
		nb_sleep_until_ns(nb_mono_ns() + lab->step_delay_ms * NB_NS_PER_MS);
}

/* Processes in namespace ns (ip netns pids), at most max, into pids. */
static unsigned ns_pids(struct nb_lab *lab, const char *ns, long *pids, unsigned max)
{
	struct nb_lab_run *r = nb_lab_run_new();
	unsigned np = 0;
	char *p, *end;

	if (!r || !ns_exists(ns) || run(lab, NULL, r, "ip", "netns", "pids", ns, NULL))
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
static unsigned kill_ns_pids(struct nb_lab *lab, const char *ns)
{
	uint64_t deadline;
	long pids[256];
	unsigned np = ns_pids(lab, ns, pids, 256), n;

	for (unsigned i = 0; i < np; i++)
		kill((pid_t)pids[i], SIGTERM);
	n = np;
	deadline = nb_mono_ns() + 2 * NB_NS_PER_S;
	for (unsigned i = 0; i < np; i++) {
		while (pid_alive(pids[i]) && nb_mono_ns() < deadline)
			nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
		if (pid_alive(pids[i]))
			kill((pid_t)pids[i], SIGKILL);
	}
	return n;
}

/* The state file: "key value" lines, rewritten whole. */
struct state {
	bool found, complete, ipv6;
	unsigned mtu, dut_cpus, port, agent;
	char kind[16];
	size_t rules_n;
	bool ruleset;
	char vpn[40];
	char crypto_driver[64]; /* raised by up; its old priority is restored by down */
	int crypto_old_prio;
	long creator; /* the pid of the `lab up` still creating it (phase creating) */
	int board_role; /* the emulated board's role, -1: none */
	char board_arch[16], board_dir[256];
};

static void state_read(struct nb_lab *lab, struct state *s)
{
	FILE *f = fopen(lab->state_path, "re");
	char line[256], val[128];

	memset(s, 0, sizeof(*s));
	s->board_role = -1;
	if (!f)
		return;
	s->found = true;
	while (fgets(line, sizeof(line), f)) {
		unsigned long v = 0;
		if (sscanf(line, "phase %127s", val) == 1)
			s->complete = !strcmp(val, "up");
		else if (sscanf(line, "ipv6 %lu", &v) == 1)
			s->ipv6 = v != 0;
		else if (sscanf(line, "mtu %lu", &v) == 1)
			s->mtu = (unsigned)v;
		else if (sscanf(line, "dut_cpus %lu", &v) == 1)
			s->dut_cpus = (unsigned)v;
		else if (sscanf(line, "port %lu", &v) == 1)
			s->port = (unsigned)v;
		else if (sscanf(line, "agent %lu", &v) == 1)
			s->agent = (unsigned)v;
		else if (sscanf(line, "creator %lu", &v) == 1)
			s->creator = (long)v;
		else if (sscanf(line, "vpn %39s", s->vpn) == 1)
			;
		else if (sscanf(line, "board %15s %15s %255s", val, s->board_arch, s->board_dir) ==
			 3)
			s->board_role = !strcmp(val, "dut") ? NB_LAB_DUT : NB_LAB_SINK;
		else if (sscanf(line, "crypto_driver %63s %d", s->crypto_driver,
				&s->crypto_old_prio) == 2)
			;
		else if (sscanf(line, "ruleset %15s %lu", s->kind, &v) == 2) {
			s->rules_n = v;
			s->ruleset = true;
		}
	}
	fclose(f);
}

static int state_write(struct nb_lab *lab, const struct state *s)
{
	struct nb_atomic_file a;
	FILE *f;
	int ret = nb_atomic_open(&a, lab->state_path, 0644);

	if (ret)
		return ret;
	f = a.f;
	fprintf(f, "# netbench lab: what `lab up` created; `lab down` removes it\n");
	fprintf(f,
		"phase %s\nnamespaces %s %s %s\nipv6 %d\nmtu %u\ndut_cpus %u\nport %u\n"
		"agent %u\n",
		s->complete ? "up" : "creating", lab->ns[0], lab->ns[1], lab->ns[2], s->ipv6,
		s->mtu, s->dut_cpus, s->port, s->agent);
	if (s->ruleset)
		fprintf(f, "ruleset %s %zu\n", s->kind, s->rules_n);
	if (s->vpn[0])
		fprintf(f, "vpn %s\n", s->vpn);
	if (!s->complete)
		fprintf(f, "creator %ld\n", (long)getpid());
	if (s->board_role >= 0)
		fprintf(f, "board %s %s %s\n", s->board_role == NB_LAB_DUT ? "dut" : "sink",
			s->board_arch, s->board_dir);
	if (s->crypto_driver[0])
		fprintf(f, "crypto_driver %s %d\n", s->crypto_driver, s->crypto_old_prio);
	return nb_atomic_commit(&a);
}

int nb_lab_down(struct nb_lab *lab, unsigned *found)
{
	struct state s;
	long pid;
	int ret = 0, r;

	*found = 0;
	state_read(lab, &s);
	if (s.found) {
		(*found)++;
		if (!s.complete)
			note(lab, "found the state of an interrupted `lab up` (%s)",
			     lab->state_path);
	}
	for (int k = 0; k < 2; k++) {
		const char *path = k ? lab->obs_pid_path : lab->pid_path;
		pid = read_pid(path);
		if (!pid_alive(pid))
			continue;
		if (!is_our_agent(pid, path)) {
			note(lab, "pid %ld in %s is no longer our %s: left alone", pid, path,
			     k ? "observer" : "agent");
			continue;
		}
		/* The agents normally die with their namespace's processes below; this catches
		 * one that left its namespace. */
		kill((pid_t)pid, SIGTERM);
		for (int i = 0; i < 100 && pid_alive(pid); i++)
			nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
		if (pid_alive(pid))
			kill((pid_t)pid, SIGKILL);
		note(lab, "stopped the %s (pid %ld)", k ? "observer" : "agent", pid);
		(*found)++;
	}
	pid = nb_lab_board_pid(lab);
	if (pid_alive(pid) && is_qemu(pid)) {
		/* Powered off before its taps' namespaces go. */
		kill((pid_t)pid, SIGTERM);
		for (int i = 0; i < 100 && pid_alive(pid); i++)
			nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
		if (pid_alive(pid))
			kill((pid_t)pid, SIGKILL);
		note(lab, "powered off the %s board (qemu pid %ld)",
		     s.board_arch[0] ? s.board_arch : "emulated", pid);
		(*found)++;
	}
	for (int i = 0; i < 3; i++) {
		unsigned n;
		if (!ns_exists(lab->ns[i]))
			continue;
		(*found)++;
		n = kill_ns_pids(lab, lab->ns[i]);
		if (n)
			note(lab, "stopped %u process%s in %s", n, n == 1 ? "" : "es", lab->ns[i]);
		r = run(lab, NULL, NULL, "ip", "netns", "del", lab->ns[i], NULL);
		if (r && ns_exists(lab->ns[i]))
			ret = r;
		else
			note(lab, "removed namespace %s", lab->ns[i]);
	}
	if (s.crypto_driver[0]) {
		/* Global to the kernel: the namespaces' removal does not undo it. */
		char why[200];
		(*found)++;
		r = nb_crypto_user_update(s.crypto_driver, s.crypto_old_prio, why, sizeof(why));
		if (r == -ENOENT) {
			note(lab, "crypto driver %s is no longer registered: nothing to restore",
			     s.crypto_driver);
		} else if (r) {
			snprintf(lab->err, sizeof(lab->err), "restoring %s's priority: %s",
				 s.crypto_driver, why);
			ret = r;
		} else {
			note(lab, "restored the priority of crypto driver %s to %d",
			     s.crypto_driver, s.crypto_old_prio);
		}
	}
	unlink(lab->pid_path);
	unlink(lab->obs_pid_path);
	unlink(lab->state_path);
	{
		char log[192];
		snprintf(log, sizeof(log), "%s/agent.log", lab->run_dir);
		unlink(log);
		snprintf(log, sizeof(log), "%s/observer.log", lab->run_dir);
		unlink(log);
		/* qemu was one of the namespace's processes, stopped above; its taps went with it.
		 */
		static const char *const board_files[] = {"qemu.pid", "console.log", "ctl.sock",
							  "qemu.log"};
		for (size_t i = 0; i < sizeof(board_files) / sizeof(board_files[0]); i++) {
			nb_lab_board_path(lab, board_files[i], log, sizeof(log));
			unlink(log);
		}
	}
	/* Only a prefix's own directory goes; the default one may hold other prefixes' labs. */
	if (lab->prefix[0])
		rmdir(lab->run_dir);
	return ret;
}

static int mkdirs(const char *dir)
{
	char buf[160];

	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

void nb_lab_rps_mask(unsigned n, unsigned ncpu, char *buf, size_t len)
{
	unsigned groups = (ncpu + 31) / 32;
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned g = groups; g-- > 0 && o < len;) {
		uint32_t m = 0;
		for (unsigned b = 0; b < 32; b++) {
			unsigned cpu = g * 32 + b;
			if (cpu < ncpu && cpu >= ncpu - n)
				m |= 1u << b;
		}
		o += (size_t)snprintf(buf + o, len - o, "%s%08x", g + 1 < groups ? "," : "", m);
	}
}

static int set_rps(struct nb_lab *lab, const char *link, const char *mask)
{
	char path[128], input[80];

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-0/rps_cpus", link);
	snprintf(input, sizeof(input), "%s\n", mask);
	return run(lab, input, NULL, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "tee", path, NULL);
}

/* Starts `netbench serve -D` in namespace ns bound to addr and waits until it answers. The
 * DUT's observer may set the clock and RPS for a test (--allow-tuning): the lab is the user's own
 * box, and the agent restores what it set. */
static int start_serve(struct nb_lab *lab, int ns, const char *addr, const char *pid_path,
		       const char *log_name, bool tuning)
{
	char port[8], log[192];
	/* With a VPN the sink's agent answers at the tunnel's end too. */
	const char *bind = ns == NB_LAB_SINK && lab->vpn[0] ? "0.0.0.0" : addr;
	char *argv[] = {"ip",
			"netns",
			"exec",
			lab->ns[ns],
			lab->netbench_path,
			"serve",
			"-D",
			"--pid-file",
			(char *)pid_path,
			"-B",
			(char *)bind,
			"-p",
			port,
			tuning ? "--allow-tuning" : NULL,
			NULL};
	uint64_t deadline;
	int ret, status = 0;

	snprintf(port, sizeof(port), "%u", lab->port);
	snprintf(log, sizeof(log), "%s/%s", lab->run_dir, log_name);
	unlink(pid_path);
	ret = nb_lab_exec_logged(argv, log, &status);
	if (ret || status) {
		char first[256] = "";
		FILE *f = fopen(log, "re");
		if (f) {
			if (!fgets(first, sizeof(first), f))
				first[0] = '\0';
			fclose(f);
		}
		set_err(lab, argv, ret ? strerror(-ret) : *first ? first : "failed");
		return ret ? ret : -EIO;
	}
	/* -D returns once the agent has forked; wait for it to listen. */
	deadline = nb_mono_ns() + 5 * NB_NS_PER_S;
	while (nb_mono_ns() < deadline && !stopped(lab)) {
		if (pid_alive(read_pid(pid_path)) &&
		    nb_lab_port_answers(lab->ns[ns], addr, lab->port, 200))
			return 0;
		nb_sleep_until_ns(nb_mono_ns() + 50 * NB_NS_PER_MS);
	}
	snprintf(lab->err, sizeof(lab->err),
		 "the agent in %s did not answer on %s port %u within 5 s (pid file %s)",
		 lab->ns[ns], addr, lab->port, pid_path);
	return stopped(lab) ? -EINTR : -ETIMEDOUT;
}

/* The agent in the sink and the observer in the DUT; a board runs its own (its init starts
 * it), without --allow-tuning. */
static int start_agent(struct nb_lab *lab)
{
	int ret = 0;
	if (lab->board.role != NB_LAB_SINK)
		ret = start_serve(lab, NB_LAB_SINK, NB_LAB_SINK_ADDR, lab->pid_path, "agent.log",
				  false);
	if (ret || lab->board.role == NB_LAB_DUT)
		return ret;
	return start_serve(lab, NB_LAB_DUT, NB_LAB_DUT_A_ADDR, lab->obs_pid_path, "observer.log",
			   true);
}

static bool link_up(struct nb_lab *lab, const char *ns, const char *link, unsigned *mtu);

/* A veth's carrier reaches its queueing discipline through the kernel's link watch, which may
 * batch the event for up to a second; until then the device drops what is sent (the first
 * IPv6 neighbour solicitation, say). `up` returns when the lab can carry traffic. */
static int wait_links_up(struct nb_lab *lab)
{
	uint64_t deadline = nb_mono_ns() + 5 * NB_NS_PER_S;
	int i = 0;

	while (i < 4 && !stopped(lab)) {
		const char *ns = lab->ns[i < 1 ? 0 : i < 3 ? 1 : 2];
		if (nb_lab_link_in_board(lab->board.role, i) ||
		    link_up(lab, ns, nb_lab_links[i], NULL)) {
			i++;
			continue;
		}
		if (nb_mono_ns() > deadline) {
			snprintf(lab->err, sizeof(lab->err), "link %s did not come up within 5 s",
				 nb_lab_links[i]);
			return -ETIMEDOUT;
		}
		nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
	}
	return stopped(lab) ? -EINTR : 0;
}

#define STEP(call)                                                                                 \
	do {                                                                                       \
		if (stopped(lab)) {                                                                \
			ret = -EINTR;                                                              \
			goto fail;                                                                 \
		}                                                                                  \
		ret = (call);                                                                      \
		if (ret)                                                                           \
			goto fail;                                                                 \
		step_pause(lab);                                                                   \
	} while (0)

/* Whether the lab under this prefix is someone's, alive: its agent or its observer answers, or
 * a process runs in one of its namespaces. why gets the evidence. Only a lab that is none of
 * these is remains, which up may clean. */
static bool lab_alive(struct nb_lab *lab, char *why, size_t len)
{
	struct state s;
	long pids[4];
	size_t o = 0;

	why[0] = '\0';
	state_read(lab, &s);
	/* A lab whose `lab up` was killed half-way is remains, whatever it had started. */
	if (s.found && !s.complete && s.creator > 0 && s.creator != (long)getpid()) {
		if (!pid_alive(s.creator))
			return false;
		snprintf(why, len, "its `lab up` (pid %ld) is still creating it", s.creator);
		return true;
	}
	uint16_t port = (uint16_t)(s.port ? s.port : lab->port);
	if (ns_exists(lab->ns[NB_LAB_SINK]) &&
	    nb_lab_port_answers(lab->ns[NB_LAB_SINK], NB_LAB_SINK_ADDR, port, 500))
		o += (size_t)snprintf(why + o, len - o, "its agent answers on %s port %u; ",
				      NB_LAB_SINK_ADDR, port);
	if (o < len && ns_exists(lab->ns[NB_LAB_DUT]) &&
	    nb_lab_port_answers(lab->ns[NB_LAB_DUT], NB_LAB_DUT_A_ADDR, port, 500))
		o += (size_t)snprintf(why + o, len - o, "its observer answers on %s port %u; ",
				      NB_LAB_DUT_A_ADDR, port);
	for (int i = 0; i < 3 && o < len; i++) {
		unsigned n = ns_pids(lab, lab->ns[i], pids, 4);
		if (n)
			o += (size_t)snprintf(why + o, len - o,
					      "namespace %s holds process%s %ld%s; ", lab->ns[i],
					      n > 1 ? "es" : "", pids[0], n > 1 ? " and more" : "");
	}
	if (o >= 2 && o < len)
		why[o - 2] = '\0'; /* the last "; " */
	return o > 0;
}

int nb_lab_up(struct nb_lab *lab)
{
	const char *gen = lab->ns[NB_LAB_GEN], *dut = lab->ns[NB_LAB_DUT],
		   *sink = lab->ns[NB_LAB_SINK];
	struct state s = {0};
	char mtu[16], mask[160];
	unsigned found = 0;
	int ret;

	lab->err[0] = '\0';
	if (!lab->force) {
		char why[384];
		if (lab_alive(lab, why, sizeof(why))) {
			snprintf(lab->err, sizeof(lab->err), "%s", why);
			return -EBUSY;
		}
	}
	ret = nb_lab_down(lab, &found);
	if (ret)
		return ret;
	if (found)
		note(lab, "%s %u leftover object%s of an earlier lab",
		     lab->force ? "--force: removed" : "cleaned up", found, found == 1 ? "" : "s");
	ret = mkdirs(lab->run_dir);
	if (ret) {
		snprintf(lab->err, sizeof(lab->err), "cannot create %s", lab->run_dir);
		return ret;
	}
	if (lab->board.role >= 0) {
		/* Before anything exists: a missing image or qemu leaves nothing to remove. */
		ret = nb_lab_board_image(lab);
		if (ret)
			return ret;
	}
	s.board_role = lab->board.role;
	snprintf(s.board_arch, sizeof(s.board_arch), "%s", lab->board.arch);
	snprintf(s.board_dir, sizeof(s.board_dir), "%s", lab->board.dir);
	s.ipv6 = lab->ipv6;
	s.mtu = lab->mtu;
	s.dut_cpus = lab->dut_cpus;
	s.port = lab->port;
	s.agent = lab->agent;
	/* Written before anything exists, so that a killed run is always found. */
	STEP(state_write(lab, &s));
	for (int i = 0; i < 3; i++) {
		STEP(run(lab, NULL, NULL, "ip", "netns", "add", lab->ns[i], NULL));
		/* Duplicate address detection would hold even the link-local addresses tentative
		 * for a second or two, and IPv6 forwarding waits for them; nothing else shares
		 * these links. Set before the veths exist so that "default" applies to them. */
		if (lab->ipv6)
			STEP(run(lab, NULL, NULL, "ip", "netns", "exec", lab->ns[i], "sysctl", "-q",
				 "-w", "net.ipv6.conf.default.accept_dad=0",
				 "net.ipv6.conf.all.accept_dad=0", NULL));
	}
	/* A board's NICs take the place of the veths it stands for: gen0 and sink0 are taps to
	 * a board DUT, dut1 a tap to a board sink; dut0 and dut1 (or sink0) are then inside it. */
	if (lab->board.role == NB_LAB_DUT)
		STEP(nb_lab_board_start(lab));
	else
		STEP(run(lab, NULL, NULL, "ip", "-n", gen, "link", "add", "gen0", "type", "veth",
			 "peer", "name", "dut0", "netns", dut, NULL));
	if (lab->board.role == NB_LAB_SINK)
		STEP(nb_lab_board_start(lab));
	else if (lab->board.role < 0)
		STEP(run(lab, NULL, NULL, "ip", "-n", dut, "link", "add", "dut1", "type", "veth",
			 "peer", "name", "sink0", "netns", sink, NULL));
	STEP(run(lab, NULL, NULL, "ip", "-n", gen, "addr", "add", NB_LAB_GEN_ADDR "/24", "dev",
		 "gen0", NULL));
	if (lab->board.role != NB_LAB_DUT) {
		STEP(run(lab, NULL, NULL, "ip", "-n", dut, "addr", "add", NB_LAB_DUT_A_ADDR "/24",
			 "dev", "dut0", NULL));
		STEP(run(lab, NULL, NULL, "ip", "-n", dut, "addr", "add", NB_LAB_DUT_B_ADDR "/24",
			 "dev", "dut1", NULL));
	}
	if (lab->board.role != NB_LAB_SINK)
		STEP(run(lab, NULL, NULL, "ip", "-n", sink, "addr", "add", NB_LAB_SINK_ADDR "/24",
			 "dev", "sink0", NULL));
	if (lab->ipv6) {
		/* nodad: see accept_dad above. */
		STEP(run(lab, NULL, NULL, "ip", "-n", gen, "-6", "addr", "add",
			 NB_LAB_GEN_ADDR6 "/64", "dev", "gen0", "nodad", NULL));
		STEP(run(lab, NULL, NULL, "ip", "-n", dut, "-6", "addr", "add",
			 NB_LAB_DUT_A_ADDR6 "/64", "dev", "dut0", "nodad", NULL));
		STEP(run(lab, NULL, NULL, "ip", "-n", dut, "-6", "addr", "add",
			 NB_LAB_DUT_B_ADDR6 "/64", "dev", "dut1", "nodad", NULL));
		STEP(run(lab, NULL, NULL, "ip", "-n", sink, "-6", "addr", "add",
			 NB_LAB_SINK_ADDR6 "/64", "dev", "sink0", "nodad", NULL));
	}
	for (int i = 0; i < 4; i++) {
		const char *ns = lab->ns[i < 1 ? 0 : i < 3 ? 1 : 2];
		if (nb_lab_link_in_board(lab->board.role, i))
			continue;
		if (lab->mtu) {
			snprintf(mtu, sizeof(mtu), "%u", lab->mtu);
			STEP(run(lab, NULL, NULL, "ip", "-n", ns, "link", "set", "dev",
				 nb_lab_links[i], "mtu", mtu, NULL));
		}
		STEP(run(lab, NULL, NULL, "ip", "-n", ns, "link", "set", "dev", nb_lab_links[i],
			 "up", NULL));
	}
	for (int i = 0; i < 3; i++)
		STEP(run(lab, NULL, NULL, "ip", "-n", lab->ns[i], "link", "set", "dev", "lo", "up",
			 NULL));
	STEP(wait_links_up(lab));
	STEP(run(lab, NULL, NULL, "ip", "-n", gen, "route", "add", "198.19.0.0/16", "via",
		 NB_LAB_DUT_A_ADDR, NULL));
	if (lab->board.role != NB_LAB_SINK)
		STEP(run(lab, NULL, NULL, "ip", "-n", sink, "route", "add", "198.18.0.0/16", "via",
			 NB_LAB_DUT_B_ADDR, NULL));
	if (lab->board.role != NB_LAB_DUT)
		STEP(run(lab, NULL, NULL, "ip", "netns", "exec", dut, "sysctl", "-q", "-w",
			 "net.ipv4.ip_forward=1", NULL));
	if (lab->ipv6) {
		STEP(run(lab, NULL, NULL, "ip", "-n", gen, "-6", "route", "add", "2001:2:0:2::/64",
			 "via", NB_LAB_DUT_A_ADDR6, NULL));
		STEP(run(lab, NULL, NULL, "ip", "-n", sink, "-6", "route", "add", "2001:2:0:1::/64",
			 "via", NB_LAB_DUT_B_ADDR6, NULL));
		STEP(run(lab, NULL, NULL, "ip", "netns", "exec", dut, "sysctl", "-q", "-w",
			 "net.ipv6.conf.all.forwarding=1", NULL));
	}
	STEP(nb_lab_flows_up(lab));
	if (lab->dut_cpus) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		nb_lab_rps_mask(lab->dut_cpus, ncpu > 0 ? (unsigned)ncpu : 1, mask, sizeof(mask));
		STEP(set_rps(lab, "dut0", mask));
		STEP(set_rps(lab, "dut1", mask));
	}
	if (lab->crypto_driver[0]) {
		/* Before any SA exists: a transform keeps the driver it was built with. */
		snprintf(s.crypto_driver, sizeof(s.crypto_driver), "%s", lab->crypto_driver);
		STEP(nb_lab_crypto_driver_set(lab, &s.crypto_old_prio));
		STEP(state_write(lab, &s));
	}
	if (lab->vpn[0]) {
		snprintf(s.vpn, sizeof(s.vpn), "%s", lab->vpn);
		STEP(state_write(lab, &s));
		STEP(nb_lab_vpn_up(lab));
	}
	if (lab->agent)
		STEP(start_agent(lab));
	if (lab->board.role >= 0)
		STEP(nb_lab_board_wait(lab));
	s.complete = true;
	STEP(state_write(lab, &s));
	return 0;
fail : {
	/* A second Ctrl-C must not cut the cleanup short, nor kill the ip it runs. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_term;
	char err[sizeof(lab->err)];
	memcpy(err, lab->err, sizeof(err));
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGTERM, &ign, &old_term);
	/* Removing our own half-built lab is no news worth a line each. */
	lab->note = NULL;
	nb_lab_down(lab, &found);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	memcpy(lab->err, err, sizeof(err));
}
	return ret;
}

static bool link_up(struct nb_lab *lab, const char *ns, const char *link, unsigned *mtu)
{
	struct nb_lab_run *r = nb_lab_run_new();
	bool up = false;
	const char *m;

	if (r && !run(lab, NULL, r, "ip", "-n", ns, "-o", "link", "show", "dev", link, NULL)) {
		/* "state UP" is the operational state: both ends of the veth are up. A tap (a
		 * board's NIC) says UNKNOWN: its carrier is qemu holding it open. */
		up = strstr(r->out, " state UP ") != NULL ||
		     (strstr(r->out, " state UNKNOWN ") && strstr(r->out, "LOWER_UP"));
		m = strstr(r->out, " mtu ");
		if (m && mtu)
			*mtu = (unsigned)strtoul(m + 5, NULL, 10);
	}
	nb_lab_run_free(r);
	return up;
}

static bool sysctl_on(struct nb_lab *lab, const char *ns, const char *key)
{
	struct nb_lab_run *r = nb_lab_run_new();
	bool on = false;

	if (r && !run(lab, NULL, r, "ip", "netns", "exec", ns, "sysctl", "-n", key, NULL))
		on = atoi(r->out) == 1;
	nb_lab_run_free(r);
	return on;
}

/* The board `up` recorded, for the verbs run later. */
static void board_from_state(struct nb_lab *lab)
{
	struct state s;

	state_read(lab, &s);
	if (s.board_role < 0 || lab->board.role >= 0)
		return;
	lab->board.role = s.board_role;
	snprintf(lab->board.arch, sizeof(lab->board.arch), "%s", s.board_arch);
	snprintf(lab->board.dir, sizeof(lab->board.dir), "%s", s.board_dir);
	nb_lab_board_image(lab); /* its kernel's name and console for status */
	lab->err[0] = '\0';
}

static int count_rules(struct nb_lab *lab, size_t *rules, size_t *elems)
{
	struct nb_lab_run *r = nb_lab_run_new();
	int ret = -ENOMEM;

	if (!r)
		goto out;
	if (lab->board.role == NB_LAB_DUT) {
		char *out = NULL;
		int rc = 0;
		ret = nb_lab_board_ctl(lab, "list", NULL, &out, &rc);
		if (!ret && rc) {
			snprintf(lab->err, sizeof(lab->err),
				 "nft -j list ruleset in the board: %.200s", out);
			ret = -EIO;
		}
		if (!ret)
			ret = nb_lab_nft_json_count(out, rules, elems);
		free(out);
		if (ret && !*lab->err)
			snprintf(lab->err, sizeof(lab->err),
				 "cannot read `nft -j list ruleset` output");
		goto out;
	}
	ret = run(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "nft", "-j", "list",
		  "ruleset", NULL);
	if (ret)
		goto out;
	ret = nb_lab_nft_json_count(r->out, rules, elems);
	if (ret)
		snprintf(lab->err, sizeof(lab->err), "cannot read `nft -j list ruleset` output");
out:
	nb_lab_run_free(r);
	return ret;
}

/* The board's "status" reply: "ip_forward N" and "link NAME MAC OPERSTATE" lines. */
static void board_status(struct nb_lab *lab, const char *out, struct nb_lab_status *st)
{
	const char *p = out;
	char mac[32], state[16];
	int v;

	st->board_ctl = true;
	while (p && *p) {
		if (sscanf(p, "ip_forward %d", &v) == 1 && lab->board.role == NB_LAB_DUT)
			st->fwd_v4 = v == 1;
		else if (sscanf(p, "link %*s %31s %15s", mac, state) == 2) {
			bool up = !strcmp(state, "up");
			if (lab->board.role == NB_LAB_DUT)
				st->links_up[strcmp(mac, NB_LAB_BOARD_MAC_GEN) ? 2 : 1] |= up;
			else if (!strcmp(mac, NB_LAB_BOARD_MAC_SINK))
				st->links_up[3] = up;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
}

int nb_lab_status(struct nb_lab *lab, struct nb_lab_status *st)
{
	struct state s;
	bool all = true;
	size_t rules, elems;

	memset(st, 0, sizeof(*st));
	st->rules = st->elems = -1;
	state_read(lab, &s);
	st->state_found = s.found;
	st->state_complete = s.complete;
	st->ipv6 = s.ipv6;
	st->dut_cpus = s.dut_cpus;
	st->agent_expected = s.agent;
	st->port = (uint16_t)(s.port ? s.port : lab->port);
	if (s.ruleset) {
		st->ruleset_known = true;
		snprintf(st->ruleset_kind, sizeof(st->ruleset_kind), "%s", s.kind);
		st->ruleset_n = s.rules_n;
	}
	for (int i = 0; i < 3; i++) {
		st->ns[i] = ns_exists(lab->ns[i]);
		all = all && st->ns[i];
	}
	board_from_state(lab);
	st->board = lab->board;
	if (lab->board.role >= 0) {
		char *out = NULL;
		int rc = 1;
		st->board_pid = nb_lab_board_pid(lab);
		st->board_alive = pid_alive(st->board_pid) && is_qemu(st->board_pid);
		if (st->board_alive && !nb_lab_board_ctl(lab, "status", NULL, &out, &rc) && !rc)
			board_status(lab, out, st);
		free(out);
		all = all && st->board_ctl;
	}
	for (int i = 0; i < 4; i++) {
		int ns = i < 1 ? 0 : i < 3 ? 1 : 2;
		if (nb_lab_link_in_board(lab->board.role, i))
			continue; /* from the board's own word, above */
		st->links_up[i] =
		    st->ns[ns] && link_up(lab, lab->ns[ns], nb_lab_links[i], &st->mtu);
		all = all && st->links_up[i];
	}
	if (lab->board.role == NB_LAB_DUT) {
		if (st->board_ctl && !count_rules(lab, &rules, &elems)) {
			st->rules = (long)rules;
			st->elems = (long)elems;
		}
	} else if (st->ns[NB_LAB_DUT]) {
		st->fwd_v4 = sysctl_on(lab, lab->ns[NB_LAB_DUT], "net.ipv4.ip_forward");
		st->fwd_v6 = sysctl_on(lab, lab->ns[NB_LAB_DUT], "net.ipv6.conf.all.forwarding");
		if (!count_rules(lab, &rules, &elems)) {
			st->rules = (long)rules;
			st->elems = (long)elems;
		}
		if (st->dut_cpus) {
			struct nb_lab_run *r = nb_lab_run_new();
			if (r && !run(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT],
				      "cat", "/sys/class/net/dut0/queues/rx-0/rps_cpus", NULL))
				snprintf(st->rps_mask, sizeof(st->rps_mask), "%.*s",
					 (int)strcspn(r->out, "\n"), r->out);
			nb_lab_run_free(r);
		}
	}
	all = all && st->fwd_v4 && (!st->ipv6 || st->fwd_v6) && s.complete;
	/* A board's agent is not a process here: its pid is qemu's, its port is reached from
	 * the namespace next to it. */
	if (lab->board.role == NB_LAB_SINK) {
		st->agent_pid = st->board_pid;
		st->agent_alive = st->board_alive;
		if (st->agent_alive && st->ns[NB_LAB_DUT])
			st->agent_answers = nb_lab_port_answers(lab->ns[NB_LAB_DUT],
								NB_LAB_SINK_ADDR, st->port, 1000);
	} else {
		st->agent_pid = read_pid(lab->pid_path);
		st->agent_alive = pid_alive(st->agent_pid);
		if (st->agent_alive && st->ns[NB_LAB_SINK])
			st->agent_answers = nb_lab_port_answers(lab->ns[NB_LAB_SINK],
								NB_LAB_SINK_ADDR, st->port, 1000);
	}
	if (lab->board.role == NB_LAB_DUT) {
		st->observer_pid = st->board_pid;
		st->observer_alive = st->board_alive;
		if (st->observer_alive && st->ns[NB_LAB_GEN])
			st->observer_answers = nb_lab_port_answers(
			    lab->ns[NB_LAB_GEN], NB_LAB_DUT_A_ADDR, st->port, 1000);
	} else {
		st->observer_pid = read_pid(lab->obs_pid_path);
		st->observer_alive = pid_alive(st->observer_pid);
		if (st->observer_alive && st->ns[NB_LAB_DUT])
			st->observer_answers = nb_lab_port_answers(
			    lab->ns[NB_LAB_DUT], NB_LAB_DUT_A_ADDR, st->port, 1000);
	}
	if (st->agent_expected)
		all = all && st->agent_alive && st->agent_answers && st->observer_alive &&
		      st->observer_answers;
	st->healthy = all;
	lab->err[0] = '\0';
	return 0;
}

/* A board DUT loads the script through its control port, never from the network. */
static int load_board(struct nb_lab *lab, const char *script)
{
	char *out = NULL;
	int rc = 0, ret = nb_lab_board_ctl(lab, "ruleset", script, &out, &rc);

	if (!ret && rc) {
		snprintf(lab->err, sizeof(lab->err), "%s", out);
		ret = -EPROTO;
	}
	free(out);
	return ret;
}

static int load_file(struct nb_lab *lab, const char *script)
{
	char path[] = "/tmp/netbench-lab-XXXXXX";
	struct nb_lab_run *r = nb_lab_run_new();
	int fd = -1, ret = -ENOMEM;
	size_t len = strlen(script), off = 0;

	if (lab->board.role == NB_LAB_DUT) {
		nb_lab_run_free(r);
		return load_board(lab, script);
	}
	if (!r)
		goto out;
	fd = mkstemp(path);
	if (fd < 0) {
		ret = -errno;
		snprintf(lab->err, sizeof(lab->err), "cannot create a temporary file in /tmp");
		goto out;
	}
	while (off < len) {
		ssize_t n = write(fd, script + off, len - off);
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		off += (size_t)n;
	}
	ret =
	    run(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "nft", "-f", path, NULL);
	if (ret == -EIO) {
		/* nft names the file and line and marks the column: hand it over whole. */
		snprintf(lab->err, sizeof(lab->err), "%s", r->err);
		ret = -EPROTO;
	}
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	nb_lab_run_free(r);
	return ret;
}

/* A board cannot read the host's file: its text goes over, behind "flush ruleset;" on the same
 * line, so that nft's messages keep the file's line numbers. */
static int board_file(struct nb_lab *lab, FILE *out, const char *path)
{
	char buf[8192];
	size_t n, total = 0;
	FILE *in = fopen(path, "re");
	int ret = 0;

	if (!in) {
		ret = -errno;
		snprintf(lab->err, sizeof(lab->err), "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	fputs("flush ruleset; ", out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0 && !ret) {
		total += n;
		if (total > NB_LAB_BOARD_RULESET_MAX) {
			snprintf(lab->err, sizeof(lab->err), "%s: larger than %d bytes", path,
				 NB_LAB_BOARD_RULESET_MAX);
			ret = -EFBIG;
		} else if (fwrite(buf, 1, n, out) != n)
			ret = -EIO;
	}
	fclose(in);
	return ret;
}

int nb_lab_ruleset(struct nb_lab *lab, const struct nb_lab_rules *r, size_t *rules, size_t *elems)
{
	size_t want_rules = 0, want_elems = 0, len = 0;
	char *script = NULL;
	struct state s;
	FILE *f = NULL;
	int ret = -ENOMEM;

	lab->err[0] = '\0';
	if (!ns_exists(lab->ns[NB_LAB_DUT])) {
		snprintf(lab->err, sizeof(lab->err), "namespace %s does not exist (run `lab up`)",
			 lab->ns[NB_LAB_DUT]);
		ret = -ENOENT;
		goto out;
	}
	board_from_state(lab);
	f = open_memstream(&script, &len);
	if (!f)
		goto out;
	if (lab->board.role == NB_LAB_DUT && r->kind == NB_LAB_RULES_FILE)
		ret = board_file(lab, f, r->path);
	else
		ret = nb_lab_rules_write(f, r);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	f = NULL;
	if (ret)
		goto out;
	ret = load_file(lab, script);
	if (ret)
		goto out;
	ret = count_rules(lab, rules, elems);
	if (ret)
		goto out;
	if (!nb_lab_rules_expect(r, &want_rules, &want_elems) &&
	    (*rules != want_rules || *elems != want_elems)) {
		snprintf(lab->err, sizeof(lab->err),
			 "nft reads back %zu rules and %zu set elements, expected %zu and %zu",
			 *rules, *elems, want_rules, want_elems);
		ret = -EIO;
		goto out;
	}
	state_read(lab, &s);
	if (s.found) {
		s.ruleset = true;
		snprintf(s.kind, sizeof(s.kind), "%s", nb_lab_rules_kind_name(r->kind));
		s.rules_n = r->kind == NB_LAB_RULES_FILE ? *rules : r->rules_n;
		state_write(lab, &s);
	}
out:
	free(script);
	return ret;
}

int nb_lab_ruleset_recorded(struct nb_lab *lab, char *kind, size_t kind_len, size_t *rules_n)
{
	struct state s;
	state_read(lab, &s);
	if (!s.found || !s.ruleset)
		return 0;
	snprintf(kind, kind_len, "%s", s.kind);
	*rules_n = s.rules_n;
	return 1;
}

int nb_lab_ruleset_record(struct nb_lab *lab, const char *kind, size_t rules_n)
{
	struct state s;
	state_read(lab, &s);
	if (!s.found)
		return 0;
	s.ruleset = kind != NULL;
	snprintf(s.kind, sizeof(s.kind), "%s", kind ? kind : "");
	s.rules_n = kind ? rules_n : 0;
	return state_write(lab, &s);
}

int nb_lab_ruleset_flush(struct nb_lab *lab)
{
	struct state s;
	int ret;

	lab->err[0] = '\0';
	if (!ns_exists(lab->ns[NB_LAB_DUT])) {
		snprintf(lab->err, sizeof(lab->err), "namespace %s does not exist (run `lab up`)",
			 lab->ns[NB_LAB_DUT]);
		return -ENOENT;
	}
	board_from_state(lab);
	if (lab->board.role == NB_LAB_DUT)
		ret = load_board(lab, "flush ruleset\n");
	else
		ret = run(lab, NULL, NULL, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "nft",
			  "flush", "ruleset", NULL);
	if (ret)
		return ret;
	state_read(lab, &s);
	if (s.found && s.ruleset) {
		s.ruleset = false;
		state_write(lab, &s);
	}
	return 0;
}
