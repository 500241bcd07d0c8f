/* SPDX-License-Identifier: BSD-2-Clause */
/* The namespace lab on one Linux host: gen --veth-- DUT (kernel forwarding, nftables) --veth--
 * sink, with the agent in sink and an observer agent in the DUT (docs/design.md, "The lab").
 * Building, checking and removing it, and loading rulesets into the DUT. Drives iproute2's ip
 * and nft; a small state file under /run
 * records what was created so that an interrupted run is cleaned by the next one. */
#ifndef NB_LAB_H
#define NB_LAB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lab/lab_board.h"
#include "core/lab/lab_rules.h"

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
	/* up --force: replace a lab that is alive under this prefix (else up refuses it). */
	bool force;
	/* up --dut vm:ARCH or --sink vm:ARCH: an emulated board in that role (lab_board.c). */
	struct nb_lab_board board;
	/* Set by a signal handler: up stops, cleans up and returns -EINTR. */
	volatile sig_atomic_t *stop;
	/* Called with one line for each thing worth telling (leftovers found, removed). */
	void (*note)(void *arg, const char *msg);
	void *note_arg;
	/* The failing command and its first line of error output, after an error (with a board
	 * that did not boot: the last lines of its console). */
	char err[1024];
};

enum { NB_LAB_GEN, NB_LAB_DUT, NB_LAB_SINK };

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
	bool healthy;
};

struct nb_lab *nb_lab_new(void);
void nb_lab_free(struct nb_lab *lab);

/* Sets the names from a prefix (NULL or "": the names of docs/design.md). -EINVAL for a prefix
 * that is empty of letters, longer than NB_LAB_PREFIX_MAX or not [A-Za-z0-9_]. */
int nb_lab_set_prefix(struct nb_lab *lab, const char *prefix);

/* Interface names inside the namespaces. */
extern const char *const nb_lab_links[4];
/* Whether link i of nb_lab_links is inside an emulated board of that role (-1: no board). */
bool nb_lab_link_in_board(int board_role, int i);

/* The rps_cpus mask of the highest n of ncpu CPUs, in sysfs's comma-separated 32-bit groups
 * (most significant first), e.g. n=1, ncpu=2: "00000002". */
void nb_lab_rps_mask(unsigned n, unsigned ncpu, char *buf, size_t len);

/* Brings the lab up; removes leftovers of an earlier run first (with a note). On failure or
 * *stop, removes what it created and returns the error (-EINTR when stopped). */
int nb_lab_up(struct nb_lab *lab);
/* Removes processes in the lab's namespaces, the namespaces and the state. Idempotent;
 * *found counts the objects that existed. */
int nb_lab_down(struct nb_lab *lab, unsigned *found);
int nb_lab_status(struct nb_lab *lab, struct nb_lab_status *st);

/* Loads r into the DUT with nft -f from a temporary file and reads the rule count back.
 * -EPROTO with lab->err holding nft's message when nft rejects the rules; -EIO when the read
 * back count differs from the expected one. */
int nb_lab_ruleset(struct nb_lab *lab, const struct nb_lab_rules *r, size_t *rules, size_t *elems);
/* Runs argv as the lab runs its tools: nonzero exit is -EIO with lab->err naming the command
 * and its first line of error output; r (may be NULL) keeps the output. */
struct nb_lab_run;
int nb_lab_cmd(struct nb_lab *lab, char *const argv[], const char *input, struct nb_lab_run *r);

/* The VPN of `lab up --vpn` (lab_vpn.c). kind "esp" or "wireguard"; algo for ESP. */
struct nb_lab_vpn_spec {
	char kind[12];
	char algo[24];
};
/* Parses "esp", "esp:ALGO" (aes-cbc-hmac-sha1, aes-gcm, chacha20-poly1305) or "wireguard".
 * -EINVAL for anything else. */
int nb_lab_vpn_parse(const char *spec, struct nb_lab_vpn_spec *v);
/* Builds lab->vpn between the DUT and the sink, with random keys. -EPROTONOSUPPORT with a one
 * line lab->err when the kernel lacks it. */
int nb_lab_vpn_up(struct nb_lab *lab);
/* Makes lab->crypto_driver the kernel's choice for its algorithm; *old_priority gets the
 * priority to restore. */
int nb_lab_crypto_driver_set(struct nb_lab *lab, int *old_priority);

/* Removes every rule from the DUT (nft flush ruleset). */
int nb_lab_ruleset_flush(struct nb_lab *lab);
/* The lab's record of the ruleset it loaded (lab status shows it): 1 and its kind and rule
 * count when there is one, else 0. */
int nb_lab_ruleset_recorded(struct nb_lab *lab, char *kind, size_t kind_len, size_t *rules_n);
/* Rewrites that record (kind NULL: none); nothing when the lab has no state. */
int nb_lab_ruleset_record(struct nb_lab *lab, const char *kind, size_t rules_n);

/* The DUT's ruleset kept across a rule sweep (lab_keep.c): the sweep replaces it point by
 * point and flushes it at the end; keep reads it before (nft list ruleset in the DUT's
 * namespace, and the lab's record), restore loads it back in one transaction and checks the
 * rule and set-element counts read back against those read before. */
struct nb_lab_kept {
	char *script; /* nft list ruleset, as read */
	size_t rules, elems;
	bool recorded; /* the lab's record: kind and rules_n */
	char kind[16];
	size_t rules_n;
};
int nb_lab_ruleset_keep(struct nb_lab *lab, struct nb_lab_kept *k);
int nb_lab_ruleset_restore(struct nb_lab *lab, const struct nb_lab_kept *k, size_t *rules);
void nb_lab_kept_free(struct nb_lab_kept *k);

#endif
