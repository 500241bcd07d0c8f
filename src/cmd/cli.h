/* SPDX-License-Identifier: BSD-2-Clause */
/* Front-end helpers shared by every subcommand (src/cmd/<name>.c and its <name>_opts.c): bounded
 * option parsing that names the option, the value and the accepted range, usage errors (exit
 * status 2), failures (exit 1) and the stop flag. Only the front end prints and exits. */
#ifndef NB_CLI_H
#define NB_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>

#include "cmd/opt_table.h"
#include "core/base/cancel.h"
#include "core/session/ctl.h"

/* The front end's one mutable global: set by SIGINT/SIGTERM once cli_catch_signals() ran. */
extern nb_cancel_t cli_stop;
/* SIGINT and SIGTERM set cli_stop (without SA_RESTART, so a blocked poll returns at once);
 * SIGPIPE is ignored, a peer that went away shows as EPIPE. */
void cli_catch_signals(void);
/* For lab, whose steps run other programs: SIGINT, SIGTERM and SIGHUP set cli_stop (a lab whose
 * terminal goes away still undoes what it built), or with ignore they are ignored (what must
 * finish once begun, lab down: the programs it runs inherit that). SIGPIPE is left alone. */
void cli_catch_signals_hup(bool ignore);
/* While a file is written under a temporary name: SIGINT, SIGTERM, SIGHUP and SIGQUIT remove
 * PATH, then end the process as the signal would. NULL restores the handlers before. */
void cli_unlink_on_signal(const char *path);
/* Loads a --psk key file: exit 2 when it is empty or too long, 1 when it cannot be read. */
void cli_psk(const char *path, uint8_t *key, size_t *len);

/* Names the subcommand in every message: "netbench tput: ...". */
void cli_set_command(const char *name);
const char *cli_command(void);

noreturn void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports a run-time failure and exits 1. err is a positive or negative errno, or 0. */
noreturn void cli_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

uint64_t cli_uint(const char *opt, const char *val, uint64_t min, uint64_t max);
/* Bytes with binary suffixes (1k = 1024). */
uint64_t cli_bytes(const char *opt, const char *val, uint64_t min, uint64_t max);
/* Bit rates with decimal suffixes (12M = 12e6 bit/s). */
uint64_t cli_rate(const char *opt, const char *val, uint64_t min, uint64_t max);
/* Seconds, or with an ms/us suffix; returns nanoseconds. */
uint64_t cli_duration_ns(const char *opt, const char *val, uint64_t min_ns, uint64_t max_ns);
/* A comma-separated list of byte sizes, each within [min, max]; returns the count. */
size_t cli_bytes_list(const char *opt, const char *val, uint64_t *items, size_t max_items,
		      uint64_t min, uint64_t max);
size_t cli_rate_list(const char *opt, const char *val, uint64_t *items, size_t max_items,
		     uint64_t min, uint64_t max);

/* For getopt_long's '?' and ':' returns (main sets opterr = 0; option strings start with ':'):
 * names the unknown option or the one missing its value, and exits 2. */
noreturn void cli_bad_option(char **argv, int c);
/* The last case of every option switch: -h prints the help (usage_text, or usage's) on stdout
 * and exits 0, -V prints the version, anything else is cli_bad_option's. */
noreturn void cli_last_option(char **argv, int c, const char *usage_text, void (*usage)(FILE *f));

/* -c HOST[:PORT] alike in every subcommand: "host", "host:5301", "[::1]:5301", a bare IPv6
 * literal ("::1", no port). Returns the host (allocated; the front end keeps it for the run) and
 * sets *port when the value names one; exits 2 naming opt on a malformed value. */
const char *cli_hostport(const char *opt, const char *val, uint16_t *port);

/* -V/--version in every subcommand: prints "netbench VERSION (git REV)" and exits 0. */
noreturn void cli_version(void);
#define CLI_VERSION_LONGOPT                                                                        \
	{                                                                                          \
		"version", no_argument, NULL, 'V'                                                  \
	}
#define CLI_VERSION_HELP "  -V, --version          the program's version\n"
/* -h and -V as an option table's rows. */
#define CLI_HELP_ROWS                                                                              \
	OPT_ROW_PASS_HELP("help", 'h', no_argument, NULL, "this help"),                            \
	    OPT_ROW_PASS_HELP("version", 'V', no_argument, NULL, "the program's version")

/* A value given to a size option that reads as a bitrate: ends in M or G (optionally followed
 * by bit, bps or b/s), or is beyond max bytes. The caller then names the rate option. */
int cli_size_looks_like_rate(const char *val, uint64_t max);

/* -c, -p, --psk, -4 and -6 alike in the subcommands that run on an agent through one session:
 * the front end puts CLI_REMOTE_ROWS in its option table, hands each code to cli_remote_option
 * (true when it was one of them; --psk's code is 'k'), then calls cli_remote_finish after its
 * own checks, which refuses an option that needs -c without it (exit 2) and reads the key. -c's
 * help and the line naming -4 and -6 are the front end's (an agent's address, a board's, ...). */
#define CLI_REMOTE_ROWS(client_help, family_line)                                                  \
	OPT_ROW_PASS_HELP("client", 'c', required_argument, "HOST[:PORT]", client_help),           \
	    OPT_ROW_PASS("connect", 'c', required_argument, 'c'),                                  \
	    OPT_ROW_PASS_HELP("port", 'p', required_argument, "PORT",                              \
			      "the agent's control port (default 5301)"),                          \
	    OPT_ROW_PASS_HELP("psk", 'k', required_argument, "FILE",                               \
			      "pre-shared key the agent requires"),                                \
	    OPT_ROW_PASS(NULL, '4', no_argument, '4'), OPT_ROW_PASS(NULL, '6', no_argument, '6'),  \
	    OPT_ROW_TEXT(family_line)
struct cli_remote {
	struct nb_ctl_target *t;
	const char *psk_file;
	const char *remote_only; /* the last option given that needs -c */
};
bool cli_remote_option(struct cli_remote *r, int c, const char *name);
void cli_remote_finish(struct cli_remote *r);
/* After the option loop: -c HOST:PORT split (its port over -p), and nothing left over (exit 2). */
void cli_remote_args(struct cli_remote *r, int argc, char **argv);

/* getopt's current option as the user typed it, for messages: "--time" when the long name was
 * typed, "-t/--time" when the letter was. */
struct option;
const char *cli_optname(const struct option *opts, int c, int longindex);

#endif
