/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's command line parsed into the run's parameters, each value checked against its
 * range (rate_opts_check.c then refuses impossible combinations); the help text. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/opt_table.h"
#include "cmd/save.h"
#include "cmd/pacing.h"
#include "cmd/rate_opts.h"
#include "core/base/cpulist.h"
#include "core/base/lab_rules.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/lab/lab.h"
#include "core/rate/flows.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/rate/learn.h"
#include "core/session/proto.h"

#define DEFAULT_PORT  5302
#define DEFAULT_SPORT 40000

static uint64_t parse_fps(const char *opt, const char *val, const char *typed);

/* -r: a bare number (k/M/G) or N[k/M/G]fps counts frames/s; N[k/M/G]bit/s (or bps) the frames'
 * bits per second; P% a share of --line-rate. */
static void parse_rate_opt(const char *opt, const char *val, struct nb_rate_params *p)
{
	static const char *const bits[] = {"bit/s", "bps", "b/s"};
	size_t n = strlen(val);
	char num[64];
	p->rate_fps = p->rate_bps = 0;
	p->rate_line_pct = 0;
	if (n && val[n - 1] == '%') {
		char *end;
		double v = strtod(val, &end);
		if (end != val + n - 1 || !isfinite(v) || !(v > 0) || v > 100)
			cli_usage_error("%s: '%s' is not a share of the line rate (accepted: above "
					"0 and at most 100%%)",
					opt, val);
		p->rate_line_pct = v;
		return;
	}
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		size_t k = strlen(bits[i]);
		if (n > k && !strcmp(val + n - k, bits[i]) && n - k < sizeof(num)) {
			memcpy(num, val, n - k);
			num[n - k] = '\0';
			uint64_t v;
			if (nb_parse_rate(num, &v) || v < 1000 || v > 1000000000000000ULL)
				cli_usage_error("%s: '%s' is not a bit rate (accepted: 1kbit/s to "
						"1Pbit/s, k/M/G = 10^3/6/9)",
						opt, val);
			p->rate_bps = v;
			return;
		}
	}
	if (n > 3 && !strcmp(val + n - 3, "fps") && n - 3 < sizeof(num)) {
		memcpy(num, val, n - 3);
		num[n - 3] = '\0';
		p->rate_fps = parse_fps(opt, num, val);
		return;
	}
	p->rate_fps = parse_fps(opt, val, val);
	/* A bare number counts frames; one beyond 10GbE's 64-byte line rate may be a bit rate. */
	if (p->rate_fps > 14880952)
		cli_warn(
		    "%s %s means %s frames/s (a bare number counts frames); for a bit rate write "
		    "%sbit/s, for a share of the line rate N%%",
		    opt, val, val, val);
}

static uint64_t parse_fps(const char *opt, const char *val, const char *typed)
{
	uint64_t v;
	if (!strcmp(val, "max"))
		return 0;
	if (nb_parse_rate(val, &v) == -EINVAL)
		cli_usage_error("%s: '%s' is not a rate (accepted: 1k to 1G frames/s as N or Nfps, "
				"a bit rate as Nbit/s, a share of --line-rate as N%%, or max)",
				opt, typed);
	if (v > NB_RATE_MAX_FPS || nb_parse_rate(val, &v) == -ERANGE)
		cli_usage_error("%s is too large: %s (at most 1G frames/s)", opt, typed);
	if (v < NB_RATE_MIN_FPS)
		cli_usage_error("%s is too small: %s (at least 1k frames/s)", opt, typed);
	return v;
}

static double parse_pct(const char *opt, const char *val, double max)
{
	char *end;
	double v = strtod(val, &end);
	if (end == val || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0)
		cli_usage_error("%s: '%s' is not a percentage (accepted: 0 to %g)", opt, val, max);
	if (v > max)
		cli_usage_error("%s is too large: %s (at most %g %%)", opt, val, max);
	return v;
}

/* --loss-ratios: up to NB_MLR_MAX_RATIOS percentages, each 0 to below 50, increasing. */
static void parse_ratios(const char *opt, const char *val, struct nb_rate_params *p)
{
	char buf[256], *tok, *save = NULL;
	uint32_t n = 0;

	if (!*val || strlen(val) >= sizeof(buf) || val[0] == ',' || val[strlen(val) - 1] == ',' ||
	    strstr(val, ",,"))
		cli_usage_error("%s: '%s' is not a comma-separated list of percentages", opt, val);
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;
		if (n == NB_MLR_MAX_RATIOS)
			cli_usage_error("%s: at most %u loss ratios ('%s')", opt, NB_MLR_MAX_RATIOS,
					val);
		v = parse_pct(opt, tok, 49.999) / 100;
		if (n && v <= p->loss_ratios[n - 1])
			cli_usage_error("%s: ratios must increase ('%s')", opt, val);
		p->loss_ratios[n++] = v;
	}
	p->nratios = n;
}

static void set_test(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	size_t i;
	for (i = 0; i < NB_RATE_NTESTS && strcmp(arg, nb_rate_test_names[i]); i++)
		;
	if (i == NB_RATE_NTESTS)
		cli_usage_error("%s: unknown test '%s' (accepted: throughput, loss, "
				"b2b, latency, trial, ndrpdr)",
				name, arg);
	o->p.test = (enum nb_rate_test)i;
	o->seen.test = true;
}

static void set_engine(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	o->p.engine = nb_gen_find(arg);
	if (!o->p.engine)
		cli_usage_error("%s: unknown engine '%s' (accepted: udp, packet)", name, arg);
}

static void set_rate(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	parse_rate_opt(name, arg, &o->p);
	/* name is the parser's buffer, reused by the next option */
	snprintf(o->rate_opt, sizeof(o->rate_opt), "%s", name);
	o->rate_text = arg;
}

/* "0" turns learning off; otherwise 100 ms (a round and its wait) to 60 s. */
static void set_learn(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	o->p.learn_ns = !strcmp(arg, "0")
			    ? 0
			    : cli_duration_ns(name, arg, 100 * NB_NS_PER_MS, 60 * NB_NS_PER_S);
}

static void set_tolerance(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	o->p.loss_tolerance = parse_pct(name, arg, 50) / 100;
	o->seen.tol = true;
}

static void set_ratios(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	parse_ratios(name, arg, &o->p);
	o->seen.ratios = true;
}

static void set_imix(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	char why[256];
	if (nb_mix_parse(arg, NB_FRAME_MIN, NB_FRAME_MAX, &o->mix, why, sizeof(why)))
		cli_usage_error("%s: %s", name, why);
	o->p.mix = &o->mix;
}

static void set_flow_fields(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	char why[256];
	if (nb_flow_fields_parse(arg, &o->p.flow_fields, why, sizeof(why)))
		cli_usage_error("%s: %s", name, why);
}

static void set_resolution(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	if (strchr(arg, '%'))
		o->p.resolution_pct = parse_pct(name, arg, 50);
	else
		o->p.resolution_fps = parse_fps(name, arg, arg);
	if (!o->p.resolution_fps && o->p.resolution_pct <= 0)
		cli_usage_error("%s must be more than 0", name);
}

static void set_pacing(void *dst, const char *name, const char *arg)
{
	((struct rate_opts *)dst)->p.pacing_asked = cli_pacing(name, arg);
}

static void set_cpus(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	int n = nb_cpulist_parse(arg, o->p.cpus, NB_GEN_MAX_THREADS);
	if (n == -ERANGE)
		cli_usage_error("%s: '%s' names a CPU above %u", name, arg, NB_CPULIST_MAX);
	if (n == -E2BIG)
		cli_usage_error("%s: '%s' names more than %u CPUs", name, arg, NB_GEN_MAX_THREADS);
	if (n == -EEXIST)
		cli_usage_error("%s: '%s' names a CPU twice", name, arg);
	if (n <= 0)
		cli_usage_error("%s: '%s' is not a CPU list (e.g. 0,1 or 2-3)", name, arg);
	o->p.ncpus = (uint32_t)n;
}

static void set_sweep(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	int n = nb_parse_list(arg, nb_parse_u64, o->p.sweep, 16);
	if (n == -E2BIG)
		cli_usage_error("%s: too many rule counts in '%s' (at most 16)", name, arg);
	if (n <= 0)
		cli_usage_error("%s: '%s' is not a list of rule counts (0 to %d)", name, arg,
				NB_LAB_RULES_MAX);
	o->p.nsweep = (size_t)n;
	for (size_t i = 0; i < o->p.nsweep; i++)
		if (o->p.sweep[i] > NB_LAB_RULES_MAX)
			cli_usage_error("%s is too large: %llu rules (at most %d)", name,
					(unsigned long long)o->p.sweep[i], NB_LAB_RULES_MAX);
}

static void set_kinds(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	char buf[128], *tok, *save = NULL;
	if (strlen(arg) >= sizeof(buf))
		cli_usage_error("%s: '%s' is too long", name, arg);
	strcpy(buf, arg);
	o->p.nkinds = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *path;
		enum nb_lab_rules_kind k;
		if (nb_lab_rules_kind_parse(tok, &k, &path) || k == NB_LAB_RULES_FILE)
			cli_usage_error("%s: unknown kind '%s' (accepted: linear, set, conntrack)",
					name, tok);
		if (o->p.nkinds == 3)
			cli_usage_error("%s: at most 3 kinds", name);
		o->p.kinds[o->p.nkinds++] = k;
	}
}

static void set_latency(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	(void)name;
	if (!strcmp(arg, "auto"))
		o->p.latency = NB_RATE_LAT_AUTO;
	else if (!strcmp(arg, "oneway") || !strcmp(arg, "one-way"))
		o->p.latency = NB_RATE_LAT_ONEWAY;
	else if (!strcmp(arg, "rtt"))
		o->p.latency = NB_RATE_LAT_RTT;
	else
		cli_usage_error("--latency: unknown mode '%s' (auto, oneway, rtt)", arg);
}

static void set_folded(void *dst, const char *name, const char *arg)
{
	struct rate_opts *o = dst;
	(void)name;
	if (!*arg)
		cli_usage_error("--profile-folded: an empty file name");
	o->profile_folded = arg;
	cli_check_writable("--profile-folded", arg);
}

/* The help's head; the option list after it is the table's. */
static const char usage_head[] =
    "Usage: netbench rate [options] --local-rx [NETNS/]ADDR\n"
    "       netbench rate [options] -c AGENT[:PORT] [--dst ADDR]\n"
    "       netbench rate [options] --dst ADDR   (send only: no receiver)\n"
    "Frames per second through a device under test, by RFC 2544.\n\n";

#define AT(member) OPT_AT(struct rate_opts, member)
#define SEEN(flag) .seen = offsetof(struct rate_opts, seen.flag)
#define SET(fn)	   OPT_SET, .set = (fn), .has_arg = required_argument
#define FRAMES(flag)                                                                               \
	OPT_BYTES_LIST, NB_FRAME_MIN, NB_FRAME_MAX, AT(p.sizes),                                   \
	    .cnt = offsetof(struct rate_opts, p.nsizes), .nmax = NB_RATE_MAX_SIZES, SEEN(flag)
#define TRIAL_NS OPT_DURATION, 100 * NB_NS_PER_MS, 3600 * NB_NS_PER_S

/* rate's options, in the order of its help; rate has no -4/-6: where frames go decides the
 * family. Two letters for one option (-l and -s, -t and -T) take a text row: a row shows one
 * letter. */
static const struct opt_row rows[] = {
    {"test", 'm', SET(set_test), .arg = "KIND",
     .help = "throughput (default), loss, b2b, latency, trial,\nndrpdr (several loss ratios from "
	     "one shared search)"},
    {"engine", 'e', SET(set_engine), .arg = "NAME",
     .help = "udp (connected socket, sendmmsg; default) or packet\n(AF_PACKET TX ring, qdisc "
	     "bypass; needs CAP_NET_RAW)"},
    {"sizes", 's', FRAMES(sizes)},
    {"len", 'l', FRAMES(sizes)},
    OPT_ROW_TEXT("  -l, -s, --sizes LIST    frame sizes in bytes, FCS included (default\n"
		 "                          64,128,256,512,1024,1280,1518; 64 to the egress\n"
		 "                          MTU+18, at most 9216 = 9k, jumbo frames)\n"),
    {"imix", 0, SET(set_imix), .arg = "MIX",
     .help = "a frame-size mix instead of --sizes: simple (64:7,\n570:4, 1518:1) or "
	     "SIZE:WEIGHT,... (2 to 8 sizes),\ninterleaved in proportion (--engine udp)"},
    {"rate", 'r', SET(set_rate), .arg = "RATE",
     .help = "trial rate, or the highest rate a search tries: N or\nNfps frames/s (a bare "
	     "number counts frames; k/M/G),\nNbit/s (or Nbps) the frames' bits per second, N% "
	     "a\nshare of --line-rate; above the line rate at a size:\nrefused (default: as fast "
	     "as the engine goes)"},
    {"line-rate", 0, OPT_BITRATE, 1000000, 1000000000000ULL, AT(p.line_bps), .arg = "BITS",
     .help = "line rate (e.g. 1G): % of line rate, and the search's\nmaximum per size"},
    {"time", 't', TRIAL_NS, AT(p.trial_ns), SEEN(trial)},
    {"trial", 'T', TRIAL_NS, AT(p.trial_ns), SEEN(trial)},
    OPT_ROW_TEXT("  -t, -T, --time DURATION  length of each trial (default 2s; alias --trial)\n"),
    {"drain", 0, OPT_DURATION, 10 * NB_NS_PER_MS, 60 * NB_NS_PER_S, AT(p.drain_ns),
     .arg = "DURATION", .help = "wait after each trial before counters are read (200ms)"},
    {"learning-timeout", 0, SET(set_learn), .arg = "DURATION",
     .help = "learning frames before the first trial (and\nafter each ruleset change) must "
	     "arrive within it\n(default 2s, over IPv6 4s; 0: no learning phase)"},
    {"loss-tolerance", 0, SET(set_tolerance), .arg = "P",
     .help = "loss in % a passing trial may have (default 0: NDR)"},
    {"loss-ratios", 0, SET(set_ratios), .arg = "LIST",
     .help = "ndrpdr: loss ratios in %, increasing, up to 4 (default\n0,0.5: NDR and PDR); "
	     "implies --test ndrpdr"},
    {"final-trial", 0, TRIAL_NS, AT(p.final_trial_ns), .arg = "DURATION",
     .help = "ndrpdr: length of the final trial at each result\n(default: the trial length)"},
    {"resolution", 0, SET(set_resolution), .arg = "R",
     .help = "search stops at this gap: % of the maximum (0.5%)\nor frames/s"},
    {"pacing", 0, SET(set_pacing), .arg = "MODE",
     .help = "auto (default): burst, or spin for --test latency;\nburst: sleep, wake about once "
	     "per ms and send the\nframes due back to back; spin: every frame on its own\n"
	     "deadline (exact gaps, a busy CPU at short intervals)"},
    {"burst", 0, OPT_UINT, 1, NB_PACER_MAX_BURST, AT(p.burst), .arg = "N",
     .help = "frames per wake-up with burst pacing (1-1024; default\nabout 1 ms worth)"},
    {"flows", 0, OPT_UINT, 1, NB_GEN_MAX_FLOWS, AT(p.flows), SEEN(flows), .arg = "N",
     .help = "flows with distinct source ports (default 1, or one\nper thread; up to 65536)"},
    {"flow-fields", 0, SET(set_flow_fields), .arg = "LIST",
     .help = "what makes flows differ: sport (default), src-ip\n(--engine packet: the upper half "
	     "of this host's\nnetwork), dst-ip (the receiver's address + f, a\nrange it must "
	     "own), any of them"},
    {"per-flow", 0, OPT_FLAG, AT(p.per_flow),
     .help = "record every flow's sent and received frames per trial"},
    {"bidir", 0, OPT_FLAG, AT(p.bidir),
     .help = "the agent (-c) sends the reverse direction at the same\nrate, size (or mix) and "
	     "flows; a trial passes when\nboth do"},
    {"threads", 0, OPT_UINT, 1, NB_GEN_MAX_THREADS, AT(p.threads), SEEN(threads), .arg = "N",
     .help = "generator threads (1 to 64, default 1; one per --cpus\nentry when given), each "
	     "with its own socket or TX\nring, its flows and 1/N of the rate; a local receiver\n"
	     "reads with N threads too (SO_REUSEPORT)"},
    {"cpus", 0, SET(set_cpus), .arg = "LIST",
     .help = "pin thread i to the i-th CPU of LIST (e.g. 0,1 or 2-3)"},
    {"repeat", 0, OPT_UINT, 1, 1000, AT(p.repeat), SEEN(repeat), .arg = "N",
     .help = "b2b searches averaged, latency trials, ndrpdr searches\n(default 5, 1, 1; ndrpdr "
	     "up to 32)"},
    {"batch", 0, OPT_UINT, 1, NB_GEN_MAX_BATCH, AT(p.batch), .arg = "N",
     .help = "most frames per system call (default and at most 1024)"},
    {"data-port", 0, OPT_UINT, 1, 65535, AT(p.rx.port), .arg = "N",
     .help = "UDP port the receiver listens on (default 5302)"},
    {"sport", 0, OPT_UINT, 1, 65535, AT(p.sport), .arg = "N",
     .help = "first source port (default 40000)"},
    {"no-mmsg", 0, OPT_FLAG, AT(p.rx.no_mmsg),
     .help = "sendmsg/recvmsg instead of sendmmsg/recvmmsg"},
    {"realtime", 0, OPT_FLAG, AT(p.realtime),
     .help = "pace from a SCHED_FIFO thread (needs CAP_SYS_NICE):\nkeeps the schedule on a host "
	     "busy with other work"},
    {"local-rx", 0, OPT_STRING, AT(local_rx), .arg = "[NS/]ADDR",
     .help = "receive in this process, on ADDR, inside network\nnamespace NS when given (ip "
	     "netns name)"},
    {"client", 'c', OPT_STRING, AT(agent), .arg = "AGENT[:PORT]",
     .help = "(alias --connect; [IPv6]:PORT)\nreceiver on a `netbench serve` agent"},
    {"connect", 'c', OPT_STRING, AT(agent)},
    {"latency", 0, SET(set_latency), .arg = "MODE",
     .help = "auto (default): one-way when the agent shares this\nhost's clock (same boot id), "
	     "else round-trip from\nprobes the agent reflects; oneway; rtt"},
    {"dst", 0, OPT_STRING, AT(dst), .arg = "ADDR",
     .help = "traffic destination (default: the agent's address)"},
    {"port", 'p', OPT_UINT, 1, 65535, AT(p.rx.agent.port), .arg = "N",
     .help = "the agent's control port (default 5301)"},
    {"psk", 'k', OPT_STRING, AT(psk_file), .arg = "FILE",
     .help = "pre-shared key the agent requires"},
    {"quick", 'q', OPT_FLAG, AT(seen.quick),
     .help = "short trials (0.3 s), 2% resolution, sizes 64,512,1518"},
    {"sweep-rules", 0, SET(set_sweep), .arg = "LIST",
     .help = "rule counts to load into the lab's DUT in\nturn (netbench lab), the procedure run "
	     "at\neach: fps against rules"},
    {"kind", 0, SET(set_kinds), .arg = "LIST",
     .help = "rulesets of the sweep: linear, set, conntrack (linear)"},
    {"lab-prefix", 0, OPT_STRING, AT(lab_prefix), .arg = "P",
     .help = "the lab's namespace prefix (default $NB_LAB_PREFIX, or\nnbgen, nbdut, nbsink)"},
    {"rcvbuf", 0, OPT_BYTES, 1, 1u << 30, AT(p.rx.rcvbuf), .arg = "BYTES",
     .help = "the local receiver's socket buffer (default:\nas large as the kernel allows); small: "
	     "a\nsink that cannot keep up"},
    OBS_CLI_ROWS,
    OPT_ROW_TEXT(OBS_CLI_HELP),
    {"profile-folded", 0, SET(set_folded), .arg = "FILE",
     .help = "write the kernel profile's stacks of each size's\njudged trial (each sweep point's "
	     "too) as folded stacks\nfor a flame graph (flamegraph.pl, inferno,\nspeedscope); "
	     "implies --profile"},
    {"json", 'J', OPT_FLAG, AT(json), .help = "JSON result with every trial"},
    CLI_SAVE_ROWS,
    CLI_HELP_ROWS,
};
static const struct opt_table table = {rows, sizeof(rows) / sizeof(rows[0]), 26};

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(&table, f);
}

/* The observers' options, --save's, then -h, -V or an unknown option. */
static void other_option(void *ctx, int c, const char *name, int argc, char **argv)
{
	struct rate_opts *o = ctx;
	(void)name;
	if (!obs_cli_option(&o->obs, c, optarg) && !cli_save_option(&o->save, c, argc, argv))
		cli_last_option(argv, c, NULL, usage);
}

void rate_parse_opts(int argc, char **argv, struct rate_opts *o)
{
	static const uint64_t rfc_sizes[] = {64, 128, 256, 512, 1024, 1280, 1518};

	memset(o, 0, sizeof(*o));
	o->p.engine = &nb_gen_udp;
	o->p.trial_ns = 2 * NB_NS_PER_S;
	o->p.drain_ns = 200 * NB_NS_PER_MS;
	o->p.learn_ns = NB_LEARN_AUTO;
	o->p.resolution_pct = 0.5;
	o->p.flows = 1;
	o->p.batch = 1024;
	o->p.repeat = 5;
	o->p.rx.port = DEFAULT_PORT;
	o->p.sport = DEFAULT_SPORT;
	o->p.rx.agent.port = NB_DEFAULT_PORT;
	memcpy(o->p.sizes, rfc_sizes, sizeof(rfc_sizes));
	o->p.nsizes = sizeof(rfc_sizes) / sizeof(rfc_sizes[0]);
	if (opt_parse(&table, argc, argv, o, other_option, o) < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* The stacks come from the profile: --profile-folded asks for it at the default rate. */
	if (o->profile_folded && !o->obs.set.req.profile_hz)
		o->obs.set.req.profile_hz = NB_PROF_HZ_DEFAULT;
	rate_check_opts(o, &o->seen);
}
