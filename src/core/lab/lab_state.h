/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's state file (RUN_DIR/state): "key value" lines, rewritten whole, recording what
 * `lab up` created so that `lab down`, status and ruleset find it, even after an interrupt. */
#ifndef NB_LAB_STATE_H
#define NB_LAB_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/lab/lab_base.h"

struct nb_lab_state {
	bool found, complete, ipv6;
	unsigned mtu, dut_cpus, port, agent;
	char kind[16];
	size_t rules_n;
	bool ruleset, rules_ipv6; /* a generated ruleset's: IPv6 source addresses */
	char vpn[40];
	char crypto_driver[64]; /* raised by up; its old priority is restored by down */
	int crypto_old_prio;
	long creator;	/* the pid of the `lab up` still creating it (phase creating) */
	int board_role; /* the emulated board's role, -1: none */
	char board_arch[16], board_dir[256];
	int board2_role; /* a second board (the sink, with a board DUT), -1: none */
	char board2_arch[16], board2_dir[256];
};

/* Reads the state (s->found false when there is none). */
void nb_lab_state_read(struct nb_lab *lab, struct nb_lab_state *s);
int nb_lab_state_write(struct nb_lab *lab, const struct nb_lab_state *s);
/* The board `up` recorded, into lab->board, for the verbs run later. */
void nb_lab_board_from_state(struct nb_lab *lab);

#endif
