/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem's options: the help text, the parsing, and every impossible combination refused
 * with exit 2 (mem.c drives the run through core and prints). */
#include "cmd/mem_opts.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/opt_table.h"
#include "core/session/proto.h"

/* The help's head and tail; the option list between them is the table's. */
static const char usage_head[] =
    "Usage: netbench mem [options]\n"
    "       netbench mem -c HOST [-p PORT] [-k FILE] [options]\n"
    "\n"
    "Memory latency by working-set size (dependent loads, ns and core\n"
    "cycles per load), cache sizes inferred from the latency curve beside\n"
    "what sysfs says, and read/write/copy bandwidth for a buffer at least\n"
    "4x the last-level cache (about 10 s).\n"
    "\n"
    "Options:\n";
static const char usage_tail[] =
    "\n"
    "MB/s = 10^6 bytes per second; copy counts each byte copied once.\n";

/* The largest working set or bandwidth buffer: 64 GiB. */
#define MEM_MAX_BYTES (1ULL << 36)

/* --min and --max keep the value as typed for the messages of mem_parse_opts. */
static void set_min(void *dst, const char *name, const char *arg)
{
	struct mem_opts *o = dst;
	o->p.min_bytes = cli_bytes(name, arg, NB_MEM_MIN_SET_BYTES, MEM_MAX_BYTES);
	o->min_arg = arg;
}

static void set_max(void *dst, const char *name, const char *arg)
{
	struct mem_opts *o = dst;
	o->p.max_bytes = cli_bytes(name, arg, NB_MEM_MIN_SET_BYTES, MEM_MAX_BYTES);
	o->max_arg = arg;
}

static void set_sizes(void *dst, const char *name, const char *arg)
{
	struct mem_opts *o = dst;
	uint64_t mm[2];
	if (cli_bytes_list(name, arg, mm, 2, NB_MEM_MIN_SET_BYTES, MEM_MAX_BYTES) != 2)
		cli_usage_error("%s: '%s' is not MIN,MAX", name, arg);
	o->p.min_bytes = mm[0];
	o->p.max_bytes = mm[1];
	o->min_arg = o->max_arg = arg;
	/* name is the parser's buffer: the message needs it after parsing */
	snprintf(o->sizes_opt, sizeof(o->sizes_opt), "%s", name);
}

static void set_pattern(void *dst, const char *name, const char *arg)
{
	(void)name;
	if (nb_mem_pattern_parse(arg, &((struct mem_opts *)dst)->p.pattern))
		cli_usage_error("--pattern: '%s' is not a pattern (accepted: random, seq)", arg);
}

#define AT(member) OPT_AT(struct mem_opts, member)

/* mem's options, in the order of its help: the probe's, then those of a run on an agent. */
static const struct opt_row rows[] = {
    {"sizes", 'l', OPT_SET, .set = set_sizes, .has_arg = required_argument, .arg = "MIN,MAX",
     .help = "the two below in one option"},
    {"min", 0, OPT_SET, .set = set_min, .has_arg = required_argument, .arg = "SIZE",
     .help = "smallest working set (default 1k; k/M/G = 1024-based)"},
    {"max", 0, OPT_SET, .set = set_max, .has_arg = required_argument, .arg = "SIZE",
     .help = "largest working set (default 256M; capped at half of the\navailable memory)"},
    {"pattern", 0, OPT_SET, .set = set_pattern, .has_arg = required_argument, .arg = "P",
     .help = "random: one random cycle through the lines, defeats\nprefetchers (default); seq: "
	     "line after line, shows what\nthe prefetcher hides"},
    {"threads", 0, OPT_UINT, 1, NB_MEM_MAX_THREADS, AT(p.threads), .arg = "N",
     .help = "bandwidth with 1 and with N threads (default:\nonline CPUs)"},
    {"bw-size", 0, OPT_BYTES, 1ULL << 20, MEM_MAX_BYTES, AT(p.bw_bytes), .arg = "SIZE",
     .help = "bandwidth buffer (default 4x the last-level cache)"},
    {"quick", 'q', OPT_FLAG, AT(p.quick),
     .help = "fewer points, shorter trials, bandwidth buffer at most\n64M: seconds (with a "
	     "last-level cache over 16M the\nbandwidth is then partly cache bandwidth; --bw-size\n"
	     "overrides the cap)"},
    {"json", 'J', OPT_PASS, .has_arg = no_argument,
     .help = "print the result as JSON (schema netbench/1)"},
    CLI_SAVE_ROWS,
    CLI_HELP_ROWS,
    OPT_ROW_TEXT("\nOn a board ('netbench serve' running there), from this host:\n"),
    CLI_REMOTE_ROWS("(alias --connect; [IPv6]:PORT)\nrun the probe on the agent at HOST; the "
		    "options above\napply there (sizes capped by the board's memory)",
		    "  -4, -6               use IPv4 / IPv6 only\n"),
};
static const struct opt_table table = {rows, sizeof(rows) / sizeof(rows[0]), 23};

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(&table, f);
	fputs(usage_tail, f);
}

/* The working sets' bounds, given or defaulted, in order. */
static void check_sizes(const struct mem_opts *o)
{
	const struct nb_mem_params *p = &o->p;
	if (p->min_bytes && p->max_bytes && p->min_bytes > p->max_bytes && o->min_arg == o->max_arg)
		cli_usage_error("%s %s: MIN is larger than MAX (give the smaller size first)",
				o->sizes_opt, o->min_arg);
	if (p->min_bytes && p->max_bytes && p->min_bytes > p->max_bytes)
		cli_usage_error("--min (%s) is larger than --max (%s)", o->min_arg, o->max_arg);
	if (p->min_bytes && !p->max_bytes && p->min_bytes > NB_MEM_DEFAULT_MAX_BYTES)
		cli_usage_error("--min is larger than the default --max (256M): give --max too");
	if (p->max_bytes && !p->min_bytes && p->max_bytes < NB_MEM_MIN_SET_BYTES)
		cli_usage_error("--max is smaller than the default --min (1k)");
}

int mem_parse_opts(int argc, char **argv, struct mem_opts *o)
{
	struct cli_remote remote = {.t = &o->remote};
	struct cli_common cc = {&o->json, &remote, &o->save, usage};

	memset(o, 0, sizeof(*o));
	o->remote.port = NB_DEFAULT_PORT;
	o->remote.family = AF_UNSPEC;
	opt_parse(&table, argc, argv, o, cli_common_other, &cc);
	cli_remote_args(&remote, argc, argv);
	cli_save_start(&o->save, "mem", o->json);
	check_sizes(o);
	cli_remote_finish(&remote);
	return 0;
}
