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
#include "cmd/opt_table.h"
#include "cmd/pacing.h"
#include "cmd/save.h"
#include "cmd/stream_opts.h"
#include "core/stream/stream_ctl.h"
#include "core/stream/stream_sock.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"

/* The help's head and tail; the option list between them is the table's. */
static const char usage_head[] =
    "Usage: netbench stream --recv -a GROUP|ADDR [-p PORT] [options]\n"
    "       netbench stream --send -a GROUP|ADDR [-p PORT] [-b BYTES]\n"
    "                       [--rate R | --rates LIST] [options]\n"
    "       netbench stream -c HOST[,HOST...] -a GROUP|ADDR [options]\n"
    "                       (agents receive)\n"
    "       netbench stream -c HOST --reverse -a GROUP|ADDR [options]   (agent sends)\n"
    "\n"
    "Constant-bitrate UDP stream to a unicast address or a multicast group;\n"
    "the receiver counts datagrams, loss, reordering, duplicates and RFC 3550\n"
    "jitter, and measures its CPU load over each step: process user+system,\n"
    "system softirq and irq, busiest CPU.\n"
    "\n"
    "Options:\n";
static const char usage_tail[] =
    "\n"
    "Loads: proc % is the receiving process (user+system) as % of one CPU, as\n"
    "top; for a sender, pacing % is the part of proc % its pacer spent sleeping\n"
    "and spinning; softirq %, irq % and total % are shares of all CPUs, as\n"
    "mpstat; total %/Mbit/s divides total % by the achieved Mbit/s. A '*' marks\n"
    "a step in which other processes used more than 5 % of a CPU (their work is\n"
    "then in the figures); an idle baseline of 0.25 s is taken first (with\n"
    "agents, at both ends; not by --recv).\n";

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

/* -r and --rates: one of them, once. */
static void one_rate(struct stream_opts *o)
{
	if (o->given.rate)
		cli_usage_error("--rate and --rates: give one of them");
	o->given.rate = true;
}

static void set_rate(void *dst, const char *name, const char *arg)
{
	struct stream_opts *o = dst;
	one_rate(o);
	o->p.rates[0] = cli_rate(name, arg, NB_STREAM_MIN_RATE, NB_STREAM_MAX_RATE);
	o->p.nrates = 1;
}

static void set_rates(void *dst, const char *name, const char *arg)
{
	struct stream_opts *o = dst;
	one_rate(o);
	o->p.nrates = parse_rates(name, arg, o->p.rates, NB_STREAM_MAX_STEPS);
}

/* -O: 0 for none, else at least a millisecond; as typed for the checks after parsing. */
static void set_omit(void *dst, const char *name, const char *arg)
{
	struct stream_opts *o = dst;
	o->given.omit = arg;
	o->p.omit_ns =
	    strcmp(arg, "0") ? cli_duration_ns(name, arg, NB_NS_PER_MS, NB_STREAM_MAX_OMIT_NS) : 0;
}

/* --idle: 0 for never, else at least 10 ms. */
static void set_idle(void *dst, const char *name, const char *arg)
{
	((struct stream_opts *)dst)->p.idle_ns =
	    strcmp(arg, "0") ? cli_duration_ns(name, arg, 10 * NB_NS_PER_MS, 3600 * NB_NS_PER_S)
			     : 0;
}

static void set_pacing(void *dst, const char *name, const char *arg)
{
	((struct stream_opts *)dst)->p.pacing.asked = cli_pacing(name, arg);
}

static void set_inet(void *dst, const char *name, const char *arg)
{
	(void)name, (void)arg;
	((struct stream_opts *)dst)->p.sock.family = AF_INET;
}

static void set_inet6(void *dst, const char *name, const char *arg)
{
	(void)name, (void)arg;
	((struct stream_opts *)dst)->p.sock.family = AF_INET6;
}

#define AT(member) OPT_AT(struct stream_opts, member)
#define SEEN(flag) .seen = offsetof(struct stream_opts, given.flag)
#define SET(fn)	   OPT_SET, .set = (fn), .has_arg = required_argument
#define FAMILY(fn) OPT_SET, .set = (fn), .has_arg = no_argument

/* stream's options, in the order of its help. -c, -p, -k, -4 and -6 are rows of stream's own,
 * not cli_remote_option's: -c names several agents, -p is the stream's UDP port (the agents'
 * control port is --ctl-port), -4 and -6 pick the stream's family. */
static const struct opt_row rows[] = {
    {"group", 'a', OPT_STRING, AT(p.sock.addr), .arg = "ADDR",
     .help = "multicast group (224.0.0.0/4, ff00::/8) or unicast\naddress, as mcsend/mcrecv"},
    /* the default is NB_STREAM_DEFAULT_PORT */
    {"port", 'p', OPT_UINT, 1, 65535, AT(p.sock.port), .arg = "N",
     .help = "UDP port of the stream (default 12345), as\nmcsend/mcrecv; not the agent's control "
	     "port\n(iperf3's -p): that is --ctl-port"},
    /* checked after parsing (against --recv and the family); at least NB_STREAM_HDR */
    {"block", 'b', OPT_STRING, AT(given.block), .arg = "BYTES",
     .help = "datagram payload in bytes (default 8192; at least 56, at\nmost 65507 for IPv4, 65527 "
	     "for IPv6), as mcsend; not a\nbitrate (iperf3's -b): that is -r/--rate"},
    {"rate", 'r', SET(set_rate), .arg = "R", .help = "bitrate, bit/s with k/M/G (default 1M)"},
    {"rates", 0, SET(set_rates), .arg = "LIST",
     .help = "sweep: 4M,8M,12M or FROM:TO:xF\n(geometric) or FROM:TO:+STEP"},
    {"time", 't', OPT_DURATION, 100 * NB_NS_PER_MS, 86400 * NB_NS_PER_S, AT(p.time_ns), SEEN(time),
     .arg = "T", .help = "per step (default 10s); with --recv: stop after T"},
    {"omit", 'O', SET(set_omit), .arg = "T",
     .help = "warm-up before each step's window, not counted (default\nthe smaller of 0.5s and "
	     "10% of --time; 0: none); a step\nlasts --time + --omit. --recv takes it from the "
	     "sender"},
    {"interval", 'i', OPT_DURATION, NB_NS_PER_S / 10, 3600 * NB_NS_PER_S, AT(p.interval_ns),
     .arg = "T",
     .help = "also print the receiver's figures every T (0.1s to 1h)\nwithin each step's "
	     "window, as they come, under their own\nheading; the table follows them. A "
	     "receiver on this host:\n--recv or -c HOST --reverse"},
    {"pacing", 0, SET(set_pacing), SEEN(pacing), .arg = "MODE",
     .help = "auto (default): the kernel paces (txtime: fq qdisc on the\negress interface) "
	     "where it can, else burst; burst: sleep,\nwake about once per ms and send what is "
	     "due; spin: every\ndatagram on its own deadline (exact gaps, costs a CPU at\nshort "
	     "intervals); txtime: the kernel or fail"},
    {"burst", 0, OPT_UINT, 1, NB_PACER_MAX_BURST, AT(p.pacing.burst_asked), SEEN(pacing),
     .arg = "N",
     .help = "datagrams per wake-up in burst/txtime mode (1-1024;\ndefault about 1 ms worth)"},
    {"send", 0, OPT_FLAG, AT(p.send), .help = "send only (no agent)"},
    {"recv", 0, OPT_FLAG, AT(p.recv),
     .help = "receive only (no agent): until the sender's end marker,\n--time, --idle without "
	     "datagrams, or Ctrl-C"},
    {"idle", 0, SET(set_idle), .arg = "T",
     .help = "--recv: stop after T without datagrams\n(default 3s; 0: never)"},
    {"iface", 0, OPT_STRING, AT(p.sock.iface), .arg = "NAME",
     .help = "interface to join on / send from"},
    {"source", 0, OPT_STRING, AT(p.sock.source), .arg = "ADDR",
     .help = "source-specific join (SSM) with this sender"},
    {"ttl", 0, OPT_UINT, 0, 255, AT(p.sock.ttl), .arg = "N",
     .help = "multicast TTL / hop limit (default 1)"},
    {"loop", 0, OPT_FLAG, AT(p.sock.loop),
     .help = "deliver the stream to receivers on this host too"},
    {"reuse", 0, OPT_FLAG, AT(p.sock.reuse),
     .help = "share the port with other receivers on this host"},
    {"timestamps", 0, OPT_STRING, AT(times_path), .arg = "FILE",
     .help = "--recv: write each datagram's arrival time (ns),\nsize and sequence (first 32-bit "
	     "word)"},
    {NULL, '4', FAMILY(set_inet)},
    {NULL, '6', FAMILY(set_inet6)},
    OPT_ROW_TEXT("  -4, -6               IPv4 or IPv6 only\n"),
    {"client", 'c', OPT_STRING, AT(connect), .arg = "HOSTS",
     .help = "(alias --connect) agents (netbench serve),\ncomma-separated, each HOST, HOST:PORT or "
	     "[IPv6]:PORT"},
    {"connect", 'c', OPT_STRING, AT(connect)},
    /* the default is NB_DEFAULT_PORT */
    {"ctl-port", 0, OPT_UINT, 1, 65535, AT(ctl_port), .arg = "N",
     .help = "agent control port for a HOST without one (default 5301)"},
    {"psk", 'k', OPT_STRING, AT(psk_path), .arg = "FILE",
     .help = "pre-shared key the agent requires"},
    {"reverse", 'R', OPT_FLAG, AT(p.reverse), .help = "the agent sends, this host receives"},
    {"json", 'J', OPT_FLAG, AT(json), .help = "JSON result (schema netbench/1)"},
    OBS_CLI_ROWS,
    OPT_ROW_TEXT(OBS_CLI_PATH_HELP),
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

/* The observers' options, --save's, then -h, -V or an unknown option. */
static void other_option(void *ctx, int c, const char *name, int argc, char **argv)
{
	struct stream_opts *o = ctx;
	(void)name;
	if (!obs_cli_option(&o->obs, c, optarg) && !cli_save_option(&o->save, c, argc, argv))
		cli_last_option(argv, c, NULL, usage);
}

static void defaults(struct stream_opts *o)
{
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
static void check_recv(struct stream_opts *o)
{
	const struct stream_given *g = &o->given;
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
static void check_block_addr(struct stream_opts *o)
{
	const char *block = o->given.block;
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
	defaults(o);
	if (opt_parse(&table, argc, argv, o, other_option, o) < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* Impossible combinations, in one place. */
	check_ends(o);
	check_recv(o);
	check_block_addr(o);
}
