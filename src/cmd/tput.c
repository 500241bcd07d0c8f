/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench tput: netio's sweep with CPU at both ends. For each block size, Tx (we send) then Rx
 * (the agent sends), or both at once with --bidir; prints a netio-shaped table and a CPU table,
 * or one JSON document. The options are parsed in tput_opts.c. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/observe_cli.h"
#include "cmd/save.h"
#include "cmd/tput_opts.h"
#include "cmd/commands.h"
#include "core/session/auth.h"
#include "core/session/ctl.h"
#include "core/base/result.h"
#include "core/base/sysinfo.h"
#include "core/base/timeutil.h"
#include "core/tput/tput_plan.h"
#include "core/tput/tput_run.h"
#include "cmd/pacing.h"
#include "cmd/progress.h"
#include "core/base/units.h"

/* The options and what the sweep gathers for its tables and its JSON. */
struct run {
	struct tput_opts o;
	struct nb_tput_step_result *res;      /* per size */
	size_t size_index;		      /* the step being run */
	size_t ndone;			      /* sizes fully measured: the rows printed */
	bool interrupted;		      /* Ctrl-C: the sizes after ndone were not measured */
	struct nb_obs_trial *obs_tx, *obs_rx; /* per size; with --bidir obs_tx holds both */
	struct interval {
		size_t size_index;
		struct nb_tput_interval iv;
	} * intervals;
	size_t nintervals, cap_intervals;
	struct nb_tput_baseline baseline; /* the sweep's idle baseline, from its first step */
};

#define BASELINE_NS (250 * 1000 * 1000ULL)
static void print_obs(const struct run *r);

/* Keeps every interval for the JSON document and prints it as it comes for people. */
static void on_interval(void *arg, const struct nb_tput_interval *iv)
{
	struct run *r = arg;
	char sz[16];
	if (r->nintervals == r->cap_intervals) {
		size_t cap = r->cap_intervals ? 2 * r->cap_intervals : 64;
		struct interval *p = realloc(r->intervals, cap * sizeof(*p));
		if (!p)
			cli_fail(ENOMEM, "out of memory");
		r->intervals = p;
		r->cap_intervals = cap;
	}
	r->intervals[r->nintervals].size_index = r->size_index;
	r->intervals[r->nintervals++].iv = *iv;
	nb_format_bytes(r->o.p.block, sz, sizeof(sz));
	if (r->o.json)
		return;
	progress_clear();
	printf("  %5s %6.2f-%6.2f s", sz, iv->start_s, iv->end_s);
	if (!isnan(iv->tx_kbyte_per_s))
		printf("  Tx %12.1f KByte/s", iv->tx_kbyte_per_s);
	if (!isnan(iv->rx_kbyte_per_s))
		printf("  Rx %12.1f KByte/s", iv->rx_kbyte_per_s);
	putchar('\n');
	fflush(stdout);
	/* The window's latest interval, until the step's result. */
	progress_result("%s%.1f Mbit/s", isnan(iv->tx_kbyte_per_s) ? "Rx " : "Tx ",
			(isnan(iv->tx_kbyte_per_s) ? iv->rx_kbyte_per_s : iv->tx_kbyte_per_s) *
			    1024 * 8 / 1e6);
}

static void cell(const struct nb_tput_dir_result *d, bool measured, bool udp)
{
	if (!measured)
		printf(" %13s %9s%s", "-", "-", udp ? "       -" : "");
	else if (!d->valid)
		printf(" %13s %9s%s", "invalid", "", udp ? "        " : "");
	else {
		printf(" %13.1f %9.2f", d->kbyte_per_s, d->mbit_per_s);
		if (udp)
			printf(" %7.3f", d->loss_pct);
	}
}

static void cpu_row(const char *size, const char *dir, const struct nb_tput_dir_result *d)
{
	const struct nb_cpu_load *l = &d->cpu_local, *m = &d->cpu_remote;
	printf("%6s %3s | %6.1f %6.1f %6.1f %8.3f | %6.1f %6.1f %6.1f %8.3f%s\n", size, dir,
	       l->proc_pct, l->busy_pct, l->softirq_pct, d->demand_local_us_per_kbyte, m->proc_pct,
	       m->busy_pct, m->softirq_pct, d->demand_remote_us_per_kbyte,
	       d->cpu_polluted ? "*" : "");
}

static void polluted_note(const char *size, const char *dir, const struct nb_tput_dir_result *d)
{
	if (d->valid && d->cpu_polluted)
		printf(
		    "* %s %s: other processes used %.0f %% of a CPU here and %.0f %% on the agent "
		    "in this window: the CPU figures are polluted\n",
		    size, dir, d->other_local_pct, d->other_remote_pct);
}

static void print_baseline(const struct nb_tput_baseline *b)
{
	if (!b->measured)
		return;
	printf("idle baseline (%.2f s before the sweep): other processes used %.0f %% of a CPU "
	       "here, ",
	       b->local.window_s, b->local_other_pct);
	if (b->remote_known)
		printf("%.0f %% on the agent\n", b->remote_other_pct);
	else
		printf("unknown on the agent (an older netbench)\n");
}

/* The title and the column header, before the first step (interval lines come below it). */
static void print_head(const struct run *r, const struct nb_ctl *ctl, const char *host)
{
	bool udp = r->o.p.proto == NB_TPUT_UDP;

	printf("\nnetbench tput to %s port %u: agent %s (%s, Linux %s), %s, %u stream%s, "
	       "%.1f s window after %.1f s warm-up%s\n\n",
	       host, nb_ctl_port(ctl), ctl->remote.hostname, ctl->remote.arch, ctl->remote.kernel,
	       udp ? "UDP" : "TCP", r->o.p.streams, r->o.p.streams > 1 ? "s" : "",
	       (double)r->o.p.time_ns / 1e9, (double)r->o.p.warmup_ns / 1e9,
	       r->o.bidir ? ", Tx and Rx at once" : "");
	if (r->o.p.rate_bps)
		printf("pacing: %s at %.3f Mbit/s per stream\n\n",
		       r->o.p.pacing == NB_PACING_SPIN ? "spin" : "burst (about 1 ms per wake-up)",
		       (double)r->o.p.rate_bps / 1e6);
	printf(" Block %13s %9s%s %13s %9s%s\n", "Tx KByte/s", "Mbit/s", udp ? "   Loss%" : "",
	       "Rx KByte/s", "Mbit/s", udp ? "   Loss%" : "");
	fflush(stdout);
}

/* One size's row, as soon as it is measured. */
static void print_row(const struct run *r, size_t i)
{
	bool udp = r->o.p.proto == NB_TPUT_UDP;
	char sz[16];

	nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
	progress_clear();
	printf("%6s", sz);
	cell(&r->res[i].tx, r->o.tx, udp);
	cell(&r->res[i].rx, r->o.rx, udp);
	putchar('\n');
	fflush(stdout);
}

/* After the sweep: the CPU table and the invalid steps, for the sizes measured. */
static void print_tail(const struct run *r, const struct nb_ctl *ctl)
{
	char sz[16];

	if (r->interrupted)
		printf("interrupted: %zu of %zu sizes measured\n", r->ndone, r->o.nsizes);
	printf("\nCPU over each window      local (%s)               remote (%s)\n", "this host",
	       ctl->remote.hostname);
	printf(
	    " Block Dir |  proc%%   sys%%  sirq%%    us/KB |  proc%%   sys%%  sirq%%    us/KB\n");
	for (size_t i = 0; i < r->ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (r->o.tx && r->res[i].tx.valid)
			cpu_row(sz, "Tx", &r->res[i].tx);
		if (r->o.rx && r->res[i].rx.valid)
			cpu_row(sz, "Rx", &r->res[i].rx);
	}
	for (size_t i = 0; i < r->ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (r->o.tx)
			polluted_note(sz, "Tx", &r->res[i].tx);
		if (r->o.rx)
			polluted_note(sz, "Rx", &r->res[i].rx);
	}
	print_baseline(&r->baseline);
	for (size_t i = 0; i < r->ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (r->o.tx && !r->res[i].tx.valid)
			printf("%s Tx invalid: %s\n", sz, r->res[i].tx.invalid_reason);
		if (r->o.rx && !r->res[i].rx.valid)
			printf("%s Rx invalid: %s\n", sz, r->res[i].rx.invalid_reason);
	}
	print_obs(r);
}

static void json_intervals(struct nb_json *j, const struct run *r, size_t size_index, bool tx)
{
	nb_json_arr_begin(j, "intervals");
	for (size_t i = 0; i < r->nintervals; i++) {
		const struct nb_tput_interval *iv = &r->intervals[i].iv;
		double v = tx ? iv->tx_kbyte_per_s : iv->rx_kbyte_per_s;
		if (r->intervals[i].size_index != size_index || isnan(v))
			continue;
		nb_json_obj_begin(j, NULL);
		nb_json_double(j, "start_s", iv->start_s, 3);
		nb_json_double(j, "end_s", iv->end_s, 3);
		nb_json_double(j, "kbyte_per_s", v, 2);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

/* The observers' window of size i's Tx or Rx step; NULL when none observed. */
static const struct nb_obs_trial *obs_of(const struct run *r, size_t i, bool tx)
{
	if (!r->obs_tx)
		return NULL;
	return tx || r->o.bidir ? &r->obs_tx[i] : &r->obs_rx[i];
}

/* Under the CPU table: the observed box's view of every step, one row each. */
static void print_obs(const struct run *r)
{
	char sz[16], label[32];
	for (size_t o = 0; o < r->o.obs.set.n && r->ndone; o++) {
		obs_cli_step_head(stdout, &r->o.obs.set, o, obs_of(r, 0, r->o.tx), " Block Dir");
		for (size_t i = 0; i < r->ndone; i++) {
			nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
			for (int tx = 1; tx >= 0; tx--) {
				const struct nb_tput_dir_result *d =
				    tx ? &r->res[i].tx : &r->res[i].rx;
				if (!(tx ? r->o.tx : r->o.rx) || (r->o.bidir && !tx))
					continue;
				snprintf(label, sizeof(label), "%6s %3s", sz,
					 r->o.bidir ? "T+R"
					 : tx	    ? "Tx"
						    : "Rx");
				obs_cli_step_row(
				    stdout, &r->o.obs.set, o, obs_of(r, i, tx),
				    r->o.bidir ? r->res[i].tx.bytes + r->res[i].rx.bytes : d->bytes,
				    label);
			}
		}
	}
}

static void json_dir(struct nb_json *j, const struct run *r, size_t size_index, const char *dir,
		     const struct nb_tput_dir_result *d)
{
	uint64_t block = r->o.sizes[size_index];
	nb_json_obj_begin(j, NULL);
	nb_json_u64(j, "block_bytes", block);
	nb_json_str(j, "direction", dir);
	nb_json_bool(j, "valid", d->valid);
	nb_json_str(j, "invalid_reason", d->valid ? NULL : d->invalid_reason);
	nb_json_double(j, "window_s", d->window_s, 6);
	nb_json_u64(j, "window_bytes", d->bytes);
	if (d->valid) {
		nb_json_double(j, "kbyte_per_s", d->kbyte_per_s, 2);
		nb_json_double(j, "mbit_per_s", d->mbit_per_s, 3);
	} else {
		nb_json_null(j, "kbyte_per_s");
		nb_json_null(j, "mbit_per_s");
	}
	nb_json_u64(j, "sent_total_bytes", d->sent_total);
	nb_json_u64(j, "received_total_bytes", d->received_total);
	if (r->o.p.proto == NB_TPUT_UDP) {
		nb_json_u64(j, "window_datagrams", d->rx_window.datagrams);
		nb_json_u64(j, "window_expected_datagrams", d->rx_window.expected);
		nb_json_double(j, "loss_pct", d->loss_pct, 4);
		nb_json_double(j, "reorder_pct", d->reorder_pct, 4);
		nb_json_double(j, "duplicate_pct", d->dup_pct, 4);
	}
	nb_result_cpu(j, "cpu_local", &d->cpu_local);
	nb_result_cpu(j, "cpu_remote", &d->cpu_remote);
	nb_json_double(j, "demand_local_us_per_kbyte", d->demand_local_us_per_kbyte, 4);
	nb_json_double(j, "demand_remote_us_per_kbyte", d->demand_remote_us_per_kbyte, 4);
	nb_json_double(j, "proc_demand_local_us_per_kbyte", d->proc_demand_local_us_per_kbyte, 4);
	nb_json_double(j, "proc_demand_remote_us_per_kbyte", d->proc_demand_remote_us_per_kbyte, 4);
	if (r->o.p.rate_bps) {
		nb_json_obj_begin(j, "pacing");
		nb_json_str(j, "mode", r->o.p.pacing == NB_PACING_SPIN ? "spin" : "burst");
		nb_json_u64(j, "wakeups", d->pacing_wakeups);
		nb_json_double(j, "cpu_s", (double)d->pacing_cpu_ns / 1e9, 6);
		nb_json_double(j, "cpu_pct",
			       nb_pacing_cpu_pct(d->pacing_cpu_ns, !strcmp(dir, "tx")
								       ? d->cpu_local.window_s
								       : d->cpu_remote.window_s),
			       2);
		nb_json_obj_end(j);
	} else {
		nb_json_null(j, "pacing");
	}
	nb_json_double(j, "cpu_other_local_pct", d->other_local_pct, 2);
	nb_json_double(j, "cpu_other_remote_pct", d->other_remote_pct, 2);
	nb_json_bool(j, "cpu_polluted", d->cpu_polluted);
	json_intervals(j, r, size_index, !strcmp(dir, "tx"));
	const struct nb_obs_trial *t = obs_of(r, size_index, !strcmp(dir, "tx"));
	if (t && t->n)
		nb_obs_json(j, "observers", &r->o.obs.set, t, NB_OBS_FRAMES_EGRESS, d->bytes);
	nb_json_obj_end(j);
}

static void json_baseline(struct nb_json *j, const struct nb_tput_baseline *b)
{
	if (!b->measured) {
		nb_json_null(j, "cpu_baseline");
		return;
	}
	nb_json_obj_begin(j, "cpu_baseline");
	nb_json_double(j, "polluted_above_pct", NB_CPU_POLLUTED_PCT, 1);
	nb_json_double(j, "other_local_pct", b->local_other_pct, 2);
	nb_json_double(j, "other_remote_pct", b->remote_other_pct, 2);
	nb_result_cpu(j, "local", &b->local);
	if (b->remote_known)
		nb_result_cpu(j, "remote", &b->remote);
	else
		nb_json_null(j, "remote");
	nb_json_obj_end(j);
}

static void print_json(const struct run *r, const struct nb_ctl *ctl, const char *host)
{
	struct nb_sysinfo local;
	struct nb_json j;

	nb_sysinfo_get(&local, (const struct sockaddr *)&ctl->local);
	nb_json_init(&j, stdout);
	nb_result_begin(&j, "tput", &local, &ctl->remote);
	nb_json_obj_begin(&j, "parameters");
	nb_json_str(&j, "agent", host);
	nb_json_u64(&j, "port", nb_ctl_port(ctl));
	nb_json_str(&j, "protocol", r->o.p.proto == NB_TPUT_UDP ? "udp" : "tcp");
	nb_json_u64(&j, "streams", r->o.p.streams);
	nb_json_u64(&j, "rate_per_stream_bps", r->o.p.rate_bps);
	nb_json_double(&j, "time_s", (double)r->o.p.time_ns / 1e9, 3);
	nb_json_double(&j, "warmup_s", (double)r->o.p.warmup_ns / 1e9, 3);
	nb_json_str(&j, "mode",
		    r->o.bidir		 ? "bidir"
		    : r->o.tx && r->o.rx ? "tx_then_rx"
		    : r->o.tx		 ? "tx"
					 : "rx");
	nb_json_obj_end(&j);
	nb_json_bool(&j, "interrupted", r->interrupted);
	json_baseline(&j, &r->baseline);
	nb_json_arr_begin(&j, "steps");
	for (size_t i = 0; i < r->ndone; i++) {
		if (r->o.tx)
			json_dir(&j, r, i, "tx", &r->res[i].tx);
		if (r->o.rx)
			json_dir(&j, r, i, "rx", &r->res[i].rx);
	}
	nb_json_arr_end(&j);
	nb_json_obj_end(&j);
}

/* The progress line (on a terminal): step k of the sweep begins, or its result came. */
static void show_step(size_t k, const struct run *r, const char *dir)
{
	char sz[16];
	nb_format_bytes(r->o.p.block, sz, sizeof(sz));
	progress_step(k, "%s %s", sz, dir);
}

static void show_result(const struct run *r, const char *dir, const struct nb_tput_dir_result *d)
{
	char sz[16];
	nb_format_bytes(r->o.p.block, sz, sizeof(sz));
	if (!d->valid)
		progress_result("%s %s invalid", sz, dir);
	else if (r->o.p.proto == NB_TPUT_UDP)
		progress_result("%s %s %.1f Mbit/s, loss %.3f %%", sz, dir, d->mbit_per_s,
				d->loss_pct);
	else
		progress_result("%s %s %.1f Mbit/s", sz, dir, d->mbit_per_s);
}

static void free_obs(struct run *r)
{
	for (size_t i = 0; r->obs_tx && i < r->o.nsizes; i++) {
		nb_obs_trial_free(&r->obs_tx[i]);
		nb_obs_trial_free(&r->obs_rx[i]);
	}
	free(r->obs_tx);
	free(r->obs_rx);
	nb_obs_set_close(&r->o.obs.set);
}

/* After size i's step(s): its row at once, or, on Ctrl-C, the end of the sweep. */
static void step_done(struct run *r, size_t i, int ret)
{
	if (!ret) {
		r->ndone = i + 1;
		if (!r->o.json)
			print_row(r, i);
	}
	if (ret == -EINTR || cli_stop)
		r->interrupted = true;
}

int cmd_tput(int argc, char **argv)
{
	static struct run r;
	uint8_t psk[NB_PSK_MAX];
	size_t psk_len = 0;
	struct nb_ctl *ctl = NULL;
	char err[512];
	int ret;

	if (tput_parse_opts(argc, argv, &r.o))
		return 0;
	if (r.o.psk_file) {
		cli_psk(r.o.psk_file, psk, &psk_len);
	}
	r.res = calloc(r.o.nsizes, sizeof(*r.res));
	if (!r.res)
		cli_fail(ENOMEM, "out of memory");
	if (r.o.obs.set.n) {
		r.obs_tx = calloc(r.o.nsizes, sizeof(*r.obs_tx));
		r.obs_rx = calloc(r.o.nsizes, sizeof(*r.obs_rx));
		if (!r.obs_tx || !r.obs_rx)
			cli_fail(ENOMEM, "out of memory");
	}

	cli_catch_signals();

	ret = nb_ctl_open(&ctl, r.o.host, r.o.port, r.o.family, psk, psk_len, err, sizeof(err));
	if (ret)
		cli_fail(0, "%s", err);
	/* The whole run against the agent's caps, before any traffic: a step it would refuse
	 * halfway must not cost the steps before it. */
	if (nb_tput_check_plan(&ctl->caps, &r.o.p, r.o.sizes, r.o.nsizes, r.o.rx || r.o.bidir,
			       ctl->local.ss_family == AF_INET6, err, sizeof(err))) {
		nb_ctl_free(ctl);
		cli_fail(0, "%s", err);
	}
	obs_cli_open(&r.o.obs, r.o.psk_file);
	r.o.p.observe = &r.o.obs.set;
	if (!r.o.json)
		print_head(&r, ctl, r.o.host);
	/* Each step is a warm-up and a window; setup and drain show in the pace measured. */
	progress_begin("tput", r.o.json, r.o.nsizes * (r.o.bidir ? 1 : (size_t)r.o.tx + r.o.rx),
		       (double)(r.o.p.warmup_ns + r.o.p.time_ns) / 1e9);
	for (size_t i = 0, k = 0; i < r.o.nsizes && !ret && !r.interrupted; i++) {
		r.o.p.block = (uint32_t)r.o.sizes[i];
		r.size_index = i;
		r.o.p.baseline_ns = i == 0 ? BASELINE_NS : 0;
		if (r.o.bidir) {
			r.o.p.dir = NB_TPUT_DIR_TX | NB_TPUT_DIR_RX;
			show_step(k++, &r, "Tx+Rx");
			ret = nb_tput_run_step(ctl, &r.o.p, &r.res[i], on_interval, &r, &cli_stop,
					       err, sizeof(err));
			if (!ret && i == 0)
				r.baseline = r.res[i].baseline;
			if (!ret)
				show_result(&r, "Tx", &r.res[i].tx); /* and Rx in its row */
			if (r.obs_tx)
				r.obs_tx[i] = r.res[i].obs;
			step_done(&r, i, ret);
			continue;
		}
		struct nb_tput_step_result one;
		if (r.o.tx) {
			r.o.p.dir = NB_TPUT_DIR_TX;
			show_step(k++, &r, "Tx");
			ret = nb_tput_run_step(ctl, &r.o.p, &one, on_interval, &r, &cli_stop, err,
					       sizeof(err));
			r.res[i].tx = one.tx;
			if (!ret && i == 0)
				r.baseline = one.baseline;
			r.o.p.baseline_ns = 0;
			if (!ret)
				show_result(&r, "Tx", &one.tx);
			if (r.obs_tx)
				r.obs_tx[i] = one.obs;
		}
		if (r.o.rx && !ret) {
			r.o.p.dir = NB_TPUT_DIR_RX;
			show_step(k++, &r, "Rx");
			ret = nb_tput_run_step(ctl, &r.o.p, &one, on_interval, &r, &cli_stop, err,
					       sizeof(err));
			r.res[i].rx = one.rx;
			if (!ret && i == 0 && !r.baseline.measured)
				r.baseline = one.baseline;
			if (!ret)
				show_result(&r, "Rx", &one.rx);
			if (r.obs_rx)
				r.obs_rx[i] = one.obs;
		}
		step_done(&r, i, ret);
	}
	progress_end();
	if (r.interrupted) {
		ret = 0; /* the steps measured are kept; the one cut short is dropped */
			 /* Closing the session tells the agent to stop what it runs for us. */
	}
	if (ret) {
		nb_ctl_free(ctl);
		free_obs(&r);
		free(r.res);
		free(r.intervals);
		cli_fail(0, "%s", err);
	}
	if (cli_save_doc_begin(&r.o.save) || r.o.json) {
		print_json(&r, ctl, r.o.host);
		cli_save_doc_end(&r.o.save);
	}
	if (!r.o.json)
		print_tail(&r, ctl);
	cli_save_finish(&r.o.save);
	nb_ctl_free(ctl);
	ret = 0;
	for (size_t i = 0; i < r.ndone; i++)
		if ((r.o.tx && !r.res[i].tx.valid) || (r.o.rx && !r.res[i].rx.valid))
			ret = 1;
	free_obs(&r);
	free(r.res);
	free(r.intervals);
	return r.interrupted ? 130 : ret;
}
