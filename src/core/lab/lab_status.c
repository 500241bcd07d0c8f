/* SPDX-License-Identifier: BSD-2-Clause */
/* `lab status`: the lab's parts read back one by one (namespaces, links, forwarding sysctls,
 * rules, agents answering, the board's qemu and its control port's own report). */
#include "core/lab/lab_status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lab/lab_board.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_proc.h"
#include "core/lab/lab_ruleset.h"
#include "core/lab/lab_state.h"

bool nb_lab_link_up(struct nb_lab *lab, const char *ns, const char *link, unsigned *mtu)
{
	struct nb_lab_run *r = nb_lab_run_new();
	bool up = false;
	const char *m;

	if (r &&
	    !nb_lab_runl(lab, NULL, r, "ip", "-n", ns, "-o", "link", "show", "dev", link, NULL)) {
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

	if (r && !nb_lab_runl(lab, NULL, r, "ip", "netns", "exec", ns, "sysctl", "-n", key, NULL))
		on = atoi(r->out) == 1;
	nb_lab_run_free(r);
	return on;
}

/* The board's "status" reply: "ip_forward N" and "link NAME MAC OPERSTATE" lines. */
static void board_status(struct nb_lab *lab, const char *out, struct nb_lab_status *st)
{
	const char *p = out;
	char mac[32], state[16];
	int v;

	if (lab->board2.role == NB_LAB_DUT)
		st->board2_ctl = true; /* the sink's board, swapped in */
	else
		st->board_ctl = true;
	while (p && *p) {
		if (sscanf(p, "ip_forward %d", &v) == 1 && lab->board.role == NB_LAB_DUT)
			st->fwd_v4 = v == 1;
		else if (sscanf(p, "link %*s %31s %15s", mac, state) == 2) {
			bool up = !strcmp(state, "up");
			if (lab->board.role == NB_LAB_DUT)
				st->links_up[strcmp(mac, NB_LAB_BOARD_MAC_GEN) ? 2 : 1] |= up;
			else if (!strcmp(mac, NB_LAB_BOARD_MAC_SINK) ||
				 !strcmp(mac, NB_LAB_BOARD_MAC_SINK2))
				st->links_up[3] = up;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
}

/* The boards' qemu and what their control ports say. Returns whether every board answers. */
static bool boards_status(struct nb_lab *lab, struct nb_lab_status *st)
{
	bool all = true;

	st->board = lab->board;
	if (lab->board.role >= 0) {
		char *out = NULL;
		int rc = 1;
		st->board_pid = nb_lab_board_pid(lab);
		st->board_alive = nb_lab_pid_alive(st->board_pid) && nb_lab_is_qemu(st->board_pid);
		if (st->board_alive && !nb_lab_board_ctl(lab, "status", NULL, &out, &rc) && !rc)
			board_status(lab, out, st);
		free(out);
		all = all && st->board_ctl;
	}
	st->board2 = lab->board2;
	if (lab->board2.role >= 0) {
		char *out = NULL;
		int rc = 1;
		nb_lab_board_swap(lab);
		st->board2_pid = nb_lab_board_pid(lab);
		st->board2_alive =
		    nb_lab_pid_alive(st->board2_pid) && nb_lab_is_qemu(st->board2_pid);
		if (st->board2_alive && !nb_lab_board_ctl(lab, "status", NULL, &out, &rc) && !rc)
			board_status(lab, out, st);
		free(out);
		nb_lab_board_swap(lab);
		all = all && st->board2_ctl;
	}
	return all;
}

/* The DUT's forwarding, ruleset and RPS mask: the board's, or its namespace's. */
static void dut_status(struct nb_lab *lab, struct nb_lab_status *st)
{
	size_t rules, elems;

	if (lab->board.role == NB_LAB_DUT) {
		if (st->board_ctl && !nb_lab_count_rules(lab, &rules, &elems)) {
			st->rules = (long)rules;
			st->elems = (long)elems;
		}
	} else if (st->ns[NB_LAB_DUT]) {
		st->fwd_v4 = sysctl_on(lab, lab->ns[NB_LAB_DUT], "net.ipv4.ip_forward");
		st->fwd_v6 = sysctl_on(lab, lab->ns[NB_LAB_DUT], "net.ipv6.conf.all.forwarding");
		if (!nb_lab_count_rules(lab, &rules, &elems)) {
			st->rules = (long)rules;
			st->elems = (long)elems;
		}
		if (st->dut_cpus) {
			struct nb_lab_run *r = nb_lab_run_new();
			if (r &&
			    !nb_lab_runl(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT],
					 "cat", "/sys/class/net/dut0/queues/rx-0/rps_cpus", NULL))
				snprintf(st->rps_mask, sizeof(st->rps_mask), "%.*s",
					 (int)strcspn(r->out, "\n"), r->out);
			nb_lab_run_free(r);
		}
	}
}

/* The agent and the observer: alive, and answering on their port. A board's agent is not a
 * process here: its pid is qemu's, its port is reached from the namespace next to it. */
static void agents_status(struct nb_lab *lab, struct nb_lab_status *st)
{
	if (lab->board.role == NB_LAB_SINK) {
		st->agent_pid = st->board_pid;
		st->agent_alive = st->board_alive;
		if (st->agent_alive && st->ns[NB_LAB_DUT])
			st->agent_answers = nb_lab_port_answers(lab->ns[NB_LAB_DUT],
								NB_LAB_SINK_ADDR, st->port, 1000);
	} else if (lab->board2.role == NB_LAB_SINK) {
		/* Behind a board DUT: reached from the generator, through it. */
		st->agent_pid = st->board2_pid;
		st->agent_alive = st->board2_alive;
		if (st->agent_alive && st->ns[NB_LAB_GEN])
			st->agent_answers = nb_lab_port_answers(lab->ns[NB_LAB_GEN],
								NB_LAB_SINK_ADDR, st->port, 1000);
	} else {
		st->agent_pid = nb_lab_read_pid(lab->pid_path);
		st->agent_alive = nb_lab_pid_alive(st->agent_pid);
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
		st->observer_pid = nb_lab_read_pid(lab->obs_pid_path);
		st->observer_alive = nb_lab_pid_alive(st->observer_pid);
		if (st->observer_alive && st->ns[NB_LAB_DUT])
			st->observer_answers = nb_lab_port_answers(
			    lab->ns[NB_LAB_DUT], NB_LAB_DUT_A_ADDR, st->port, 1000);
	}
}

int nb_lab_status(struct nb_lab *lab, struct nb_lab_status *st)
{
	struct nb_lab_state s;
	bool all = true;

	memset(st, 0, sizeof(*st));
	st->rules = st->elems = -1;
	nb_lab_state_read(lab, &s);
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
		st->ns[i] = nb_lab_ns_exists(lab->ns[i]);
		all = all && st->ns[i];
	}
	nb_lab_board_from_state(lab);
	all = boards_status(lab, st) && all;
	for (int i = 0; i < 4; i++) {
		int ns = i < 1 ? 0 : i < 3 ? 1 : 2;
		if (nb_lab_link_in_board(nb_lab_board_roles(lab), i))
			continue; /* from the board's own word, above */
		st->links_up[i] =
		    st->ns[ns] && nb_lab_link_up(lab, lab->ns[ns], nb_lab_links[i], &st->mtu);
		all = all && st->links_up[i];
	}
	dut_status(lab, st);
	all = all && st->fwd_v4 && (!st->ipv6 || st->fwd_v6) && s.complete;
	if (!lab->vpn[0])
		snprintf(lab->vpn, sizeof(lab->vpn), "%s", s.vpn);
	if (lab->board.role >= 0 && !strncmp(lab->vpn, "esp", 3) &&
	    (st->board_ctl || st->board2_ctl))
		st->vpn_read = !nb_lab_sa_read(lab, &st->vpn);
	agents_status(lab, st);
	if (st->agent_expected)
		all = all && st->agent_alive && st->agent_answers && st->observer_alive &&
		      st->observer_answers;
	st->healthy = all;
	lab->err[0] = '\0';
	return 0;
}
