/* SPDX-License-Identifier: BSD-2-Clause */
/* The namespace lab: three network namespaces joined by two veth pairs (or an emulated board's
 * taps), built and removed with iproute2's ip. Every veth is created inside a namespace (never in
 * the host's), so deleting the namespaces removes all of it; processes inside are killed first
 * because a process keeps its namespace alive after `ip netns del`. Up and down orchestrate the
 * lab's parts: the board (lab_board.c), the VPN (lab_vpn.c), the agents (lab_agents.c). */
#include "core/lab/lab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/timeutil.h"
#include "core/lab/lab_agents.h"
#include "core/lab/lab_cryptoprio.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_flows.h"
#include "core/lab/lab_proc.h"
#include "core/lab/lab_state.h"

/* SIGTERM, two seconds to go, then SIGKILL. */
static void stop_pid(long pid)
{
	kill((pid_t)pid, SIGTERM);
	for (int i = 0; i < 100 && nb_lab_pid_alive(pid); i++)
		nb_sleep_until_ns(nb_mono_ns() + 20 * NB_NS_PER_MS);
	if (nb_lab_pid_alive(pid))
		kill((pid_t)pid, SIGKILL);
}

/* The agent and the observer, by their pid files. Returns how many were stopped. */
static unsigned agents_stop(struct nb_lab *lab)
{
	unsigned found = 0;

	for (int k = 0; k < 2; k++) {
		const char *path = k ? lab->obs_pid_path : lab->pid_path;
		long pid = nb_lab_read_pid(path);
		if (!nb_lab_pid_alive(pid))
			continue;
		if (!nb_lab_is_our_agent(pid, path)) {
			nb_lab_note(lab, "pid %ld in %s is no longer our %s: left alone", pid, path,
				    k ? "observer" : "agent");
			continue;
		}
		/* The agents normally die with their namespace's processes below; this catches
		 * one that left its namespace. */
		stop_pid(pid);
		nb_lab_note(lab, "stopped the %s (pid %ld)", k ? "observer" : "agent", pid);
		found++;
	}
	return found;
}

/* The board's qemu, and a second board's (the sink's, in a lab with two). Returns how many. */
static unsigned boards_power_off(struct nb_lab *lab, const struct nb_lab_state *s)
{
	unsigned found = 0;

	for (int k = 0; k < 2; k++) {
		char qpid[200];
		snprintf(qpid, sizeof(qpid), "%s/board%s-qemu.pid", lab->run_dir, k ? "-sink" : "");
		long pid = nb_lab_read_pid(qpid);
		if (!nb_lab_pid_alive(pid) || !nb_lab_is_qemu(pid))
			continue;
		/* Powered off before its taps' namespaces go. */
		stop_pid(pid);
		nb_lab_note(lab, "powered off the %s board (qemu pid %ld)",
			    k && s->board2_arch[0] ? s->board2_arch
			    : s->board_arch[0]	   ? s->board_arch
						   : "emulated",
			    pid);
		found++;
	}
	return found;
}

/* The namespaces and what runs in them; found counts each that existed. */
static int namespaces_del(struct nb_lab *lab, unsigned *found)
{
	int ret = 0, r;

	for (int i = 0; i < 3; i++) {
		unsigned n;
		if (!nb_lab_ns_exists(lab->ns[i]))
			continue;
		(*found)++;
		n = nb_lab_kill_ns_pids(lab, lab->ns[i]);
		if (n)
			nb_lab_note(lab, "stopped %u process%s in %s", n, n == 1 ? "" : "es",
				    lab->ns[i]);
		r = nb_lab_runl(lab, NULL, NULL, "ip", "netns", "del", lab->ns[i], NULL);
		if (r && nb_lab_ns_exists(lab->ns[i]))
			ret = r;
		else
			nb_lab_note(lab, "removed namespace %s", lab->ns[i]);
	}
	return ret;
}

/* The crypto driver's priority, global to the kernel: the namespaces' removal does not undo
 * it. */
static int crypto_driver_restore(struct nb_lab *lab, const struct nb_lab_state *s)
{
	char why[200];
	int r = nb_crypto_user_update(s->crypto_driver, s->crypto_old_prio, why, sizeof(why));

	if (r == -ENOENT) {
		nb_lab_note(lab, "crypto driver %s is no longer registered: nothing to restore",
			    s->crypto_driver);
		return 0;
	}
	if (r) {
		snprintf(lab->err, sizeof(lab->err), "restoring %s's priority: %s",
			 s->crypto_driver, why);
		return r;
	}
	nb_lab_note(lab, "restored the priority of crypto driver %s to %d", s->crypto_driver,
		    s->crypto_old_prio);
	return 0;
}

/* The pid, state, log and board files, and a prefix's own directory. */
static void run_files_remove(struct nb_lab *lab)
{
	/* qemu was one of the namespace's processes, stopped above; its taps went with it. */
	static const char *const board_files[] = {"qemu.pid", "console.log", "ctl.sock",
						  "qemu.log"};
	size_t nf = sizeof(board_files) / sizeof(board_files[0]);
	char log[192];

	unlink(lab->pid_path);
	unlink(lab->obs_pid_path);
	unlink(lab->state_path);
	snprintf(log, sizeof(log), "%s/agent.log", lab->run_dir);
	unlink(log);
	snprintf(log, sizeof(log), "%s/observer.log", lab->run_dir);
	unlink(log);
	for (size_t i = 0; i < 2 * nf; i++) {
		snprintf(log, sizeof(log), "%s/board%s-%s", lab->run_dir, i >= nf ? "-sink" : "",
			 board_files[i % nf]);
		unlink(log);
	}
	/* Only a prefix's own directory goes; the default one may hold other prefixes' labs. */
	if (lab->prefix[0])
		rmdir(lab->run_dir);
}

int nb_lab_down(struct nb_lab *lab, unsigned *found)
{
	struct nb_lab_state s;
	int ret, r;

	*found = 0;
	nb_lab_state_read(lab, &s);
	if (s.found) {
		(*found)++;
		if (!s.complete)
			nb_lab_note(lab, "found the state of an interrupted `lab up` (%s)",
				    lab->state_path);
	}
	*found += agents_stop(lab);
	*found += boards_power_off(lab, &s);
	ret = namespaces_del(lab, found);
	if (s.crypto_driver[0]) {
		(*found)++;
		r = crypto_driver_restore(lab, &s);
		if (r)
			ret = r;
	}
	run_files_remove(lab);
	return ret;
}

static void step_pause(struct nb_lab *lab)
{
	if (lab->step_delay_ms)
		nb_sleep_until_ns(nb_mono_ns() + lab->step_delay_ms * NB_NS_PER_MS);
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
	return nb_lab_runl(lab, input, NULL, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "tee",
			   path, NULL);
}

/* A veth's carrier reaches its queueing discipline through the kernel's link watch, which may
 * batch the event for up to a second; until then the device drops what is sent (the first
 * IPv6 neighbour solicitation, say). `up` returns when the lab can carry traffic. */
static int wait_links_up(struct nb_lab *lab)
{
	uint64_t deadline = nb_mono_ns() + 5 * NB_NS_PER_S;
	int i = 0;

	while (i < 4 && !nb_lab_stopped(lab)) {
		const char *ns = lab->ns[i < 1 ? 0 : i < 3 ? 1 : 2];
		if (nb_lab_link_in_board(nb_lab_board_roles(lab), i) ||
		    nb_lab_link_up(lab, ns, nb_lab_links[i], NULL)) {
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
	return nb_lab_stopped(lab) ? -EINTR : 0;
}

/* One step of building the lab: none once stopped, and the pause between steps. */
#define STEP(call)                                                                                 \
	do {                                                                                       \
		if (nb_lab_stopped(lab))                                                           \
			return -EINTR;                                                             \
		ret = (call);                                                                      \
		if (ret)                                                                           \
			return ret;                                                                \
		step_pause(lab);                                                                   \
	} while (0)

/* A phase of nb_lab_up (its steps paused within it), or a state write as a step of its own. */
#define PHASE(call)                                                                                \
	do {                                                                                       \
		ret = (call);                                                                      \
		if (ret)                                                                           \
			goto fail;                                                                 \
	} while (0)

/* A board DUT and a board sink: the sink board's qemu starts in the sink namespace, its tap
 * goes to the DUT namespace as dut1 (lab_board.c), where a bridge joins it to the DUT board's
 * sink side (sink0): the wire between two boards, with its host ends' counters in view. */
static int start_board2(struct nb_lab *lab)
{
	const char *dut = lab->ns[NB_LAB_DUT];
	int ret;

	nb_lab_board_swap(lab);
	ret = nb_lab_board_start(lab);
	nb_lab_board_swap(lab);
	if (ret)
		return ret;
	if ((ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "link", "add", "br1", "type",
			       "bridge", NULL)))
		return ret;
	for (int i = 0; i < 2; i++)
		if ((ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "link", "set",
				       i ? "dut1" : "sink0", "master", "br1", "up", NULL)))
			return ret;
	return nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "link", "set", "br1", "up", NULL);
}

/* A board sink receives multicast streams (seed 002) the way a board on a LAN does: the
 * generator sends groups out of gen0 (a multicast route, as a host's default route would give),
 * and the DUT namespace passes 224.0.0.0/4 from dut0 to the board's tap at layer 2, as a switch
 * would (tc mirred: no multicast routing daemon, TTL unchanged). Everything else is routed. */
static int multicast_to_board(struct nb_lab *lab)
{
	const char *gen = lab->ns[NB_LAB_GEN], *dut = lab->ns[NB_LAB_DUT];
	int ret;

	if ((ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", gen, "route", "add", "224.0.0.0/4",
			       "dev", "gen0", NULL)) ||
	    (ret = nb_lab_runl(lab, NULL, NULL, "tc", "-n", dut, "qdisc", "add", "dev", "dut0",
			       "ingress", NULL)))
		return ret;
	return nb_lab_runl(lab, NULL, NULL, "tc", "-n", dut, "filter", "add", "dev", "dut0",
			   "parent", "ffff:", "protocol", "ip", "u32", "match", "ip", "dst",
			   "224.0.0.0/4", "action", "mirred", "egress", "redirect", "dev", "dut1",
			   NULL);
}

/* Whether the lab under this prefix is someone's, alive: its agent or its observer answers, or
 * a process runs in one of its namespaces. why gets the evidence. Only a lab that is none of
 * these is remains, which up may clean. */
static bool lab_alive(struct nb_lab *lab, char *why, size_t len)
{
	struct nb_lab_state s;
	long pids[4];
	size_t o = 0;

	why[0] = '\0';
	nb_lab_state_read(lab, &s);
	/* A lab whose `lab up` was killed half-way is remains, whatever it had started. */
	if (s.found && !s.complete && s.creator > 0 && s.creator != (long)getpid()) {
		if (!nb_lab_pid_alive(s.creator))
			return false;
		snprintf(why, len, "its `lab up` (pid %ld) is still creating it", s.creator);
		return true;
	}
	uint16_t port = (uint16_t)(s.port ? s.port : lab->port);
	if (nb_lab_ns_exists(lab->ns[NB_LAB_SINK]) &&
	    nb_lab_port_answers(lab->ns[NB_LAB_SINK], NB_LAB_SINK_ADDR, port, 500))
		o += (size_t)snprintf(why + o, len - o, "its agent answers on %s port %u; ",
				      NB_LAB_SINK_ADDR, port);
	if (o < len && nb_lab_ns_exists(lab->ns[NB_LAB_DUT]) &&
	    nb_lab_port_answers(lab->ns[NB_LAB_DUT], NB_LAB_DUT_A_ADDR, port, 500))
		o += (size_t)snprintf(why + o, len - o, "its observer answers on %s port %u; ",
				      NB_LAB_DUT_A_ADDR, port);
	for (int i = 0; i < 3 && o < len; i++) {
		unsigned n = nb_lab_ns_pids(lab, lab->ns[i], pids, 4);
		if (n)
			o += (size_t)snprintf(why + o, len - o,
					      "namespace %s holds process%s %ld%s; ", lab->ns[i],
					      n > 1 ? "es" : "", pids[0], n > 1 ? " and more" : "");
	}
	if (o >= 2 && o < len)
		why[o - 2] = '\0'; /* the last "; " */
	return o > 0;
}

/* Before anything is touched: a missing image or qemu, or a board directory another user could
 * have written, leaves nothing to remove. */
static int boards_check(struct nb_lab *lab)
{
	int ret;

	if (lab->board.role < 0)
		return 0;
	ret = nb_lab_board_build(lab);
	if (!ret)
		ret = nb_lab_board_image(lab);
	if (!ret && lab->board2.role >= 0) {
		nb_lab_board_swap(lab);
		ret = nb_lab_board_build(lab);
		if (!ret)
			ret = nb_lab_board_image(lab);
		nb_lab_board_swap(lab);
	}
	return ret;
}

/* Refuses a lab that is someone's, removes the remains of an earlier one, makes the run
 * directory. */
static int clear_earlier(struct nb_lab *lab)
{
	unsigned found = 0;
	int ret;

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
		nb_lab_note(lab, "%s %u leftover object%s of an earlier lab",
			    lab->force ? "--force: removed" : "cleaned up", found,
			    found == 1 ? "" : "s");
	ret = mkdirs(lab->run_dir);
	if (ret)
		snprintf(lab->err, sizeof(lab->err), "cannot create %s", lab->run_dir);
	return ret;
}

static void state_init(const struct nb_lab *lab, struct nb_lab_state *s)
{
	s->board_role = lab->board.role;
	snprintf(s->board_arch, sizeof(s->board_arch), "%s", lab->board.arch);
	snprintf(s->board_dir, sizeof(s->board_dir), "%s", lab->board.dir);
	s->board2_role = lab->board2.role;
	snprintf(s->board2_arch, sizeof(s->board2_arch), "%s", lab->board2.arch);
	snprintf(s->board2_dir, sizeof(s->board2_dir), "%s", lab->board2.dir);
	s->ipv6 = lab->ipv6;
	s->mtu = lab->mtu;
	s->dut_cpus = lab->dut_cpus;
	s->port = lab->port;
	s->agent = lab->agent;
}

static int namespaces_add(struct nb_lab *lab)
{
	int ret;

	for (int i = 0; i < 3; i++) {
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "netns", "add", lab->ns[i], NULL));
		/* Duplicate address detection would hold even the link-local addresses tentative
		 * for a second or two, and IPv6 forwarding waits for them; nothing else shares
		 * these links. Set before the veths exist so that "default" applies to them. */
		if (lab->ipv6)
			STEP(nb_lab_runl(lab, NULL, NULL, "ip", "netns", "exec", lab->ns[i],
					 "sysctl", "-q", "-w", "net.ipv6.conf.default.accept_dad=0",
					 "net.ipv6.conf.all.accept_dad=0", NULL));
	}
	return 0;
}

/* The VPN's host check, then the links. A board's NICs take the place of the veths it stands
 * for: gen0 and sink0 are taps to a board DUT, dut1 a tap to a board sink; dut0 and dut1 (or
 * sink0) are then inside it. */
static int links_add(struct nb_lab *lab)
{
	const char *gen = lab->ns[NB_LAB_GEN], *dut = lab->ns[NB_LAB_DUT],
		   *sink = lab->ns[NB_LAB_SINK];
	int ret;

	if (lab->vpn[0])
		STEP(nb_lab_vpn_host_check(lab));
	if (lab->board.role == NB_LAB_DUT)
		STEP(nb_lab_board_start(lab));
	else
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", gen, "link", "add", "gen0", "type",
				 "veth", "peer", "name", "dut0", "netns", dut, NULL));
	if (lab->board.role == NB_LAB_SINK)
		STEP(nb_lab_board_start(lab));
	else if (lab->board2.role == NB_LAB_SINK)
		STEP(start_board2(lab));
	else if (lab->board.role < 0)
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "link", "add", "dut1", "type",
				 "veth", "peer", "name", "sink0", "netns", sink, NULL));
	return 0;
}

static int addresses_add(struct nb_lab *lab)
{
	const char *gen = lab->ns[NB_LAB_GEN], *dut = lab->ns[NB_LAB_DUT],
		   *sink = lab->ns[NB_LAB_SINK];
	int ret;

	STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", gen, "addr", "add", NB_LAB_GEN_ADDR "/24",
			 "dev", "gen0", NULL));
	if (lab->board.role != NB_LAB_DUT) {
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "addr", "add",
				 NB_LAB_DUT_A_ADDR "/24", "dev", "dut0", NULL));
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "addr", "add",
				 NB_LAB_DUT_B_ADDR "/24", "dev", "dut1", NULL));
	}
	if (!nb_lab_link_in_board(nb_lab_board_roles(lab), 3))
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "addr", "add",
				 NB_LAB_SINK_ADDR "/24", "dev", "sink0", NULL));
	if (lab->ipv6) {
		/* nodad: see accept_dad in namespaces_add. */
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", gen, "-6", "addr", "add",
				 NB_LAB_GEN_ADDR6 "/64", "dev", "gen0", "nodad", NULL));
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "-6", "addr", "add",
				 NB_LAB_DUT_A_ADDR6 "/64", "dev", "dut0", "nodad", NULL));
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "-6", "addr", "add",
				 NB_LAB_DUT_B_ADDR6 "/64", "dev", "dut1", "nodad", NULL));
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "-6", "addr", "add",
				 NB_LAB_SINK_ADDR6 "/64", "dev", "sink0", "nodad", NULL));
	}
	return 0;
}

/* The MTU, every link up (loopback too), and the wait until they are. */
static int links_set_up(struct nb_lab *lab)
{
	char mtu[16];
	int ret;

	for (int i = 0; i < 4; i++) {
		const char *ns = lab->ns[i < 1 ? 0 : i < 3 ? 1 : 2];
		if (nb_lab_link_in_board(nb_lab_board_roles(lab), i))
			continue;
		if (lab->mtu) {
			snprintf(mtu, sizeof(mtu), "%u", lab->mtu);
			STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", ns, "link", "set", "dev",
					 nb_lab_links[i], "mtu", mtu, NULL));
		}
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", ns, "link", "set", "dev",
				 nb_lab_links[i], "up", NULL));
	}
	for (int i = 0; i < 3; i++)
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", lab->ns[i], "link", "set", "dev",
				 "lo", "up", NULL));
	STEP(wait_links_up(lab));
	return 0;
}

/* The routes through the DUT and its forwarding. */
static int routes_add(struct nb_lab *lab)
{
	const char *gen = lab->ns[NB_LAB_GEN], *dut = lab->ns[NB_LAB_DUT],
		   *sink = lab->ns[NB_LAB_SINK];
	int ret;

	STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", gen, "route", "add", "198.19.0.0/16", "via",
			 NB_LAB_DUT_A_ADDR, NULL));
	if (!nb_lab_link_in_board(nb_lab_board_roles(lab), 3))
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "route", "add", "198.18.0.0/16",
				 "via", NB_LAB_DUT_B_ADDR, NULL));
	if (lab->board.role != NB_LAB_DUT)
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "netns", "exec", dut, "sysctl", "-q", "-w",
				 "net.ipv4.ip_forward=1", NULL));
	if (lab->board.role == NB_LAB_SINK && multicast_to_board(lab)) {
		/* Unicast needs none of it: the lab stands, and says what it lacks. */
		nb_lab_note(lab, "multicast streams will not reach the board: %s", lab->err);
		lab->err[0] = '\0';
	}
	if (lab->ipv6) {
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", gen, "-6", "route", "add",
				 "2001:2:0:2::/64", "via", NB_LAB_DUT_A_ADDR6, NULL));
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "-6", "route", "add",
				 "2001:2:0:1::/64", "via", NB_LAB_DUT_B_ADDR6, NULL));
		STEP(nb_lab_runl(lab, NULL, NULL, "ip", "netns", "exec", dut, "sysctl", "-q", "-w",
				 "net.ipv6.conf.all.forwarding=1", NULL));
	}
	return 0;
}

/* What the options add on the standing network: flows, RPS, the crypto driver, the VPN, the
 * agents; then the boards' wait. s records each as it is set. */
static int extras_up(struct nb_lab *lab, struct nb_lab_state *s)
{
	char mask[160];
	int ret;

	STEP(nb_lab_flows_up(lab));
	if (lab->dut_cpus) {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		nb_lab_rps_mask(lab->dut_cpus, ncpu > 0 ? (unsigned)ncpu : 1, mask, sizeof(mask));
		STEP(set_rps(lab, "dut0", mask));
		STEP(set_rps(lab, "dut1", mask));
	}
	if (lab->crypto_driver[0] && !(lab->board.role >= 0 && lab->board2.role >= 0)) {
		/* Before any SA exists: a transform keeps the driver it was built with. A board's
		 * end is raised in the board, before its SAs (lab_vpn.c). */
		snprintf(s->crypto_driver, sizeof(s->crypto_driver), "%s", lab->crypto_driver);
		STEP(nb_lab_crypto_driver_set(lab, &s->crypto_old_prio));
		STEP(nb_lab_state_write(lab, s));
	}
	if (lab->vpn[0]) {
		snprintf(s->vpn, sizeof(s->vpn), "%s", lab->vpn);
		STEP(nb_lab_state_write(lab, s));
		/* A board's end is set through its control port, once it is up (below). */
		if (lab->board.role < 0)
			STEP(nb_lab_vpn_up(lab));
	}
	if (lab->agent)
		STEP(nb_lab_agents_start(lab));
	if (lab->board.role >= 0)
		STEP(nb_lab_board_wait(lab));
	if (lab->board2.role >= 0) {
		nb_lab_board_swap(lab);
		ret = nb_lab_board_wait(lab);
		nb_lab_board_swap(lab);
		if (ret)
			return ret;
	}
	if (lab->vpn[0] && lab->board.role >= 0)
		STEP(nb_lab_vpn_up(lab));
	return 0;
}

static int state_write_step(struct nb_lab *lab, const struct nb_lab_state *s)
{
	int ret;

	STEP(nb_lab_state_write(lab, s));
	return 0;
}

/* Removes a half-built lab, keeping the error that stopped it. A second Ctrl-C must not cut the
 * cleanup short, nor kill the ip it runs. */
static void half_built_remove(struct nb_lab *lab)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_term;
	char err[sizeof(lab->err)];
	unsigned found = 0;

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

int nb_lab_up(struct nb_lab *lab)
{
	struct nb_lab_state s = {0};
	int ret;

	lab->err[0] = '\0';
	ret = boards_check(lab);
	if (!ret)
		ret = clear_earlier(lab);
	if (ret)
		return ret;
	state_init(lab, &s);
	/* Written before anything exists, so that a killed run is always found. */
	PHASE(state_write_step(lab, &s));
	PHASE(namespaces_add(lab));
	PHASE(links_add(lab));
	PHASE(addresses_add(lab));
	PHASE(links_set_up(lab));
	PHASE(routes_add(lab));
	PHASE(extras_up(lab, &s));
	s.complete = true;
	PHASE(state_write_step(lab, &s));
	return 0;
fail:
	half_built_remove(lab);
	return ret;
}
