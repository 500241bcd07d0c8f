/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench tput's front end: prints what the sweep (core/tput/tput_ctl.c: for each block size,
 * Tx then Rx, or both at once with --bidir) reports as it runs, then a netio-shaped table and a
 * CPU table, or one JSON document (core/tput/tput_json.c). The options are parsed in
 * tput_opts.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/observe_cli.h"
#include "cmd/save.h"
#include "cmd/tput_opts.h"
#include "cmd/commands.h"
#include "core/session/ctl.h"
#include "core/base/sysinfo.h"
#include "core/tput/tput_ctl.h"
#include "core/tput/tput_json.h"
#include "core/tput/tput_run.h"
#include "cmd/pacing.h"
#include "cmd/progress.h"
#include "cmd/virt_note.h"
#include "core/base/units.h"

/* The options and what the sweep gathers for its tables and its JSON. */
struct run {
	struct tput_opts o;
	/* What it measured (the rows and the JSON document) and the session: set as the run
	 * begins, before its first event. */
	struct nb_tput_result *res;
};

static void print_obs(const struct run *r);

/* Prints an interval as it comes for people (the sweep keeps it for the JSON document). */
static void print_interval(const struct run *r, uint32_t block, const struct nb_tput_interval *iv)
{
	char sz[16];
	nb_format_bytes(block, sz, sizeof(sz));
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

/* One line of one end's profile of a window (remote: the agent's), ns per frame told as ns per
 * KByte; tx: the step's direction, which says whether that end sent or received (with bidir,
 * both ends did both in one window). */
static void prof_row(const char *size, const char *dir, bool tx, bool bidir, bool remote,
		     const char *host, const struct nb_tput_dir_result *d)
{
	const struct nb_prof_result *r = remote ? d->prof_remote : d->prof_local;
	struct nb_prof_summary sum;
	char line[512], out[600], who[48];
	size_t o = 0;
	if (!r)
		return;
	nb_tput_prof_summary(d, remote, &sum);
	nb_prof_line(r, &sum, 5, line, sizeof(line));
	for (const char *c = line; *c && o + 1 < sizeof(out);) {
		if (!strncmp(c, "ns/frame", 8) && o + 9 < sizeof(out)) {
			memcpy(out + o, "ns/KByte", 8);
			o += 8;
			c += 8;
		} else {
			out[o++] = *c++;
		}
	}
	out[o] = '\0';
	snprintf(who, sizeof(who), "%s (%.24s)",
		 bidir		? "both ways"
		 : tx != remote ? "sender"
				: "receiver",
		 host);
	printf("%6s %3s %-30s %s\n", size, dir, who, out);
}

/* The sender's TCP segments over the window and its congestion control: retransmissions cost
 * both ends CPU that the KByte/s do not show. */
static void tcp_row(const char *size, const char *dir, const struct nb_tput_dir_result *d)
{
	const char *cc = d->congestion[0] ? d->congestion : "?";
	if (!d->valid)
		return;
	if (!d->tcp_known) {
		printf("%6s %3s %12s %14s %9s  %s   (segments not known: the sender's netbench or "
		       "kernel does not report them)\n",
		       size, dir, "-", "-", "-", cc);
		return;
	}
	printf("%6s %3s %12" PRIu64 " %14" PRIu64 " %9.3f  %s\n", size, dir, d->tcp_segs_out,
	       d->tcp_retrans,
	       d->tcp_segs_out ? 100.0 * (double)d->tcp_retrans / (double)d->tcp_segs_out : 0.0,
	       cc);
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
	if (!b->local.known)
		return;
	printf("idle baseline (%.2f s before the sweep): other processes used %.0f %% of a CPU "
	       "here, ",
	       b->local.cpu.window_s, b->local.other_pct);
	if (b->remote.known)
		printf("%.0f %% on the agent\n", b->remote.other_pct);
	else
		printf("unknown on the agent (an older netbench)\n");
}

/* The result table's column header. */
static void print_table_head(const struct run *r)
{
	bool udp = r->o.p.proto == NB_TPUT_UDP;

	printf(" Block %13s %9s%s %13s %9s%s\n", "Tx KByte/s", "Mbit/s", udp ? "   Loss%" : "",
	       "Rx KByte/s", "Mbit/s", udp ? "   Loss%" : "");
}

/* The title, then the column header before the first step; with -i, the intervals' heading
 * instead: their lines come as measured, the table after them (print_deferred_rows). */
static void print_head(const struct run *r, const struct nb_ctl *ctl, const char *host)
{
	bool udp = r->o.p.proto == NB_TPUT_UDP;

	printf("\nnetbench tput to %s port %u: agent %s (%s, Linux %s), %s, %u stream%s, "
	       "%.1f s window after %.1f s warm-up%s\n\n",
	       host, nb_ctl_port(ctl), ctl->remote.hostname, ctl->remote.arch, ctl->remote.kernel,
	       udp ? "UDP" : "TCP", r->o.p.streams, r->o.p.streams > 1 ? "s" : "",
	       (double)r->o.p.time_ns / 1e9, (double)r->o.p.warmup_ns / 1e9,
	       r->o.bidir ? ", Tx and Rx at once" : "");
	virt_note_print(stdout, "agent", &ctl->remote);
	if (r->o.p.rate_bps)
		printf("pacing: %s at %.3f Mbit/s per stream\n\n",
		       r->o.p.pacing == NB_PACING_SPIN ? "spin" : "burst (about 1 ms per wake-up)",
		       (double)r->o.p.rate_bps / 1e6);
	if (r->o.p.interval_ns)
		printf("Intervals of %.2f s within each window (the table follows them):\n",
		       (double)r->o.p.interval_ns / 1e9);
	else
		print_table_head(r);
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
	cell(&r->res->s.res[i].tx, nb_tput_sweep_has(&r->res->s, i, true), udp);
	cell(&r->res->s.res[i].rx, nb_tput_sweep_has(&r->res->s, i, false), udp);
	putchar('\n');
	fflush(stdout);
}

/* With -i: the result table, apart from the interval lines, once they are all printed. A
 * size cut short by Ctrl-C after its Tx is print_tail's. */
static void print_deferred_rows(const struct run *r)
{
	const struct nb_tput_sweep *s = &r->res->s;
	size_t n = s->interrupted && s->half_tx && s->ndone ? s->ndone - 1 : s->ndone;

	printf("\n");
	print_table_head(r);
	for (size_t i = 0; i < n; i++)
		print_row(r, i);
}

/* After the sweep: the CPU table and the invalid steps, for the sizes measured. */
static void print_tail(const struct run *r, const struct nb_ctl *ctl)
{
	char sz[16];

	if (r->o.p.interval_ns)
		print_deferred_rows(r);

	if (r->res->s.interrupted && r->res->s.half_tx) {
		/* The size whose Tx ended before Ctrl-C: its row, Rx not measured. */
		nb_format_bytes(r->o.sizes[r->res->s.ndone - 1], sz, sizeof(sz));
		print_row(r, r->res->s.ndone - 1);
		printf("interrupted: %zu of %zu sizes measured whole, and %s Tx (its Rx step was "
		       "cut short)\n",
		       r->res->s.ndone - 1, r->o.nsizes, sz);
	} else if (r->res->s.interrupted) {
		printf("interrupted: %zu of %zu sizes measured\n", r->res->s.ndone, r->o.nsizes);
	}
	printf("\nCPU over each window      local (%s)               remote (%s)\n", "this host",
	       ctl->remote.hostname);
	printf(
	    " Block Dir |  proc%%   sys%%  sirq%%    us/KB |  proc%%   sys%%  sirq%%    us/KB\n");
	for (size_t i = 0; i < r->res->s.ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (nb_tput_sweep_has(&r->res->s, i, true) && r->res->s.res[i].tx.valid)
			cpu_row(sz, "Tx", &r->res->s.res[i].tx);
		if (nb_tput_sweep_has(&r->res->s, i, false) && r->res->s.res[i].rx.valid)
			cpu_row(sz, "Rx", &r->res->s.res[i].rx);
	}
	for (size_t i = 0; r->o.p.profile_hz && i < r->res->s.ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (!i)
			printf("where each end's CPU went (kernel profile over each window, every "
			       "CPU; ns per KByte):\n");
		for (int k = 0; k < 2; k++) {
			bool tx = k == 0;
			const struct nb_tput_dir_result *d =
			    tx ? &r->res->s.res[i].tx : &r->res->s.res[i].rx;
			if (!(tx ? r->o.tx : r->o.rx) || !d->valid)
				continue;
			prof_row(sz, tx ? "Tx" : "Rx", tx, r->o.bidir, false, "this host", d);
			prof_row(sz, tx ? "Tx" : "Rx", tx, r->o.bidir, true, ctl->remote.hostname,
				 d);
		}
	}
	if (r->o.p.proto == NB_TPUT_TCP && r->res->s.ndone) {
		printf("\nTCP segments of the sender over each window, and its congestion control\n"
		       " Block Dir         sent  retransmitted  retrans%%  congestion\n");
		for (size_t i = 0; i < r->res->s.ndone; i++) {
			nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
			if (nb_tput_sweep_has(&r->res->s, i, true))
				tcp_row(sz, "Tx", &r->res->s.res[i].tx);
			if (nb_tput_sweep_has(&r->res->s, i, false))
				tcp_row(sz, "Rx", &r->res->s.res[i].rx);
		}
	}
	for (size_t i = 0; i < r->res->s.ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (nb_tput_sweep_has(&r->res->s, i, true))
			polluted_note(sz, "Tx", &r->res->s.res[i].tx);
		if (nb_tput_sweep_has(&r->res->s, i, false))
			polluted_note(sz, "Rx", &r->res->s.res[i].rx);
	}
	print_baseline(&r->res->s.baseline);
	for (size_t i = 0; i < r->res->s.ndone; i++) {
		nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
		if (nb_tput_sweep_has(&r->res->s, i, true) && !r->res->s.res[i].tx.valid)
			printf("%s Tx invalid: %s\n", sz, r->res->s.res[i].tx.invalid_reason);
		if (nb_tput_sweep_has(&r->res->s, i, false) && !r->res->s.res[i].rx.valid)
			printf("%s Rx invalid: %s\n", sz, r->res->s.res[i].rx.invalid_reason);
	}
	print_obs(r);
}

/* Under the CPU table: the observed box's view of every step, one row each. */
static void print_obs(const struct run *r)
{
	char sz[16], label[32];
	for (size_t o = 0; o < r->o.obs.set.n && r->res->s.ndone; o++) {
		obs_cli_step_head(stdout, &r->o.obs.set, o,
				  nb_tput_sweep_obs(&r->res->s, 0, r->o.tx), " Block Dir");
		for (size_t i = 0; i < r->res->s.ndone; i++) {
			nb_format_bytes(r->o.sizes[i], sz, sizeof(sz));
			for (int tx = 1; tx >= 0; tx--) {
				if (!nb_tput_sweep_has(&r->res->s, i, tx) || (r->o.bidir && !tx))
					continue;
				snprintf(label, sizeof(label), "%6s %3s", sz,
					 r->o.bidir ? "T+R"
					 : tx	    ? "Tx"
						    : "Rx");
				obs_cli_step_row(stdout, o, nb_tput_sweep_obs(&r->res->s, i, tx),
						 label);
			}
		}
	}
}

/* The progress line (on a terminal): step k of the sweep begins, or its result came. */
static void show_step(size_t k, uint32_t block, const char *dir)
{
	char sz[16];
	nb_format_bytes(block, sz, sizeof(sz));
	progress_step(k, "%s %s", sz, dir);
}

static void show_result(const struct run *r, uint32_t block, const char *dir,
			const struct nb_tput_dir_result *d)
{
	char sz[16];
	nb_format_bytes(block, sz, sizeof(sz));
	if (!d->valid)
		progress_result("%s %s invalid", sz, dir);
	else if (r->o.p.proto == NB_TPUT_UDP)
		progress_result("%s %s %.1f Mbit/s, loss %.3f %%", sz, dir, d->mbit_per_s,
				d->loss_pct);
	else
		progress_result("%s %s %.1f Mbit/s", sz, dir, d->mbit_per_s);
}

/* What the sweep reports as it runs: the head once the agent answered, the progress line, the
 * intervals, each size's row as soon as it is measured. */
static void on_event(void *arg, const struct nb_tput_event *ev)
{
	struct run *r = arg;
	bool both = ev->dir == (NB_TPUT_DIR_TX | NB_TPUT_DIR_RX);
	bool tx = ev->dir & NB_TPUT_DIR_TX;

	switch (ev->kind) {
	case NB_TPUT_EV_BEGIN:
		if (!r->o.json)
			print_head(r, ev->ctl, r->o.t.host);
		/* Each step is a warm-up and a window; setup and drain show in the pace. */
		progress_begin("tput", ev->nsteps,
			       (double)(r->o.p.warmup_ns + r->o.p.time_ns) / 1e9);
		break;
	case NB_TPUT_EV_STEP:
		show_step(ev->step, ev->block, both ? "Tx+Rx" : tx ? "Tx" : "Rx");
		break;
	case NB_TPUT_EV_INTERVAL:
		print_interval(r, ev->block, ev->iv);
		break;
	case NB_TPUT_EV_RESULT: /* with both at once, Rx is in the size's row */
		show_result(r, ev->block, tx ? "Tx" : "Rx", tx ? &ev->res->tx : &ev->res->rx);
		break;
	case NB_TPUT_EV_SIZE: /* with -i the table comes after the intervals */
		if (!r->o.json && !r->o.p.interval_ns)
			print_row(r, ev->size_index);
		break;
	}
}

static void free_run(struct run *r)
{
	nb_tput_result_free(r->res);
	nb_obs_set_close(&r->o.obs.set);
}

/* The document, built in core: printed with -J, written with -o, stored with --save. */
static void take_doc(struct run *r, const struct nb_ctl *ctl)
{
	char *doc;
	size_t len;
	struct nb_sysinfo local;
	nb_sysinfo_get(&local, (const struct sockaddr *)&ctl->local);
	struct nb_tput_sweep_params sp = {
	    .agent = r->o.t.host,
	    .port = nb_ctl_port(ctl),
	    .p = &r->o.p,
	    .local = &local,
	    .remote = &ctl->remote,
	};
	if (nb_tput_sweep_doc_text(&sp, &r->res->s, &doc, &len))
		cli_fail(ENOMEM, "building the JSON document");
	cli_save_doc(&r->o.save, doc, len);
}

int cmd_tput(int argc, char **argv)
{
	static struct run r;
	char err[512];
	int ret;

	if (tput_parse_opts(argc, argv, &r.o))
		return 0;
	cli_catch_signals();
	obs_cli_open(&r.o.obs, r.o.psk_file);
	r.o.p.observe = &r.o.obs.set;
	const struct nb_tput_ctl_req req = {
	    .p = &r.o.p,
	    .target = r.o.t,
	    .sizes = r.o.sizes,
	    .nsizes = r.o.nsizes,
	    .tx = r.o.tx,
	    .rx = r.o.rx,
	    .bidir = r.o.bidir,
	    /* Ctrl-C keeps the sizes measured whole; closing the session tells the agent to
	     * stop what it runs for us. */
	    .stop = &cli_stop,
	};
	ret = nb_tput_ctl_run(&req, &(struct nb_tput_ctl_cb){.event = on_event, .arg = &r}, &r.res,
			      err, sizeof(err));
	progress_end();
	if (ret) {
		free_run(&r);
		cli_fail(0, "%s", err);
	}
	if (cli_save_wants_doc(&r.o.save))
		take_doc(&r, r.res->ctl);
	if (!r.o.json)
		print_tail(&r, r.res->ctl);
	cli_save_finish(&r.o.save);
	ret = nb_tput_sweep_valid(&r.res->s) ? 0 : 1;
	if (r.res->s.interrupted)
		ret = 130;
	free_run(&r);
	return ret;
}
