/* SPDX-License-Identifier: BSD-2-Clause */
/* The front ends' side of observing (rate, tput, stream): the --observe options, one observer
 * session per box, a window per trial begun at the trial's start and ended after its drain, and
 * the DUT's view printed and written as JSON. */
#ifndef NB_OBSERVE_CLI_H
#define NB_OBSERVE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/opt_table.h"
#include "core/base/json.h"
#include "core/observe/obs.h"
#include "core/observe/obs_ctl.h"
#include "core/observe/obs_set.h"
#include "core/observe/verdict.h"

#define OBS_CLI_CLOCKS 16

/* Long options every observing front end accepts; their values start at OBS_OPT_BASE. */
enum {
	OBS_OPT_BASE = 0x4f00,
	OBS_OPT_OBSERVE = OBS_OPT_BASE,
	OBS_OPT_NO_OBSERVE,
	OBS_OPT_RATE,
	OBS_OPT_DUT_CPUS,
	OBS_OPT_CLOCKS,
	OBS_OPT_PROFILE,
};
/* Those options as an option table's rows (obs_cli_option takes them); the help is the
 * front end's (OBS_CLI_HELP or OBS_CLI_PATH_HELP). */
#define OBS_CLI_ROWS                                                                               \
	OPT_ROW_PASS("observe", 0, required_argument, OBS_OPT_OBSERVE),                            \
	    OPT_ROW_PASS("no-observe", 0, no_argument, OBS_OPT_NO_OBSERVE),                        \
	    OPT_ROW_PASS("observe-rate", 0, required_argument, OBS_OPT_RATE),                      \
	    OPT_ROW_PASS("dut-cpus", 0, required_argument, OBS_OPT_DUT_CPUS),                      \
	    OPT_ROW_PASS("profile", 0, optional_argument, OBS_OPT_PROFILE),                        \
	    OPT_ROW_PASS("observe-clocks", 0, required_argument, OBS_OPT_CLOCKS)
#define OBS_CLI_HELP                                                                               \
	"      --observe HOST[:PORT]  watch the device under test (a netbench\n"                   \
	"                          serve on it) over each trial's window: CPU,\n"                  \
	"                          softirq, interrupts, softnet, NIC, qdisc and\n"                 \
	"                          conntrack counters (repeatable)\n"                              \
	"      --no-observe        do not observe the lab's DUT (observed by default)\n"           \
	"      --observe-rate N    observer samples per second, 1-100 (default 10, fewer\n"        \
	"                          where a sample is dear)\n"                                      \
	"      --dut-cpus LIST     the DUT's CPUs (e.g. 1 or 0-1): steer its receive work\n"       \
	"                          there (RPS; the observer needs --allow-tuning) and\n"           \
	"                          judge its load on them\n"                                       \
	"      --profile[=HZ]      profile the observed kernel over each window (perf\n"           \
	"                          events, software cpu-clock, HZ per CPU, default 49, at\n"       \
	"                          most 4999): where its CPU went by subsystem, ns per\n"          \
	"                          frame, top functions\n"                                         \
	"      --observe-clocks LIST  CPU clocks in MHz to set on the DUT\n"                       \
	"                          in turn (cpufreq; needs --allow-tuning),\n"                     \
	"                          fps fitted against clock\n"

/* The observer options of tput and stream, which watch a box in the path at the clock it runs
 * (--observe-clocks and --no-observe are rate's). */
#define OBS_CLI_PATH_HELP                                                                          \
	"      --observe HOST[:PORT]  watch a box in the path (router, VPN gateway; a\n"           \
	"                         netbench serve on it) over each step's window (tput: Tx\n"       \
	"                         and Rx each): its CPUs, softirq, interrupts, softnet,\n"         \
	"                         NIC and qdisc counters (repeatable)\n"                           \
	"      --observe-rate N   observer samples per second, 1-100 (default 10, fewer\n"         \
	"                         where a sample is dear)\n"                                       \
	"      --dut-cpus LIST    the observed box's CPUs (e.g. 1 or 0-1): steer its\n"            \
	"                         receive work there (RPS; its agent needs\n"                      \
	"                         --allow-tuning)\n"                                               \
	"      --profile[=HZ]     profile the kernel over each step's window (perf\n"              \
	"                         events, software cpu-clock, HZ per CPU, default 49,\n"           \
	"                         at most 4999): stream's receiver, both ends of\n"                \
	"                         tput, an observed box; where the CPU went by\n"                  \
	"                         subsystem, ns per datagram or KByte\n"

struct obs_cli {
	struct nb_obs_set set; /* the observers and their options */
	bool no_observe;
	bool implied; /* the lab's DUT, not asked for: its absence is no failure */
	bool quiet;
	uint32_t clocks_mhz[OBS_CLI_CLOCKS];
	size_t nclocks;
};

/* Handles one of the OBS_OPT_* options; returns false for any other. */
bool obs_cli_option(struct obs_cli *c, int opt, const char *arg);
/* When nothing was asked and dst (an address in text) is the lab's sink, observes the lab's DUT
 * (a note on stderr unless quiet). */
void obs_cli_lab_default(struct obs_cli *c, const char *dst, bool quiet);
/* Connects to every observer (psk_file: the run's --psk, may be NULL); exits on failure. */
void obs_cli_open(struct obs_cli *c, const char *psk_file);
static inline bool obs_cli_on(const struct obs_cli *c)
{
	return c->set.n > 0;
}

/* The kernel profile of observer i in one trial, one line: "DUT cpu1 97 %: netfilter 61 %
 * (312 ns/frame), driver 14 %, ..." and a second with its cost and what it holds. Nothing when
 * no profile was asked for. */
void obs_cli_print_profile(FILE *f, const struct nb_obs_set *c, size_t i,
			   const struct nb_obs_trial *t, const char *indent);
/* Appends the folded stacks of observer 0's profile in t to f, each stack under a root frame
 * named root (a trial, a rule count): the format flamegraph.pl, inferno and speedscope read.
 * Returns the lines written. */
size_t obs_cli_folded(FILE *f, const struct nb_obs_trial *t, const char *root); /* lines */

/* Which CPUs are the DUT's, in words ("1 (RPS)", "all 2"). */
void obs_cli_cpus_str(uint64_t mask, const struct nb_obs_snap *w, char *buf, size_t len);
/* The DUT's view of one trial, several lines, each starting with indent; cycles per frame as
 * the run stored them (t->cost). */
void obs_cli_print(FILE *f, const struct nb_obs_set *c, const struct nb_obs_trial *t,
		   const char *indent);

/* The compact view of a sweep (tput, stream): for each observer, a head naming it and its CPUs,
 * then one row per step under a label of label_width characters: the DUT's busiest CPU and what
 * it was busy with, softnet time_squeeze and drops, NIC drops, the frames it forwarded (its
 * egress interface's tx packets, wire packets) and the cycles per frame handled at ingress and
 * per payload byte, as the run stored them (t->cost). */
void obs_cli_step_head(FILE *f, const struct nb_obs_set *c, size_t i, const struct nb_obs_trial *t,
		       const char *label_head);
void obs_cli_step_row(FILE *f, size_t i, const struct nb_obs_trial *t, const char *label);

#endif
