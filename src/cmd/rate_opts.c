/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's command line parsed into the run's parameters, each value checked against its
 * range (rate_opts_check.c then refuses impossible combinations). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
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
		O_FOLDED,
		O_THREADS,
		O_CPUS,
		O_LEARN,
		O_RATIOS,
		O_FINAL,
		O_IMIX,
		O_FFIELDS,
		O_PERFLOW,
		O_BIDIR
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
	    {"bidir", no_argument, NULL, O_BIDIR},
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
	    CLI_REMOTE_LONGOPTS, /* rate has no -4/-6: where frames go decides the family */
	    {"dst", required_argument, NULL, O_DST},
	    {"realtime", no_argument, NULL, O_RT},
	    {"sweep-rules", required_argument, NULL, O_SWEEP},
	    {"kind", required_argument, NULL, O_KIND},
	    {"lab-prefix", required_argument, NULL, O_LABP},
	    {"latency", required_argument, NULL, O_LAT},
	    {"rcvbuf", required_argument, NULL, O_RCVBUF},
	    {"profile-folded", required_argument, NULL, O_FOLDED},
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
	struct rate_opts_seen seen = {0};
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
	o->p.rx.agent.port = NB_DEFAULT_PORT;
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
			seen.test = true;
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
			seen.sizes = true;
			break;
		case 'r':
			parse_rate_opt(name, optarg, &o->p);
			/* name is the parser's buffer, reused by the next option */
			snprintf(o->rate_opt, sizeof(o->rate_opt), "%s", name);
			o->rate_text = optarg;
			break;
		case O_LINE:
			o->p.line_bps = cli_rate(name, optarg, 1000000, 1000000000000ULL);
			break;
		case 't':
		case 'T':
			o->p.trial_ns =
			    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 3600 * NB_NS_PER_S);
			seen.trial = true;
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
			seen.tol = true;
			break;
		case O_RATIOS:
			parse_ratios(name, optarg, &o->p);
			seen.ratios = true;
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
		case O_BIDIR:
			o->p.bidir = true;
			break;
		case O_FINAL:
			o->p.final_trial_ns =
			    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 3600 * NB_NS_PER_S);
			break;
		case O_RES:
			if (strchr(optarg, '%'))
				o->p.resolution_pct = parse_pct(name, optarg, 50);
			else
				o->p.resolution_fps = parse_fps(name, optarg, optarg);
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
			seen.flows = true;
			break;
		case O_THREADS:
			o->p.threads = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_THREADS);
			seen.threads = true;
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
			seen.repeat = true;
			break;
		case O_BATCH:
			o->p.batch = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_BATCH);
			break;
		case O_DPORT:
			o->p.rx.port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'q':
			seen.quick = true;
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
			o->psk_file = optarg;
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
			o->p.rx.agent.port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'J':
			o->json = true;
			break;
		case O_RCVBUF:
			o->p.rx.rcvbuf = cli_bytes(name, optarg, 1, 1u << 30);
			break;
		case O_FOLDED:
			if (!*optarg)
				cli_usage_error("--profile-folded: an empty file name");
			o->profile_folded = optarg;
			cli_check_writable("--profile-folded", optarg);
			break;
		default:
			if (!obs_cli_option(&o->obs, c, optarg) &&
			    !cli_save_option(&o->save, c, argc, argv))
				cli_last_option(argv, c, NULL, rate_usage);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	/* The stacks come from the profile: --profile-folded asks for it at the default rate. */
	if (o->profile_folded && !o->obs.set.req.profile_hz)
		o->obs.set.req.profile_hz = NB_PROF_HZ_DEFAULT;
	rate_check_opts(o, &seen);
}
