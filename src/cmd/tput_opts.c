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
#include "cmd/pacing.h"
#include "cmd/tput_opts.h"
#include "core/base/tcpcc.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/tput/tput_run.h"

static const char usage_text[] =
    "Usage: netbench tput -c HOST [options]\n"
    "Throughput per block size, Tx (this host sends) and Rx (the agent sends), with the CPU\n"
    "load of both ends over each measurement window. The agent runs 'netbench serve'.\n"
    "\n"
    "  -c, --client HOST[:PORT]  the agent's address or name (required; [IPv6]:PORT;\n"
    "                         alias --connect)\n"
    "  -p, --port PORT        the agent's control port (default 5301)\n"
    "  -l, --sizes LIST       block sizes, k = 1024 (default 1k,2k,4k,8k,16k,32k)\n"
    "  -t, --time SEC         measurement window per step (default 3 s)\n"
    "  -O, --omit SEC         warm-up excluded before each window (default 0.5 s)\n"
    "  -i, --interval SEC     also print rates every SEC within the window, as they\n"
    "                         come, under their own heading; the table follows them\n"
    "  -u, --udp              UDP instead of TCP (loss, reordering, duplicates reported)\n"
    "  -r, --rate RATE        pace each stream at RATE bit/s, k/M/G = 10^3/6/9\n"
    "                         (UDP default 100M; TCP default unpaced; 0 = unpaced)\n"
    "      --pacing MODE      paced senders: burst (default; auto is burst here): sleep,\n"
    "                         wake about once per ms and send what is due; spin: each\n"
    "                         block on its own deadline (exact gaps, a CPU at short\n"
    "                         intervals)\n"
    "      --burst N          blocks per wake-up in burst mode (1-1024; default ~1 ms)\n"
    "  -P, --parallel N       streams per direction (default 1, at most 32)\n"
    "  -R, --reverse          Rx only (the agent sends)\n"
    "      --tx-only          Tx only (this host sends)\n"
    "      --bidir            Tx and Rx at the same time\n"
    "  -C, --congestion ALGO  TCP congestion control of both ends' data connections, as\n"
    "                         iperf3's -C (default: each kernel's own; loaded ones only, in\n"
    "                         tcp_available_congestion_control; the agent takes those in\n"
    "                         its tcp_allowed_congestion_control, any loaded one with\n"
    "                         serve --allow-tuning)\n"
    "  -4, -6                 use IPv4 / IPv6 only\n"
    "  -k, --psk FILE         pre-shared key the agent requires\n"
    "  -J, --json             print one JSON document (schema netbench/1)\n" OBS_CLI_PATH_HELP
	CLI_SAVE_HELP "  -h, --help             this help\n" CLI_VERSION_HELP "\n"
    "Units: KByte/s = 1024 bytes/s (as netio prints), Mbit/s = 10^6 bit/s. CPU: proc% is the\n"
    "netbench process (% of one CPU); sys% and sirq% are the whole system's busy and softirq\n"
    "shares (% of all CPUs); us/KB is system busy CPU time per KByte moved. A '*' marks a\n"
    "window in which other processes used more than 5 % of a CPU at either end (their work\n"
    "is then in the CPU figures); an idle baseline of 0.25 s is taken before the sweep.\n";

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
		cli_usage_error("%s: this kernel does not list its algorithms (%s)", name,
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

int tput_parse_opts(int argc, char **argv, struct tput_opts *o)
{
	static const struct option opts[] = {
	    CLI_REMOTE_LONGOPTS,
	    {"sizes", required_argument, NULL, 'l'},
	    {"time", required_argument, NULL, 't'},
	    {"omit", required_argument, NULL, 'O'},
	    {"interval", required_argument, NULL, 'i'},
	    {"udp", no_argument, NULL, 'u'},
	    {"rate", required_argument, NULL, 'r'},
	    {"parallel", required_argument, NULL, 'P'},
	    {"reverse", no_argument, NULL, 'R'},
	    {"tx-only", no_argument, NULL, 'T'},
	    {"bidir", no_argument, NULL, 'X'},
	    {"pacing", required_argument, NULL, 'g'},
	    {"burst", required_argument, NULL, 'G'},
	    {"congestion", required_argument, NULL, 'C'},
	    CLI_COMMON_LONGOPTS,
	    CLI_SAVE_LONGOPTS,
	    OBS_CLI_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	static const uint64_t netio_sizes[] = {1024, 2048, 4096, 8192, 16384, 32768};
	const char *rate_str = NULL;
	bool reverse = false, tx_only = false;
	int c, li = -1;
	uint64_t max_block;
	struct cli_remote remote = {.t = &o->t};
	const struct cli_common cc = {&o->json, &remote, &o->save, usage_text, NULL};

	memset(o, 0, sizeof(*o));
	o->p.proto = NB_TPUT_TCP;
	o->p.streams = 1;
	o->p.time_ns = 3 * NB_NS_PER_S;
	o->p.warmup_ns = NB_NS_PER_S / 2;
	o->t.port = 5301;
	o->t.family = AF_UNSPEC;
	memcpy(o->sizes, netio_sizes, sizeof(netio_sizes));
	o->nsizes = 6;
	while ((c = getopt_long(argc, argv, ":c:p:l:t:O:i:ur:b:P:k:C:RJhV46o:", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		switch (c) {
		case 'l':
			o->nsizes = cli_bytes_list(name, optarg, o->sizes, TPUT_MAX_SIZES, 1,
						   NB_TPUT_MAX_BLOCK);
			break;
		case 't':
			o->p.time_ns =
			    cli_duration_ns(name, optarg, NB_NS_PER_S / 10, 3600 * NB_NS_PER_S);
			break;
		case 'O':
			o->p.warmup_ns = cli_duration_ns(name, optarg, 0, 60 * NB_NS_PER_S);
			break;
		case 'i':
			o->p.interval_ns =
			    cli_duration_ns(name, optarg, NB_NS_PER_S / 10, 3600 * NB_NS_PER_S);
			break;
		case 'u':
			o->p.proto = NB_TPUT_UDP;
			break;
		case 'b': /* hidden: --rate's letter in older scripts (docs/cli.md) */
		case 'r':
			rate_str = optarg;
			o->p.rate_bps = cli_rate(name, optarg, 0, 400000000000ULL);
			if (o->p.rate_bps && o->p.rate_bps < 8000)
				cli_usage_error(
				    "%s is too small: %s (at least 8k, or 0 for unpaced)", name,
				    optarg);
			break;
		case 'g':
			o->p.pacing = cli_pacing(name, optarg);
			if (o->p.pacing == NB_PACING_TXTIME)
				cli_usage_error(
				    "%s txtime is for stream; tput paces with burst or spin", name);
			break;
		case 'G':
			o->p.burst = (uint32_t)cli_uint(name, optarg, 1, NB_PACER_MAX_BURST);
			break;
		case 'C':
			congestion(name, optarg, o->p.congestion);
			break;
		case 'P':
			o->p.streams = (uint32_t)cli_uint(name, optarg, 1, NB_TPUT_MAX_STREAMS / 2);
			break;
		case 'R':
			reverse = true;
			break;
		case 'T':
			tx_only = true;
			break;
		case 'X':
			o->bidir = true;
			break;
		default:
			if (!obs_cli_option(&o->obs, c, optarg))
				cli_common_option(&cc, c, name, argc, argv);
		}
	}
	cli_remote_args(&remote, argc, argv);
	/* --save's own checks (and its copy of the output) come before the ones below. */
	cli_save_start(&o->save, "tput", o->json);
	if (!o->t.host)
		cli_usage_error("the agent's address is required: -c HOST");
	if (reverse + tx_only + o->bidir > 1)
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
	if (o->p.proto == NB_TPUT_UDP) {
		max_block = NB_TPUT_UDP_MAX;
		if (!rate_str)
			o->p.rate_bps = 100000000;
		for (size_t i = 0; i < o->nsizes; i++)
			if (o->sizes[i] < NB_TPUT_UDP_HDR || o->sizes[i] > max_block)
				cli_usage_error(
				    "--sizes: %llu bytes does not fit a UDP test datagram "
				    "(%d to %llu bytes)",
				    (unsigned long long)o->sizes[i], NB_TPUT_UDP_HDR,
				    (unsigned long long)max_block);
		check_udp_rate(o, rate_str);
	}
	o->tx = !reverse;
	o->rx = !tx_only;
	cli_remote_finish(&remote); /* reads the key */
	o->psk_file = remote.psk_file;
	return 0;
}
