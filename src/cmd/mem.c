/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem's front end: parses the options (mem_opts.c), hands the run to core (nb_mem_ctl_run:
 * here, or with -c on an agent) and prints the latency curve, the inferred caches beside sysfs,
 * and bandwidth the same way for both. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/mem_opts.h"
#include "cmd/progress.h"
#include "cmd/save.h"
#include "cmd/virt_note.h"
#include "core/mem/mem_ctl.h"
#include "core/base/eta.h"
#include "core/base/sysinfo.h"
#include "core/base/timeutil.h"

static void fmt_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ULL << 30) && b % (1ULL << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(b >> 30));
	else if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1ULL << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
	else if (b % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%.1f KiB", (double)b / 1024);
}

static void print_cycles(double c)
{
	if (isnan(c))
		printf("  %11s", "-");
	else
		printf("  %11.1f", c);
}

/* The CPU over the latency sweep, and what says its figures may be noisy. */
static void print_lat_cpu(const struct nb_mem_result *r)
{
	size_t all_preempted = 0;

	for (size_t i = 0; i < r->n_lat; i++)
		all_preempted += r->lat[i].trials_preempted >= r->trials;
	if (r->lat_cpu.valid && r->lat_cpu.window_s > 0) {
		double other = nb_cpu_other_pct(&r->lat_cpu, 0) / 100.0;
		printf(
		    "  CPU over the sweep: system %.0f %% busy, this process %.0f %% of one CPU\n",
		    r->lat_cpu.busy_pct, r->lat_cpu.proc_pct);
		if (all_preempted)
			printf("  note: at %zu of %zu sizes every trial was preempted by other "
			       "work\n",
			       all_preempted, r->n_lat);
		if (isfinite(other) && other > 0.2)
			printf("  note: other work used %.0f %% of a CPU meanwhile; figures may be "
			       "noisy\n",
			       other * 100);
	}
}

/* The caches inferred from the latency steps, beside those sysfs lists. */
static void print_caches(const struct nb_mem_result *r)
{
	const struct nb_mem_cache *dc[NB_MEM_MAX_CACHES];
	size_t ndc = 0, rows;
	char a[32], b[32];

	for (size_t i = 0; i < r->n_sysfs; i++)
		if (strcmp(r->sysfs[i].type, "Instruction"))
			dc[ndc++] = &r->sysfs[i];
	rows = ndc > r->n_steps ? ndc : r->n_steps;
	printf("\nCaches: inferred from the latency steps, beside "
	       "/sys/devices/system/cpu/cpu0/cache\n");
	if (!rows)
		printf("  none found (flat curve, and sysfs lists no caches)\n");
	else
		printf("  %-6s  %-10s  %-12s  %s\n", "level", "sysfs", "inferred",
		       "ns/load below -> above");
	for (size_t i = 0; i < rows; i++) {
		char lvl[16] = "-";
		if (i < ndc) {
			snprintf(lvl, sizeof(lvl), "L%u%s", dc[i]->level,
				 !strcmp(dc[i]->type, "Data") ? "d" : "");
			fmt_size(dc[i]->size_bytes, a, sizeof(a));
		} else {
			snprintf(a, sizeof(a), "-");
		}
		if (i < r->n_steps)
			fmt_size(r->steps[i].size_bytes, b, sizeof(b));
		else
			snprintf(b, sizeof(b), "-");
		if (i < r->n_steps)
			printf("  %-6s  %-10s  %-12s  %.1f -> %.1f\n", lvl, a, b,
			       r->steps[i].ns_below, r->steps[i].ns_above);
		else
			printf("  %-6s  %-10s  %s\n", lvl, a, b);
	}
	if (!r->n_steps && r->opts.pattern == NB_MEM_SEQ)
		printf("  (seq: the prefetcher hides the steps; --pattern random shows them)\n");
	if (r->n_steps && r->opts.quick)
		printf("  (quick: sizes double, so an inferred size is within 2x)\n");
}

/* The bandwidth table, thread count by thread count, and the trials set aside. */
static void print_bandwidth(const struct nb_mem_result *r)
{
	char a[32];

	fmt_size(r->bw_bytes, a, sizeof(a));
	printf("\nBandwidth: buffer %s (%s), MB/s = 10^6 bytes/s, best of %u trials\n", a,
	       r->bw_bytes_from, r->n_bw ? r->bw[0].trials : 0);
	if (r->bw_bytes_from && !strcmp(r->bw_bytes_from, "quick cap")) {
		char llc[32];
		fmt_size(nb_mem_bw_llc_bytes(r), llc, sizeof(llc));
		printf("  note: --quick caps the buffer at %s, %s the %s last-level cache: the "
		       "figures are\n  partly cache bandwidth (run without --quick for memory "
		       "bandwidth)\n",
		       a, r->bw_bytes > nb_mem_bw_llc_bytes(r) ? "less than 4x" : "within", llc);
	}
	printf("  %7s  %11s  %11s  %11s  %12s  %13s\n", "threads", "read MB/s", "write MB/s",
	       "copy MB/s", "system busy", "this process");
	for (size_t i = 0; i < r->n_bw; i++) {
		const struct nb_mem_bw_point *p = &r->bw[i];
		printf("  %7u  %11.0f  %11.0f  %11.0f", p->threads, p->read_mbyte_per_s,
		       p->write_mbyte_per_s, p->copy_mbyte_per_s);
		if (p->cpu.valid)
			printf("  %10.0f %%  %11.0f %%\n", p->cpu.busy_pct, p->cpu.proc_pct);
		else
			printf("  %12s  %13s\n", "-", "-");
	}
	for (size_t i = 0; i < r->n_bw; i++) {
		const struct nb_mem_bw_point *p = &r->bw[i];
		if (p->trials_preempted >= 3 * p->trials)
			printf("  %u thread%s: every trial was preempted by other work (kept: "
			       "figures may be low)\n",
			       p->threads, p->threads > 1 ? "s" : "");
		else if (p->trials_preempted)
			printf(
			    "  %u thread%s: %u of %u trials preempted by other work, set aside\n",
			    p->threads, p->threads > 1 ? "s" : "", p->trials_preempted,
			    3 * p->trials);
	}
}

static void print_human(const struct nb_mem_result *r)
{
	char a[32];

	printf("netbench mem: %s dependent loads, %u-byte stride; ",
	       nb_mem_pattern_name(r->opts.pattern), r->line_bytes);
	if (r->opts.cpu_mhz)
		printf("core clock %u MHz (as the kernel reports it)\n", r->opts.cpu_mhz);
	else
		printf("core clock unknown (no cycles)\n");
	if (r->capped) {
		fmt_size(r->avail_bytes, a, sizeof(a));
		printf("  sizes capped at half of the available memory (%s)\n", a);
	}
	printf("\n  %12s  %9s  %11s   (best of %u trials, preempted ones set aside)\n",
	       "working set", "ns/load", "cycles/load", r->trials);
	for (size_t i = 0; i < r->n_lat; i++) {
		fmt_size(r->lat[i].set_bytes, a, sizeof(a));
		printf("  %12s  %9.2f", a, r->lat[i].ns_per_load);
		print_cycles(r->lat[i].cycles_per_load);
		printf("\n");
	}
	if (r->interrupted && isnan(r->mem_latency_ns)) {
		printf("\ninterrupted: %zu latency point%s measured; no memory latency, caches or "
		       "bandwidth\n",
		       r->n_lat, r->n_lat == 1 ? "" : "s");
		return;
	}
	fmt_size(r->lat[r->n_lat - 1].set_bytes, a, sizeof(a));
	printf("\n  memory latency: %.1f ns", r->mem_latency_ns);
	if (!isnan(r->mem_latency_cycles))
		printf(" = %.0f cycles", r->mem_latency_cycles);
	if (r->opts.pattern == NB_MEM_SEQ)
		printf(" (at %s, seq: what the prefetcher leaves)\n", a);
	else
		printf(" (at %s)\n", a);
	print_lat_cpu(r);
	print_caches(r);
	if (r->interrupted && !r->n_bw) {
		printf("\ninterrupted: no bandwidth measured\n");
		return;
	}
	print_bandwidth(r);
}

/* What the finished steps took, for the time left (steps of very unequal length). */
static struct {
	uint64_t step_t0_ns;
	size_t n;					   /* finished latency points */
	double x[NB_MEM_MAX_POINTS], t[NB_MEM_MAX_POINTS]; /* their sets (bytes) and seconds */
	double bw_s; /* the bandwidth rounds finished: their seconds */
	size_t bw_n;
	bool last_bw;
	size_t step; /* the step running (told again when the first round's buffers are filled) */
} eta;

/* The time left: latency points take from milliseconds to seconds as the set grows (their
 * trials are fixed, laying and faulting the set grows with it): a line through the finished
 * points' times against their sets gives the rest; the bandwidth rounds that follow are told
 * apart ("+ bandwidth") until one has run, then each round takes as long as those did. */
static void mem_left(const struct nb_mem_progress *ev)
{
	uint64_t now = nb_mono_ns();
	double x_left[NB_MEM_MAX_POINTS];
	size_t n_left = 0, rounds;

	if (ev->step && ev->step == eta.step) {
		/* The first bandwidth round again, its buffers filled: it begins now. */
	} else if (ev->step) { /* the step before this one ended now */
		double s = (double)(now - eta.step_t0_ns) / 1e9;
		if (eta.last_bw) {
			eta.bw_s += s;
			eta.bw_n++;
		} else if (eta.n < NB_MEM_MAX_POINTS) {
			eta.t[eta.n++] = s;
		}
	}
	eta.step_t0_ns = now;
	eta.step = ev->step;
	eta.last_bw = ev->bandwidth;
	rounds = ev->nsteps > ev->step ? ev->nsteps - ev->step : 0; /* this one and the rest */
	if (!ev->bandwidth) {
		for (size_t i = ev->step; i < ev->n_lat_sizes && n_left < NB_MEM_MAX_POINTS; i++)
			x_left[n_left++] = (double)ev->lat_sizes[i];
		rounds -= n_left;
		double lat = nb_eta_linear_s(eta.x, eta.t, eta.n, x_left, n_left);
		if (lat >= 0 && eta.bw_n)
			progress_left(lat + (double)rounds * eta.bw_s / (double)eta.bw_n, NULL);
		else
			progress_left(lat, rounds ? "+ bandwidth" : NULL);
	} else {
		progress_left(eta.bw_n ? (double)rounds * eta.bw_s / (double)eta.bw_n : -1, NULL);
	}
}

/* The progress line (on a terminal) of a local run, with the time left (mem_left). */
static void on_progress(void *arg, const struct nb_mem_progress *ev)
{
	char set[32];
	(void)arg;

	if (!ev->step) {
		progress_begin("mem", ev->nsteps, -1);
		memset(&eta, 0, sizeof(eta));
	}
	if (!ev->bandwidth && ev->step < NB_MEM_MAX_POINTS)
		eta.x[ev->step] = (double)ev->set_bytes;
	mem_left(ev);
	fmt_size(ev->set_bytes, set, sizeof(set));
	if (ev->bandwidth)
		progress_step(ev->step, "bandwidth, %u thread%s, buffer %s", ev->threads,
			      ev->threads == 1 ? "" : "s", set);
	else
		progress_step(ev->step, "latency, set %s", set);
	if (ev->bandwidth && !isnan(ev->last_read_mbyte_per_s))
		progress_result("last round read %.0f MB/s", ev->last_read_mbyte_per_s);
	else if (!isnan(ev->last_ns_per_load))
		progress_result("last point %.2f ns/load", ev->last_ns_per_load);
}

int cmd_mem(int argc, char **argv)
{
	struct mem_opts o;
	struct nb_mem_result *r = NULL;
	char err[512];
	int ret;

	if (mem_parse_opts(argc, argv, &o))
		return 0;
	/* Ctrl-C: a run here ends at its next point and keeps what it measured; a run on an agent
	 * ends the session cleanly, and the agent cancels the run. */
	cli_catch_signals();
	o.p.stop = &cli_stop;
	ret =
	    nb_mem_ctl_run(&(struct nb_mem_ctl_req){.p = &o.p, .target = o.remote},
			   &(struct nb_mem_ctl_cb){.progress = on_progress}, &r, err, sizeof(err));
	progress_end();
	const struct nb_ctl *ctl = r ? r->ctl : NULL;
	if (ret && cli_stop && ctl) {
		/* The agent keeps no partial result: nothing measured comes back. */
		nb_mem_result_free(r);
		cli_warn("%s", err);
		return 130;
	}
	if (ret) {
		nb_mem_result_free(r);
		cli_fail(0, "%s", err);
	}
	if (r->capped)
		cli_warn("sizes capped at half of the %savailable memory", ctl ? "agent's " : "");
	if (cli_save_wants_doc(&o.save)) {
		struct nb_sysinfo si;
		struct nb_result_agent ag;
		const struct nb_result_agent *agent = nb_ctl_doc_ends(ctl, o.remote.host, &si, &ag);
		char *doc;
		size_t len;
		if (nb_mem_doc_text(r, &si, agent, &doc, &len))
			cli_fail(ENOMEM, "building the JSON document");
		cli_save_doc(&o.save, doc, len);
	}
	if (!o.json) {
		if (ctl)
			printf("netbench mem on the agent at %s port %u: %s (%s, Linux %s)\n",
			       o.remote.host, nb_ctl_port(ctl), ctl->remote.hostname,
			       ctl->remote.arch, ctl->remote.kernel);
		if (ctl)
			virt_note_print(stdout, "agent", &ctl->remote);
		print_human(r);
		if (r->interrupted && r->n_bw)
			printf("interrupted: %zu bandwidth round%s measured\n", r->n_bw,
			       r->n_bw == 1 ? "" : "s");
	}
	cli_save_finish(&o.save);
	ret = r->interrupted ? 130 : 0;
	nb_mem_result_free(r);
	return ret;
}
