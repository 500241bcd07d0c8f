/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's options: the help text, the parsing into the run's parameters and every
 * impossible combination refused with exit 2 (rate.c runs the procedures and prints). */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/pacing.h"
#include "cmd/rate_opts.h"
#include "core/base/cpulist.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/lab/lab.h"
#include "core/lab/lab_rules.h"
#include "core/rate/flows.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/rate/learn.h"
#include "core/session/proto.h"

#define DEFAULT_PORT  5302
#define DEFAULT_SPORT 40000

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: netbench rate [options] --local-rx [NETNS/]ADDR\n"
	    "       netbench rate [options] -c AGENT[:PORT] [--dst ADDR]\n"
	    "       netbench rate [options] --dst ADDR   (send only: no receiver)\n"
	    "Frames per second through a device under test, by RFC 2544.\n\n"
	    "  -m, --test KIND         throughput (default), loss, b2b, latency, trial,\n"
	    "                          ndrpdr (several loss ratios from one shared search)\n"
	    "  -e, --engine NAME       udp (connected socket, sendmmsg; default) or packet\n"
	    "                          (AF_PACKET TX ring, qdisc bypass; needs CAP_NET_RAW)\n"
	    "  -l, -s, --sizes LIST        frame sizes in bytes, FCS included (default\n"
	    "                          64,128,256,512,1024,1280,1518; 64 to MTU+18)\n"
	    "      --imix MIX          a frame-size mix instead of --sizes: simple (64:7,\n"
	    "                          570:4, 1518:1) or SIZE:WEIGHT,... (2 to 8 sizes),\n"
	    "                          interleaved in proportion (--engine udp)\n"
	    "  -r, --rate FPS          trial rate, or the highest rate a search tries\n"
	    "                          (k/M suffixes; default: as fast as the engine goes)\n"
	    "      --line-rate BITS    line rate (e.g. 1G): %% of line rate, and the search's\n"
	    "                          maximum per size\n"
	    "  -t, -T, --time DURATION  length of each trial (default 2s; alias --trial)\n"
	    "      --drain DURATION    wait after each trial before counters are read (200ms)\n"
	    "      --learning-timeout DURATION  learning frames before the first trial (and\n"
	    "                          after each ruleset change) must arrive within it\n"
	    "                          (default 2s, over IPv6 4s; 0: no learning phase)\n"
	    "      --loss-tolerance P  loss in %% a passing trial may have (default 0: NDR)\n"
	    "      --loss-ratios LIST  ndrpdr: loss ratios in %%, increasing, up to 4 (default\n"
	    "                          0,0.5: NDR and PDR); implies --test ndrpdr\n"
	    "      --final-trial DURATION  ndrpdr: length of the final trial at each result\n"
	    "                          (default: the trial length)\n"
	    "      --resolution R      search stops at this gap: %% of the maximum (0.5%%)\n"
	    "                          or frames/s\n"
	    "      --pacing MODE       auto (default): burst, or spin for --test latency;\n"
	    "                          burst: sleep, wake about once per ms and send the\n"
	    "                          frames due back to back; spin: every frame on its own\n"
	    "                          deadline (exact gaps, a busy CPU at short intervals)\n"
	    "      --burst N           frames per wake-up with burst pacing (1-1024; default\n"
	    "                          about 1 ms worth)\n"
	    "      --flows N           flows with distinct source ports (default 1, or one\n"
	    "                          per thread)\n"
	    "      --flow-fields LIST  what makes flows differ: sport (default), src-ip\n"
	    "                          (--engine packet: the upper half of this host's\n"
	    "                          network), or both\n"
	    "      --per-flow          record every flow's sent and received frames per trial\n"
	    "      --threads N         generator threads (1 to 64, default 1; one per --cpus\n"
	    "                          entry when given), each with its own socket or TX\n"
	    "                          ring, its flows and 1/N of the rate; a local receiver\n"
	    "                          reads with N threads too (SO_REUSEPORT)\n"
	    "      --cpus LIST         pin thread i to the i-th CPU of LIST (e.g. 0,1 or 2-3)\n"
	    "      --repeat N          b2b searches averaged, latency trials, ndrpdr searches\n"
	    "                          (default 5, 1, 1; ndrpdr up to 32)\n"
	    "      --batch N           most frames per system call (default and at most 1024)\n"
	    "      --data-port N       UDP port the receiver listens on (default 5302)\n"
	    "      --sport N           first source port (default 40000)\n"
	    "      --no-mmsg           sendmsg/recvmsg instead of sendmmsg/recvmmsg\n"
	    "      --realtime          pace from a SCHED_FIFO thread (needs CAP_SYS_NICE): keeps\n"
	    "                          the schedule on a host busy with other work\n"
	    "      --local-rx [NS/]ADDR  receive in this process, on ADDR, inside network\n"
	    "                          namespace NS when given (ip netns name)\n"
	    "  -c, --client AGENT[:PORT]  (alias --connect; [IPv6]:PORT)\n"
	    "                          receiver on a `netbench serve` agent\n"
	    "      --latency MODE      auto (default): one-way when the agent shares this\n"
	    "                          host's clock (same boot id), else round-trip from\n"
	    "                          probes the agent reflects; oneway; rtt\n"
	    "      --dst ADDR          traffic destination (default: the agent's address)\n"
	    "  -p, --port N            the agent's control port (default 5301)\n"
	    "  -k, --psk FILE          pre-shared key the agent requires\n"
	    "  -q, --quick             short trials (0.3 s), 2%% resolution, sizes 64,512,1518\n"
	    "      --sweep-rules LIST  rule counts to load into the lab's DUT in turn (netbench\n"
	    "                          lab), the procedure run at each: fps against rules\n"
	    "      --kind LIST         rulesets of the sweep: linear, set, conntrack (linear)\n"
	    "      --lab-prefix P      the lab's namespace prefix (default $NB_LAB_PREFIX, or\n"
	    "                          nbgen, nbdut, nbsink)\n"
	    "      --rcvbuf BYTES      the local receiver's socket buffer (default: as large\n"
	    "                          as the kernel allows); small: a sink that cannot keep "
	    "up\n" OBS_CLI_HELP
	    "  -J, --json              JSON result with every trial\n" CLI_SAVE_HELP
	    "  -h, --help              this help\n" CLI_VERSION_HELP);
}

static uint64_t parse_fps(const char *opt, const char *val)
{
	uint64_t v;
	if (!strcmp(val, "max"))
		return 0;
	if (nb_parse_rate(val, &v) == -EINVAL)
		cli_usage_error(
		    "%s: '%s' is not a frame rate (accepted: 1k to 1G frames/s, or max)", opt, val);
	if (v > NB_RATE_MAX_FPS || nb_parse_rate(val, &v) == -ERANGE)
		cli_usage_error("%s is too large: %s (at most 1G frames/s)", opt, val);
	if (v < NB_RATE_MIN_FPS)
		cli_usage_error("%s is too small: %s (at least 1k frames/s)", opt, val);
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

/* Numeric addresses only, parsed with inet_pton: getaddrinfo would drag the resolver into
 * static builds, and test traffic goes to addresses the user names exactly. */
static void parse_addr(const char *opt, const char *val, uint16_t port, struct sockaddr_storage *ss,
		       socklen_t *len)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, val, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		*len = sizeof(*s4);
	} else if (inet_pton(AF_INET6, val, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		*len = sizeof(*s6);
	} else {
		cli_usage_error("%s: '%s' is not an IPv4 or IPv6 address", opt, val);
	}
}

/* --local-rx [NETNS/]ADDR: the namespace's name points into spec, which outlives the run. */
static void parse_local_rx(const char *spec, uint16_t port, struct nb_rx_cfg *rx)
{
	static char ns[256];
	const char *addr = spec, *slash = strchr(spec, '/');

	if (slash) {
		if ((size_t)(slash - spec) >= sizeof(ns) || slash == spec)
			cli_usage_error("--local-rx: '%s' is not [NETNS/]ADDR", spec);
		memcpy(ns, spec, (size_t)(slash - spec));
		ns[slash - spec] = '\0';
		addr = slash + 1;
		rx->netns = ns;
	}
	parse_addr("--local-rx", addr, port, &rx->dst, &rx->dst_len);
}

void rate_parse_opts(int argc, char **argv, struct rate_opts *o)
{
	enum {
		O_LINE = 256,
		O_DRAIN,
		O_TOL,
		O_RES,
		O_BURST,
		O_PACING,
		O_FLOWS,
		O_REPEAT,
		O_BATCH,
		O_SPORT,
		O_NOMMSG,
		O_LOCALRX,
		O_DST,
		O_DPORT,
		O_QUICK,
		O_RT,
		O_SWEEP,
		O_KIND,
		O_LABP,
		O_LAT,
		O_RCVBUF,
		O_THREADS,
		O_CPUS,
		O_LEARN,
		O_RATIOS,
		O_FINAL,
		O_IMIX,
		O_FFIELDS,
		O_PERFLOW
	};
	static const struct option lo[] = {
	    {"test", required_argument, NULL, 'm'},
	    {"engine", required_argument, NULL, 'e'},
	    {"sizes", required_argument, NULL, 's'},
	    {"len", required_argument, NULL, 'l'},
	    {"time", required_argument, NULL, 't'},
	    {"rate", required_argument, NULL, 'r'},
	    {"line-rate", required_argument, NULL, O_LINE},
	    {"trial", required_argument, NULL, 'T'},
	    {"drain", required_argument, NULL, O_DRAIN},
	    {"learning-timeout", required_argument, NULL, O_LEARN},
	    {"loss-tolerance", required_argument, NULL, O_TOL},
	    {"loss-ratios", required_argument, NULL, O_RATIOS},
	    {"imix", required_argument, NULL, O_IMIX},
	    {"flow-fields", required_argument, NULL, O_FFIELDS},
	    {"per-flow", no_argument, NULL, O_PERFLOW},
	    {"final-trial", required_argument, NULL, O_FINAL},
	    {"resolution", required_argument, NULL, O_RES},
	    {"burst", required_argument, NULL, O_BURST},
	    {"pacing", required_argument, NULL, O_PACING},
	    {"flows", required_argument, NULL, O_FLOWS},
	    {"repeat", required_argument, NULL, O_REPEAT},
	    {"batch", required_argument, NULL, O_BATCH},
	    {"data-port", required_argument, NULL, O_DPORT},
	    {"quick", no_argument, NULL, 'q'},
	    {"sport", required_argument, NULL, O_SPORT},
	    {"no-mmsg", no_argument, NULL, O_NOMMSG},
	    {"local-rx", required_argument, NULL, O_LOCALRX},
	    {"client", required_argument, NULL, 'c'},
	    {"connect", required_argument, NULL, 'c'},
	    {"dst", required_argument, NULL, O_DST},
	    {"psk", required_argument, NULL, 'k'},
	    {"port", required_argument, NULL, 'p'},
	    {"realtime", no_argument, NULL, O_RT},
	    {"sweep-rules", required_argument, NULL, O_SWEEP},
	    {"kind", required_argument, NULL, O_KIND},
	    {"lab-prefix", required_argument, NULL, O_LABP},
	    {"latency", required_argument, NULL, O_LAT},
	    {"rcvbuf", required_argument, NULL, O_RCVBUF},
	    OBS_CLI_LONGOPTS,
	    {"threads", required_argument, NULL, O_THREADS},
	    {"cpus", required_argument, NULL, O_CPUS},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_VERSION_LONGOPT,
	    CLI_SAVE_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	static const uint64_t rfc_sizes[] = {64, 128, 256, 512, 1024, 1280, 1518};
	bool repeat_set = false, quick = false, sizes_set = false, trial_set = false;
	bool flows_set = false, threads_set = false, test_set = false, tol_set = false;
	bool ratios_set = false;
	int c, li;

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
	o->p.rx.ctl_port = NB_DEFAULT_PORT;
	memcpy(o->p.sizes, rfc_sizes, sizeof(rfc_sizes));
	o->p.nsizes = sizeof(rfc_sizes) / sizeof(rfc_sizes[0]);
	while ((li = -1, c = getopt_long(argc, argv, ":m:t:e:s:l:r:T:p:c:k:qJhVo:", lo, &li)) !=
	       -1) {
		const char *name = cli_optname(lo, c, li);
		switch (c) {
		case 'm': {
			size_t i;
			for (i = 0; i < NB_RATE_NTESTS && strcmp(optarg, nb_rate_test_names[i]);
			     i++)
				;
			if (i == NB_RATE_NTESTS)
				cli_usage_error(
				    "%s: unknown test '%s' (accepted: throughput, loss, "
				    "b2b, latency, trial, ndrpdr)",
				    name, optarg);
			o->p.test = (enum nb_rate_test)i;
			test_set = true;
			break;
		}
		case 'e':
			o->p.engine = nb_gen_find(optarg);
			if (!o->p.engine)
				cli_usage_error("%s: unknown engine '%s' (accepted: udp, packet)",
						name, optarg);
			break;
		case 's':
		case 'l':
			o->p.nsizes = cli_bytes_list(name, optarg, o->p.sizes, NB_RATE_MAX_SIZES,
						     NB_FRAME_MIN, NB_FRAME_MAX);
			sizes_set = true;
			break;
		case 'r':
			o->p.rate_fps = parse_fps(name, optarg);
			break;
		case O_LINE:
			o->p.line_bps = cli_rate(name, optarg, 1000000, 1000000000000ULL);
			break;
		case 't':
		case 'T':
			o->p.trial_ns =
			    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 3600 * NB_NS_PER_S);
			trial_set = true;
			break;
		case O_DRAIN:
			o->p.drain_ns =
			    cli_duration_ns(name, optarg, 10 * NB_NS_PER_MS, 60 * NB_NS_PER_S);
			break;
		case O_LEARN:
			/* "0" turns learning off; otherwise 100 ms (a round and its wait) to 60 s.
			 */
			o->p.learn_ns = !strcmp(optarg, "0")
					    ? 0
					    : cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS,
							      60 * NB_NS_PER_S);
			break;
		case O_TOL:
			o->p.loss_tolerance = parse_pct(name, optarg, 50) / 100;
			tol_set = true;
			break;
		case O_RATIOS:
			parse_ratios(name, optarg, &o->p);
			ratios_set = true;
			break;
		case O_IMIX: {
			char why[256];
			if (nb_mix_parse(optarg, NB_FRAME_MIN, NB_FRAME_MAX, &o->mix, why,
					 sizeof(why)))
				cli_usage_error("%s: %s", name, why);
			o->p.mix = &o->mix;
			break;
		}
		case O_FFIELDS: {
			char why[256];
			if (nb_flow_fields_parse(optarg, &o->p.flow_fields, why, sizeof(why)))
				cli_usage_error("%s: %s", name, why);
			break;
		}
		case O_PERFLOW:
			o->p.per_flow = true;
			break;
		case O_FINAL:
			o->p.final_trial_ns =
			    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 3600 * NB_NS_PER_S);
			break;
		case O_RES:
			if (strchr(optarg, '%'))
				o->p.resolution_pct = parse_pct(name, optarg, 50);
			else
				o->p.resolution_fps = parse_fps(name, optarg);
			if (!o->p.resolution_fps && o->p.resolution_pct <= 0)
				cli_usage_error("%s must be more than 0", name);
			break;
		case O_BURST:
			o->p.burst = (uint32_t)cli_uint(name, optarg, 1, NB_PACER_MAX_BURST);
			break;
		case O_PACING:
			o->p.pacing_asked = cli_pacing(name, optarg);
			break;
		case O_FLOWS:
			o->p.flows = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_FLOWS);
			flows_set = true;
			break;
		case O_THREADS:
			o->p.threads = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_THREADS);
			threads_set = true;
			break;
		case O_CPUS: {
			int n = nb_cpulist_parse(optarg, o->p.cpus, NB_GEN_MAX_THREADS);
			if (n == -ERANGE)
				cli_usage_error("%s: '%s' names a CPU above %u", name, optarg,
						NB_CPULIST_MAX);
			if (n == -E2BIG)
				cli_usage_error("%s: '%s' names more than %u CPUs", name, optarg,
						NB_GEN_MAX_THREADS);
			if (n == -EEXIST)
				cli_usage_error("%s: '%s' names a CPU twice", name, optarg);
			if (n <= 0)
				cli_usage_error("%s: '%s' is not a CPU list (e.g. 0,1 or 2-3)",
						name, optarg);
			o->p.ncpus = (uint32_t)n;
			break;
		}
		case O_REPEAT:
			o->p.repeat = (uint32_t)cli_uint(name, optarg, 1, 1000);
			repeat_set = true;
			break;
		case O_BATCH:
			o->p.batch = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_BATCH);
			break;
		case O_DPORT:
			o->p.rx.port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'q':
			quick = true;
			break;
		case O_SPORT:
			o->p.sport = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case O_NOMMSG:
			o->p.rx.no_mmsg = true;
			break;
		case O_LOCALRX:
			o->local_rx = optarg;
			break;
		case 'c':
			o->agent = optarg;
			break;
		case O_DST:
			o->dst = optarg;
			break;
		case 'k':
			o->p.rx.psk_file = optarg;
			break;
		case O_RT:
			o->p.realtime = true;
			break;
		case O_SWEEP: {
			int n = nb_parse_list(optarg, nb_parse_u64, o->p.sweep, 16);
			if (n == -E2BIG)
				cli_usage_error("%s: too many rule counts in '%s' (at most 16)",
						name, optarg);
			if (n <= 0)
				cli_usage_error("%s: '%s' is not a list of rule counts (0 to %d)",
						name, optarg, NB_LAB_RULES_MAX);
			o->p.nsweep = (size_t)n;
			for (size_t i = 0; i < o->p.nsweep; i++)
				if (o->p.sweep[i] > NB_LAB_RULES_MAX)
					cli_usage_error("%s is too large: %llu rules (at most %d)",
							name, (unsigned long long)o->p.sweep[i],
							NB_LAB_RULES_MAX);
			break;
		}
		case O_KIND: {
			char buf[128], *tok, *save = NULL;
			if (strlen(optarg) >= sizeof(buf))
				cli_usage_error("%s: '%s' is too long", name, optarg);
			strcpy(buf, optarg);
			o->p.nkinds = 0;
			for (tok = strtok_r(buf, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save)) {
				const char *path;
				enum nb_lab_rules_kind k;
				if (nb_lab_rules_kind_parse(tok, &k, &path) ||
				    k == NB_LAB_RULES_FILE)
					cli_usage_error(
					    "%s: unknown kind '%s' (accepted: linear, set, "
					    "conntrack)",
					    name, tok);
				if (o->p.nkinds == 3)
					cli_usage_error("%s: at most 3 kinds", name);
				o->p.kinds[o->p.nkinds++] = k;
			}
			break;
		}
		case O_LABP:
			o->lab_prefix = optarg;
			break;
		case O_LAT:
			if (!strcmp(optarg, "auto"))
				o->p.latency = NB_RATE_LAT_AUTO;
			else if (!strcmp(optarg, "oneway") || !strcmp(optarg, "one-way"))
				o->p.latency = NB_RATE_LAT_ONEWAY;
			else if (!strcmp(optarg, "rtt"))
				o->p.latency = NB_RATE_LAT_RTT;
			else
				cli_usage_error("--latency: unknown mode '%s' (auto, oneway, rtt)",
						optarg);
			break;
		case 'p':
			o->p.rx.ctl_port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'J':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			cli_version();
		case O_RCVBUF:
			o->p.rx.rcvbuf = cli_bytes(name, optarg, 1, 1u << 30);
			break;
		default:
			if (!obs_cli_option(&o->obs, c, optarg) &&
			    !cli_save_option(&o->save, c, argc, argv))
				cli_bad_option(argv, c);
		}
	}
	if (o->agent)
		o->agent = cli_hostport("--client", o->agent, &o->p.rx.ctl_port);
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->p.rx.rcvbuf && !o->local_rx)
		cli_usage_error("--rcvbuf applies to the local receiver (--local-rx)");
	if (o->obs.nclocks && o->p.nsweep)
		cli_usage_error("--observe-clocks and --sweep-rules exclude each other");
	if (!o->local_rx && !o->agent && !o->dst)
		cli_usage_error("where do frames go? give --local-rx [NS/]ADDR, -c AGENT or --dst "
				"ADDR");
	if (o->local_rx && o->agent)
		cli_usage_error("--local-rx and --connect exclude each other");
	if (o->local_rx && o->dst)
		cli_usage_error("--dst is the agent's traffic address; with --local-rx frames go "
				"to the --local-rx address");
	if (!o->local_rx && !o->agent && o->p.test != NB_RATE_TRIAL)
		cli_usage_error("--test %s needs a receiver (--local-rx or -c); --dst alone "
				"sends only (--test trial)",
				nb_rate_test_names[o->p.test]);
	if (o->p.latency == NB_RATE_LAT_RTT && !o->agent)
		cli_usage_error("--latency rtt needs an agent (-c) to reflect probes");
	/* One thread per CPU named, unless told otherwise; each thread needs a flow of its own. */
	if (!threads_set)
		o->p.threads = o->p.ncpus ? o->p.ncpus : 1;
	if (!flows_set && o->p.flows < o->p.threads)
		o->p.flows = o->p.threads;
	if (o->p.flows < o->p.threads)
		cli_usage_error("--flows %u is fewer than --threads %u (each thread sends flows of "
				"its own)",
				o->p.flows, o->p.threads);
	o->p.rx.sockets = o->p.threads; /* a local receiver: one socket and thread each */
	if ((uint32_t)o->p.sport + o->p.flows - 1 > 65535)
		cli_usage_error("--sport %u with --flows %u runs past port 65535", o->p.sport,
				o->p.flows);
	if (quick) {
		/* A first look in seconds (demos, a sweep): short trials, a coarser search,
		 * three sizes; options given explicitly still win. */
		static const uint64_t quick_sizes[] = {64, 512, 1518};
		if (!trial_set)
			o->p.trial_ns = 300 * NB_NS_PER_MS;
		o->p.drain_ns = 50 * NB_NS_PER_MS;
		if (!o->p.resolution_fps)
			o->p.resolution_pct = 2;
		if (!repeat_set)
			o->p.repeat = 1;
		if (!sizes_set) {
			memcpy(o->p.sizes, quick_sizes, sizeof(quick_sizes));
			o->p.nsizes = 3;
		}
	}
	if (!o->lab_prefix)
		o->lab_prefix = getenv("NB_LAB_PREFIX");
	if (!o->p.nkinds) {
		o->p.kinds[0] = NB_LAB_RULES_LINEAR;
		o->p.nkinds = 1;
	} else if (!o->p.nsweep) {
		cli_usage_error("--kind applies to --sweep-rules");
	}
	if (o->p.mix) {
		/* The mix is the run's one "size": its mean frame, rounded, where a size is
		 * needed (the exact mean for line rate and bits). */
		if (sizes_set)
			cli_usage_error("--imix and --sizes exclude each other (a mix is one run's "
					"frames)");
		if (o->p.engine != &nb_gen_udp)
			cli_usage_error("--imix: engine %s sends one frame size only; use --engine "
					"udp",
					o->p.engine->name);
		o->p.sizes[0] = (uint64_t)(o->mix.mean_bytes + 0.5);
		o->p.nsizes = 1;
	}
	if (o->p.flow_fields & (NB_FLOW_DST_IP | NB_FLOW_DPORT))
		cli_usage_error("--flow-fields: dst-ip and dport are not supported (the receiver "
				"listens on one address and port); accepted: src-ip, sport");
	if ((o->p.flow_fields & NB_FLOW_SRC_IP) && o->p.engine != &nb_gen_packet)
		cli_usage_error("--flow-fields src-ip needs --engine packet (frames from addresses "
				"this host does not own)");
	if (o->p.per_flow && !o->local_rx && !o->agent)
		cli_usage_error("--per-flow needs a receiver (--local-rx or -c) to count flows");
	if (ratios_set && !test_set)
		o->p.test = NB_RATE_NDRPDR;
	if (ratios_set && o->p.test != NB_RATE_NDRPDR)
		cli_usage_error("--loss-ratios applies to --test ndrpdr, not %s",
				nb_rate_test_names[o->p.test]);
	if (o->p.final_trial_ns && o->p.test != NB_RATE_NDRPDR)
		cli_usage_error("--final-trial applies to --test ndrpdr");
	if (o->p.test == NB_RATE_NDRPDR) {
		if (tol_set)
			cli_usage_error(
			    "--loss-tolerance does not apply to --test ndrpdr: give its "
			    "ratios with --loss-ratios");
		if (!ratios_set) {
			o->p.loss_ratios[0] = 0;
			o->p.loss_ratios[1] = 0.005;
			o->p.nratios = 2;
		}
		if (!repeat_set)
			o->p.repeat = 1;
		if (o->p.repeat > NB_MLR_MAX_REPEAT)
			cli_usage_error("--repeat %u: ndrpdr repeats its search at most %u times",
					o->p.repeat, NB_MLR_MAX_REPEAT);
	}
	if (o->p.test == NB_RATE_LATENCY && !repeat_set)
		o->p.repeat = 1;
	if (o->p.test == NB_RATE_B2B && o->p.burst)
		cli_usage_error("--burst does not apply to --test b2b (it searches the burst)");
	cli_pacing_check(o->p.pacing_asked, o->p.burst);
	{
		int m = nb_rate_pacing(o->p.pacing_asked, o->p.test, o->p.burst);
		if (m < 0)
			cli_usage_error("--pacing txtime: rate's engines do not carry transmit "
					"times; use burst or spin");
		o->p.pacing = (enum nb_pacing_mode)m;
	}
	/* The receiver from the table, and the addresses the user named. */
	if (o->local_rx) {
		parse_local_rx(o->local_rx, o->p.rx.port, &o->p.rx);
		o->p.receiver = &nb_rx_local;
	} else if (o->agent) {
		o->p.rx.agent = o->agent;
		o->p.rx.dst_addr = o->dst;
		o->p.receiver = &nb_rx_agent;
	} else {
		parse_addr("--dst", o->dst, o->p.rx.port, &o->p.rx.dst, &o->p.rx.dst_len);
		o->p.receiver = &nb_rx_none;
	}
	o->p.stop = &cli_stop;
	o->p.observe = &o->obs.set;
}
