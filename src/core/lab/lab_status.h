/* SPDX-License-Identifier: BSD-2-Clause */
/* `lab status`: what exists of the lab (namespaces, links, forwarding, agents, the board) and
 * whether it is healthy, read from the kernel, the processes and the board's own word. */
#ifndef NB_LAB_STATUS_H
#define NB_LAB_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lab/lab_base.h"
#include "core/lab/lab_sa.h"

struct nb_lab_status {
	bool ns[3];
	bool links_up[4]; /* gen0, dut0, dut1, sink0 */
	unsigned mtu;
	bool fwd_v4, fwd_v6;
	bool state_found;
	bool state_complete; /* the state file says up finished */
	bool ipv6;
	unsigned dut_cpus;
	char rps_mask[64];
	bool agent_expected;
	long agent_pid; /* 0: no pid file */
	bool agent_alive;
	bool agent_answers;
	long observer_pid; /* the DUT's observer agent, 0: no pid file */
	bool observer_alive;
	bool observer_answers;
	uint16_t port;
	bool ruleset_known;
	char ruleset_kind[16];
	size_t ruleset_n;
	long rules; /* rules read back in the DUT, -1 unknown */
	long elems;
	/* An emulated board (board.role >= 0 in the lab): */
	struct nb_lab_board board;
	long board_pid; /* qemu's, 0: no pid file */
	bool board_alive;
	bool board_ctl; /* its control port answered */
	/* A board sink beside a board DUT (board2.role >= 0 in the lab), as above. */
	struct nb_lab_board board2;
	long board2_pid;
	bool board2_alive, board2_ctl;
	/* --vpn esp with a board: each board's SA and xfrm error counters (vpn_read false when
	 * there are none to read, or a board did not give them). */
	bool vpn_read;
	struct nb_lab_sa_list vpn;
	bool healthy;
};

int nb_lab_status(struct nb_lab *lab, struct nb_lab_status *st);

/* Whether link is up in namespace ns (a veth: both ends; a board's tap: qemu holds it);
 * *mtu (may be NULL) gets its MTU. */
bool nb_lab_link_up(struct nb_lab *lab, const char *ns, const char *link, unsigned *mtu);

#endif
