/* netbench rate: frames per second through a device under test, by the RFC 2544 procedures
 * (throughput, frame loss rate, back-to-back, latency) or as single trials. The generator runs
 * here; the counting receiver runs in this process (--local-rx, possibly inside another network
 * namespace) or on an agent (-c). Every trial's counters are read after its traffic drained and
 * reconciled before any rate is printed. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "core/base/cpu.h"
#include "core/base/enosys.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/base/json.h"
#include "core/lab/lab.h"
#include "core/lab/lab_fit.h"
#include "core/lab/lab_rules.h"
#include "core/session/proto.h"
#include "core/rate/netpath.h"
#include "core/rate/raterx.h"
#include "core/base/result.h"
#include "core/rate/search.h"
#include "core/base/sysinfo.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/rate/rateprobe.h"
#include "cmd/rate_remote.h"
#include "cmd/observe_cli.h"
#include "core/session/auth.h"
#include "core/observe/verdict.h"

#define MAX_SIZES      16
#define MIN_RATE_FPS   1000ULL
#define MAX_RATE_FPS   1000000000ULL
#define DEFAULT_PORT   5302
#define DEFAULT_SPORT  40000
#define ETH_OVERHEAD_B 20 /* preamble, SFD and inter-frame gap: what line rate also carries */

enum test_kind { T_THROUGHPUT, T_LOSS, T_B2B, T_LATENCY, T_TRIAL };
static const char *const test_names[] = {"throughput", "loss", "b2b", "latency", "trial"};
static const char *const test_titles[] = {
    "throughput (RFC 2544 26.1)", "frame loss rate (RFC 2544 26.3)", "back-to-back (RFC 2544 26.4)",
    "latency (RFC 2544 26.2)", "single trial"};

struct opts {
	enum test_kind test;
	const struct nb_gen_engine *engine;
	uint64_t sizes[MAX_SIZES];
	size_t nsizes;
	uint64_t rate_fps; /* 0: as fast as the engine goes */
	uint64_t line_bps;
	uint64_t trial_ns, drain_ns;
	double loss_tolerance; /* ratio */
	double resolution_pct; /* used when resolution_fps is 0 */
	uint64_t resolution_fps;
	uint32_t burst, flows, batch, repeat;
	uint16_t port, sport;
	bool no_mmsg, json, quiet, realtime;
	const char *local_rx, *dst, *agent;
	const char *psk_file;
	uint16_t ctl_port;
	uint64_t sweep[16]; /* --sweep-rules: rule counts */
	size_t nsweep;
	enum nb_lab_rules_kind kinds[3];
	size_t nkinds;
	const char *lab_prefix;
	enum { LAT_AUTO, LAT_ONEWAY, LAT_RTT } latency;
	struct obs_cli obs; /* observers of the DUT */
	uint64_t rcvbuf;    /* --rcvbuf: the local receiver's socket buffer, 0: large */
};

struct trial_rec {
	uint32_t size;
	uint16_t id;
	const char *purpose;
	double asked_fps; /* 0: flat out */
	uint64_t asked_frames;
	double offered_fps, window_s;
	uint64_t slipped_frames;
	struct nb_trial_counts c;
	bool lat_valid;
	uint64_t lat_ns[6];   /* p50 p90 p99 p99.9 max min */
	uint32_t probe_every; /* round trip: one probe in that many frames of flow 0 */
	uint64_t probes_sent, probes_rx, probes_reflected, probes_returned;
	struct nb_cpu_load cpu;
	struct nb_cpu_load cpu_remote; /* the agent's, from trial start to counters read */
	bool have_sock_drops;
	uint64_t sock_drops; /* the receiving socket's drops in this trial */
	struct obs_trial obs; /* the observers' windows of this trial */
};

struct size_res {
	uint32_t size;
	double fps; /* the procedure's answer for this size */
	bool verified, at_max, gen_short, zero, failed;
	double loss_pct;
	bool lat_valid;
	uint64_t lat_ns[6];
	double b2b_avg, b2b_min, b2b_max;
	size_t first_trial, ntrials;
	bool have_bneck;
	struct nb_verdict bneck; /* what limited the DUT, from the deciding trial */
	size_t bneck_trial;	 /* index in run.trials */
};

struct run {
	struct opts *o;
	void *eng;
	struct nb_rx *rx;
	struct rate_remote *remote;
	struct sockaddr_storage dst;
	socklen_t dst_len;
	struct nb_path path;
	bool have_path;
	char engine_desc[160];
	struct trial_rec *trials;
	size_t ntrials, cap;
	uint16_t next_id;
	struct nb_rx_snap *snap;
	struct nb_gen_stats *gs;
	bool same_clock;
	bool rtt; /* latency from reflected probes (round trip) rather than one-way */
	struct nb_probe *probe;
	struct nb_probe_snap *psnap;
	struct nb_sysinfo local, remote_si;
	uint64_t sock_drops0; /* the local receiver's drop count before the trial */
};

/* Probes per second the sender marks for round-trip latency: enough for a p99.9 within a 1 s
 * trial, few enough (and capped again by the receiver) not to load the measured path. */
#define PROBE_PPS 1000.0
/* What "flat out" is assumed to reach when choosing the probe spacing. */
#define PROBE_FLAT_OUT_FPS 4e6


static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: netbench rate [options] --local-rx [NETNS/]ADDR\n"
	    "       netbench rate [options] -c AGENT[:PORT] [--dst ADDR]\n"
	    "       netbench rate [options] --dst ADDR   (send only: no receiver)\n"
	    "Frames per second through a device under test, by RFC 2544.\n\n"
	    "  -t, --test KIND         throughput (default), loss, b2b, latency, trial\n"
	    "  -e, --engine NAME       udp (connected socket, sendmmsg; default) or packet\n"
	    "                          (AF_PACKET TX ring, qdisc bypass; needs CAP_NET_RAW)\n"
	    "  -s, --sizes LIST        frame sizes in bytes, FCS included (default\n"
	    "                          64,128,256,512,1024,1280,1518; 64 to MTU+18)\n"
	    "  -r, --rate FPS          trial rate, or the highest rate a search tries\n"
	    "                          (k/M suffixes; default: as fast as the engine goes)\n"
	    "      --line-rate BITS    line rate (e.g. 1G): %% of line rate, and the search's\n"
	    "                          maximum per size\n"
	    "  -T, --trial DURATION    length of each trial (default 2s)\n"
	    "      --drain DURATION    wait after each trial before counters are read (200ms)\n"
	    "      --loss-tolerance P  loss in %% a passing trial may have (default 0: NDR)\n"
	    "      --resolution R      search stops at this gap: %% of the maximum (0.5%%)\n"
	    "                          or frames/s\n"
	    "      --burst N           send groups of N frames back to back\n"
	    "      --flows N           flows with distinct source ports (default 1)\n"
	    "      --repeat N          b2b searches averaged, latency trials (default 5, 1)\n"
	    "      --batch N           most frames per system call (default and at most 1024)\n"
	    "      --data-port N       UDP port the receiver listens on (default 5302)\n"
	    "      --sport N           first source port (default 40000)\n"
	    "      --no-mmsg           sendmsg/recvmsg instead of sendmmsg/recvmmsg\n"
	    "      --realtime          pace from a SCHED_FIFO thread (needs CAP_SYS_NICE): keeps\n"
	    "                          the schedule on a host busy with other work\n"
	    "      --local-rx [NS/]ADDR  receive in this process, on ADDR, inside network\n"
	    "                          namespace NS when given (ip netns name)\n"
	    "  -c, --connect AGENT     receiver on a `netbench serve` agent\n"
	    "      --latency MODE      auto (default): one-way when the agent shares this\n"
	    "                          host's clock (same boot id), else round-trip from\n"
	    "                          probes the agent reflects; oneway; rtt\n"
	    "      --dst ADDR          traffic destination (default: the agent's address)\n"
	    "  -p, --port N            the agent's control port (default 5301)\n"
	    "      --psk FILE          pre-shared key the agent requires\n"
	    "      --quick             short trials (0.3 s), 2%% resolution, sizes 64,512,1518\n"
	    "      --sweep-rules LIST  rule counts to load into the lab's DUT in turn (netbench\n"
	    "                          lab), the procedure run at each: fps against rules\n"
	    "      --kind LIST         rulesets of the sweep: linear, set, conntrack (linear)\n"
	    "      --lab-prefix P      the lab's namespace prefix (default $NB_LAB_PREFIX, or\n"
	    "                          nbgen, nbdut, nbsink)\n"
	    "      --rcvbuf BYTES      the local receiver's socket buffer (default: as large\n"
	    "                          as the kernel allows); small: a sink that cannot keep up\n"
	    OBS_CLI_HELP
	    "  -J, --json              JSON result with every trial\n"
	    "  -h, --help              this help\n");
}

static uint64_t parse_fps(const char *opt, const char *val)
{
	uint64_t v;
	if (!strcmp(val, "max"))
		return 0;
	if (nb_parse_rate(val, &v) == -EINVAL)
		cli_usage_error(
		    "%s: '%s' is not a frame rate (accepted: 1k to 1G frames/s, or max)", opt, val);
	if (v > MAX_RATE_FPS || nb_parse_rate(val, &v) == -ERANGE)
		cli_usage_error("%s is too large: %s (at most 1G frames/s)", opt, val);
	if (v < MIN_RATE_FPS)
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

static void parse_opts(int argc, char **argv, struct opts *o)
{
	enum {
		O_LINE = 256,
		O_DRAIN,
		O_TOL,
		O_RES,
		O_BURST,
		O_FLOWS,
		O_REPEAT,
		O_BATCH,
		O_SPORT,
		O_NOMMSG,
		O_LOCALRX,
		O_DST,
		O_PSK,
		O_DPORT,
		O_QUICK,
		O_RT,
		O_SWEEP,
		O_KIND,
		O_LABP,
		O_LAT,
		O_RCVBUF
	};
	static const struct option lo[] = {
	    {"test", required_argument, NULL, 't'},
	    {"engine", required_argument, NULL, 'e'},
	    {"sizes", required_argument, NULL, 's'},
	    {"rate", required_argument, NULL, 'r'},
	    {"line-rate", required_argument, NULL, O_LINE},
	    {"trial", required_argument, NULL, 'T'},
	    {"drain", required_argument, NULL, O_DRAIN},
	    {"loss-tolerance", required_argument, NULL, O_TOL},
	    {"resolution", required_argument, NULL, O_RES},
	    {"burst", required_argument, NULL, O_BURST},
	    {"flows", required_argument, NULL, O_FLOWS},
	    {"repeat", required_argument, NULL, O_REPEAT},
	    {"batch", required_argument, NULL, O_BATCH},
	    {"data-port", required_argument, NULL, O_DPORT},
	    {"quick", no_argument, NULL, O_QUICK},
	    {"sport", required_argument, NULL, O_SPORT},
	    {"no-mmsg", no_argument, NULL, O_NOMMSG},
	    {"local-rx", required_argument, NULL, O_LOCALRX},
	    {"connect", required_argument, NULL, 'c'},
	    {"dst", required_argument, NULL, O_DST},
	    {"psk", required_argument, NULL, O_PSK},
	    {"port", required_argument, NULL, 'p'},
	    {"realtime", no_argument, NULL, O_RT},
	    {"sweep-rules", required_argument, NULL, O_SWEEP},
	    {"kind", required_argument, NULL, O_KIND},
	    {"lab-prefix", required_argument, NULL, O_LABP},
	    {"latency", required_argument, NULL, O_LAT},
	    {"rcvbuf", required_argument, NULL, O_RCVBUF},
	    OBS_CLI_LONGOPTS,
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const uint64_t rfc_sizes[] = {64, 128, 256, 512, 1024, 1280, 1518};
	bool repeat_set = false, quick = false, sizes_set = false, trial_set = false;
	int c, li;

	memset(o, 0, sizeof(*o));
	o->engine = &nb_gen_udp;
	o->trial_ns = 2 * NB_NS_PER_S;
	o->drain_ns = 200 * NB_NS_PER_MS;
	o->resolution_pct = 0.5;
	o->flows = 1;
	o->batch = 1024;
	o->repeat = 5;
	o->port = DEFAULT_PORT;
	o->sport = DEFAULT_SPORT;
	o->ctl_port = NB_DEFAULT_PORT;
	memcpy(o->sizes, rfc_sizes, sizeof(rfc_sizes));
	o->nsizes = sizeof(rfc_sizes) / sizeof(rfc_sizes[0]);
	while ((li = -1, c = getopt_long(argc, argv, ":t:e:s:r:T:p:c:Jh", lo, &li)) != -1) {
		const char *name = cli_optname(lo, c, li);
		switch (c) {
		case 't': {
			size_t i;
			for (i = 0; i < 5 && strcmp(optarg, test_names[i]); i++)
				;
			if (i == 5)
				cli_usage_error(
				    "%s: unknown test '%s' (accepted: throughput, loss, "
				    "b2b, latency, trial)",
				    name, optarg);
			o->test = (enum test_kind)i;
			break;
		}
		case 'e':
			o->engine = nb_gen_find(optarg);
			if (!o->engine)
				cli_usage_error("%s: unknown engine '%s' (accepted: udp, packet)",
						name, optarg);
			break;
		case 's':
			o->nsizes = cli_bytes_list(name, optarg, o->sizes, MAX_SIZES, NB_FRAME_MIN,
						   NB_FRAME_MAX);
			sizes_set = true;
			break;
		case 'r':
			o->rate_fps = parse_fps(name, optarg);
			break;
		case O_LINE:
			o->line_bps = cli_rate(name, optarg, 1000000, 1000000000000ULL);
			break;
		case 'T':
			o->trial_ns =
			    cli_duration_ns(name, optarg, 100 * NB_NS_PER_MS, 3600 * NB_NS_PER_S);
			trial_set = true;
			break;
		case O_DRAIN:
			o->drain_ns =
			    cli_duration_ns(name, optarg, 10 * NB_NS_PER_MS, 60 * NB_NS_PER_S);
			break;
		case O_TOL:
			o->loss_tolerance = parse_pct(name, optarg, 50) / 100;
			break;
		case O_RES:
			if (strchr(optarg, '%'))
				o->resolution_pct = parse_pct(name, optarg, 50);
			else
				o->resolution_fps = parse_fps(name, optarg);
			if (!o->resolution_fps && o->resolution_pct <= 0)
				cli_usage_error("%s must be more than 0", name);
			break;
		case O_BURST:
			o->burst = (uint32_t)cli_uint(name, optarg, 1, 1000000);
			break;
		case O_FLOWS:
			o->flows = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_FLOWS);
			break;
		case O_REPEAT:
			o->repeat = (uint32_t)cli_uint(name, optarg, 1, 1000);
			repeat_set = true;
			break;
		case O_BATCH:
			o->batch = (uint32_t)cli_uint(name, optarg, 1, NB_GEN_MAX_BATCH);
			break;
		case O_DPORT:
			o->port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case O_QUICK:
			quick = true;
			break;
		case O_SPORT:
			o->sport = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case O_NOMMSG:
			o->no_mmsg = true;
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
		case O_PSK:
			o->psk_file = optarg;
			break;
		case O_RT:
			o->realtime = true;
			break;
		case O_SWEEP: {
			int n = nb_parse_list(optarg, nb_parse_u64, o->sweep, 16);
			if (n == -E2BIG)
				cli_usage_error("%s: too many rule counts in '%s' (at most 16)",
						name, optarg);
			if (n <= 0)
				cli_usage_error("%s: '%s' is not a list of rule counts (0 to %d)",
						name, optarg, NB_LAB_RULES_MAX);
			o->nsweep = (size_t)n;
			for (size_t i = 0; i < o->nsweep; i++)
				if (o->sweep[i] > NB_LAB_RULES_MAX)
					cli_usage_error("%s is too large: %llu rules (at most %d)",
							name, (unsigned long long)o->sweep[i],
							NB_LAB_RULES_MAX);
			break;
		}
		case O_KIND: {
			char buf[128], *tok, *save = NULL;
			if (strlen(optarg) >= sizeof(buf))
				cli_usage_error("%s: '%s' is too long", name, optarg);
			strcpy(buf, optarg);
			o->nkinds = 0;
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
				if (o->nkinds == 3)
					cli_usage_error("%s: at most 3 kinds", name);
				o->kinds[o->nkinds++] = k;
			}
			break;
		}
		case O_LABP:
			o->lab_prefix = optarg;
			break;
		case O_LAT:
			if (!strcmp(optarg, "auto"))
				o->latency = LAT_AUTO;
			else if (!strcmp(optarg, "oneway") || !strcmp(optarg, "one-way"))
				o->latency = LAT_ONEWAY;
			else if (!strcmp(optarg, "rtt"))
				o->latency = LAT_RTT;
			else
				cli_usage_error("--latency: unknown mode '%s' (auto, oneway, rtt)",
						optarg);
			break;
		case 'p':
			o->ctl_port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'J':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case O_RCVBUF:
			o->rcvbuf = cli_bytes(name, optarg, 1, 1u << 30);
			break;
		default:
			if (!obs_cli_option(&o->obs, c, optarg))
				cli_bad_option(argv, c);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (o->rcvbuf && !o->local_rx)
		cli_usage_error("--rcvbuf applies to the local receiver (--local-rx)");
	if (o->obs.nclocks && o->nsweep)
		cli_usage_error("--observe-clocks and --sweep-rules exclude each other");
	if (!o->local_rx && !o->agent && !o->dst)
		cli_usage_error("where do frames go? give --local-rx [NS/]ADDR, -c AGENT or --dst "
				"ADDR");
	if (o->local_rx && o->agent)
		cli_usage_error("--local-rx and --connect exclude each other");
	if (o->local_rx && o->dst)
		cli_usage_error("--dst is the agent's traffic address; with --local-rx frames go "
				"to the --local-rx address");
	if (!o->local_rx && !o->agent && o->test != T_TRIAL)
		cli_usage_error("--test %s needs a receiver (--local-rx or -c); --dst alone "
				"sends only (--test trial)",
				test_names[o->test]);
	if (o->latency == LAT_RTT && !o->agent)
		cli_usage_error("--latency rtt needs an agent (-c) to reflect probes");
	if ((uint32_t)o->sport + o->flows - 1 > 65535)
		cli_usage_error("--sport %u with --flows %u runs past port 65535", o->sport,
				o->flows);
	if (quick) {
		/* A first look in seconds (demos, a sweep): short trials, a coarser search,
		 * three sizes; options given explicitly still win. */
		static const uint64_t quick_sizes[] = {64, 512, 1518};
		if (!trial_set)
			o->trial_ns = 300 * NB_NS_PER_MS;
		o->drain_ns = 50 * NB_NS_PER_MS;
		if (!o->resolution_fps)
			o->resolution_pct = 2;
		if (!repeat_set)
			o->repeat = 1;
		if (!sizes_set) {
			memcpy(o->sizes, quick_sizes, sizeof(quick_sizes));
			o->nsizes = 3;
		}
	}
	if (!o->lab_prefix)
		o->lab_prefix = getenv("NB_LAB_PREFIX");
	if (!o->nkinds) {
		o->kinds[0] = NB_LAB_RULES_LINEAR;
		o->nkinds = 1;
	} else if (!o->nsweep) {
		cli_usage_error("--kind applies to --sweep-rules");
	}
	if (o->test == T_LATENCY && !repeat_set)
		o->repeat = 1;
	if (o->test == T_B2B && o->burst)
		cli_usage_error("--burst does not apply to --test b2b (it searches the burst)");
}

/* ---- the receiver ---- */

/* Opens the receiving socket on addr, inside the named network namespace if any: the socket
 * keeps the namespace it was created in, so this thread switches there and back. */
static int open_local_rx(const char *spec, uint16_t port, struct sockaddr_storage *dst,
			 socklen_t *dst_len, char *err, size_t errlen)
{
	char ns[256] = "", path[300];
	const char *addr = spec, *slash = strchr(spec, '/');
	int fd = -1, nsfd = -1, self = -1, ret, one = 1;

	if (slash) {
		if ((size_t)(slash - spec) >= sizeof(ns) || slash == spec)
			cli_usage_error("--local-rx: '%s' is not [NETNS/]ADDR", spec);
		memcpy(ns, spec, (size_t)(slash - spec));
		addr = slash + 1;
	}
	parse_addr("--local-rx", addr, port, dst, dst_len);
	if (*ns) {
		snprintf(path, sizeof(path), "/run/netns/%s", ns);
		nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0) {
			ret = -errno;
			snprintf(err, errlen, "network namespace '%s': %s", ns, strerror(errno));
			goto out;
		}
		self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (self < 0)
			self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (self < 0 || setns(nsfd, CLONE_NEWNET) < 0) {
			ret = -errno;
			snprintf(err, errlen, "cannot enter network namespace '%s': %s%s", ns,
				 strerror(errno), errno == EPERM ? " (needs CAP_SYS_ADMIN)" : "");
			goto out;
		}
	}
	fd = socket(dst->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "receiver socket: %s", strerror(errno));
		goto back;
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)dst, *dst_len) < 0) {
		ret = -errno;
		snprintf(err, errlen, "receiver cannot bind %s port %u%s%s: %s", addr, port,
			 *ns ? " in namespace " : "", ns, strerror(errno));
		close(fd);
		fd = -1;
		goto back;
	}
	ret = fd;
back:
	if (*ns && setns(self, CLONE_NEWNET) < 0) {
		snprintf(err, errlen, "cannot return to our network namespace: %s",
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		ret = -errno;
	}
out:
	if (nsfd >= 0)
		close(nsfd);
	if (self >= 0)
		close(self);
	return ret;
}

/* ---- trials ---- */

static struct trial_rec *new_trial(struct run *r)
{
	if (r->ntrials == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct trial_rec *t = realloc(r->trials, cap * sizeof(*t));
		if (!t)
			cli_fail(ENOMEM, "out of memory");
		r->trials = t;
		r->cap = cap;
	}
	memset(&r->trials[r->ntrials], 0, sizeof(r->trials[0]));
	return &r->trials[r->ntrials++];
}

static void set_latency(struct trial_rec *rec, const struct nb_hist *h)
{
	static const double q[] = {0.5, 0.9, 0.99, 0.999, 1.0};
	rec->lat_valid = true;
	for (int i = 0; i < 5; i++)
		rec->lat_ns[i] = nb_hist_quantile(h, q[i]);
	rec->lat_ns[5] = h->min_ns;
}

static void sleep_ns(uint64_t ns)
{
	nb_sleep_until_ns(nb_mono_ns() + ns);
}

/* Runs one trial of frames of size at rate_fps (0: flat out), or exactly frames frames when
 * frames is not 0, and records it. Returns the record. */
static struct trial_rec *run_trial(struct run *r, uint32_t size, double rate_fps, uint64_t frames,
				   uint32_t burst, const char *purpose)
{
	struct opts *o = r->o;
	struct nb_gen_trial t = {.rate_fps = (uint64_t)(rate_fps + 0.5),
				 .duration_ns = frames ? 0 : o->trial_ns,
				 .frames = frames,
				 .burst = burst,
				 .flows = o->flows,
				 .batch = o->batch,
				 .stop = &cli_stop};
	struct nb_cpu_sample c0, c1;
	struct trial_rec *rec;
	uint64_t window_ns;
	uint32_t probe_every = 0;
	char err[256] = "";
	int ret;

	if (++r->next_id == 0)
		r->next_id = 1;
	if (r->rtt) {
		/* Probes on flow 0 at about PROBE_PPS, whatever the trial's rate. */
		double flow0_fps = (rate_fps > 0 ? rate_fps : PROBE_FLAT_OUT_FPS) / o->flows;
		double every = flow0_fps / PROBE_PPS;
		probe_every = every < 1 ? 1 : every > 1e9 ? 1000000000u : (uint32_t)(every + 0.5);
		nb_probe_trial(r->probe, r->next_id);
	}
	ret = o->engine->prepare(r->eng, size, r->next_id, probe_every);
	if (ret)
		cli_fail(ret, "engine %s cannot send %u-byte frames", o->engine->name, size);
	if (r->remote) {
		/* The agent checks each trial against its caps: duration, and the bit rate of
		 * the frames (0 when the generator runs flat out). */
		uint64_t ns = o->trial_ns; /* a burst (b2b) is shorter */
		uint64_t bps = (uint64_t)(rate_fps * size * 8);
		ret = rate_remote_begin(r->remote, ns + o->drain_ns + NB_NS_PER_S, bps, err,
					sizeof(err));
		if (ret)
			cli_fail(0, "agent: %s", err);
	}
	if (obs_cli_on(&o->obs)) /* the DUT's window opens with the trial */
		obs_cli_begin(&o->obs, o->trial_ns + o->drain_ns + NB_NS_PER_S);
	nb_cpu_sample_now(&c0);
	ret = nb_gen_run(o->engine, r->eng, &t, r->gs);
	if (ret)
		cli_fail(ret, "engine %s failed while sending", o->engine->name);
	nb_cpu_sample_now(&c1);
	if (cli_stop)
		cli_fail(0, "interrupted");
	rec = new_trial(r);
	rec->size = size;
	rec->id = r->next_id;
	rec->purpose = purpose;
	rec->asked_fps = rate_fps;
	rec->asked_frames = frames;
	nb_cpu_load(&c0, &c1, &rec->cpu);
	window_ns = r->gs->end_ns - r->gs->start_ns;
	if (!frames && window_ns < o->trial_ns)
		window_ns = o->trial_ns;
	rec->window_s = (double)window_ns / 1e9;
	rec->slipped_frames = r->gs->slipped_frames;
	rec->offered_fps = window_ns ? (double)r->gs->tx_frames * 1e9 / (double)window_ns : 0;
	/* Counters are read only once the frames still in flight have arrived. */
	sleep_ns(o->drain_ns);
	if (obs_cli_on(&o->obs))
		obs_cli_end(&o->obs, &rec->obs);
	if (r->rx) {
		nb_rx_snapshot(r->rx, r->snap);
		/* The socket lives across trials: its drops in this one are the difference. */
		rec->have_sock_drops = r->snap->have_sock_drops;
		rec->sock_drops = r->snap->sock_drops - r->sock_drops0;
		r->sock_drops0 = r->snap->sock_drops;
	} else if (r->remote) {
		ret = rate_remote_end(r->remote, r->snap, &rec->cpu_remote, err, sizeof(err));
		if (ret)
			cli_fail(0, "agent: %s", err);
		rec->have_sock_drops = r->snap->have_sock_drops; /* a socket per trial */
		rec->sock_drops = r->snap->sock_drops;
	} else {
		/* Send only: no receiver counts anything. */
		rec->c.tx = r->gs->tx_frames;
		rec->c.valid = true;
		return rec;
	}
	nb_rx_reconcile(r->gs->tx_flow, o->flows, rec->id, r->snap, &rec->c);
	if (r->rtt) {
		/* Every reflection the agent sent has returned or been lost once STOP is answered:
		 * the drain covered the way back too. */
		nb_probe_snapshot(r->probe, r->psnap);
		rec->probe_every = probe_every;
		rec->probes_sent = (r->gs->tx_flow[0] + probe_every - 1) / probe_every;
		if (r->snap->any && r->snap->trial == rec->id) {
			rec->probes_rx = r->snap->probes;
			rec->probes_reflected = r->snap->reflected;
		}
		rec->probes_returned = r->psnap->returned;
		if (rec->c.valid && r->psnap->rtt.count)
			set_latency(rec, &r->psnap->rtt);
	} else if (rec->c.valid && r->same_clock && r->snap->any && r->snap->trial == rec->id &&
		   r->snap->lat.count) {
		set_latency(rec, &r->snap->lat);
	}
	if (!o->json && !o->quiet) {
		char dut[160] = "";
		if (rec->obs.n) {
			const struct nb_obs_summary *d = rec->obs.s[0];
			snprintf(dut, sizeof(dut), "; DUT cpu%d %.0f %% %s, backlog drops %llu",
				 d->busiest_cpu, d->busiest_pct, d->busiest_with,
				 (unsigned long long)d->softnet_dropped);
		}
		fprintf(stderr,
			"  trial %u: %u B, %s %.0f fps offered, %llu sent (%llu slipped), %llu "
			"lost%s%s%s\n",
			rec->id, size, purpose, rec->offered_fps, (unsigned long long)rec->c.tx,
			(unsigned long long)rec->slipped_frames, (unsigned long long)rec->c.lost,
			rec->c.valid ? "" : ", INVALID: ", rec->c.valid ? "" : rec->c.why, dut);
	}
	return rec;
}

static double max_fps_for(const struct run *r, uint32_t size)
{
	const struct opts *o = r->o;
	double line = o->line_bps ? (double)o->line_bps / ((size + ETH_OVERHEAD_B) * 8.0) : 0;
	if (o->rate_fps && (!line || (double)o->rate_fps < line))
		return (double)o->rate_fps;
	return line;
}

static double resolution_for(const struct opts *o, double max)
{
	return o->resolution_fps ? (double)o->resolution_fps : max * o->resolution_pct / 100;
}

static void copy_latency(struct size_res *s, const struct trial_rec *t)
{
	s->lat_valid = t->lat_valid;
	memcpy(s->lat_ns, t->lat_ns, sizeof(s->lat_ns));
}

static void do_throughput(struct run *r, struct size_res *s)
{
	struct nb_search se;
	double max = max_fps_for(r, s->size), x;
	struct trial_rec *t = NULL;

	/* Resolution relative to an unknown maximum is fixed after the first trial. */
	nb_search_init(&se, max, MIN_RATE_FPS, resolution_for(r->o, max), r->o->loss_tolerance);
	while (nb_search_next(&se, &x)) {
		const char *why = se.phase == NB_SEARCH_VERIFY ? "verify" : "search";
		t = run_trial(r, s->size, x, 0, r->o->burst, why);
		nb_search_report(&se, x, t->offered_fps, t->c.tx, t->c.lost, t->c.valid);
		if (se.trials == 1 && !r->o->resolution_fps)
			se.resolution = se.max * r->o->resolution_pct / 100;
		if (se.phase == NB_SEARCH_DONE && se.verified && t->c.valid) {
			s->loss_pct = t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx : 0;
			copy_latency(s, t);
		}
	}
	s->fps = se.result;
	s->verified = se.verified;
	s->at_max = se.at_max;
	s->gen_short = se.gen_short;
	s->zero = se.result <= 0 && !se.error;
	s->failed = se.error != 0;
}

static double flat_out_max(struct run *r, struct size_res *s)
{
	double max = max_fps_for(r, s->size);
	if (max > 0)
		return max;
	/* No maximum given: one trial flat out tells what the generator offers. */
	return run_trial(r, s->size, 0, 0, r->o->burst, "measure maximum")->offered_fps;
}

static void do_loss(struct run *r, struct size_res *s)
{
	struct nb_losscurve lc;
	double x, max = flat_out_max(r, s);

	nb_losscurve_init(&lc, max);
	while (nb_losscurve_next(&lc, &x)) {
		struct trial_rec *t = run_trial(r, s->size, x, 0, r->o->burst, "loss curve");
		if (!t->c.valid)
			continue; /* repeated at the same rate */
		if (lc.trials == 0)
			s->loss_pct = t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx : 100;
		nb_losscurve_report(&lc, t->c.lost);
	}
	s->fps = max;
}

static void do_b2b(struct run *r, struct size_res *s)
{
	double max = flat_out_max(r, s), sum = 0;
	/* The longest burst tried is one trial's worth of frames at the maximum rate. */
	double longest = max * (double)r->o->trial_ns / 1e9;
	uint32_t n = 0;

	s->b2b_min = INFINITY;
	for (uint32_t rep = 0; rep < r->o->repeat; rep++) {
		struct nb_search se;
		double x;
		nb_search_init(&se, longest, 1, longest * 0.005 > 1 ? longest * 0.005 : 1, 0);
		while (nb_search_next(&se, &x)) {
			struct trial_rec *t =
			    run_trial(r, s->size, max, (uint64_t)(x + 0.5), 0, "burst");
			nb_search_report(&se, x, x, t->c.tx, t->c.lost, t->c.valid);
		}
		if (se.error) {
			s->failed = true;
			break;
		}
		sum += se.result;
		n++;
		if (se.result < s->b2b_min)
			s->b2b_min = se.result;
		if (se.result > s->b2b_max)
			s->b2b_max = se.result;
		s->at_max = s->at_max || se.at_max;
	}
	s->b2b_avg = n ? sum / n : 0;
	s->fps = max;
}

static void do_latency(struct run *r, struct size_res *s)
{
	double rate;

	do_throughput(r, s);
	rate = s->fps;
	if (rate <= 0 || s->failed)
		return;
	s->lat_valid = false;
	/* Latency is measured at the throughput rate (26.2), over --repeat trials; the reported
	 * percentiles come from the last one, the JSON carries each. */
	for (uint32_t i = 0; i < r->o->repeat; i++) {
		struct trial_rec *t = run_trial(r, s->size, rate, 0, r->o->burst, "latency");
		if (t->lat_valid)
			copy_latency(s, t);
	}
}

static void do_single(struct run *r, struct size_res *s)
{
	struct trial_rec *t =
	    run_trial(r, s->size, (double)r->o->rate_fps, 0, r->o->burst, "trial");
	s->fps = t->offered_fps;
	s->loss_pct = t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx : 0;
	s->failed = !t->c.valid;
	s->gen_short = r->o->rate_fps && t->offered_fps < 0.99 * (double)r->o->rate_fps;
	copy_latency(s, t);
}

/* What limited the DUT at this size (docs/rate.md): judged on the first trial that lost frames
 * above the result (the rate the DUT could not carry), else on the last clean trial, which is
 * generator bound when the result was the generator's maximum. */
static void bottleneck(const struct run *r, struct size_res *s)
{
	const struct trial_rec *pick = NULL;
	struct nb_verdict_in in;
	size_t at = 0;

	if ((!r->rx && !r->remote) || r->o->test == T_B2B)
		return; /* nothing counted frames, or bursts rather than rates */
	for (size_t k = s->first_trial; k < s->first_trial + s->ntrials && !pick; k++) {
		const struct trial_rec *t = &r->trials[k];
		if (t->c.valid && t->c.lost && t->offered_fps > s->fps) {
			pick = t;
			at = k;
		}
	}
	for (size_t k = s->first_trial + s->ntrials; k-- > s->first_trial && !pick;) {
		const struct trial_rec *t = &r->trials[k];
		if (t->c.valid) {
			pick = t;
			at = k;
		}
	}
	if (!pick)
		return;
	memset(&in, 0, sizeof(in));
	in.offered = pick->c.tx;
	in.received = pick->c.tx - pick->c.lost;
	in.offered_fps = pick->offered_fps;
	in.gen_max = r->o->test == T_TRIAL ? !r->o->rate_fps && !pick->asked_frames : s->at_max;
	in.dut = pick->obs.n ? pick->obs.s[0] : NULL;
	in.win = pick->obs.n ? pick->obs.w[0] : NULL;
	in.have_sink_drops = pick->have_sock_drops;
	in.sink_drops = pick->sock_drops;
	nb_verdict_decide(&in, &s->bneck);
	s->have_bneck = true;
	s->bneck_trial = at;
}

static void print_bottlenecks(const struct run *r, const struct size_res *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct trial_rec *t;
		if (!s[i].have_bneck || (s[i].bneck.kind == NB_V_NONE && !obs_cli_on(&r->o->obs)))
			continue;
		t = &r->trials[s[i].bneck_trial];
		printf("bottleneck %u B: %s\n", s[i].size, s[i].bneck.text);
		printf("  judged on trial %u (%s): %.0f fps offered, %llu lost, %llu accounted for%s\n",
		       t->id, t->purpose, t->offered_fps, (unsigned long long)s[i].bneck.lost,
		       (unsigned long long)s[i].bneck.accounted,
		       t->have_sock_drops ? "" : " (the sink's socket drops unknown)");
		if (t->obs.n)
			obs_cli_print(stdout, &r->o->obs, &t->obs, t->c.tx - t->c.lost, "  ");
	}
}

/* ---- output ---- */

static const char *verdict(const struct run *r, const struct size_res *s, size_t n, char *buf,
			   size_t len)
{
	double fmin = INFINITY, fmax = 0, bmin = INFINITY, bmax = 0;
	size_t ok = 0, atmax = 0, line = 0;

	for (size_t i = 0; i < n; i++) {
		double bps = s[i].fps * s[i].size * 8;
		if (s[i].failed || s[i].fps <= 0)
			continue;
		ok++;
		atmax += s[i].at_max;
		if (r->o->line_bps &&
		    s[i].fps * (s[i].size + ETH_OVERHEAD_B) * 8 >= 0.98 * (double)r->o->line_bps)
			line++;
		fmin = fmin < s[i].fps ? fmin : s[i].fps;
		fmax = fmax > s[i].fps ? fmax : s[i].fps;
		bmin = bmin < bps ? bmin : bps;
		bmax = bmax > bps ? bmax : bps;
	}
	if (ok < 2)
		snprintf(buf, len, "no verdict: it needs results at two or more frame sizes");
	else if (line == ok)
		snprintf(buf, len, "line-rate bound: every size reached the line rate");
	else if (atmax == ok)
		snprintf(buf, len,
			 "generator bound: the DUT passed the generator's maximum at every size "
			 "(it was not saturated)");
	else if ((fmax - fmin) / fmax <= 0.2)
		snprintf(buf, len,
			 "frame-rate bound: frames/s nearly constant across sizes (spread %.0f %%)",
			 100 * (fmax - fmin) / fmax);
	else if ((bmax - bmin) / bmax <= 0.2)
		snprintf(buf, len,
			 "bandwidth bound: bits/s nearly constant across sizes (spread %.0f %%)",
			 100 * (bmax - bmin) / bmax);
	else
		snprintf(buf, len,
			 "mixed: frames/s falls %.0f %% and bits/s varies %.0f %% across sizes",
			 100 * (fmax - fmin) / fmax, 100 * (bmax - bmin) / bmax);
	return buf;
}

static void fmt_us(char *buf, size_t len, bool valid, uint64_t ns)
{
	if (valid)
		snprintf(buf, len, "%.1f", (double)ns / 1000);
	else
		snprintf(buf, len, "-");
}

static void print_table(const struct run *r, const struct size_res *s, size_t n)
{
	const struct opts *o = r->o;
	char v[256], line[16], a[16], b[16], c[16], loss[24];

	printf("netbench rate: %s, engine %s (%s), %u flow%s, trial %.3g s\n", test_titles[o->test],
	       o->engine->name, r->engine_desc, o->flows, o->flows == 1 ? "" : "s",
	       (double)o->trial_ns / 1e9);
	if (o->test == T_B2B) {
		printf("%6s %12s %12s %12s %12s\n", "frame", "at fps", "burst avg", "burst min",
		       "burst max");
		for (size_t i = 0; i < n; i++)
			printf("%5u B %12.0f %12.0f %12.0f %12.0f%s\n", s[i].size, s[i].fps,
			       s[i].b2b_avg, s[i].b2b_min, s[i].b2b_max,
			       s[i].failed   ? "  (counts did not reconcile)"
			       : s[i].at_max ? "  (no loss within one trial)"
					     : "");
		print_bottlenecks(r, s, n);
		return;
	}
	if (r->rtt)
		printf("%6s %12s %10s %7s %8s %10s %10s %10s  %s\n", "frame", "fps", "Mbit/s",
		       "line%", "loss%", "rtt p50 us", "rtt p99 us", "rtt max us", "note");
	else
		printf("%6s %12s %10s %7s %8s %9s %9s %9s  %s\n", "frame", "fps", "Mbit/s", "line%",
		       "loss%", "p50 us", "p99 us", "max us", "note");
	for (size_t i = 0; i < n; i++) {
		const char *note = "";
		if (s[i].failed)
			note = "INVALID: counts did not reconcile";
		else if (s[i].zero)
			note = "0 fps at every rate";
		else if (o->test == T_THROUGHPUT || o->test == T_LATENCY)
			note = s[i].at_max     ? "verified; generator's maximum (DUT not saturated)"
			       : s[i].verified ? "verified"
			       : s[i].fps > 0  ? "NOT verified"
					       : "";
		else if (o->test == T_LOSS)
			note = "loss at maximum rate; curve in JSON";
		else if (s[i].gen_short)
			note = "engine fell short of --rate";
		if (o->line_bps)
			snprintf(line, sizeof(line), "%.1f",
				 100 * s[i].fps * (s[i].size + ETH_OVERHEAD_B) * 8 /
				     (double)o->line_bps);
		else
			snprintf(line, sizeof(line), "-");
		fmt_us(a, sizeof(a), s[i].lat_valid, s[i].lat_ns[0]);
		fmt_us(b, sizeof(b), s[i].lat_valid, s[i].lat_ns[2]);
		fmt_us(c, sizeof(c), s[i].lat_valid, s[i].lat_ns[4]);
		if (r->rx || r->remote)
			snprintf(loss, sizeof(loss), "%.3f", s[i].loss_pct);
		else
			snprintf(loss, sizeof(loss), "-"); /* send only: nothing counted frames */
		printf(r->rtt ? "%5u B %12.0f %10.2f %7s %8s %10s %10s %10s  %s\n"
			      : "%5u B %12.0f %10.2f %7s %8s %9s %9s %9s  %s\n",
		       s[i].size, s[i].fps, s[i].fps * s[i].size * 8 / 1e6, line, loss, a, b, c,
		       note);
	}
	if (r->rtt)
		printf(
		    "latency: round trip (sender to receiver and back) of probe frames the agent "
		    "reflected, %.0f per second at most\n",
		    PROBE_PPS);
	else if (r->same_clock)
		printf("latency: one-way (receiver and sender share one clock)\n");
	if (o->test != T_TRIAL && o->test != T_LOSS)
		printf("verdict: %s\n", verdict(r, s, n, v, sizeof(v)));
	print_bottlenecks(r, s, n);
}

/* One-way latency is "latency_ns", round trip "rtt_ns": a reader cannot take one for the
 * other. */
static void json_latency(struct nb_json *j, const struct run *r, bool valid, const uint64_t *ns)
{
	const char *key = r->rtt ? "rtt_ns" : "latency_ns";
	if (!valid) {
		nb_json_null(j, key);
		return;
	}
	nb_json_obj_begin(j, key);
	nb_json_str(j, "kind", r->rtt ? "round-trip" : "one-way");
	nb_json_u64(j, "min", ns[5]);
	nb_json_u64(j, "p50", ns[0]);
	nb_json_u64(j, "p90", ns[1]);
	nb_json_u64(j, "p99", ns[2]);
	nb_json_u64(j, "p99_9", ns[3]);
	nb_json_u64(j, "max", ns[4]);
	nb_json_obj_end(j);
}

/* The document's frame: platforms and parameters. */
static void json_head(struct nb_json *j0, const struct run *r)
{
	const struct opts *o = r->o;
	struct nb_json j = *j0;

	nb_result_begin(&j, "rate", &r->local, r->remote ? &r->remote_si : NULL);
	nb_json_obj_begin(&j, "parameters");
	nb_json_str(&j, "procedure", test_names[o->test]);
	nb_json_str(&j, "engine", o->engine->name);
	nb_json_str(&j, "engine_detail", r->engine_desc);
	nb_json_u64(&j, "flows", o->flows);
	nb_json_u64(&j, "trial_ns", o->trial_ns);
	nb_json_u64(&j, "drain_ns", o->drain_ns);
	nb_json_double(&j, "loss_tolerance_pct", o->loss_tolerance * 100, 4);
	if (o->resolution_fps)
		nb_json_u64(&j, "resolution_fps", o->resolution_fps);
	else
		nb_json_double(&j, "resolution_pct", o->resolution_pct, 4);
	nb_json_u64(&j, "rate_fps", o->rate_fps);
	nb_json_u64(&j, "line_rate_bps", o->line_bps);
	nb_json_u64(&j, "burst", o->burst);
	nb_json_bool(&j, "realtime", o->realtime);
	nb_json_str(&j, "receiver", r->rx ? "local" : r->remote ? "agent" : "none");
	nb_json_bool(&j, "one_way_latency", !r->rtt && r->same_clock);
	nb_json_str(&j, "latency", r->rtt ? "round-trip" : r->same_clock ? "one-way" : "none");
	if (r->rx || r->remote)
		nb_json_str(&j, "receiver_detail",
			    r->snap->mmsg ? "recvmmsg, up to 64 frames per call"
					  : "recvmsg, one frame per call (recvmmsg unavailable or "
					    "not asked for)");
	if (r->have_path) {
		nb_json_str(&j, "interface", r->path.ifname);
		nb_json_u64(&j, "mtu", r->path.mtu);
	}
	nb_json_arr_begin(&j, "observe");
	for (size_t i = 0; i < o->obs.n; i++)
		nb_json_str(&j, NULL, o->obs.spec[i]);
	nb_json_arr_end(&j);
	if (o->obs.n)
		nb_json_u64(&j, "observe_samples_per_s", o->obs.req.sample_hz);
	if (o->obs.dut_mask)
		nb_json_u64(&j, "dut_cpu_mask", o->obs.dut_mask);
	if (o->rcvbuf)
		nb_json_u64(&j, "rcvbuf_bytes", o->rcvbuf);
	nb_json_obj_end(&j);
	*j0 = j;
}

/* One point's results: the "sizes" array (every trial of each) and the verdict. */
static void json_sizes(struct nb_json *jp, const struct run *r, const struct size_res *s, size_t n)
{
	const struct opts *o = r->o;
	struct nb_json j = *jp;
	char v[256];

	nb_json_arr_begin(&j, "sizes");
	for (size_t i = 0; i < n; i++) {
		nb_json_obj_begin(&j, NULL);
		nb_json_u64(&j, "frame_bytes", s[i].size);
		nb_json_u64(&j, "payload_bytes",
			    nb_frame_payload_bytes(r->dst.ss_family, s[i].size));
		nb_json_double(&j, "fps", s[i].fps, 1);
		nb_json_double(&j, "mbit_per_s", s[i].fps * s[i].size * 8 / 1e6, 3);
		if (o->line_bps)
			nb_json_double(&j, "line_rate_pct",
				       100 * s[i].fps * (s[i].size + ETH_OVERHEAD_B) * 8 /
					   (double)o->line_bps,
				       2);
		else
			nb_json_null(&j, "line_rate_pct");
		nb_json_double(&j, "loss_pct", s[i].loss_pct, 4);
		nb_json_bool(&j, "verified", s[i].verified);
		nb_json_bool(&j, "generator_max", s[i].at_max);
		nb_json_bool(&j, "generator_short", s[i].gen_short);
		nb_json_bool(&j, "zero_at_every_rate", s[i].zero);
		nb_json_bool(&j, "valid", !s[i].failed);
		if (o->test == T_B2B) {
			nb_json_double(&j, "b2b_frames_avg", s[i].b2b_avg, 1);
			nb_json_double(&j, "b2b_frames_min", s[i].b2b_min, 0);
			nb_json_double(&j, "b2b_frames_max", s[i].b2b_max, 0);
		}
		json_latency(&j, r, s[i].lat_valid, s[i].lat_ns);
		nb_json_arr_begin(&j, "trials");
		for (size_t k = s[i].first_trial; k < s[i].first_trial + s[i].ntrials; k++) {
			const struct trial_rec *t = &r->trials[k];
			nb_json_obj_begin(&j, NULL);
			nb_json_u64(&j, "id", t->id);
			nb_json_str(&j, "purpose", t->purpose);
			nb_json_double(&j, "asked_fps", t->asked_fps, 1);
			if (t->asked_frames)
				nb_json_u64(&j, "asked_frames", t->asked_frames);
			nb_json_double(&j, "offered_fps", t->offered_fps, 1);
			nb_json_double(&j, "window_s", t->window_s, 6);
			nb_json_u64(&j, "slipped_frames", t->slipped_frames);
			nb_json_bool(&j, "valid", t->c.valid);
			if (!t->c.valid)
				nb_json_str(&j, "invalid_reason", t->c.why);
			nb_json_u64(&j, "tx_frames", t->c.tx);
			if (r->rx || r->remote) {
				nb_json_u64(&j, "rx_frames", t->c.rx);
				nb_json_u64(&j, "lost_frames", t->c.lost);
				nb_json_u64(&j, "duplicated_frames", t->c.dup);
				nb_json_u64(&j, "reordered_frames", t->c.reordered);
				nb_json_u64(&j, "late_frames", t->c.late);
				nb_json_double(
				    &j, "loss_pct",
				    t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx : 0, 4);
			}
			json_latency(&j, r, t->lat_valid, t->lat_ns);
			if (r->rtt) {
				nb_json_u64(&j, "probe_every", t->probe_every);
				nb_json_u64(&j, "probes_sent", t->probes_sent);
				nb_json_u64(&j, "probes_received", t->probes_rx);
				nb_json_u64(&j, "probes_reflected", t->probes_reflected);
				nb_json_u64(&j, "probes_returned", t->probes_returned);
			}
			nb_result_cpu(&j, "cpu_local", &t->cpu);
			if (r->remote)
				nb_result_cpu(&j, "cpu_remote", &t->cpu_remote);
			if (r->rx || r->remote) {
				if (t->have_sock_drops)
					nb_json_u64(&j, "sink_socket_drops", t->sock_drops);
				else
					nb_json_null(&j, "sink_socket_drops");
			}
			if (t->obs.n)
				obs_cli_json(&j, "observers", &o->obs, &t->obs, t->c.tx - t->c.lost);
			nb_json_obj_end(&j);
		}
		nb_json_arr_end(&j);
		if (s[i].have_bneck) {
			obs_cli_json_verdict(&j, "bottleneck", &s[i].bneck);
			nb_json_u64(&j, "bottleneck_trial", r->trials[s[i].bneck_trial].id);
		} else {
			nb_json_null(&j, "bottleneck");
			nb_json_null(&j, "bottleneck_trial");
		}
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	if (o->test != T_TRIAL && o->test != T_LOSS)
		nb_json_str(&j, "verdict", verdict(r, s, n, v, sizeof(v)));
	*jp = j;
}

static void print_json(const struct run *r, const struct size_res *s, size_t n)
{
	struct nb_json j;

	nb_json_init(&j, stdout);
	json_head(&j, r);
	json_sizes(&j, r, s, n);
	nb_json_obj_end(&j);
	fputc('\n', stdout);
}

/* ---- setup ---- */

/* With an agent: one-way latency where both ends read one clock, else (or when asked) round
 * trip from probes the agent reflects to a socket of ours. */
static void setup_latency(struct run *r)
{
	const struct opts *o = r->o;
	int ret;

	if (o->latency == LAT_ONEWAY && !r->same_clock)
		cli_fail(
		    0, "--latency oneway: the agent runs on another kernel (its boot id differs), "
		       "so its clock is not ours; use --latency rtt or auto");
	r->rtt = o->latency == LAT_RTT || (o->latency == LAT_AUTO && !r->same_clock);
	if (!r->rtt)
		return;
	r->psnap = calloc(1, sizeof(*r->psnap));
	if (!r->psnap)
		cli_fail(-ENOMEM, "probe counters");
	ret = nb_probe_new(&r->probe, r->dst.ss_family);
	if (!ret)
		ret = nb_probe_start(r->probe);
	if (ret)
		cli_fail(ret, "socket for reflected probes");
	/* The agent reflects to the address our frames leave from (its target rule accepts only
	 * the controller's). */
	rate_remote_reflect(r->remote, r->have_path ? (struct sockaddr *)&r->path.src : NULL,
			    nb_probe_port(r->probe), NB_RX_REFLECT_MAX_PPS);
}

static void check_sizes(struct run *r)
{
	struct opts *o = r->o;
	uint32_t min = nb_frame_min_bytes(r->dst.ss_family);
	uint32_t max =
	    r->have_path && r->path.mtu ? nb_frame_max_for_mtu(r->path.mtu) : NB_FRAME_MAX;
	for (size_t i = 0; i < o->nsizes; i++) {
		if (o->sizes[i] < min)
			cli_usage_error("--sizes: %llu bytes is too small for IPv6 (at least %u)",
					(unsigned long long)o->sizes[i], min);
		if (o->sizes[i] > max)
			cli_usage_error("--sizes: %llu bytes is too large for %s (MTU %u: at most "
					"%u)",
					(unsigned long long)o->sizes[i], r->path.ifname,
					r->path.mtu, max);
	}
}

/* Runs the procedure at every frame size into res; returns the exit status it earns. */
static int run_sizes(struct run *r, struct size_res *res, const char *abuf)
{
	const struct opts *o = r->o;
	int status = 0;

	for (size_t i = 0; i < o->nsizes && !cli_stop; i++) {
		struct size_res *s = &res[i];
		s->size = (uint32_t)o->sizes[i];
		s->first_trial = r->ntrials;
		if (!o->json)
			fprintf(stderr, "netbench rate: %u-byte frames to %s port %u\n", s->size,
				abuf, o->port);
		switch (o->test) {
		case T_THROUGHPUT:
			do_throughput(r, s);
			break;
		case T_LOSS:
			do_loss(r, s);
			break;
		case T_B2B:
			do_b2b(r, s);
			break;
		case T_LATENCY:
			do_latency(r, s);
			break;
		case T_TRIAL:
			do_single(r, s);
			break;
		}
		s->ntrials = r->ntrials - s->first_trial;
		bottleneck(r, s);
		/* A search whose generator fell short still has a result below what it offered;
		 * a single trial that fell short did not do what was asked. */
		if (s->failed || s->zero || (o->test == T_TRIAL && s->gen_short))
			status = 1;
		if (o->test != T_TRIAL && s->gen_short)
			cli_warn("engine %s could not offer the %.0f fps asked at %u bytes: rates "
				 "above what it offered were not tested",
				 o->engine->name, max_fps_for(r, s->size), s->size);
	}
	return status;
}

/* ---- the rule sweep (netbench lab's DUT) ---- */

struct sweep_point {
	enum nb_lab_rules_kind kind;
	uint64_t rules;
	size_t rules_read, elems_read;
	struct size_res *res;
};

/* Fits per-frame cost against rule count for one kind and size; false without a fit. */
static bool sweep_fit(const struct run *r, const struct sweep_point *p, size_t np,
		      enum nb_lab_rules_kind kind, size_t size_i, struct nb_lab_fit *fit)
{
	double rules[16], fps[16];
	size_t n = 0;
	for (size_t i = 0; i < np && n < 16; i++)
		if (p[i].kind == kind && p[i].res[size_i].fps > 0 && !p[i].res[size_i].failed) {
			rules[n] = (double)p[i].rules;
			fps[n++] = p[i].res[size_i].fps;
		}
	return nb_lab_fit_cost(rules, fps, n, fit) == 0;
}

static void print_sweep(const struct run *r, const struct sweep_point *p, size_t np)
{
	const struct opts *o = r->o;
	struct nb_lab_fit fit;

	for (size_t i = 0; i < np; i++) {
		printf("== DUT ruleset: %s, %llu rules ==\n", nb_lab_rules_kind_name(p[i].kind),
		       (unsigned long long)p[i].rules);
		print_table(r, p[i].res, o->nsizes);
		printf("\n");
	}
	printf("rule sweep: %s at each point (ns/frame = 10^9 / fps)\n", test_names[o->test]);
	printf("%-10s %8s %7s %12s %12s\n", "kind", "rules", "frame", "fps", "ns/frame");
	for (size_t i = 0; i < np; i++)
		for (size_t k = 0; k < o->nsizes; k++)
			printf("%-10s %8llu %5u B %12.0f %12.1f\n",
			       nb_lab_rules_kind_name(p[i].kind), (unsigned long long)p[i].rules,
			       p[i].res[k].size, p[i].res[k].fps,
			       p[i].res[k].fps > 0 ? 1e9 / p[i].res[k].fps : 0);
	for (size_t a = 0; a < o->nkinds; a++)
		for (size_t k = 0; k < o->nsizes; k++) {
			if (sweep_fit(r, p, np, o->kinds[a], k, &fit))
				printf("fit %s, %u B: per-frame cost = %.1f ns + %.3f ns x rules "
				       "(residual %.1f ns rms, %zu points)\n",
				       nb_lab_rules_kind_name(o->kinds[a]), p[0].res[k].size,
				       fit.base_ns, fit.per_rule_ns, fit.residual_ns, fit.points);
			else
				printf("fit %s, %u B: none (needs two rule counts with results)\n",
				       nb_lab_rules_kind_name(o->kinds[a]), p[0].res[k].size);
		}
}

static void json_sweep(const struct run *r, const struct sweep_point *p, size_t np)
{
	const struct opts *o = r->o;
	struct nb_lab_fit fit;
	struct nb_json j;

	nb_json_init(&j, stdout);
	json_head(&j, r);
	nb_json_arr_begin(&j, "sweep");
	for (size_t i = 0; i < np; i++) {
		nb_json_obj_begin(&j, NULL);
		nb_json_str(&j, "kind", nb_lab_rules_kind_name(p[i].kind));
		nb_json_u64(&j, "rules", p[i].rules);
		nb_json_u64(&j, "rules_read_back", p[i].rules_read);
		nb_json_u64(&j, "set_elements_read_back", p[i].elems_read);
		json_sizes(&j, r, p[i].res, o->nsizes);
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	nb_json_arr_begin(&j, "fits");
	for (size_t a = 0; a < o->nkinds; a++)
		for (size_t k = 0; k < o->nsizes; k++) {
			if (!sweep_fit(r, p, np, o->kinds[a], k, &fit))
				continue;
			nb_json_obj_begin(&j, NULL);
			nb_json_str(&j, "kind", nb_lab_rules_kind_name(o->kinds[a]));
			nb_json_u64(&j, "frame_bytes", p[0].res[k].size);
			nb_json_double(&j, "base_ns", fit.base_ns, 1);
			nb_json_double(&j, "per_rule_ns", fit.per_rule_ns, 3);
			nb_json_double(&j, "residual_ns", fit.residual_ns, 1);
			nb_json_u64(&j, "points", fit.points);
			nb_json_obj_end(&j);
		}
	nb_json_arr_end(&j);
	nb_json_obj_end(&j);
	fputc('\n', stdout);
}

/* Loads each kind and rule count into the lab's DUT in turn and runs the procedure at every
 * size; the DUT's ruleset is flushed at the end. */
static int run_sweep(struct run *r, const char *abuf)
{
	const struct opts *o = r->o;
	size_t np = o->nkinds * o->nsweep, i = 0;
	struct sweep_point *p = calloc(np, sizeof(*p));
	struct nb_lab *lab = nb_lab_new();
	int status = 0, ret;

	if (!p || !lab)
		cli_fail(ENOMEM, "out of memory");
	if (nb_lab_set_prefix(lab, o->lab_prefix))
		cli_usage_error("--lab-prefix: '%s' is not a lab prefix (letters, digits, _ and -, "
				"at most %d)",
				o->lab_prefix, NB_LAB_PREFIX_MAX);
	for (size_t a = 0; a < o->nkinds && !cli_stop; a++)
		for (size_t b = 0; b < o->nsweep && !cli_stop; b++, i++) {
			struct nb_lab_rules rules = {.kind = o->kinds[a],
						     .rules_n = (size_t)o->sweep[b],
						     .ipv6 = r->dst.ss_family == AF_INET6};
			p[i].kind = o->kinds[a];
			p[i].rules = o->sweep[b];
			p[i].res = calloc(o->nsizes, sizeof(*p[i].res));
			if (!p[i].res)
				cli_fail(ENOMEM, "out of memory");
			ret = nb_lab_ruleset(lab, &rules, &p[i].rules_read, &p[i].elems_read);
			if (ret)
				cli_fail(0, "cannot load %llu %s rules into the lab's DUT %s: %s",
					 (unsigned long long)p[i].rules,
					 nb_lab_rules_kind_name(p[i].kind), lab->ns[NB_LAB_DUT],
					 lab->err[0] ? lab->err : strerror(-ret));
			if (!o->json)
				fprintf(stderr, "netbench rate: DUT ruleset %s, %llu rules\n",
					nb_lab_rules_kind_name(p[i].kind),
					(unsigned long long)p[i].rules);
			status |= run_sizes(r, p[i].res, abuf);
		}
	(void)nb_lab_ruleset_flush(lab);
	o->engine->describe(r->eng, r->engine_desc, sizeof(r->engine_desc));
	if (o->json)
		json_sweep(r, p, i);
	else
		print_sweep(r, p, i);
	for (size_t k = 0; k < np; k++)
		free(p[k].res);
	free(p);
	nb_lab_free(lab);
	return status;
}

/* ---- the clock experiment (--observe-clocks) ---- */

/* Runs the procedure at each DUT clock and fits frames/s against clock per size. Where the DUT
 * has no cpufreq it says so in one line and measures once, at the clock it has. */
static int run_clocks(struct run *r, const char *abuf)
{
	struct opts *o = r->o;
	struct size_res *res[OBS_CLI_CLOCKS] = {0};
	char notes[OBS_CLI_CLOCKS][256];
	size_t nc = 0;
	bool freq = true;
	int status = 0;
	struct nb_json j;

	for (size_t c = 0; c < o->obs.nclocks && !cli_stop; c++) {
		o->obs.clock_khz = o->obs.clocks_mhz[c] * 1000;
		res[c] = calloc(o->nsizes, sizeof(*res[c]));
		if (!res[c])
			cli_fail(ENOMEM, "out of memory");
		if (!o->json)
			fprintf(stderr, "netbench rate: DUT clock %u MHz\n", o->obs.clocks_mhz[c]);
		status |= run_sizes(r, res[c], abuf);
		snprintf(notes[c], sizeof(notes[c]), "%s", o->obs.clock_note);
		nc++;
		if (!o->obs.have_freq) {
			freq = false;
			break;
		}
	}
	o->obs.clock_khz = 0;
	o->engine->describe(r->eng, r->engine_desc, sizeof(r->engine_desc));
	if (!freq)
		cli_warn("%s", notes[0]);
	if (o->json) {
		nb_json_init(&j, stdout);
		json_head(&j, r);
		nb_json_arr_begin(&j, "clocks");
	}
	for (size_t c = 0; c < nc; c++) {
		if (o->json) {
			nb_json_obj_begin(&j, NULL);
			if (freq)
				nb_json_u64(&j, "mhz", o->obs.clocks_mhz[c]);
			else
				nb_json_null(&j, "mhz");
			nb_json_str(&j, "note", notes[c]);
			json_sizes(&j, r, res[c], o->nsizes);
			nb_json_obj_end(&j);
		} else {
			if (freq)
				printf("== DUT clock %u MHz (%s) ==\n", o->obs.clocks_mhz[c], notes[c]);
			else
				printf("== DUT clock unchanged: %s ==\n", notes[c]);
			print_table(r, res[c], o->nsizes);
		}
	}
	if (o->json) {
		nb_json_arr_end(&j);
		nb_json_arr_begin(&j, "clock_fit");
	}
	for (size_t i = 0; freq && i < o->nsizes; i++) {
		double mhz[OBS_CLI_CLOCKS], fps[OBS_CLI_CLOCKS];
		struct nb_clock_fit f;
		size_t n = 0;
		for (size_t c = 0; c < nc; c++)
			if (res[c][i].fps > 0 && !res[c][i].failed) {
				mhz[n] = o->obs.clocks_mhz[c];
				fps[n++] = res[c][i].fps;
			}
		if (nb_clock_fit(mhz, fps, n, &f))
			continue;
		if (o->json) {
			nb_json_obj_begin(&j, NULL);
			nb_json_u64(&j, "frame_bytes", res[0][i].size);
			nb_json_double(&j, "exponent", f.exponent, 3);
			nb_json_double(&j, "r2", f.r2, 3);
			nb_json_u64(&j, "points", f.points);
			nb_json_bool(&j, "cpu_bound", f.cpu_bound);
			nb_json_str(&j, "wording", f.wording);
			nb_json_obj_end(&j);
		} else {
			printf("clock fit %u B: fps ~ clock^%.2f: %s (r2 %.2f, %zu clocks)\n",
			       res[0][i].size, f.exponent, f.wording, f.r2, f.points);
		}
	}
	if (o->json) {
		nb_json_arr_end(&j);
		nb_json_str(&j, "clock_note", freq ? NULL : notes[0]);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	}
	for (size_t c = 0; c < nc; c++)
		free(res[c]);
	return status;
}

int cmd_rate(int argc, char **argv)
{
	struct opts o;
	struct run r;
	struct nb_gen_cfg gc;
	struct size_res *res;
	char err[512] = "", abuf[INET6_ADDRSTRLEN];
	int ret, status = 0;
	uint32_t frame_max = 0;

	parse_opts(argc, argv, &o);
	/* Test aid: make the kernel look older than it is (docs/rate.md). */
	if (getenv("NETBENCH_SIMULATE_ENOSYS")) {
		ret = nb_simulate_enosys(getenv("NETBENCH_SIMULATE_ENOSYS"));
		if (ret)
			cli_fail(ret, "NETBENCH_SIMULATE_ENOSYS='%s' (accepted: sendmmsg,recvmmsg)",
				 getenv("NETBENCH_SIMULATE_ENOSYS"));
	}
	if (o.realtime) {
		/* Before any thread exists, so that the receiver thread inherits it. The kernel's
		 * RT throttling still leaves other tasks 5 % of each CPU. */
		struct sched_param sp = {.sched_priority = 1};
		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			cli_fail(errno, "--realtime: cannot switch to SCHED_FIFO%s",
				 errno == EPERM ? " (needs CAP_SYS_NICE)" : "");
	}
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.snap = calloc(1, sizeof(*r.snap));
	r.gs = calloc(1, sizeof(*r.gs));
	res = calloc(o.nsizes, sizeof(*res));
	if (!r.snap || !r.gs || !res)
		cli_fail(ENOMEM, "out of memory");
	cli_catch_signals();

	if (o.local_rx) {
		int fd = open_local_rx(o.local_rx, o.port, &r.dst, &r.dst_len, err, sizeof(err));
		if (fd < 0)
			cli_fail(0, "%s", err);
		ret = nb_rx_new(&r.rx, fd, o.no_mmsg);
		if (!ret && o.rcvbuf)
			ret = nb_rx_set_rcvbuf(r.rx, (int)o.rcvbuf);
		if (!ret)
			ret = nb_rx_start(r.rx);
		if (ret)
			cli_fail(ret, "receiver");
		r.same_clock = true; /* one host: both ends read the same CLOCK_MONOTONIC */
	} else if (o.agent) {
		struct rate_remote_cfg rc = {.agent = o.agent,
					     .ctl_port = o.ctl_port,
					     .psk_file = o.psk_file,
					     .dst_addr = o.dst,
					     .port = o.port,
					     .no_mmsg = o.no_mmsg};
		ret = rate_remote_open(&r.remote, &rc, &r.dst, &r.dst_len, &r.remote_si,
				       &r.same_clock, err, sizeof(err));
		if (ret)
			cli_fail(0, "%s", err);
	} else {
		parse_addr("--dst", o.dst, o.port, &r.dst, &r.dst_len);
	}
	inet_ntop(r.dst.ss_family,
		  r.dst.ss_family == AF_INET6 ? (void *)&((struct sockaddr_in6 *)&r.dst)->sin6_addr
					      : (void *)&((struct sockaddr_in *)&r.dst)->sin_addr,
		  abuf, sizeof(abuf));
	ret = nb_path_route((struct sockaddr *)&r.dst, &r.path);
	if (ret == -ENETUNREACH || ret == -EHOSTUNREACH)
		cli_fail(0, "no route to %s", abuf);
	r.have_path = ret == 0;
	if (r.remote)
		setup_latency(&r);
	obs_cli_lab_default(&o.obs, abuf, o.json || o.quiet);
	if (o.obs.n || o.obs.nclocks || o.obs.dut_mask) {
		uint8_t psk[NB_PSK_MAX];
		size_t psk_len = 0;
		if (o.psk_file && (ret = nb_psk_load(o.psk_file, psk, &psk_len)))
			cli_fail(ret, "--psk: cannot use %s", o.psk_file);
		obs_cli_open(&o.obs, psk, psk_len);
	}
	check_sizes(&r);
	for (size_t i = 0; i < o.nsizes; i++)
		frame_max = o.sizes[i] > frame_max ? (uint32_t)o.sizes[i] : frame_max;

	memset(&gc, 0, sizeof(gc));
	gc.dst = r.dst;
	gc.dst_len = r.dst_len;
	gc.sport_base = o.sport;
	gc.flows = o.flows;
	gc.batch = o.batch;
	gc.frame_max_bytes = frame_max;
	gc.no_mmsg = o.no_mmsg;
	/* Neighbour discovery solicits once a second (RFC 4861 RetransTimer): three tries. */
	gc.neigh_wait_ms = r.dst.ss_family == AF_INET6 ? 3000 : 1000;
	ret = o.engine->open(&gc, &r.eng, err, sizeof(err));
	if (ret)
		cli_fail(0, "%s", err);
	nb_sysinfo_get(&r.local, r.have_path ? (struct sockaddr *)&r.path.src : NULL);

	if (o.nsweep) {
		status = run_sweep(&r, abuf);
		goto out;
	}
	if (o.obs.nclocks) {
		status = run_clocks(&r, abuf);
		goto out;
	}
	status = run_sizes(&r, res, abuf);
	o.engine->describe(r.eng, r.engine_desc, sizeof(r.engine_desc));
	if (o.json)
		print_json(&r, res, o.nsizes);
	else
		print_table(&r, res, o.nsizes);
	for (size_t i = 0; i < o.nsizes; i++) {
		if (res[i].zero)
			cli_warn(
			    "%u-byte frames: 0 fps at every rate (the DUT dropped every trial)",
			    res[i].size);
		if (res[i].failed)
			cli_warn("%u-byte frames: counters did not reconcile; no result",
				 res[i].size);
		if (o.test == T_TRIAL && res[i].gen_short)
			cli_warn(
			    "%u-byte frames: engine %s reached only %.0f fps of the %llu asked",
			    res[i].size, o.engine->name, res[i].fps,
			    (unsigned long long)o.rate_fps);
	}
out:
	obs_cli_close(&o.obs);
	for (size_t i = 0; i < r.ntrials; i++)
		obs_trial_free(&r.trials[i].obs);
	o.engine->close(r.eng);
	nb_rx_free(r.rx);
	rate_remote_free(r.remote);
	nb_probe_free(r.probe);
	free(r.psnap);
	free(r.trials);
	free(r.snap);
	free(r.gs);
	free(res);
	return status;
}
