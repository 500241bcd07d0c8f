/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench stream: constant-bitrate unicast or multicast streams and what receiving them costs
 * the receiver's CPU, softirq included. Standalone --send and --recv work between hosts without
 * an agent (mcsend/mcrecv command lines work as written); by default the agent(s)
 * given with -c receive and this host sends (--reverse swaps). Output: one row per bitrate.
 * The options are parsed in stream_opts.c; this file runs and prints. */
#include <errno.h>
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
#include "cmd/observe_cli.h"
#include "cmd/pacing.h"
#include "cmd/save.h"
#include "cmd/progress.h"
#include "cmd/stream_opts.h"
#include "cmd/stream_print.h"
#include "core/stream/stream_ctl.h"
#include "cmd/commands.h"
#include "core/stream/stream_sock.h"
#include "core/base/sysinfo.h"
#include "core/base/timeutil.h"
#include "core/base/units.h"
#include "core/base/wire.h"

/* The options passed their check in stream_opts.c (usage errors, exit 2): what the system
 * refuses when the socket meets it (no route, no such interface, a port in use, an address not
 * here) is a failure. */
static int open_fail(const char *err)
{
	cli_fail(0, "%s", err);
}

/* Arrival time, size, and the first 32-bit word (the sequence number of netbench and iperf2
 * datagrams; iperf2's end-of-test datagrams have the top bit set). */
static void write_time(void *arg, uint64_t arrival_ns, const uint8_t *buf, size_t len)
{
	uint32_t w = len >= 4 ? nb_get_be32(buf) : 0;
	fprintf(arg, "%llu %zu %lu\n", (unsigned long long)arrival_ns, len, (unsigned long)w);
}

/* -i: an interval as it ends, under the heading printed before the first one; on stderr with
 * -J (stdout is the document). */
static void show_interval(void *arg, const struct nb_stream_interval *iv)
{
	const struct stream_opts *o = arg;
	static bool head;
	FILE *f = o->json ? stderr : stdout;

	progress_clear();
	if (!head)
		stream_print_interval_head(f, o->p.interval_ns);
	head = true;
	stream_print_interval(f, iv);
	if (!isnan(iv->mbit_per_s))
		progress_result("%.3f Mbit/s received, %lld lost", iv->mbit_per_s,
				(long long)iv->lost);
}

/* The idle baseline of a standalone sender, before its socket opens (docs/schema.md). */
static void local_baseline(struct nb_cpu_idle *b)
{
	memset(b, 0, sizeof(*b));
	b->known = nb_cpu_baseline(NB_STREAM_BASELINE_NS, &b->cpu) == 0;
	b->other_pct = nb_cpu_other_pct(&b->cpu, 0);
}

static int run_recv(struct stream_opts *o)
{
	FILE *times = NULL;
	struct nb_stream_recv *r = NULL;
	struct nb_stream_rx *rx = NULL;
	struct nb_cpu_idle base;
	struct nb_sysinfo si;
	char err[256];
	int fd = -1, ret;

	/* No baseline: a receiver must be ready before the sender's first datagram. */
	memset(&base, 0, sizeof(base));
	ret = nb_stream_open_recv(&o->p.sock, &fd, err, sizeof(err));
	if (ret < 0)
		open_fail(err);
	nb_stream_local_sysinfo(&o->p.sock, &si);
	ret = nb_stream_recv_new(&r, fd);
	if (ret == 0)
		ret = nb_stream_rx_new(&rx);
	if (ret < 0)
		cli_fail(ret, "receiver");
	r->end_mono_ns = o->p.recv_time_ns ? nb_mono_ns() + o->p.recv_time_ns : 0;
	r->idle_ns = o->p.idle_ns;
	r->stop_on_fin = true;
	r->ext_stop = &cli_stop;
	if (o->p.profile_hz && (ret = nb_stream_recv_profile(r, o->p.profile_hz, err, sizeof(err))))
		cli_fail(ret, "--profile: %s", err);
	if (o->times_path) {
		times = fopen(o->times_path, "w");
		if (!times)
			cli_fail(errno, "--timestamps %s", o->times_path);
		r->on_datagram = write_time;
		r->on_datagram_arg = times;
	}
	if (!o->json) {
		printf("netbench stream: receiving %s port %u%s%s%s%s (%s)\n", o->p.sock.addr,
		       o->p.sock.port, o->p.sock.iface ? " on " : "",
		       o->p.sock.iface ? o->p.sock.iface : "", o->p.sock.source ? " from " : "",
		       o->p.sock.source ? o->p.sock.source : "",
		       o->p.multicast
			   ? (o->p.sock.source ? "source-specific join" : "any-source join")
			   : "unicast");
		fflush(stdout);
	}
	if (o->p.interval_ns) {
		struct nb_stream_iv w = {
		    .interval_ns = o->p.interval_ns, .fn = show_interval, .arg = o};
		ret = nb_stream_recv_run_intervals(r, &w);
		if (!o->json)
			printf("\n");
	} else
		ret = nb_stream_recv_run(r);
	if (ret < 0)
		cli_fail(ret, "receiving");
	nb_stream_recv_copy(r, rx);
	if (r->end == NB_END_STOP) {
		/* Ctrl-C: a step is whole once a later step began or the end marker came; the last
		 * one before neither was cut short. Only the whole steps are kept, as the sender
		 * and the other tests keep them. */
		size_t n = rx->nsteps;
		if (rx->nsteps && !rx->fin)
			rx->nsteps--;
		if (!o->json)
			printf("interrupted: %zu whole step%s kept%s\n", rx->nsteps,
			       rx->nsteps == 1 ? "" : "s",
			       n > rx->nsteps ? ", the one cut short dropped" : "");
	}
	if (times && fclose(times) != 0)
		cli_fail(errno, "--timestamps %s", o->times_path);
	if (cli_save_wants_doc(&o->save)) {
		char *doc;
		size_t len;
		if (nb_stream_recv_doc_text(&o->p, &si, r->end, r->used_recvmsg, &base, rx,
					    o->p.profile_hz ? r->prof_step : NULL, &doc, &len))
			cli_fail(ENOMEM, "building the JSON document");
		cli_save_doc(&o->save, doc, len);
	}
	if (!o->json) {
		printf("platform: %s, %s %s, %u CPU%s%s%s%s\n", si.hostname, si.arch, si.kernel,
		       si.ncpu, si.iface[0] ? ", " : "", si.iface, si.driver[0] ? " driver " : "",
		       si.driver);
		stream_print_rx(NULL, rx);
		stream_print_prof(rx, o->p.profile_hz ? r->prof_step : NULL);
		stream_print_baseline(&base, NULL, 0);
		printf("end: %s\n", nb_stream_end_name(r->end));
		if (r->used_recvmsg)
			printf("note: this kernel has no recvmmsg; received with recvmsg\n");
	}
	int status = r->end == NB_END_STOP ? 130 : 0; /* Ctrl-C, as in the other modes */
	nb_stream_recv_free(r);
	nb_stream_rx_free(rx);
	close(fd);
	return status;
}

/* The progress line (on a terminal) of a sweep this host sends: step i begins, or its result. */
static void show_step(const struct stream_opts *o, size_t i)
{
	if (i < o->p.nrates)
		progress_step(i, "%.4g Mbit/s asked", (double)o->p.rates[i] / 1e6);
}

static void show_sent(const struct stream_opts *o, size_t i, const struct nb_stream_send_step *s)
{
	double bps = nb_stream_send_rate_bps(s, o->p.block);
	if (!isnan(bps))
		progress_result("step %zu sent %.3f Mbit/s", i + 1, bps / 1e6);
	show_step(o, i + 1);
}

/* A step Ctrl-C cut short (fewer datagrams sent than its window planned) is no measurement. */
static bool cut_short(const struct nb_stream_send_step *s)
{
	return !s->count || s->datagrams < s->count;
}

static void print_send_row(void *arg, size_t i, const struct nb_stream_send_step *s)
{
	const struct stream_opts *o = arg;
	if (cli_stop && cut_short(s))
		return;
	if (o->json) {
		show_sent(o, i, s); /* the rows are in the document; the line still moves */
		return;
	}
	progress_clear();
	stream_print_send_row(s, o->p.block);
	fflush(stdout);
	show_sent(o, i, s);
}

/* Controller mode: the rows come at the end; only the progress line moves. */
static void ctl_step(void *arg, size_t i, const struct nb_stream_send_step *s)
{
	show_sent(arg, i, s);
}

static int run_send(struct stream_opts *o)
{
	struct nb_stream_send_step *steps = calloc(o->p.nrates, sizeof(*steps));
	struct nb_stream_send_opts so;
	struct nb_cpu_idle base;
	struct nb_sysinfo si;
	char err[256];
	int fd = -1, ret;

	if (!steps)
		cli_fail(-ENOMEM, "sender");
	local_baseline(&base);
	ret = nb_stream_open_send(&o->p.sock, &fd, err, sizeof(err));
	if (ret < 0)
		open_fail(err);
	nb_stream_local_sysinfo(&o->p.sock, &si);
	if (nb_stream_pacing_setup(fd, o->p.sock.iface, &o->p.pacing, err, sizeof(err)) < 0)
		cli_fail(0, "%s", err);
	memset(&so, 0, sizeof(so));
	so.fd = fd;
	so.pacing = o->p.pacing.mode;
	so.burst = o->p.pacing.burst_asked;
	so.block = o->p.block;
	so.rates_bps = o->p.rates;
	so.nrates = o->p.nrates;
	so.step_ns = o->p.time_ns;
	so.omit_ns = o->p.omit_ns;
	so.stream_id = nb_stream_random_id();
	so.stop = &cli_stop;
	so.on_step = print_send_row;
	so.arg = o;
	if (!o->json) {
		printf("netbench stream: sending to %s port %u, %zu-byte datagrams, %zu step%s of "
		       "%.1f s after %.2f s warm-up\n",
		       o->p.sock.addr, o->p.sock.port, o->p.block, o->p.nrates,
		       o->p.nrates == 1 ? "" : "s", (double)o->p.time_ns / 1e9,
		       (double)o->p.omit_ns / 1e9);
		stream_print_pacing(&o->p.pacing);
		stream_print_send_head();
		fflush(stdout);
	}
	progress_begin("stream", o->p.nrates, (double)(o->p.omit_ns + o->p.time_ns) / 1e9);
	show_step(o, 0);
	ret = nb_stream_send_run(&so, steps);
	progress_end();
	if (ret < 0)
		cli_fail(ret, "sending");
	if (cli_stop) {
		/* Only the steps sent whole are kept: no step cut short, none never started. */
		size_t n = 0;
		while (n < o->p.nrates && !cut_short(&steps[n]))
			n++;
		o->p.nrates = n;
		if (!o->json)
			printf("interrupted: %zu whole step%s kept, the one cut short dropped\n", n,
			       n == 1 ? "" : "s");
	}
	if (!o->json)
		stream_print_baseline(&base, NULL, 0);
	if (cli_save_wants_doc(&o->save)) {
		char *doc;
		size_t len;
		if (nb_stream_send_doc_text(&o->p, &si, cli_stop != 0, &base, steps, &doc, &len))
			cli_fail(ENOMEM, "building the JSON document");
		cli_save_doc(&o->save, doc, len);
	}
	close(fd);
	free(steps);
	return cli_stop ? 130 : 0; /* Ctrl-C ended the sweep early */
}

/* Ctrl-C (forward mode): the step the sender was in when it stopped was cut short, and what it
 * did not send is not loss. Only the steps sent whole are kept, at the sender and at every
 * receiver. */
static void keep_whole_steps(struct stream_opts *o, struct nb_stream_ctl_result *r)
{
	size_t n = 0;

	r->interrupted = true;
	while (n < r->nsent && !cut_short(&r->sent[n]))
		n++;
	r->nsent = n;
	for (size_t k = 0; k < r->nagents; k++)
		if (r->agents[k].rx && r->agents[k].rx->nsteps > n)
			r->agents[k].rx->nsteps = n;
	if (r->rx && r->rx->nsteps > n) /* --reverse: received here */
		r->rx->nsteps = n;
	o->p.nrates = n;
	if (!o->json)
		printf("interrupted: %zu whole step%s kept, the one cut short dropped\n", n,
		       n == 1 ? "" : "s");
}

/* ---- controller mode: the agents given with -c receive, or with --reverse one sends ---- */

static void ctl_started(void *arg, const struct nb_stream_params *p,
			const struct nb_stream_ctl_result *r)
{
	const struct stream_opts *o = arg;

	if (!p->reverse) {
		if (!o->json)
			printf("netbench stream: sending to %s port %u, %zu-byte datagrams, %zu "
			       "step%s of %.1f s after %.2f s warm-up; %zu agent%s receiving\n",
			       p->sock.addr, p->sock.port, p->block, p->nrates,
			       p->nrates == 1 ? "" : "s", (double)p->time_ns / 1e9,
			       (double)p->omit_ns / 1e9, r->nagents, r->nagents == 1 ? "" : "s");
		fflush(stdout);
		/* This host sends: it knows each step's end (with --reverse the agent does). */
		progress_begin("stream", p->nrates, (double)(p->omit_ns + p->time_ns) / 1e9);
		show_step(o, 0);
		return;
	}
	if (!o->json) {
		printf("netbench stream: agent %s sends to %s port %u, %zu step%s of %.1f s after "
		       "%.2f s warm-up; receiving here\n",
		       r->agents[0].host, p->to_controller ? "this host" : p->sock.addr,
		       p->sock.port, p->nrates, p->nrates == 1 ? "" : "s", (double)p->time_ns / 1e9,
		       (double)p->omit_ns / 1e9);
		fflush(stdout);
	}
}

static void ctl_print(const struct nb_stream_params *p, const struct nb_stream_ctl_result *r)
{
	if (p->reverse) {
		stream_print_agent_head(r->agents[0].host, &r->agents[0].ctl->remote);
		printf("sent:\n");
		stream_print_send_head();
		for (size_t i = 0; i < r->nsent; i++)
			stream_print_send_row(&r->sent[i], p->block);
		stream_print_pacing(&r->pacing);
		printf("\nreceived here (%s):\n", r->local.hostname);
		stream_print_rx(NULL, r->rx);
		stream_print_prof(r->rx, p->profile_hz ? r->prof : NULL);
		stream_print_baseline(&r->baseline, r->agents, r->nagents);
		return;
	}
	printf("\nsent from %s:\n", r->local.hostname);
	stream_print_send_head();
	for (size_t i = 0; i < p->nrates; i++)
		stream_print_send_row(&r->sent[i], p->block);
	stream_print_pacing(&r->pacing);
	for (size_t i = 0; i < r->nagents; i++) {
		stream_print_agent_head(r->agents[i].host, &r->agents[i].ctl->remote);
		stream_print_rx(NULL, r->agents[i].rx);
		stream_print_prof(r->agents[i].rx, p->profile_hz ? r->agents[i].prof : NULL);
	}
	stream_print_baseline(&r->baseline, r->agents, r->nagents);
}

/* The observed box's view of every step, one row each, under the receivers' tables. */
static void print_obs(const struct stream_opts *o, const struct nb_stream_ctl_result *r)
{
	char label[32];
	for (size_t k = 0; r->obs && k < o->obs.set.n && r->nsent; k++) {
		obs_cli_step_head(stdout, &o->obs.set, k, &r->obs[0], "     Mbit/s");
		for (size_t i = 0; i < r->nsent && i < r->nobs; i++) {
			snprintf(label, sizeof(label), "%11.3f", (double)r->sent[i].rate_bps / 1e6);
			obs_cli_step_row(stdout, k, &r->obs[i], label);
		}
	}
}

static int run_ctl(struct stream_opts *o)
{
	struct nb_stream_ctl_result *r;
	char err[512] = "";
	int ret;

	if (o->psk_path)
		for (size_t i = 0; i < o->p.nagents; i++)
			cli_psk(o->psk_path, o->p.agents[i].psk, &o->p.agents[i].psk_len);
	if (o->p.reverse && o->p.nagents > 1)
		cli_usage_error("--reverse takes one agent (the sender), not %zu", o->p.nagents);
	if (!o->p.multicast && o->p.nagents > 1)
		cli_usage_error(
		    "-a %s is unicast: one agent receives it; use a multicast group for "
		    "%zu agents",
		    o->p.sock.addr, o->p.nagents);
	o->p.stop = &cli_stop;
	o->p.on_step = ctl_step;
	o->p.step_arg = o;
	o->p.on_interval = show_interval;
	o->p.interval_arg = o;
	obs_cli_open(&o->obs, o->psk_path);
	o->p.observe = &o->obs.set;
	ret = nb_stream_ctl_run(&o->p, &(struct nb_stream_ctl_cb){.started = ctl_started, .arg = o},
				&r, err, sizeof(err));
	progress_end();
	if (ret < 0 && r && r->bad_input)
		cli_usage_error("%s", err);
	if (ret < 0)
		cli_fail(0, "%s", err);
	if (cli_stop)
		keep_whole_steps(o, r);
	if (cli_save_wants_doc(&o->save)) {
		char *doc;
		size_t len;
		if (nb_stream_ctl_doc_text(&o->p, r, &doc, &len))
			cli_fail(ENOMEM, "building the JSON document");
		cli_save_doc(&o->save, doc, len);
	}
	if (!o->json) {
		ctl_print(&o->p, r);
		print_obs(o, r);
	}
	/* A receiver that got nothing measured nothing: a failure, named, never a row of "-". */
	int status = cli_stop ? 130 : 0;
	for (size_t k = 0; !cli_stop && k < r->nagents; k++)
		if (!o->p.reverse && r->nsent && nb_stream_rx_nothing(r->agents[k].rx)) {
			cli_warn(
			    "agent %s received no datagram of the %zu step%s sent to %s port %u "
			    "(a route, a firewall, or a multicast group its interface did not "
			    "join?)",
			    r->agents[k].host, r->nsent, r->nsent == 1 ? "" : "s", o->p.sock.addr,
			    o->p.sock.port);
			status = 1;
		}
	if (!cli_stop && o->p.reverse && r->nsent && nb_stream_rx_nothing(r->rx)) {
		cli_warn("this host received no datagram of the %zu step%s agent %s sent", r->nsent,
			 r->nsent == 1 ? "" : "s", r->agents[0].host);
		status = 1;
	}
	nb_stream_ctl_result_free(r);
	nb_obs_set_close(&o->obs.set);
	return status;
}

int cmd_stream(int argc, char **argv)
{
	struct stream_opts o;

	stream_parse_opts(argc, argv, &o);
	cli_save_start(&o.save, "stream", o.json);
	cli_catch_signals();
	int ret = o.p.recv ? run_recv(&o) : o.p.send ? run_send(&o) : run_ctl(&o);
	cli_save_finish(&o.save); /* stores the document when the run printed one */
	return ret;
}
