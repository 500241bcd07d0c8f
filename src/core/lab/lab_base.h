/* SPDX-License-Identifier: BSD-2-Clause */
/* What every part of the lab shares: its addresses and names, struct nb_lab (the options of up
 * and the paths of one lab), the emulated board's description, and running the lab's tools.
 * The parts (lab.c's up and down, lab_board.c, lab_vpn.c, the status and ruleset files) build
 * on this file; it includes none of them. */
#ifndef NB_LAB_BASE_H
#define NB_LAB_BASE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cancel.h"

#define NB_LAB_PORT	  5301
#define NB_LAB_PREFIX_MAX 16
#define NB_LAB_RUN_DIR	  "/run/netbench-lab"

/* Addresses (RFC 2544's 198.18.0.0/15, RFC 5180's 2001:2::/48). */
#define NB_LAB_GEN_ADDR	   "198.18.0.1"
#define NB_LAB_DUT_A_ADDR  "198.18.0.254"
#define NB_LAB_DUT_B_ADDR  "198.19.0.254"
#define NB_LAB_SINK_ADDR   "198.19.0.1"
#define NB_LAB_GEN_ADDR6   "2001:2:0:1::1"
#define NB_LAB_DUT_A_ADDR6 "2001:2:0:1::fe"
#define NB_LAB_DUT_B_ADDR6 "2001:2:0:2::fe"
#define NB_LAB_SINK_ADDR6  "2001:2:0:2::1"
/* With --vpn: the sink's address at the tunnel's end (traffic to it is encrypted from the DUT
 * to the sink; traffic to NB_LAB_SINK_ADDR stays clear). */
#define NB_LAB_VPN_ADDR "198.19.1.1"

/* An emulated board in the lab (lab_board.h). */
struct nb_lab_board {
	int role;	 /* NB_LAB_DUT or NB_LAB_SINK; -1: no board */
	char arch[16];	 /* armhf, x86_64, ppc */
	char dir[256];	 /* the image; "" before nb_lab_board_image */
	char kernel[64]; /* the board kernel's release */
	char nic[16];	 /* vm:ARCH,nic=NAME: the arch's nic_alt; "": its default NIC */
};

struct nb_lab {
	/* Names: nbgen/nbdut/nbsink, or P-gen/P-dut/P-sink with a prefix P. */
	char prefix[NB_LAB_PREFIX_MAX + 1];
	char ns[3][NB_LAB_PREFIX_MAX + 8];
	char run_dir[128];
	char state_path[160];
	char pid_path[160];
	char obs_pid_path[160]; /* the observer agent in the DUT */
	/* Options of up. */
	bool ipv6;
	unsigned mtu;	   /* 0: the kernel's default */
	unsigned dut_cpus; /* 0: all CPUs, no RPS steering */
	bool agent;	   /* an agent in the sink and an observer agent in the DUT */
	uint16_t port;
	char netbench_path[512]; /* the binary started as the agent */
	unsigned step_delay_ms;	 /* test knob: pause between steps of up */
	/* up --vpn: "esp[:ALGO]" or "wireguard" between the DUT and the sink ("" none), and
	 * --crypto-driver: the kernel driver the tunnel must use (lab_vpn.c). */
	char vpn[40];
	char crypto_driver[64];
	/* up --crypto-driver with a board at an end: what that board's kernel did, by role (the
	 * board's `netbench lab crypto-driver` line), "" for a namespace end */
	char board_crypto[3][160];
	/* up --force: replace a lab that is alive under this prefix (else up refuses it). */
	bool force;
	/* ruleset --netlink: the DUT's rulesets through `netbench lab nft-load` (nf_tables'
	 * netlink API, netbench_path), not nft, as a board without nft loads them */
	bool nft_netlink;
	/* up: the board builder run when a board's image is missing (tests/board/build.sh in a
	 * source tree, or the package's copy); "": none, a missing image is an error */
	char board_builder[512];
	/* up --dut vm:ARCH or --sink vm:ARCH: an emulated board in that role (lab_board.c). With
	 * both, board is the DUT's and board2 the sink's (role -1: none); lab_board.c's functions
	 * act on board, nb_lab_board_swap exchanges the two around a call. */
	struct nb_lab_board board, board2;
	/* Set by a signal handler: up stops, cleans up and returns -EINTR. */
	const nb_cancel_t *stop;
	/* Called with one line for each thing worth telling (leftovers found, removed). */
	void (*note)(void *arg, const char *msg);
	void *note_arg;
	/* The failing command and its first line of error output, after an error (with a board
	 * that did not boot: the last lines of its console). */
	char err[1024];
};

enum { NB_LAB_GEN, NB_LAB_DUT, NB_LAB_SINK };
/* A board in both roles, for nb_lab_link_in_board. */
#define NB_LAB_BOTH 3

struct nb_lab *nb_lab_new(void);
void nb_lab_free(struct nb_lab *lab);

/* Sets the names from a prefix (NULL or "": the names of docs/design.md). -EINVAL for a prefix
 * that is empty of letters, longer than NB_LAB_PREFIX_MAX or not [A-Za-z0-9_]. */
int nb_lab_set_prefix(struct nb_lab *lab, const char *prefix);

/* Interface names inside the namespaces. */
extern const char *const nb_lab_links[4];
/* Whether link i of nb_lab_links is inside an emulated board of that role (-1: no board,
 * NB_LAB_BOTH: a board DUT and a board sink); nb_lab_board_roles gives a lab's. */
bool nb_lab_link_in_board(int board_role, int i);
int nb_lab_board_roles(const struct nb_lab *lab);

/* Runs argv as the lab runs its tools: nonzero exit is -EIO with lab->err naming the command
 * and its first line of error output; r (may be NULL) keeps the output. */
struct nb_lab_run;
int nb_lab_cmd(struct nb_lab *lab, char *const argv[], const char *input, struct nb_lab_run *r);
/* The same with the words as arguments: nb_lab_runl(lab, input, r, "ip", "-n", ns, ..., NULL). */
int nb_lab_runl(struct nb_lab *lab, const char *input, struct nb_lab_run *r, ...);
/* Records "cmd args: first line of why" in lab->err. */
void nb_lab_set_err(struct nb_lab *lab, char *const argv[], const char *why);
/* One line to lab->note, when there is one. */
void nb_lab_note(struct nb_lab *lab, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether the stop flag is up (a signal asked to stop). */
bool nb_lab_stopped(struct nb_lab *lab);

#endif
