/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate's options after parsing: the combinations refused with exit 2, the defaults that
 * depend on other options, and the receiver with its addresses resolved. */
#include <arpa/inet.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/pacing.h"
#include "cmd/rate_opts.h"
#include "core/base/timeutil.h"
#include "core/rate/flows.h"
#include "core/rate/gen.h"
#include "core/rate/frame.h"
#include "core/rate/raterx.h"
#include "core/rate/rate_agent_rev.h"

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

/* -r in bit/s or as a share of the line rate becomes frames/s per size: each must be a rate the
 * generator takes and, with --line-rate, one the line carries; refused before anything is sent. */
static void check_rate(const struct rate_opts *o)
{
	const struct nb_rate_params *p = &o->p;
	if (p->rate_line_pct > 0 && !p->line_bps)
		cli_usage_error("%s %s is a share of the line rate: give the line rate with "
				"--line-rate (e.g. 1G)",
				o->rate_opt, o->rate_text);
	for (size_t i = 0; i < p->nsizes; i++) {
		uint32_t size = (uint32_t)p->sizes[i];
		double asked = nb_rate_asked_fps(p, size), line = nb_rate_line_fps(p, size);
		if (!(asked > 0))
			continue;
		if (line > 0 && asked > line * 1.000001)
			cli_usage_error(
			    "%s %s is %.0f frames/s at %u-byte frames, above what the line "
			    "carries: %.0f frames/s at --line-rate %llu bit/s (preamble and "
			    "gap counted); ask at most %.0ffps or 100%%",
			    o->rate_opt, o->rate_text, asked, size, line,
			    (unsigned long long)p->line_bps, floor(line));
		if (asked < NB_RATE_MIN_FPS || asked > NB_RATE_MAX_FPS)
			cli_usage_error(
			    "%s %s is %.0f frames/s at %u-byte frames: the generator takes "
			    "%u to %u frames/s",
			    o->rate_opt, o->rate_text, asked, size, (unsigned)NB_RATE_MIN_FPS,
			    (unsigned)NB_RATE_MAX_FPS);
	}
}

/* Where frames go: a receiver here, an agent, or none (send only). */
static void check_where(struct rate_opts *o)
{
	if (o->agent)
		o->agent = cli_hostport("--client", o->agent, &o->p.rx.agent.port);
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
}

/* Threads, flows and their source ports. */
static void threads_flows(struct rate_opts *o, const struct rate_opts_seen *seen)
{
	/* One thread per CPU named, unless told otherwise; each thread needs a flow of its own. */
	if (!seen->threads)
		o->p.threads = o->p.ncpus ? o->p.ncpus : 1;
	if (!seen->flows && o->p.flows < o->p.threads)
		o->p.flows = o->p.threads;
	if (o->p.flows < o->p.threads)
		cli_usage_error("--flows %u is fewer than --threads %u (each thread sends flows of "
				"its own)",
				o->p.flows, o->p.threads);
	o->p.rx.sockets = o->p.threads; /* a local receiver: one socket and thread each */
	/* The udp engine binds every flow's own source port; the packet engine only writes
	 * them when sport makes flows differ. */
	if ((!o->p.flow_fields || (o->p.flow_fields & NB_FLOW_SPORT) ||
	     o->p.engine != &nb_gen_packet) &&
	    (uint32_t)o->p.sport + o->p.flows - 1 > 65535)
		cli_usage_error("--sport %u with --flows %u runs past port 65535", o->p.sport,
				o->p.flows);
}

/* --quick: defaults for a first look; what was given stays. */
static void quick_defaults(struct rate_opts *o, const struct rate_opts_seen *seen)
{
	if (seen->quick) {
		/* A first look in seconds (demos, a sweep): short trials, a coarser search,
		 * three sizes; options given explicitly still win. */
		static const uint64_t quick_sizes[] = {64, 512, 1518};
		if (!seen->trial)
			o->p.trial_ns = 300 * NB_NS_PER_MS;
		o->p.drain_ns = 50 * NB_NS_PER_MS;
		if (!o->p.resolution_fps)
			o->p.resolution_pct = 2;
		if (!seen->repeat)
			o->p.repeat = 1;
		if (!seen->sizes) {
			memcpy(o->p.sizes, quick_sizes, sizeof(quick_sizes));
			o->p.nsizes = 3;
		}
	}
}

/* The lab's prefix and the rule kinds of --sweep-rules. */
static void lab_defaults(struct rate_opts *o)
{
	if (!o->lab_prefix)
		o->lab_prefix = getenv("NB_LAB_PREFIX");
	if (!o->p.nkinds) {
		o->p.kinds[0] = NB_LAB_RULES_LINEAR;
		o->p.nkinds = 1;
	} else if (!o->p.nsweep) {
		cli_usage_error("--kind applies to --sweep-rules");
	}
}

/* --imix: the mix is the run's one size. */
static void check_mix(struct rate_opts *o, const struct rate_opts_seen *seen)
{
	if (o->p.mix) {
		/* The mix is the run's one "size": its mean frame, rounded, where a size is
		 * needed (the exact mean for line rate and bits). */
		if (seen->sizes)
			cli_usage_error("--imix and --sizes exclude each other (a mix is one run's "
					"frames)");
		if (o->p.engine != &nb_gen_udp)
			cli_usage_error("--imix: engine %s sends one frame size only; use --engine "
					"udp",
					o->p.engine->name);
		o->p.sizes[0] = (uint64_t)(o->mix.mean_bytes + 0.5);
		o->p.nsizes = 1;
	}
}

/* --flow-fields and --per-flow: what the receiver and the engine can take. */
static void check_flows(struct rate_opts *o)
{
	if ((o->p.flow_fields & NB_FLOW_DST_IP) && !o->local_rx && !o->agent)
		cli_usage_error("--flow-fields dst-ip needs a receiver (--local-rx or -c) that "
				"owns the destination range");
	if (o->agent && o->p.flows > NB_RX_FLOWS && (o->p.flow_fields & NB_FLOW_DST_IP))
		cli_usage_error("--flow-fields dst-ip: --flows %u, at most %u with an agent (it "
				"checks every address of the range at each trial)",
				o->p.flows, NB_RX_FLOWS);
	if (o->p.latency == NB_RATE_LAT_RTT && o->p.flows > NB_PAYLOAD_PROBE)
		cli_usage_error("--latency rtt: --flows %u, at most %u (a probe is marked in the "
				"flow id's top bit)",
				o->p.flows, NB_PAYLOAD_PROBE);
	if ((o->p.flow_fields & NB_FLOW_DPORT) && o->p.flows > NB_RX_FLOWS)
		cli_usage_error("--flow-fields dport: --flows %u, at most %u (one receiving socket "
				"a port)",
				o->p.flows, NB_RX_FLOWS);
	if ((o->p.flow_fields & NB_FLOW_DPORT) && (uint32_t)o->p.rx.port + o->p.flows - 1 > 65535)
		cli_usage_error("--flow-fields dport: --data-port %u with --flows %u runs past "
				"port 65535",
				o->p.rx.port, o->p.flows);
	/* Flow f goes to the receiver's address + f and/or its port + f: the receiver checks
	 * the addresses are its own and binds every port. */
	o->p.rx.dst_count = (o->p.flow_fields & NB_FLOW_DST_IP) ? o->p.flows : 0;
	o->p.rx.port_count = (o->p.flow_fields & NB_FLOW_DPORT) ? o->p.flows : 0;
	o->p.rx.flows = o->p.flows;
	if ((o->p.flow_fields & NB_FLOW_SRC_IP) && o->p.engine != &nb_gen_packet)
		cli_usage_error("--flow-fields src-ip needs --engine packet (frames from addresses "
				"this host does not own)");
	if (o->p.per_flow && !o->local_rx && !o->agent)
		cli_usage_error("--per-flow needs a receiver (--local-rx or -c) to count flows");
}

/* --bidir: the agent sends the reverse direction. */
static void check_bidir(struct rate_opts *o)
{
	if (o->p.bidir) {
		/* The reverse direction is the agent's: its udp or packet engine (as ours), one
		 * thread, from its own address to ours (docs/rate.md, "Both directions"). */
		if (!o->agent)
			cli_usage_error(
			    "--bidir needs an agent (-c): it sends the reverse direction");
		if (o->p.flow_fields & NB_FLOW_SRC_IP)
			cli_usage_error("--bidir: --flow-fields src-ip is not supported (the agent "
					"sends only from its own address)");
		if (o->p.flows > NB_RATE_REV_MAX_FLOWS)
			cli_usage_error(
			    "--bidir: --flows %u, the reverse direction takes at most %u",
			    o->p.flows, NB_RATE_REV_MAX_FLOWS);
	}
}

/* What the test takes: ndrpdr's ratios and repeats, b2b's burst, the pacing. */
static void check_test(struct rate_opts *o, const struct rate_opts_seen *seen)
{
	if (seen->ratios && !seen->test)
		o->p.test = NB_RATE_NDRPDR;
	if (seen->ratios && o->p.test != NB_RATE_NDRPDR)
		cli_usage_error("--loss-ratios applies to --test ndrpdr, not %s",
				nb_rate_test_names[o->p.test]);
	if (o->p.final_trial_ns && o->p.test != NB_RATE_NDRPDR)
		cli_usage_error("--final-trial applies to --test ndrpdr");
	if (o->p.test == NB_RATE_NDRPDR) {
		if (seen->tol)
			cli_usage_error(
			    "--loss-tolerance does not apply to --test ndrpdr: give its "
			    "ratios with --loss-ratios");
		if (!seen->ratios) {
			o->p.loss_ratios[0] = 0;
			o->p.loss_ratios[1] = 0.005;
			o->p.nratios = 2;
		}
		if (!seen->repeat)
			o->p.repeat = 1;
		if (o->p.repeat > NB_MLR_MAX_REPEAT)
			cli_usage_error("--repeat %u: ndrpdr repeats its search at most %u times",
					o->p.repeat, NB_MLR_MAX_REPEAT);
	}
	if (o->p.test == NB_RATE_LATENCY && !seen->repeat)
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
}

/* The receiver from the table, and the addresses the user named. */
static void set_receiver(struct rate_opts *o)
{
	if (o->local_rx) {
		parse_local_rx(o->local_rx, o->p.rx.port, &o->p.rx);
		o->p.receiver = &nb_rx_local;
	} else if (o->agent) {
		o->p.rx.agent.host = o->agent;
		if (o->psk_file)
			cli_psk(o->psk_file, o->p.rx.agent.psk, &o->p.rx.agent.psk_len);
		o->p.rx.dst_addr = o->dst;
		o->p.receiver = &nb_rx_agent;
	} else {
		parse_addr("--dst", o->dst, o->p.rx.port, &o->p.rx.dst, &o->p.rx.dst_len);
		o->p.receiver = &nb_rx_none;
	}
}

void rate_check_opts(struct rate_opts *o, const struct rate_opts_seen *seen)
{
	check_where(o);
	threads_flows(o, seen);
	quick_defaults(o, seen);
	lab_defaults(o);
	check_mix(o, seen);
	check_rate(o);
	check_flows(o);
	check_bidir(o);
	check_test(o, seen);
	set_receiver(o);
	o->p.stop = &cli_stop;
	o->p.observe = &o->obs.set;
}
