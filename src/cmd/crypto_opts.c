/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's options: the help text, the parsing, the defaults that depend on other
 * options, and every impossible combination refused with exit 2 (crypto.c prints the run). */
#include "cmd/crypto_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/opt_table.h"
#include "core/session/proto.h"

/* The help's head and tail; the option list between them is the table's. */
static const char usage_head[] =
    "Usage: netbench crypto [options] [-c HOST [-p PORT] [-k FILE]]\n"
    "Cipher and MAC throughput (MB/s, 10^6), operations/s, per-request\n"
    "latency and CPU time per KByte, by request size and engine. Every\n"
    "engine's output is compared with a known answer and with soft before it\n"
    "is timed; a wrong engine is never timed.\n"
    "\n";
static const char usage_tail[] =
    "\n"
    "Units: MB/s = 10^6 bytes/s of request payload; CPU us/KByte = CPU microseconds\n"
    "per 1024 bytes, of this process (proc) and of the whole system (sys).\n";

static void set_algos(void *dst, const char *name, const char *arg)
{
	char bad[80];
	int ret = nb_crypto_select_algos(&((struct crypto_opts *)dst)->p, arg, bad, sizeof(bad));
	if (ret == -E2BIG)
		cli_usage_error("%s: too many algorithms (at most %d)", name, NB_CRYPTO_MAX_ALGOS);
	if (ret)
		cli_usage_error("%s: unknown algorithm '%s' (see --help)", name, bad);
}

/* The sizes are 32-bit in the parameters: read as the engine's 64-bit list, then copied. */
static void set_sizes(void *dst, const char *name, const char *arg)
{
	struct nb_crypto_params *p = &((struct crypto_opts *)dst)->p;
	uint64_t sz[NB_CRYPTO_MAX_SIZES];
	p->nsizes = cli_bytes_list(name, arg, sz, NB_CRYPTO_MAX_SIZES, 1, NB_CRYPTO_MAX_SIZE);
	for (size_t i = 0; i < p->nsizes; i++)
		p->sizes[i] = (uint32_t)sz[i];
}

/* The agent-only build (NB_AGENT_ONLY) profiles for a controller (-c), not for itself: its
 * small flash keeps the agent's side of the profile, not the printing and the stacks' file. */
#ifndef NB_AGENT_ONLY
static void set_profile(void *dst, const char *name, const char *arg)
{
	((struct crypto_opts *)dst)->p.profile_hz =
	    arg ? (uint32_t)cli_uint(name, arg, 1, NB_PROF_HZ_MAX) : NB_PROF_HZ_DEFAULT;
}

static void set_folded(void *dst, const char *name, const char *arg)
{
	(void)name;
	if (!*arg)
		cli_usage_error("--profile-folded: an empty file name");
	((struct crypto_opts *)dst)->profile_folded = arg;
	cli_check_writable("--profile-folded", arg);
}
#endif

#define AT(member) OPT_AT(struct crypto_opts, member)

/* crypto's options, in the order of its help. --algo's letter -a is hidden (older scripts'; -a
 * is stream's group) and --sizes has two letters, -s and -l: a text row is their help. */
static const struct opt_row rows[] = {
    {"algo", 'a', OPT_SET, .set = set_algos, .has_arg = required_argument},
    OPT_ROW_TEXT("      --algo LIST      algorithms (default all): aes-128-cbc, aes-256-cbc,\n"
		 "                       aes-128-gcm, aes-256-gcm, chacha20-poly1305, hmac-sha1,\n"
		 "                       hmac-sha256, aes-128-cbc-hmac-sha1 (ESP-style), all\n"),
    {"sizes", 's', OPT_SET, .set = set_sizes, .has_arg = required_argument},
    {NULL, 'l', OPT_SET, .set = set_sizes, .has_arg = required_argument},
    OPT_ROW_TEXT("  -l, -s, --sizes LIST     request sizes in bytes, 1..64k\n"
		 "                       (default 16,64,256,1024,1420,8192,16384);\n"
		 "                       CBC pads to 16 as ESP does\n"),
    {"engine", 'e', OPT_STRING, AT(engines), .arg = "LIST",
     .help =
	 "soft, devcrypto, afalg, all (default all);\nafalg:DRIVER binds that kernel driver (a "
	 "driver name of\n/proc/crypto, e.g. afalg:cbc(aes-generic), or "
	 "ESP's\nafalg:authenc(hmac(sha1-generic),cbc(aes-generic)) with\n--algo "
	 "aes-128-cbc-hmac-sha1; commas inside parentheses\nbelong to the name); afalg:all "
	 "times\nevery driver of the algorithms, hardware and software,\nand gives each hardware "
	 "driver's crossover with the\nfastest software one (on this host: not with -c)"},
    {"time", 't', OPT_DURATION, 10000000ull, 60000000000ull, AT(p.time_ns),
     .seen = offsetof(struct crypto_opts, time_set), .arg = "DUR",
     .help = "measurement window per size (default 0.5 s; 10ms..60s)"},
    {"repeat", 0, OPT_UINT, 1, NB_CRYPTO_MAX_REPEAT, AT(p.repeat), .arg = "N",
     .help = "the window as N consecutive equal parts (default 3;\n1..20): their rates give each "
	     "MB/s its 95 % interval, and\na difference inside the intervals is not one"},
    {"inflight", 'n', OPT_UINT, 1, NB_CRYPTO_MAX_INFLIGHT, AT(p.inflight), .arg = "N",
     .help = "requests in flight, one thread each\n(default 1; at most 64)"},
    {"aad", 0, OPT_UINT, 0, NB_CRYPTO_MAX_AAD, AT(p.aad_len), .arg = "BYTES",
     .help = "associated data per AEAD request (default 8, ESP; 0..64)"},
    {"quick", 'q', OPT_FLAG, AT(quick),
     .help = "short windows (50 ms), for a demo in a few seconds"},
#ifndef NB_AGENT_ONLY /* the agent-only build has no crypto profile of its own (above) */
    {"profile", 0, OPT_SET, .set = set_profile, .has_arg = optional_argument, .arg = "[=HZ]",
     .help = "the kernel profile over each point's window (perf events,\nsoftware cpu-clock, HZ "
	     "per CPU, default 49, at most\n4999): where the CPU went by subsystem (crypto by "
	     "driver,\nthe scheduler, interrupts, ...), ns per request and per\nbyte, the top "
	     "functions with their module"},
    {"profile-folded", 0, OPT_SET, .set = set_folded, .has_arg = required_argument, .arg = "FILE",
     .help = "each point's kernel stacks as folded stacks for a\nflame graph (flamegraph.pl, "
	     "inferno, speedscope)"},
#endif
    CLI_REMOTE_ROWS("(alias --connect; [IPv6]:PORT)\nrun on the agent (netbench serve) at HOST, "
		    "e.g. the board",
		    "  -4, -6               IPv4 or IPv6 only, for -c\n"),
    {"json", 'J', OPT_PASS, .has_arg = no_argument,
     .help = "one JSON document (schema netbench/1) on stdout"},
    CLI_SAVE_ROWS,
    CLI_HELP_ROWS,
};
static const struct opt_table table = {rows, sizeof(rows) / sizeof(rows[0]), 23};

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(&table, f);
	fputs(usage_tail, f);
}

/* --engine, after the algorithms: afalg:all times every driver of those. */
static void select_engines(struct crypto_opts *o)
{
	char bad[80];
	int ret;
	if (!o->engines)
		return;
	if (o->remote.host && strstr(o->engines, "afalg:all"))
		cli_usage_error("--engine afalg:all lists this host's drivers: run netbench crypto "
				"on the board itself, or name the drivers (afalg:DRIVER)");
	ret = nb_crypto_select_engines(&o->p, o->engines, bad, sizeof(bad));
	if (ret == -E2BIG)
		cli_usage_error("--engine: too many engines (at most %d)", NB_CRYPTO_MAX_ENGINES);
	if (ret == -EINVAL)
		cli_usage_error("--engine: parentheses do not match in '%s'", bad);
	if (ret)
		cli_usage_error("--engine: unknown engine '%s' (soft, devcrypto, afalg, "
				"afalg:DRIVER, afalg:all, all)",
				bad);
}

int crypto_parse_opts(int argc, char **argv, struct crypto_opts *o)
{
	struct nb_crypto_params *p = &o->p;
	struct cli_remote remote = {.t = &o->remote};
	struct cli_common cc = {&o->json, &remote, &o->save, usage};

	memset(o, 0, sizeof(*o));
	o->remote.port = NB_DEFAULT_PORT;
	o->remote.family = AF_UNSPEC;
	nb_crypto_params_default(p);
	opt_parse(&table, argc, argv, o, cli_common_other, &cc);
	cli_remote_args(&remote, argc, argv);
	select_engines(o);
	cli_save_start(&o->save, "crypto", o->json);
	cli_remote_finish(&remote);
	/* The stacks come from the profile: --profile-folded asks for it at the default rate. */
	if (o->profile_folded && !p->profile_hz)
		p->profile_hz = NB_PROF_HZ_DEFAULT;
	p->profile_folded = o->profile_folded != NULL;
	if (o->quick && !o->time_set)
		p->time_ns = 50000000ull;
	/* Warm-up: a fifth of the window, at most 100 ms (caches, clocks, lazy setup). */
	p->warmup_ns = p->time_ns / 5 < 100000000ull ? p->time_ns / 5 : 100000000ull;
	return 0;
}
