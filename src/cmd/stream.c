/* netbench stream: constant-bitrate unicast or multicast streams and what receiving them costs
 * the receiver's CPU, softirq included. Standalone --send and --recv work between hosts without
 * an agent (mcsend/mcrecv command lines work as written); by default the agent(s)
 * given with -c receive and this host sends (--reverse swaps). Output: one row per bitrate. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "cmd/cli.h"
#include "cmd/stream.h"
#include "cmd/commands.h"
#include "cmd/pacing.h"
#include "core/base/json.h"
#include "core/base/result.h"
#include "core/stream/stream_sock.h"
#include "core/base/sysinfo.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/base/wire.h"

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
	    "  -a, --group ADDR     multicast group (224.0.0.0/4, ff00::/8) or unicast address\n"
	    "  -p, --port N         UDP port (default %u)\n"
	    "  -b, --block BYTES    datagram payload (default 8192; at least %u, at most 65507\n"
	    "                       for IPv4, 65527 for IPv6)\n"
	    "  -r, --rate R         bitrate, bit/s with k/M/G (default 1M)\n"
	    "      --rates LIST     sweep: 4M,8M,12M or FROM:TO:xF (geometric) or FROM:TO:+STEP\n"
	    "  -t, --time T         per step (default 10s); with --recv: stop after T\n"
	    "  -O, --omit T         warm-up before each step's window, not counted (default\n"
	    "                       the smaller of 0.5s and 10%% of --time; 0: none); a step\n"
	    "                       lasts --time + --omit. --recv takes it from the sender\n"
	    PACING_HELP
	    "      --send           send only (no agent)\n"
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
	    "  -c, --connect HOSTS  agents (netbench serve), comma-separated\n"
	    "      --ctl-port N     agent control port (default %u)\n"
	    "      --psk FILE       pre-shared key the agent requires\n"
	    "  -R, --reverse        the agent sends, this host receives\n"
	    "  -J, --json           JSON result (schema netbench/1)\n"
	    "  -h, --help           this help\n"
	    "\n"
	    "Loads: proc %% is the receiving process (user+system) as %% of one CPU, as top;\n"
	    "for a sender, pacing %% is the part of proc %% its pacer spent sleeping and spinning;\n"
	    "softirq %%, irq %% and total %% are shares of all CPUs, as mpstat; total %%/Mbit/s\n"
	    "divides total %% by the achieved Mbit/s.\n",
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

static void parse(struct stream_opts *o, int argc, char **argv)
{
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
		O_PSK,
		O_PACING,
		O_BURST
	};
	const char *omit_arg = NULL;
	static const struct option opts[] = {
	    {"group", required_argument, NULL, 'a'},
	    {"port", required_argument, NULL, 'p'},
	    {"block", required_argument, NULL, 'b'},
	    {"rate", required_argument, NULL, 'r'},
	    {"rates", required_argument, NULL, O_RATES},
	    {"time", required_argument, NULL, 't'},
	    {"omit", required_argument, NULL, 'O'},
	    {"send", no_argument, NULL, O_SEND},
	    {"recv", no_argument, NULL, O_RECV},
	    {"idle", required_argument, NULL, O_IDLE},
	    {"iface", required_argument, NULL, O_IFACE},
	    {"source", required_argument, NULL, O_SOURCE},
	    {"ttl", required_argument, NULL, O_TTL},
	    {"loop", no_argument, NULL, O_LOOP},
	    {"reuse", no_argument, NULL, O_REUSE},
	    {"timestamps", required_argument, NULL, O_TIMES},
	    {"psk", required_argument, NULL, O_PSK},
	    {"pacing", required_argument, NULL, O_PACING},
	    {"burst", required_argument, NULL, O_BURST},
	    {"connect", required_argument, NULL, 'c'},
	    {"ctl-port", required_argument, NULL, O_CTLPORT},
	    {"reverse", no_argument, NULL, 'R'},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *block_arg = NULL;
	bool have_time = false, have_rate = false, have_pacing = false;
	int c, li = -1;

	memset(o, 0, sizeof(*o));
	o->sock.port = NB_STREAM_DEFAULT_PORT;
	o->sock.ttl = -1;
	o->sock.family = AF_UNSPEC;
	o->block = 8192;
	o->rates[0] = 1000000;
	o->nrates = 1;
	o->time_ns = 10 * NB_NS_PER_S;
	o->idle_ns = 3 * NB_NS_PER_S;
	o->ctl_port = NB_DEFAULT_PORT;
	while ((c = getopt_long(argc, argv, "a:p:b:r:t:O:c:RJh46", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		switch (c) {
		case 'a':
			o->sock.addr = optarg;
			break;
		case 'p':
			o->sock.port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'b':
			block_arg = optarg;
			break;
		case 'r':
			if (have_rate)
				cli_usage_error("--rate and --rates: give one of them");
			o->rates[0] =
			    cli_rate(name, optarg, NB_STREAM_MIN_RATE, NB_STREAM_MAX_RATE);
			o->nrates = 1;
			have_rate = true;
			break;
		case O_RATES:
			if (have_rate)
				cli_usage_error("--rate and --rates: give one of them");
			o->nrates = parse_rates(name, optarg, o->rates, NB_STREAM_MAX_STEPS);
			have_rate = true;
			break;
		case 't':
			o->time_ns =
			    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 86400 * NB_NS_PER_S);
			have_time = true;
			break;
		case 'O':
			omit_arg = optarg;
			o->omit_ns =
			    strcmp(optarg, "0")
				? cli_duration_ns(name, optarg, NB_NS_PER_MS, NB_STREAM_MAX_OMIT_NS)
				: 0;
			break;
		case O_IDLE:
			o->idle_ns = strcmp(optarg, "0")
					 ? cli_duration_ns(name, optarg, 10 * NB_NS_PER_MS,
							   3600 * NB_NS_PER_S)
					 : 0;
			break;
		case O_SEND:
			o->send = true;
			break;
		case O_RECV:
			o->recv = true;
			break;
		case O_IFACE:
			o->sock.iface = optarg;
			break;
		case O_SOURCE:
			o->sock.source = optarg;
			break;
		case O_TTL:
			o->sock.ttl = (int)cli_uint(name, optarg, 0, 255);
			break;
		case O_LOOP:
			o->sock.loop = true;
			break;
		case O_REUSE:
			o->sock.reuse = true;
			break;
		case O_TIMES:
			o->times_path = optarg;
			break;
		case O_PSK:
			o->psk_path = optarg;
			break;
		case O_PACING:
			o->pacing.asked = cli_pacing(name, optarg);
			have_pacing = true;
			break;
		case O_BURST:
			o->pacing.burst_asked =
			    (uint32_t)cli_uint(name, optarg, 1, NB_PACER_MAX_BURST);
			have_pacing = true;
			break;
		case '4':
			o->sock.family = AF_INET;
			break;
		case '6':
			o->sock.family = AF_INET6;
			break;
		case 'c':
			o->connect = optarg;
			break;
		case O_CTLPORT:
			o->ctl_port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'R':
			o->reverse = true;
			break;
		case 'J':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			cli_usage_error("unknown option");
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* Impossible combinations, in one place. */
	if (o->send && o->recv)
		cli_usage_error("--send and --recv: give one of them");
	if ((o->send || o->recv) && (o->connect || o->reverse || o->psk_path))
		cli_usage_error("%s works without an agent: drop -c/--reverse",
				o->send ? "--send" : "--recv");
	if (!o->send && !o->recv && !o->connect)
		cli_usage_error("give --send, --recv, or -c HOST for an agent");
	if (!o->sock.addr && o->connect && o->reverse) {
		/* The agent streams to this host, at the address it sees us at. */
		o->to_controller = true;
		o->sock.addr = o->sock.family == AF_INET6 ? "::" : "0.0.0.0";
	} else if (!o->sock.addr && o->connect) {
		/* A unicast stream to the agent itself. */
		if (strchr(o->connect, ','))
			cli_usage_error("-a GROUP is required with several agents");
		o->sock.addr = o->connect;
	}
	if (!o->sock.addr)
		cli_usage_error("-a GROUP|ADDR is required");
	if (o->recv && have_rate)
		cli_usage_error("--recv takes the bitrate from the sender: drop --rate/--rates");
	/* The sender tells every datagram whether it belongs to the warm-up, so a receiver
	 * cannot disagree with it: --omit is the sender's (or the controller's) alone. */
	if (o->recv && omit_arg)
		cli_usage_error(
		    "--recv takes the warm-up from the sender's datagrams: drop -O/--omit");
	if (!omit_arg)
		o->omit_ns = o->time_ns / 10 < NB_NS_PER_S / 2 ? o->time_ns / 10 : NB_NS_PER_S / 2;
	if (!o->recv && o->idle_ns != 3 * NB_NS_PER_S)
		cli_usage_error("--idle is for --recv");
	if (!o->recv && o->times_path)
		cli_usage_error("--timestamps is for --recv");
	if (o->recv && have_pacing)
		cli_usage_error("--pacing and --burst are the sender's: drop them with --recv");
	cli_pacing_check(o->pacing.asked, o->pacing.burst_asked);
	o->recv_time_ns = o->recv && have_time ? o->time_ns : 0;
	if (block_arg) {
		o->block = cli_bytes("-b/--block", block_arg, NB_STREAM_HDR, 65527);
		if (o->recv)
			cli_usage_error("--recv takes the block size from the sender: drop -b");
	}
	{
		char err[256];
		struct sockaddr_storage ss;
		socklen_t len;
		if (nb_stream_resolve(o->sock.addr, o->sock.port, o->sock.family, &ss, &len, err,
				      sizeof(err)) < 0)
			cli_usage_error("-a: %s", err);
		o->family = ss.ss_family;
		o->multicast = nb_addr_is_multicast((struct sockaddr *)&ss);
		if (o->block > nb_udp_max_payload(o->family))
			cli_usage_error(
			    "-b/--block is too large: %zu (at most %zu: the largest UDP "
			    "datagram over %s)",
			    o->block, nb_udp_max_payload(o->family),
			    o->family == AF_INET6 ? "IPv6" : "IPv4");
		/* The receiving host checks its own interface (it may be the agent). */
		if (nb_stream_sock_check(&o->sock, o->send, err, sizeof(err)) < 0 &&
		    (o->send || o->recv || o->reverse || !strstr(err, "--iface")))
			cli_usage_error("%s", err);
	}
}

static const char *end_name(enum nb_stream_end e)
{
	switch (e) {
	case NB_END_FIN:
		return "end marker";
	case NB_END_TIME:
		return "time limit";
	case NB_END_IDLE:
		return "idle";
	case NB_END_STOP:
		return "interrupted";
	default:
		return "none";
	}
}

/* Local address towards addr (route lookup, nothing sent), for the platform block's interface. */
static void local_towards(const struct stream_opts *o, struct sockaddr_storage *local, bool *ok)
{
	struct sockaddr_storage ss;
	socklen_t len, llen = sizeof(*local);
	char err[128];
	int fd;

	*ok = false;
	if (nb_stream_resolve(o->sock.addr, o->sock.port, o->sock.family, &ss, &len, err,
			      sizeof(err)) < 0)
		return;
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (o->sock.iface)
		(void)setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, o->sock.iface,
				 (socklen_t)strlen(o->sock.iface) + 1);
	if (connect(fd, (struct sockaddr *)&ss, len) == 0 &&
	    getsockname(fd, (struct sockaddr *)local, &llen) == 0)
		*ok = true;
	close(fd);
}

void stream_local_sysinfo(const struct stream_opts *o, struct nb_sysinfo *si)
{
	struct sockaddr_storage local;
	bool ok;

	local_towards(o, &local, &ok);
	nb_sysinfo_get(si, ok ? (struct sockaddr *)&local : NULL);
	if (o->sock.iface)
		snprintf(si->iface, sizeof(si->iface), "%s", o->sock.iface);
}

bool stream_step_valid(const struct nb_stream_step *s)
{
	/* Counts that cannot be: more distinct datagrams than the sender sent in the window, or
	 * a window sequence number beyond the window. */
	if (s->unreconciled ||
	    (s->step_count && (s->unique > s->step_count || s->highest_seq >= s->step_count)))
		return false;
	/* A window with fewer than 2 datagrams has counts (its loss) but no rate: the rate is
	 * shown as "-", the step is not invalid. */
	return true;
}

static void print_cpu_cols(const struct nb_cpu_load *l, double mbit)
{
	char busiest[24];

	if (!l->valid) {
		printf("  %6s %8s %6s %7s %9s %9s\n", "-", "-", "-", "-", "-", "-");
		return;
	}
	if (l->busiest_cpu >= 0)
		snprintf(busiest, sizeof(busiest), "%d:%.1f", l->busiest_cpu, l->busiest_cpu_pct);
	else
		snprintf(busiest, sizeof(busiest), "-");
	printf("  %6.1f %8.2f %6.2f %7.2f %9s %9.3f\n", l->proc_pct, l->softirq_pct, l->irq_pct,
	       l->busy_pct, busiest, mbit > 0 ? l->busy_pct / mbit : NAN);
}

void stream_print_rx(const char *who, const struct nb_stream_rx *rx)
{
	if (who)
		printf("%s:\n", who);
	if (rx->nsteps) {
		printf("   asked  achieved  datagrams    lost   loss  reord   dup  jitter  gap p50    "
		       "p99    proc  softirq    irq   total   busiest  total%%/\n"
		       "  Mbit/s    Mbit/s                      %%                    ms       us "
		       "     us  %%1cpu        %%      %%       %%     cpu:%%   Mbit/s\n");
		for (size_t i = 0; i < rx->nsteps; i++) {
			const struct nb_stream_step *s = &rx->steps[i];
			double r = nb_stream_step_rate_bps(s) / 1e6;
			uint64_t exp = nb_stream_step_expected(s), lost = nb_stream_step_lost(s);
			if (!stream_step_valid(s)) {
				printf(
				    "%8.2f   invalid: %llu datagrams, %llu distinct of %llu sent "
				    "(counts do not reconcile)\n",
				    (double)s->rate_bps_asked / 1e6,
				    (unsigned long long)s->datagrams, (unsigned long long)s->unique,
				    (unsigned long long)exp);
				continue;
			}
			printf("%8.2f ", (double)s->rate_bps_asked / 1e6);
			if (isnan(r))
				printf("%9s", "-");
			else
				printf("%9.3f", r);
			printf(" %10llu %7llu %6.2f %6llu %5llu %7.3f",
			       (unsigned long long)s->datagrams, (unsigned long long)lost,
			       exp ? 100.0 * (double)lost / (double)exp : 0.0,
			       (unsigned long long)s->reordered, (unsigned long long)s->dups,
			       s->jitter.jitter_ns / 1e6);
			if (s->gaps)
				printf(" %8.1f %6.0f", (double)s->gap_p50_ns / 1e3,
				       (double)s->gap_p99_ns / 1e3);
			else
				printf(" %8s %6s", "-", "-");
			print_cpu_cols(&s->cpu, r);
		}
	}
	{
		uint64_t warm = 0;
		bool omitted = false;
		for (size_t i = 0; i < rx->nsteps; i++) {
			warm += rx->steps[i].warmup_datagrams;
			omitted |= rx->steps[i].omit_count > 0;
		}
		if (omitted)
			printf("(each step's warm-up, the sender's -O/--omit, is not counted: %llu "
			       "datagrams)\n",
			       (unsigned long long)warm);
	}
	if (rx->foreign.datagrams) {
		const struct nb_stream_foreign *f = &rx->foreign;
		double r = nb_stream_foreign_rate_bps(f) / 1e6;
		printf(
		    "foreign stream (no netbench header): loss, reordering and jitter cannot be "
		    "known\n"
		    "  achieved  datagrams        bytes    proc  softirq    irq   total   busiest  "
		    "total%%/\n"
		    "    Mbit/s                             %%1cpu        %%      %%       %%     "
		    "cpu:%%   Mbit/s\n");
		printf("%10.3f %10llu %12llu", r, (unsigned long long)f->datagrams,
		       (unsigned long long)f->bytes);
		print_cpu_cols(&f->cpu, r);
	}
	if (!rx->nsteps && !rx->foreign.datagrams)
		printf("no datagrams received\n");
	if (rx->other_stream_datagrams)
		printf("(%llu datagrams of another netbench stream ignored)\n",
		       (unsigned long long)rx->other_stream_datagrams);
}

void stream_json_rx(struct nb_json *j, const struct nb_stream_rx *rx)
{
	nb_json_arr_begin(j, "steps");
	for (size_t i = 0; i < rx->nsteps; i++) {
		const struct nb_stream_step *s = &rx->steps[i];
		double r = nb_stream_step_rate_bps(s);
		uint64_t exp = nb_stream_step_expected(s), lost = nb_stream_step_lost(s);
		bool valid = stream_step_valid(s);
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "step", s->step);
		nb_json_bool(j, "valid", valid);
		nb_json_u64(j, "rate_bps_asked", s->rate_bps_asked);
		nb_json_double(j, "rate_bps", valid ? r : NAN, 0);
		/* The receiver's window: first to last counted arrival, after the warm-up. */
		nb_json_double(j, "window_s",
			       s->datagrams >= 2 ? (double)(s->last_ns - s->first_ns) / 1e9 : NAN,
			       6);
		nb_json_u64(j, "omit_datagrams", s->omit_count);
		nb_json_u64(j, "warmup_datagrams_received", s->warmup_datagrams);
		nb_json_u64(j, "datagrams", s->datagrams);
		nb_json_u64(j, "bytes", s->bytes);
		nb_json_u64(j, "datagrams_expected", exp);
		nb_json_u64(j, "datagrams_distinct", s->unique);
		nb_json_u64(j, "lost", lost);
		nb_json_double(j, "loss_pct", exp ? 100.0 * (double)lost / (double)exp : 0.0, 4);
		nb_json_u64(j, "reordered", s->reordered);
		nb_json_u64(j, "duplicates", s->dups);
		nb_json_u64(j, "late", s->late);
		nb_json_double(j, "jitter_ms", s->jitter.jitter_ns / 1e6, 6);
		nb_json_u64(j, "gaps", s->gaps);
		if (s->gaps) {
			nb_json_double(j, "gap_p50_us", (double)s->gap_p50_ns / 1e3, 3);
			nb_json_double(j, "gap_p99_us", (double)s->gap_p99_ns / 1e3, 3);
		} else {
			nb_json_null(j, "gap_p50_us");
			nb_json_null(j, "gap_p99_us");
		}
		nb_result_cpu(j, "cpu", &s->cpu);
		nb_json_double(j, "cpu_pct_per_mbit",
			       s->cpu.valid && valid && r > 0 ? s->cpu.busy_pct / (r / 1e6) : NAN,
			       4);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	if (rx->foreign.datagrams) {
		const struct nb_stream_foreign *f = &rx->foreign;
		double r = nb_stream_foreign_rate_bps(f);
		nb_json_obj_begin(j, "foreign");
		nb_json_str(j, "note", "no netbench header: loss cannot be known");
		nb_json_u64(j, "datagrams", f->datagrams);
		nb_json_u64(j, "bytes", f->bytes);
		nb_json_double(j, "rate_bps", r, 0);
		nb_result_cpu(j, "cpu", &f->cpu);
		nb_json_double(j, "cpu_pct_per_mbit",
			       f->cpu.valid && r > 0 ? f->cpu.busy_pct / (r / 1e6) : NAN, 4);
		nb_json_obj_end(j);
	} else {
		nb_json_null(j, "foreign");
	}
	nb_json_u64(j, "other_stream_datagrams", rx->other_stream_datagrams);
}

void stream_json_params(struct nb_json *j, const struct stream_opts *o, const char *mode)
{
	nb_json_str(j, "mode", mode);
	nb_json_obj_begin(j, "params");
	nb_json_str(j, "address", o->sock.addr);
	nb_json_bool(j, "multicast", o->multicast);
	nb_json_u64(j, "port", o->sock.port);
	if (!o->recv)
		nb_json_u64(j, "block_bytes", o->block);
	if (o->sock.iface)
		nb_json_str(j, "iface", o->sock.iface);
	else
		nb_json_null(j, "iface");
	if (o->sock.source)
		nb_json_str(j, "source", o->sock.source);
	else
		nb_json_null(j, "source");
	if (o->sock.ttl >= 0)
		nb_json_u64(j, "ttl", (uint64_t)o->sock.ttl);
	else
		nb_json_null(j, "ttl");
	nb_json_bool(j, "loop", o->sock.loop);
	if (!o->recv) {
		nb_json_double(j, "step_s", (double)o->time_ns / 1e9, 3);
		nb_json_double(j, "omit_s", (double)o->omit_ns / 1e9, 3);
		nb_json_arr_begin(j, "rates_bps");
		for (size_t i = 0; i < o->nrates; i++)
			nb_json_u64(j, NULL, o->rates[i]);
		nb_json_arr_end(j);
	}
	nb_json_obj_end(j);
}

static int open_fail(int ret, const char *err)
{
	/* Bad input found only when the socket meets the system: still a usage error. */
	if (ret == -EINVAL || ret == -ENODEV || ret == -EADDRNOTAVAIL || ret == -EADDRINUSE)
		cli_usage_error("%s", err);
	cli_fail(0, "%s", err);
}

/* Arrival time, size, and the first 32-bit word (the sequence number of netbench and iperf2
 * datagrams; iperf2's end-of-test datagrams have the top bit set). */
static void write_time(void *arg, uint64_t arrival_ns, const uint8_t *buf, size_t len)
{
	uint32_t w = len >= 4 ? nb_get_be32(buf) : 0;
	fprintf(arg, "%llu %zu %lu\n", (unsigned long long)arrival_ns, len, (unsigned long)w);
}

static int run_recv(struct stream_opts *o)
{
	FILE *times = NULL;
	struct nb_stream_recv *r = NULL;
	struct nb_stream_rx *rx = NULL;
	struct nb_sysinfo si;
	char err[256];
	int fd = -1, ret;

	ret = nb_stream_open_recv(&o->sock, &fd, err, sizeof(err));
	if (ret < 0)
		open_fail(ret, err);
	stream_local_sysinfo(o, &si);
	ret = nb_stream_recv_new(&r, fd);
	if (ret == 0)
		ret = nb_stream_rx_new(&rx);
	if (ret < 0)
		cli_fail(ret, "receiver");
	r->end_mono_ns = o->recv_time_ns ? nb_mono_ns() + o->recv_time_ns : 0;
	r->idle_ns = o->idle_ns;
	r->stop_on_fin = true;
	r->ext_stop = &cli_stop;
	if (o->times_path) {
		times = fopen(o->times_path, "w");
		if (!times)
			cli_fail(errno, "--timestamps %s", o->times_path);
		r->on_datagram = write_time;
		r->on_datagram_arg = times;
	}
	if (!o->json) {
		printf("netbench stream: receiving %s port %u%s%s%s%s (%s)\n", o->sock.addr,
		       o->sock.port, o->sock.iface ? " on " : "",
		       o->sock.iface ? o->sock.iface : "", o->sock.source ? " from " : "",
		       o->sock.source ? o->sock.source : "",
		       o->multicast ? (o->sock.source ? "source-specific join" : "any-source join")
				    : "unicast");
		fflush(stdout);
	}
	ret = nb_stream_recv_run(r);
	if (ret < 0)
		cli_fail(ret, "receiving");
	nb_stream_recv_copy(r, rx);
	if (times && fclose(times) != 0)
		cli_fail(errno, "--timestamps %s", o->times_path);
	if (o->json) {
		struct nb_json j;
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "stream", &si, NULL);
		stream_json_params(&j, o, "recv");
		nb_json_str(&j, "end", end_name(r->end));
		nb_json_bool(&j, "recvmmsg_fallback", r->used_recvmsg);
		stream_json_rx(&j, rx);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	} else {
		printf("platform: %s, %s %s, %u CPU%s%s%s%s\n", si.hostname, si.arch, si.kernel,
		       si.ncpu, si.iface[0] ? ", " : "", si.iface, si.driver[0] ? " driver " : "",
		       si.driver);
		stream_print_rx(NULL, rx);
		printf("end: %s\n", end_name(r->end));
		if (r->used_recvmsg)
			printf("note: this kernel has no recvmmsg; received with recvmsg\n");
	}
	nb_stream_recv_free(r);
	nb_stream_rx_free(rx);
	close(fd);
	return 0;
}

void stream_print_send_head(const char *who)
{
	if (who)
		printf("%s:\n", who);
	printf("   asked      sent  datagrams  errors   late  max late    proc  pacing  paced "
	       "by    total\n"
	       "  Mbit/s    Mbit/s                                  ms   %%1cpu   %%1cpu          "
	       "        %%\n");
}

void stream_print_send_row(const struct nb_stream_send_step *s, size_t block)
{
	char how[24];

	pacing_describe(how, sizeof(how), s->pacing_mode, s->burst);
	printf("%8.2f %9.3f %10llu %7llu %6llu %9.3f %7.1f %7.2f  %-10s %8.2f\n",
	       (double)s->rate_bps / 1e6, nb_stream_send_rate_bps(s, block) / 1e6,
	       (unsigned long long)s->datagrams, (unsigned long long)s->errors,
	       (unsigned long long)s->late_sends, (double)s->max_late_ns / 1e6, s->cpu.proc_pct,
	       pacing_cpu_pct(s->pacing_cpu_ns, s->cpu.window_s), how, s->cpu.busy_pct);
}

void stream_print_pacing(const struct nb_stream_pacing *pc)
{
	printf("pacing: %s", nb_pacing_name(pc->mode));
	if (pc->mode == NB_PACING_TXTIME)
		printf(" (the kernel releases each datagram at its time: %s qdisc %s)",
		       pc->ifname, pc->qdisc);
	else if (pc->mode == NB_PACING_BURST)
		printf(" (about 1 ms per wake-up unless --burst%s%s)", pc->why[0] ? "; no kernel pacing: " : "", pc->why);
	else if (pc->mode == NB_PACING_SPIN)
		printf(" (exact gaps; at short intervals it costs a whole CPU)");
	printf("\n");
}

void stream_json_pacing(struct nb_json *j, const struct nb_stream_pacing *pc)
{
	nb_json_obj_begin(j, "pacing");
	nb_json_str(j, "asked", nb_pacing_name(pc->asked));
	nb_json_str(j, "mode", nb_pacing_name(pc->mode));
	if (pc->burst_asked)
		nb_json_u64(j, "burst_asked", pc->burst_asked);
	else
		nb_json_null(j, "burst_asked");
	nb_json_str(j, "iface", pc->ifname);
	nb_json_str(j, "qdisc", pc->qdisc);
	if (pc->why[0])
		nb_json_str(j, "kernel_pacing_unavailable", pc->why);
	else
		nb_json_null(j, "kernel_pacing_unavailable");
	nb_json_obj_end(j);
}

static void print_send_row(void *arg, size_t i, const struct nb_stream_send_step *s)
{
	const struct stream_opts *o = arg;
	(void)i;
	if (o->json)
		return;
	stream_print_send_row(s, o->block);
	fflush(stdout);
}

void stream_json_send(struct nb_json *j, const char *key, const struct nb_stream_send_step *steps,
		      size_t n, size_t block)
{
	nb_json_arr_begin(j, key);
	for (size_t i = 0; i < n; i++) {
		const struct nb_stream_send_step *s = &steps[i];
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "step", i);
		nb_json_u64(j, "rate_bps_asked", s->rate_bps);
		nb_json_double(j, "rate_bps", nb_stream_send_rate_bps(s, block), 0);
		nb_json_u64(j, "datagrams_planned", s->count);
		nb_json_u64(j, "omit_datagrams_planned", s->omit_count);
		nb_json_u64(j, "omit_datagrams", s->omit_datagrams);
		nb_json_u64(j, "datagrams", s->datagrams);
		nb_json_u64(j, "bytes", s->bytes);
		nb_json_u64(j, "send_errors", s->errors);
		nb_json_u64(j, "late_sends", s->late_sends);
		nb_json_double(j, "max_late_ms", (double)s->max_late_ns / 1e6, 6);
		nb_result_cpu(j, "cpu", &s->cpu);
		pacing_json_step(j, s->pacing_mode, s->burst, s->wakeups, s->pacing_cpu_ns,
				 s->cpu.window_s);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

uint32_t stream_random_id(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint32_t)(ts.tv_nsec ^ (ts.tv_sec << 20) ^ ((uint32_t)getpid() << 8));
}

static int run_send(struct stream_opts *o)
{
	struct nb_stream_send_step *steps = calloc(o->nrates, sizeof(*steps));
	struct nb_stream_send_opts so;
	struct nb_sysinfo si;
	char err[256];
	int fd = -1, ret;

	if (!steps)
		cli_fail(-ENOMEM, "sender");
	ret = nb_stream_open_send(&o->sock, &fd, err, sizeof(err));
	if (ret < 0)
		open_fail(ret, err);
	stream_local_sysinfo(o, &si);
	if (nb_stream_pacing_setup(fd, o->sock.iface, &o->pacing, err, sizeof(err)) < 0)
		cli_fail(0, "%s", err);
	memset(&so, 0, sizeof(so));
	so.fd = fd;
	so.pacing = o->pacing.mode;
	so.burst = o->pacing.burst_asked;
	so.block = o->block;
	so.rates_bps = o->rates;
	so.nrates = o->nrates;
	so.step_ns = o->time_ns;
	so.omit_ns = o->omit_ns;
	so.stream_id = stream_random_id();
	so.stop = &cli_stop;
	so.on_step = print_send_row;
	so.arg = o;
	if (!o->json) {
		printf("netbench stream: sending to %s port %u, %zu-byte datagrams, %zu step%s of "
		       "%.1f s after %.2f s warm-up\n",
		       o->sock.addr, o->sock.port, o->block, o->nrates, o->nrates == 1 ? "" : "s",
		       (double)o->time_ns / 1e9, (double)o->omit_ns / 1e9);
		stream_print_pacing(&o->pacing);
		stream_print_send_head(NULL);
		fflush(stdout);
	}
	ret = nb_stream_send_run(&so, steps);
	if (ret < 0)
		cli_fail(ret, "sending");
	if (o->json) {
		struct nb_json j;
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "stream", &si, NULL);
		stream_json_params(&j, o, "send");
		nb_json_bool(&j, "interrupted", cli_stop != 0);
		stream_json_pacing(&j, &o->pacing);
		stream_json_send(&j, "sent", steps, o->nrates, o->block);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	}
	close(fd);
	free(steps);
	return 0;
}

int cmd_stream(int argc, char **argv)
{
	struct stream_opts o;

	parse(&o, argc, argv);
	cli_catch_signals();
	if (o.recv)
		return run_recv(&o);
	if (o.send)
		return run_send(&o);
	return stream_run_ctl(&o, &cli_stop);
}
