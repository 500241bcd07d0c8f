/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench tput's options: the help text, the parsing into the sweep's parameters and every
 * impossible combination refused with exit 2 (core/tput/tput_ctl.c runs the sweep, tput.c
 * prints). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/opt_table.h"
#include "cmd/pacing.h"
#include "cmd/tput_opts.h"
#include "core/base/tcpcc.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/tput/tput_run.h"

/* The help's head and tail; the option list between them is the table's. */
static const char usage_head[] =
    "Usage: netbench tput -c HOST [options]\n"
    "Throughput per block size, Tx (this host sends) and Rx (the agent\n"
    "sends), with the CPU load of both ends over each measurement\n"
    "window. The agent runs 'netbench serve'.\n"
    "\n";
static const char usage_tail[] =
    "\n"
    "Units: KByte/s = 1024 bytes/s (as netio prints), Mbit/s = 10^6 bit/s. CPU: proc%\n"
    "is the netbench process (% of one CPU); sys% and sirq% are the whole system's\n"
    "busy and softirq shares (% of all CPUs); us/KB is system busy CPU time per KByte\n"
    "moved. A '*' marks a window in which other processes used more than 5 % of a CPU\n"
    "at either end (their work is then in the CPU figures); an idle baseline of\n"
    "0.25 s is taken before the sweep.\n";

/* --congestion: a loaded algorithm of this kernel (no module is ever loaded for a name). */
static void congestion(const char *name, const char *arg, char out[NB_TCPCC_NAME_MAX])
{
	char avail[512];
	int ret;
	if (!nb_tcpcc_name_ok(arg))
		cli_usage_error(
		    "%s: '%s' is not an algorithm's name (1 to %d of a-z, 0-9, _ and -)", name, arg,
		    NB_TCPCC_NAME_MAX - 1);
	if ((ret = nb_tcpcc_read_list(NB_TCPCC_AVAILABLE, avail, sizeof(avail))))
		cli_fail(0, "%s: this kernel does not list its algorithms (%s)", name,
			 strerror(-ret));
	if (!nb_tcpcc_in_list(avail, arg))
		cli_usage_error(
		    "%s: '%s' is not loaded in this kernel (loaded: %s); netbench loads "
		    "no module for it",
		    name, arg, avail);
	memcpy(out, arg, strlen(arg) + 1);
}

/* Datagrams a stream must send in each window for its rate to be measured: one datagram more or
 * less is then at most a tenth of the figure. */
#define TPUT_UDP_MIN_DATAGRAMS 10

/* A paced UDP stream sends one datagram every size x 8 / rate seconds: too slow a rate for the
 * largest datagram leaves the window (nearly) empty, and the run would wait for nothing.
 * Refused with the smallest rate that measures. */
static void check_udp_rate(const struct tput_opts *o, const char *rate_str)
{
	uint64_t size = 0;
	for (size_t i = 0; i < o->nsizes; i++)
		size = o->sizes[i] > size ? o->sizes[i] : size;
	if (!o->p.rate_bps || !size)
		return;
	double window_s = (double)o->p.time_ns / 1e9;
	double per_window = (double)o->p.rate_bps * window_s / ((double)size * 8);
	if (per_window >= TPUT_UDP_MIN_DATAGRAMS)
		return;
	double need = ceil(TPUT_UDP_MIN_DATAGRAMS * (double)size * 8 / window_s);
	const char *unit = need >= 1e6 ? "M" : "k";
	double shown = need / (need >= 1e6 ? 1e6 : 1e3);
	shown = ceil(shown * 100) / 100; /* rounded up: the rate shown is enough */
	cli_usage_error(
	    "-r %s is too slow for %llu-byte datagrams: a %.3g s window would hold %.2g "
	    "of them per stream, and a rate needs %d; give at least -r %.2f%s (or "
	    "smaller -l, or a longer -t)",
	    rate_str ? rate_str : "", (unsigned long long)size, window_s, per_window,
	    TPUT_UDP_MIN_DATAGRAMS, shown, unit);
}

static void set_udp(void *dst, const char *name, const char *arg)
{
	(void)name, (void)arg;
	((struct tput_opts *)dst)->p.proto = NB_TPUT_UDP;
}

static void set_rate(void *dst, const char *name, const char *arg)
{
	struct tput_opts *o = dst;
	o->rate_str = arg;
	o->p.rate_bps = cli_rate(name, arg, 0, 400000000000ULL);
	if (o->p.rate_bps && o->p.rate_bps < 8000)
		cli_usage_error("%s is too small: %s (at least 8k, or 0 for unpaced)", name, arg);
}

static void set_pacing(void *dst, const char *name, const char *arg)
{
	struct tput_opts *o = dst;
	o->p.pacing = cli_pacing(name, arg);
	if (o->p.pacing == NB_PACING_TXTIME)
		cli_usage_error("%s txtime is for stream; tput paces with burst or spin", name);
}

static void set_congestion(void *dst, const char *name, const char *arg)
{
	congestion(name, arg, ((struct tput_opts *)dst)->p.congestion);
}

#define AT(member) OPT_AT(struct tput_opts, member)

/* tput's options, in the order of its help. */
static const struct opt_row rows[] = {
    {"client", 'c', OPT_PASS, .has_arg = required_argument, .arg = "HOST[:PORT]",
     .help = "the agent's address or name (required; [IPv6]:PORT;\nalias --connect)"},
    {"connect", 'c', OPT_PASS, .has_arg = required_argument},
    {"port", 'p', OPT_PASS, .has_arg = required_argument, .arg = "PORT",
     .help = "the agent's control port (default 5301)"},
    {"sizes", 'l', OPT_BYTES_LIST, 1, NB_TPUT_MAX_BLOCK, AT(sizes),
     .cnt = offsetof(struct tput_opts, nsizes), .nmax = TPUT_MAX_SIZES, .arg = "LIST",
     .help = "block sizes, k = 1024 (default 1k,2k,4k,8k,16k,32k)"},
    {"time", 't', OPT_DURATION, NB_NS_PER_S / 10, 3600 * NB_NS_PER_S, AT(p.time_ns), .arg = "SEC",
     .help = "measurement window per step (default 3 s)"},
    {"omit", 'O', OPT_DURATION, 0, 60 * NB_NS_PER_S, AT(p.warmup_ns), .arg = "SEC",
     .help = "warm-up excluded before each window (default 0.5 s)"},
    {"interval", 'i', OPT_DURATION, NB_NS_PER_S / 10, 3600 * NB_NS_PER_S, AT(p.interval_ns),
     .arg = "SEC",
     .help = "also print rates every SEC within the window, as they\ncome, under their own "
	     "heading; the table follows them"},
    {"udp", 'u', OPT_SET, .set = set_udp, .has_arg = no_argument,
     .help = "UDP instead of TCP (loss, reordering,\nduplicates reported)"},
    {"rate", 'r', OPT_SET, .set = set_rate, .has_arg = required_argument, .arg = "RATE",
     .help = "pace each stream at RATE bit/s, k/M/G = 10^3/6/9\n(UDP default 100M; TCP default "
	     "unpaced; 0 = unpaced)"},
    /* hidden: --rate's letter in older scripts (docs/cli.md) */
    {NULL, 'b', OPT_SET, .set = set_rate, .has_arg = required_argument},
    {"pacing", 0, OPT_SET, .set = set_pacing, .has_arg = required_argument, .arg = "MODE",
     .help = "paced senders: burst (default; auto is burst here):\nsleep, wake about once per ms "
	     "and send what is due;\nspin: each block on its own deadline (exact gaps, a CPU\nat "
	     "short intervals)"},
    {"burst", 0, OPT_UINT, 1, NB_PACER_MAX_BURST, AT(p.burst), .arg = "N",
     .help = "blocks per wake-up in burst mode\n(1-1024; default ~1 ms)"},
    {"parallel", 'P', OPT_UINT, 1, NB_TPUT_MAX_STREAMS / 2, AT(p.streams), .arg = "N",
     .help = "streams per direction (default 1, at most 32)"},
    {"reverse", 'R', OPT_FLAG, AT(reverse), .help = "Rx only (the agent sends)"},
    {"tx-only", 0, OPT_FLAG, AT(tx_only), .help = "Tx only (this host sends)"},
    {"bidir", 0, OPT_FLAG, AT(bidir), .help = "Tx and Rx at the same time"},
    {"congestion", 'C', OPT_SET, .set = set_congestion, .has_arg = required_argument, .arg = "ALGO",
     .help =
	 "TCP congestion control of both ends' data connections,\nas iperf3's -C (default: each "
	 "kernel's own; loaded ones\nonly, in tcp_available_congestion_control; the agent\ntakes "
	 "those in its tcp_allowed_congestion_control, any\nloaded one with serve --allow-tuning)"},
    OPT_ROW_PASS(NULL, '4', no_argument, '4'),
    OPT_ROW_PASS(NULL, '6', no_argument, '6'),
    OPT_ROW_TEXT("  -4, -6                 use IPv4 / IPv6 only\n"),
    {"psk", 'k', OPT_PASS, .has_arg = required_argument, .arg = "FILE",
     .help = "pre-shared key the agent requires"},
    {"json", 'J', OPT_PASS, .has_arg = no_argument,
     .help = "print one JSON document (schema netbench/1)"},
    OBS_CLI_ROWS,
    OPT_ROW_TEXT(OBS_CLI_PATH_HELP),
    CLI_SAVE_ROWS,
    CLI_HELP_ROWS,
};
static const struct opt_table table = {rows, sizeof(rows) / sizeof(rows[0]), 25};

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(&table, f);
	fputs(usage_tail, f);
}

/* The shared options: the observers', then -J, the agent's, --save's, -h, -V. */
struct shared {
	struct obs_cli *obs;
	const struct cli_common *cc;
};
static void other_option(void *ctx, int c, const char *name, int argc, char **argv)
{
	const struct shared *sh = ctx;
	if (!obs_cli_option(sh->obs, c, optarg))
		cli_common_option(sh->cc, c, name, argc, argv);
}

static void defaults(struct tput_opts *o)
{
	static const uint64_t netio_sizes[] = {1024, 2048, 4096, 8192, 16384, 32768};
	memset(o, 0, sizeof(*o));
	o->p.proto = NB_TPUT_TCP;
	o->p.streams = 1;
	o->p.time_ns = 3 * NB_NS_PER_S;
	o->p.warmup_ns = NB_NS_PER_S / 2;
	o->t.port = 5301;
	o->t.family = AF_UNSPEC;
	memcpy(o->sizes, netio_sizes, sizeof(netio_sizes));
	o->nsizes = 6;
}

/* UDP: the default rate, block sizes a datagram holds, a rate that fills the window. */
static void check_udp(struct tput_opts *o)
{
	uint64_t max_block = NB_TPUT_UDP_MAX;
	if (o->p.proto != NB_TPUT_UDP)
		return;
	if (!o->rate_str)
		o->p.rate_bps = 100000000;
	for (size_t i = 0; i < o->nsizes; i++)
		if (o->sizes[i] < NB_TPUT_UDP_HDR || o->sizes[i] > max_block)
			cli_usage_error("--sizes: %llu bytes does not fit a UDP test datagram "
					"(%d to %llu bytes)",
					(unsigned long long)o->sizes[i], NB_TPUT_UDP_HDR,
					(unsigned long long)max_block);
	check_udp_rate(o, o->rate_str);
}

int tput_parse_opts(int argc, char **argv, struct tput_opts *o)
{
	struct cli_remote remote = {.t = &o->t};
	const struct cli_common cc = {&o->json, &remote, &o->save, usage};
	struct shared sh = {&o->obs, &cc};

	defaults(o);
	opt_parse(&table, argc, argv, o, other_option, &sh);
	cli_remote_args(&remote, argc, argv);
	/* --save's own checks (and its copy of the output) come before the ones below. */
	cli_save_start(&o->save, "tput", o->json);
	if (!o->t.host)
		cli_usage_error("the agent's address is required: -c HOST");
	if (o->reverse + o->tx_only + o->bidir > 1)
		cli_usage_error("--reverse, --tx-only and --bidir exclude each other");
	if (o->p.interval_ns && o->p.interval_ns > o->p.time_ns)
		cli_usage_error("--interval is longer than --time");
	cli_pacing_check((enum nb_pacing_mode)o->p.pacing, o->p.burst);
	if (o->obs.nclocks)
		cli_usage_error("--observe-clocks is rate's: tput observes at the clock it finds");
	if (o->obs.no_observe)
		cli_usage_error("--no-observe is rate's: tput observes only what --observe names");
	/* --profile: both ends' kernel profiles over each window, and an observer's too. */
	o->p.profile_hz = o->obs.set.req.profile_hz;
	if (!o->obs.set.n)
		o->obs.set.req.profile_hz = 0;
	if (o->p.proto == NB_TPUT_UDP && o->p.congestion[0])
		cli_usage_error("--congestion is TCP's: UDP has no congestion control");
	check_udp(o);
	o->tx = !o->reverse;
	o->rx = !o->tx_only;
	cli_remote_finish(&remote); /* reads the key */
	o->psk_file = remote.psk_file;
	return 0;
}
