/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench stream's options: the help text, the parsing into the run's parameters and every
 * impossible combination refused with exit 2 (stream.c runs and prints). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "cmd/cli.h"
#include "cmd/observe_cli.h"
#include "cmd/pacing.h"
#include "cmd/save.h"
#include "cmd/stream_opts.h"
#include "core/stream/stream_ctl.h"
#include "core/stream/stream_sock.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"

#define INTERVAL_HELP                                                                              \
	"  -i, --interval T     also print the receiver's figures every T (0.1s to 1h)\n"          \
	"                       within each step's window, as they come, under their own\n"        \
	"                       heading; the table follows them. A receiver on this host:\n"       \
	"                       --recv or -c HOST --reverse\n"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: netbench stream --recv -a GROUP|ADDR [-p PORT] [options]\n"
	    "       netbench stream --send -a GROUP|ADDR [-p PORT] [-b BYTES] [--rate R | --rates "
	    "LIST] [options]\n"
	    "       netbench stream -c HOST[,HOST...] -a GROUP|ADDR [options]   (agents "
	    "receive)\n"
	    "       netbench stream -c HOST --reverse -a GROUP|ADDR [options]   (agent sends)\n"
	    "\n"
	    "Constant-bitrate UDP stream to a unicast address or a multicast group; the receiver\n"
	    "counts datagrams, loss, reordering, duplicates and RFC 3550 jitter, and measures its\n"
	    "CPU load over each step: process user+system, system softirq and irq, busiest CPU.\n"
	    "\n"
	    "Options:\n"
	    "  -a, --group ADDR     multicast group (224.0.0.0/4, ff00::/8) or unicast address,\n"
	    "                       as mcsend/mcrecv\n"
	    "  -p, --port N         UDP port of the stream (default %u), as mcsend/mcrecv; not\n"
	    "                       the agent's control port (iperf3's -p): that is --ctl-port\n"
	    "  -b, --block BYTES    datagram payload in bytes (default 8192; at least %u, at most\n"
	    "                       65507 for IPv4, 65527 for IPv6), as mcsend; not a bitrate\n"
	    "                       (iperf3's -b): that is -r/--rate\n"
	    "  -r, --rate R         bitrate, bit/s with k/M/G (default 1M)\n"
	    "      --rates LIST     sweep: 4M,8M,12M or FROM:TO:xF (geometric) or FROM:TO:+STEP\n"
	    "  -t, --time T         per step (default 10s); with --recv: stop after T\n"
	    "  -O, --omit T         warm-up before each step's window, not counted (default\n"
	    "                       the smaller of 0.5s and 10%% of --time; 0: none); a step\n"
	    "                       lasts --time + --omit. --recv takes it from the "
	    "sender\n" INTERVAL_HELP PACING_HELP "      --send           send only (no agent)\n"
	    "      --recv           receive only (no agent): until the sender's end marker, "
	    "--time,\n"
	    "                       --idle without datagrams, or Ctrl-C\n"
	    "      --idle T         --recv: stop after T without datagrams (default 3s; 0: never)\n"
	    "      --iface NAME     interface to join on / send from\n"
	    "      --source ADDR    source-specific join (SSM) with this sender\n"
	    "      --ttl N          multicast TTL / hop limit (default 1)\n"
	    "      --loop           deliver the stream to receivers on this host too\n"
	    "      --reuse          share the port with other receivers on this host\n"
	    "      --timestamps FILE  --recv: write each datagram's arrival time (ns),\n"
	    "                       size and sequence (first 32-bit word)\n"
	    "  -4, -6               IPv4 or IPv6 only\n"
	    "  -c, --client HOSTS   (alias --connect) agents (netbench serve), comma-separated,\n"
	    "                       each HOST, HOST:PORT or [IPv6]:PORT\n"
	    "      --ctl-port N     agent control port for a HOST without one (default %u)\n"
	    "  -k, --psk FILE       pre-shared key the agent requires\n"
	    "  -R, --reverse        the agent sends, this host receives\n"
	    "  -J, --json           JSON result (schema netbench/1)\n" OBS_CLI_PATH_HELP
		CLI_SAVE_HELP "  -h, --help           this help\n" CLI_VERSION_HELP "\n"
	    "Loads: proc %% is the receiving process (user+system) as %% of one CPU, as top;\n"
	    "for a sender, pacing %% is the part of proc %% its pacer spent sleeping and "
	    "spinning;\n"
	    "softirq %%, irq %% and total %% are shares of all CPUs, as mpstat; total %%/Mbit/s\n"
	    "divides total %% by the achieved Mbit/s. A '*' marks a step in which other\n"
	    "processes used more than 5 %% of a CPU (their work is then in the figures); an idle\n"
	    "baseline of 0.25 s is taken first (with agents, at both ends; not by --recv).\n",
	    NB_STREAM_DEFAULT_PORT, NB_STREAM_HDR, NB_DEFAULT_PORT);
}

/* "FROM:TO:xF" or "FROM:TO:+STEP", or a comma list. */
static size_t parse_rates(const char *opt, const char *val, uint64_t *rates, size_t max)
{
	char buf[128], *a, *b, *c;
	uint64_t from, to, step = 0;
	double factor = 0;
	size_t n = 0;

	if (!strchr(val, ':'))
		return cli_rate_list(opt, val, rates, max, NB_STREAM_MIN_RATE, NB_STREAM_MAX_RATE);
	if (strlen(val) >= sizeof(buf))
		cli_usage_error("%s: '%s' is too long", opt, val);
	strcpy(buf, val);
	a = buf;
	b = strchr(a, ':');
	*b++ = '\0';
	c = strchr(b, ':');
	if (!c)
		cli_usage_error("%s: '%s' is not FROM:TO:xFACTOR or FROM:TO:+STEP", opt, val);
	*c++ = '\0';
	from = cli_rate(opt, a, NB_STREAM_MIN_RATE, NB_STREAM_MAX_RATE);
	to = cli_rate(opt, b, NB_STREAM_MIN_RATE, NB_STREAM_MAX_RATE);
	if (to < from)
		cli_usage_error("%s: '%s' ends below where it starts", opt, val);
	if (c[0] == 'x') {
		char *end;
		factor = strtod(c + 1, &end);
		if (end == c + 1 || *end || !(factor >= 1.01 && factor <= 100))
			cli_usage_error("%s: factor '%s' is not a number from 1.01 to 100", opt,
					c + 1);
	} else if (c[0] == '+') {
		step = cli_rate(opt, c + 1, 1000, NB_STREAM_MAX_RATE);
	} else {
		cli_usage_error("%s: '%s' is not FROM:TO:xFACTOR or FROM:TO:+STEP", opt, val);
	}
	for (double r = (double)from; r <= (double)to * (1 + 1e-9);
	     r = factor ? r * factor : r + (double)step) {
		if (n == max)
			cli_usage_error("%s: '%s' makes more than %zu steps", opt, val, max);
		rates[n++] = (uint64_t)llround(r);
	}
	return n;
}

/* -c HOSTS: comma-separated, each HOST, HOST:PORT or [IPv6]:PORT (cli_hostport); a host
 * without a port is reached at ctl_port (--ctl-port). */
static size_t split_hosts(const char *list, uint16_t ctl_port, struct nb_ctl_target *to, size_t max)
{
	size_t n = 0;
	const char *p = list;

	while (*p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		char one[256];
		const char *host;
		if (!len || len >= sizeof(one))
			cli_usage_error("-c: '%s' is not a comma-separated list of hosts", list);
		if (n == max)
			cli_usage_error("-c: at most %zu agents", max);
		memcpy(one, p, len);
		one[len] = '\0';
		to[n].port = ctl_port;
		to[n].host = host = cli_hostport("--client", one, &to[n].port);
		n++;
		p += len + (c ? 1 : 0);
		if (c && !*p)
			cli_usage_error("-c: '%s' is not a comma-separated list of hosts", list);
	}
	return n;
}

/* The codes of the long-only options. */
enum {
	O_SEND = 256,
	O_RECV,
	O_RATES,
	O_IFACE,
	O_SOURCE,
	O_TTL,
	O_LOOP,
	O_IDLE,
	O_CTLPORT,
	O_REUSE,
	O_TIMES,
	O_PACING,
	O_BURST
};

/* What parsing learns beyond the parameters: options checked once all are read. */
struct stream_given {
	const char *block, *omit; /* -b and -O as typed */
	bool time, rate, pacing;  /* -t; -r or --rates; --pacing or --burst */
};

/* One option of getopt_long's, c its code and name as typed. */
static void stream_option(struct stream_opts *o, struct stream_given *g, int c, const char *name,
			  int argc, char **argv)
{
	switch (c) {
	case 'a':
		o->p.sock.addr = optarg;
		break;
	case 'p':
		o->p.sock.port = (uint16_t)cli_uint(name, optarg, 1, 65535);
		break;
	case 'b':
		g->block = optarg;
		break;
	case 'r':
		if (g->rate)
			cli_usage_error("--rate and --rates: give one of them");
		o->p.rates[0] = cli_rate(name, optarg, NB_STREAM_MIN_RATE, NB_STREAM_MAX_RATE);
		o->p.nrates = 1;
		g->rate = true;
		break;
	case O_RATES:
		if (g->rate)
			cli_usage_error("--rate and --rates: give one of them");
		o->p.nrates = parse_rates(name, optarg, o->p.rates, NB_STREAM_MAX_STEPS);
		g->rate = true;
		break;
	case 't':
		o->p.time_ns =
		    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 86400 * NB_NS_PER_S);
		g->time = true;
		break;
	case 'O':
		g->omit = optarg;
		o->p.omit_ns = strcmp(optarg, "0") ? cli_duration_ns(name, optarg, NB_NS_PER_MS,
								     NB_STREAM_MAX_OMIT_NS)
						   : 0;
		break;
	case 'i':
		o->p.interval_ns =
		    cli_duration_ns(name, optarg, NB_NS_PER_S / 10, 3600 * NB_NS_PER_S);
		break;
	case O_IDLE:
		o->p.idle_ns =
		    strcmp(optarg, "0")
			? cli_duration_ns(name, optarg, 10 * NB_NS_PER_MS, 3600 * NB_NS_PER_S)
			: 0;
		break;
	case O_SEND:
		o->p.send = true;
		break;
	case O_RECV:
		o->p.recv = true;
		break;
	case O_IFACE:
		o->p.sock.iface = optarg;
		break;
	case O_SOURCE:
		o->p.sock.source = optarg;
		break;
	case O_TTL:
		o->p.sock.ttl = (int)cli_uint(name, optarg, 0, 255);
		break;
	case O_LOOP:
		o->p.sock.loop = true;
		break;
	case O_REUSE:
		o->p.sock.reuse = true;
		break;
	case O_TIMES:
		o->times_path = optarg;
		break;
	case 'k':
		o->psk_path = optarg;
		break;
	case O_PACING:
		o->p.pacing.asked = cli_pacing(name, optarg);
		g->pacing = true;
		break;
	case O_BURST:
		o->p.pacing.burst_asked = (uint32_t)cli_uint(name, optarg, 1, NB_PACER_MAX_BURST);
		g->pacing = true;
		break;
	case '4':
		o->p.sock.family = AF_INET;
		break;
	case '6':
		o->p.sock.family = AF_INET6;
		break;
	case 'c':
		o->connect = optarg;
		break;
	case O_CTLPORT:
		o->ctl_port = (uint16_t)cli_uint(name, optarg, 1, 65535);
		break;
	case 'R':
		o->p.reverse = true;
		break;
	case 'J':
		o->json = true;
		break;
	default:
		if (!obs_cli_option(&o->obs, c, optarg) &&
		    !cli_save_option(&o->save, c, argc, argv))
			cli_last_option(argv, c, NULL, usage);
	}
}

/* Who sends and who receives: --send, --recv or agents; the observers and the profile. */
static void check_ends(struct stream_opts *o)
{
	if (o->p.send && o->p.recv)
		cli_usage_error("--send and --recv: give one of them");
	if ((o->p.send || o->p.recv) && (o->connect || o->p.reverse || o->psk_path))
		cli_usage_error("%s works without an agent: drop -c/--reverse",
				o->p.send ? "--send" : "--recv");
	if (!o->p.send && !o->p.recv && !o->connect)
		cli_usage_error("give --send, --recv, or -c HOST for an agent");
	if (o->connect)
		o->p.nagents =
		    split_hosts(o->connect, o->ctl_port, o->p.agents, NB_STREAM_MAX_AGENTS);
	if (o->obs.nclocks || o->obs.no_observe)
		cli_usage_error("--%s is rate's: stream observes only what --observe names",
				o->obs.nclocks ? "observe-clocks" : "no-observe");
	/* --profile: the receivers' kernel profile of each step, and an observer's too. */
	o->p.profile_hz = o->obs.set.req.profile_hz;
	if (o->p.profile_hz && o->p.send)
		cli_usage_error("--profile profiles the receiver: give it to the --recv end");
	if (!o->obs.set.n)
		o->obs.set.req.profile_hz = 0;
	if (o->obs.set.n && (o->p.send || o->p.recv || o->p.reverse))
		cli_usage_error("--observe needs -c HOST without --reverse: this host sends and "
				"times each step's window");
	if (!o->p.sock.addr && o->connect && o->p.reverse) {
		/* The agent streams to this host, at the address it sees us at. */
		o->p.to_controller = true;
		o->p.sock.addr = o->p.sock.family == AF_INET6 ? "::" : "0.0.0.0";
	} else if (!o->p.sock.addr && o->connect) {
		/* A unicast stream to the agent itself. */
		if (o->p.nagents > 1)
			cli_usage_error("-a GROUP is required with several agents");
		o->p.sock.addr = o->p.agents[0].host;
	}
	if (!o->p.sock.addr)
		cli_usage_error("-a GROUP|ADDR is required");
}

/* What the receiver takes from the sender, what only --recv takes, -i, the sender's pacing. */
static void check_recv(struct stream_opts *o, const struct stream_given *g)
{
	if (o->p.recv && g->rate)
		cli_usage_error("--recv takes the bitrate from the sender: drop --rate/--rates");
	/* The sender tells every datagram whether it belongs to the warm-up, so a receiver
	 * cannot disagree with it: --omit is the sender's (or the controller's) alone. */
	if (o->p.recv && g->omit)
		cli_usage_error(
		    "--recv takes the warm-up from the sender's datagrams: drop -O/--omit");
	if (!g->omit)
		o->p.omit_ns =
		    o->p.time_ns / 10 < NB_NS_PER_S / 2 ? o->p.time_ns / 10 : NB_NS_PER_S / 2;
	/* -i reports what a receiver counts as it counts it: one on this host. */
	if (o->p.interval_ns && !o->p.recv && !o->p.reverse)
		cli_usage_error("--interval reports a receiver's counters as they come: give it to "
				"the --recv end, or use -c HOST --reverse (%s)",
				o->p.send ? "--send only sends"
					  : "the agents receive and report at the end");
	if (o->p.interval_ns && !o->p.recv && o->p.interval_ns > o->p.time_ns)
		cli_usage_error("--interval is longer than --time");
	if (!o->p.recv && o->p.idle_ns != 3 * NB_NS_PER_S)
		cli_usage_error("--idle is for --recv");
	if (!o->p.recv && o->times_path)
		cli_usage_error("--timestamps is for --recv");
	if (o->p.recv && g->pacing)
		cli_usage_error("--pacing and --burst are the sender's: drop them with --recv");
	cli_pacing_check(o->p.pacing.asked, o->p.pacing.burst_asked);
	o->p.recv_time_ns = o->p.recv && g->time ? o->p.time_ns : 0;
}

/* -b in bytes (a bitrate is pointed at -r), within what a datagram of the family holds; the
 * address resolved and the receiving interface checked. */
static void check_block_addr(struct stream_opts *o, const char *block)
{
	char err[256];
	struct sockaddr_storage ss;
	socklen_t len;
	if (block) {
		if (cli_size_looks_like_rate(block, 65527))
			cli_usage_error("-b is the datagram size in bytes (as mcsend); for a "
					"bitrate use -r %s",
					block);
		o->p.block = cli_bytes("-b/--block", block, NB_STREAM_HDR, 65527);
		if (o->p.recv)
			cli_usage_error("--recv takes the block size from the sender: drop -b");
	}
	if (nb_stream_resolve(o->p.sock.addr, o->p.sock.port, o->p.sock.family, &ss, &len, err,
			      sizeof(err)) < 0)
		cli_usage_error("-a: %s", err);
	o->p.family = ss.ss_family;
	o->p.multicast = nb_addr_is_multicast((struct sockaddr *)&ss);
	if (o->p.block > nb_udp_max_payload(o->p.family))
		cli_usage_error("-b/--block is too large: %zu (at most %zu: the largest UDP "
				"datagram over %s)",
				o->p.block, nb_udp_max_payload(o->p.family),
				o->p.family == AF_INET6 ? "IPv6" : "IPv4");
	/* The receiving host checks its own interface (it may be the agent). -EINVAL is
	 * the command line's fault; a missing interface or address is this host's. */
	int ret = nb_stream_sock_check(&o->p.sock, o->p.send, err, sizeof(err));
	if (ret == -EINVAL)
		cli_usage_error("%s", err);
	if (ret < 0 && (o->p.send || o->p.recv || o->p.reverse || !strstr(err, "--iface")))
		cli_fail(0, "%s", err);
}

void stream_parse_opts(int argc, char **argv, struct stream_opts *o)
{
	static const struct option opts[] = {
	    {"group", required_argument, NULL, 'a'},
	    CLI_REMOTE_LONGOPTS, /* stream's -p is the group's port; the agent's: --ctl-port */
	    {"block", required_argument, NULL, 'b'},
	    {"rate", required_argument, NULL, 'r'},
	    {"rates", required_argument, NULL, O_RATES},
	    {"time", required_argument, NULL, 't'},
	    {"omit", required_argument, NULL, 'O'},
	    {"interval", required_argument, NULL, 'i'},
	    {"send", no_argument, NULL, O_SEND},
	    {"recv", no_argument, NULL, O_RECV},
	    {"idle", required_argument, NULL, O_IDLE},
	    {"iface", required_argument, NULL, O_IFACE},
	    {"source", required_argument, NULL, O_SOURCE},
	    {"ttl", required_argument, NULL, O_TTL},
	    {"loop", no_argument, NULL, O_LOOP},
	    {"reuse", no_argument, NULL, O_REUSE},
	    {"timestamps", required_argument, NULL, O_TIMES},
	    {"pacing", required_argument, NULL, O_PACING},
	    {"burst", required_argument, NULL, O_BURST},
	    {"ctl-port", required_argument, NULL, O_CTLPORT},
	    {"reverse", no_argument, NULL, 'R'},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_VERSION_LONGOPT,
	    CLI_SAVE_LONGOPTS,
	    OBS_CLI_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct stream_given g = {0};
	int c, li = -1;

	memset(o, 0, sizeof(*o));
	o->p.sock.port = NB_STREAM_DEFAULT_PORT;
	o->p.sock.ttl = -1;
	o->p.sock.family = AF_UNSPEC;
	o->p.block = 8192;
	o->p.rates[0] = 1000000;
	o->p.nrates = 1;
	o->p.time_ns = 10 * NB_NS_PER_S;
	o->p.idle_ns = 3 * NB_NS_PER_S;
	o->ctl_port = NB_DEFAULT_PORT;
	while ((c = getopt_long(argc, argv, ":a:p:b:r:t:O:i:c:k:RJhV46o:", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		stream_option(o, &g, c, name, argc, argv);
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* Impossible combinations, in one place. */
	check_ends(o);
	check_recv(o, &g);
	check_block_addr(o, g.block);
}
