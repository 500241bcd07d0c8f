/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench lab's options: the help text, the parsing, and every impossible combination refused
 * with exit 2 (lab.c runs the verbs and prints). */
#ifndef NB_LAB_OPTS_H
#define NB_LAB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FIT_POINTS_MAX 64

struct lab_opts {
	const char *verb;
	const char *prefix;
	bool ipv6, json, no_agent, flush, have_rules, force, netlink;
	unsigned mtu, dut_cpus;
	uint16_t port;
	bool have_port;
	size_t rules_n;
	const char *kind;
	const char *nft_file; /* nft-load FILE */
	const char *vpn, *crypto_driver;
	/* --dut vm:ARCH or --sink vm:ARCH: an emulated board in that role; --board-dir */
	int board_role; /* NB_LAB_DUT, NB_LAB_SINK, -1: none */
	char board_arch[16], board_nic[16];
	/* --dut vm:ARCH and --sink vm:ARCH2 together: board_role is NB_LAB_DUT, this ARCH2. */
	char board2_arch[16], board2_nic[16];
	const char *board_dir;
	double fit_rules[FIT_POINTS_MAX], fit_fps[FIT_POINTS_MAX];
	size_t fit_n;
};

/* Fills o from the command line (exits 2 on a usage error). Returns 1 when --help was printed
 * (nothing to run), 0 otherwise; for "fit" the points are in o. */
int lab_parse_opts(int argc, char **argv, struct lab_opts *o);

#endif
