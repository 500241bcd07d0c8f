/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's front end: parses the options (crypto_opts.c), hands the run to core
 * (nb_crypto_ctl_run: here, or with -c inside an agent on the board) and prints each algorithm's
 * table as it completes, the same for a local and a remote run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/folded.h"
#include "cmd/crypto_opts.h"
#include "cmd/progress.h"
#include "cmd/save.h"
#include "cmd/virt_note.h"
#include "core/base/atomicfile.h"
#include "core/crypto/crypto_ctl.h"
#include "core/crypto/crypto_json.h"
#include "core/base/sysinfo.h"

static const char *hw_word(int hw)
{
	return hw == 1 ? "hardware" : hw == 0 ? "CPU" : "unknown";
}

/* Soft is the reference row the crossovers are taken against: where it is absent, why. Its
 * own status line (unsupported, broken) already says so where it ran. */
static void print_no_soft(const struct nb_crypto_result *r)
{
	const struct nb_crypto_params *o = &r->opts;
	for (size_t ei = 0; ei < o->nengines; ei++) {
		if (o->engines[ei] != &nb_crypto_soft)
			continue;
		if (!r->engine_ok[ei])
			printf("  no soft row: soft is unavailable (the reason is above the "
			       "tables)\n");
		return;
	}
	printf("  no soft row: soft was not among the engines asked (-e)\n");
}

/* What the intervals say: that there are none (one window per point, an older agent), and
 * for engines served by one kernel driver (afalg and afalg:DRIVER of the driver it picks),
 * whether their figures differ beyond the intervals: the same code measured twice. */
static void print_intervals(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_params *o = &r->opts;
	bool none = false;
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		for (size_t si = 0; c->status == NB_CRYPTO_OK && si < o->nsizes; si++)
			none |= c->points[si].valid && !isfinite(c->points[si].mbyte_ci95);
	}
	if (none)
		printf("  +-95%% -: no interval where a point was measured in one window (--repeat "
		       "1, or an agent before --repeat); differences there are not judged\n");
	for (size_t ei = 0; ei < o->nengines; ei++)
		for (size_t ej = ei + 1; ej < o->nengines; ej++) {
			const struct nb_crypto_cell *a = nb_crypto_cell_at(r, ai, ei),
						    *b = nb_crypto_cell_at(r, ai, ej);
			if (a->status != NB_CRYPTO_OK || b->status != NB_CRYPTO_OK ||
			    !a->have_driver || !b->have_driver ||
			    strcmp(a->driver.driver, b->driver.driver))
				continue;
			size_t n = 0, beyond = 0, at = 0;
			for (size_t si = 0; si < o->nsizes; si++) {
				const struct nb_crypto_point *p = &a->points[si],
							     *q = &b->points[si];
				if (!p->valid || !q->valid || !isfinite(p->mbyte_ci95) ||
				    !isfinite(q->mbyte_ci95))
					continue;
				n++;
				if (nb_crypto_differ(p, q) && !beyond++)
					at = si;
			}
			if (!n)
				continue;
			if (!beyond)
				printf("  %s and %s are one driver (%s): no difference beyond the "
				       "95 %% "
				       "intervals at %zu size%s\n",
				       a->engine->name, b->engine->name, a->driver.driver, n,
				       n == 1 ? "" : "s");
			else
				printf(
				    "  %s and %s are one driver (%s) yet differ beyond the 95 %% "
				    "intervals at %zu of %zu sizes (first %u bytes: %.1f against "
				    "%.1f MB/s): the load around the run changed between them, not "
				    "the engine\n",
				    a->engine->name, b->engine->name, a->driver.driver, beyond, n,
				    o->sizes[at], a->points[at].mbyte_per_s,
				    b->points[at].mbyte_per_s);
		}
}

#ifndef NB_AGENT_ONLY
/* Under an algorithm's table: where each point's CPU went (the kernel profile of its window),
 * ns per frame told as ns per request, then the crypto category by driver and the top
 * functions with their module. */
static void print_prof(const struct nb_crypto_result *r, size_t ai, int w)
{
	const struct nb_crypto_params *o = &r->opts;
	bool head = false;
	for (size_t ei = 0; o->profile_hz && ei < o->nengines; ei++)
		for (size_t si = 0; si < o->nsizes; si++) {
			const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
			const struct nb_crypto_point *p = &c->points[si];
			const struct nb_prof_result *pr = nb_crypto_point_prof(r, c, si);
			struct nb_prof_summary sum;
			struct nb_crypto_prof_driver d[4];
			char line[512], out[600];
			size_t n = 0;
			if (c->status != NB_CRYPTO_OK || !p->valid || !pr)
				continue;
			if (!head)
				printf("  where it went (kernel profile over each point's window, "
				       "every "
				       "CPU; ns per request):\n");
			head = true;
			nb_crypto_prof_summary(p, pr, &sum);
			nb_prof_line(pr, &sum, 5, line, sizeof(line));
			for (const char *q = line; *q && n + 1 < sizeof(out);) {
				if (!strncmp(q, "ns/frame", 8) && n + 7 < sizeof(out)) {
					memcpy(out + n, "ns/req", 6);
					n += 6;
					q += 8;
				} else {
					out[n++] = *q++;
				}
			}
			out[n] = '\0';
			if (!pr->available) {
				printf("  %6u  %-*s %s\n", p->size_bytes, w, c->engine->name, out);
				continue;
			}
			printf("  %6u  %-*s %.0f %% of a CPU busy, %llu samples: %s\n",
			       p->size_bytes, w, c->engine->name, sum.busy_share * 100 * sum.ncpu,
			       (unsigned long long)sum.samples, out);
			size_t nd = nb_crypto_prof_drivers(pr, d, 4);
			printf("  %6s  %-*s crypto by driver:", "", w, "");
			for (size_t k = 0; k < nd; k++)
				printf("%s %s %.0f %%", k ? "," : "", d[k].module,
				       d[k].share * 100);
			printf("%s; top:", nd ? "" : " none");
			for (uint32_t k = 0; k < pr->nfunc && k < 3; k++) {
				const struct nb_prof_func *f = &pr->func[k];
				char mod[NB_PROF_MOD + 4] = ""; /* "[user]" has none */
				if (f->name[0] != '[')
					snprintf(mod, sizeof(mod), " [%s]",
						 f->module[0] ? f->module : "kernel");
				printf("%s %s%s %.0f %%", k ? "," : "", f->name, mod,
				       pr->func_samples
					   ? 100.0 * (double)f->count / (double)pr->func_samples
					   : 0);
			}
			printf("\n");
		}
}

#endif

/* Each engine's check of the algorithm, or why it has no figures, and its kernel driver. */
static void print_checks(const struct nb_crypto_result *r, size_t ai, int w)
{
	const struct nb_crypto_params *o = &r->opts;

	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status == NB_CRYPTO_UNAVAILABLE || !nb_crypto_cell_reached(c))
			continue; /* said once, above the tables; or a stop came first */
		if (c->status == NB_CRYPTO_OK)
			printf("  %-*s checked: %s\n", w, c->engine->name, c->check);
		else
			printf("  %-*s %s: %s\n", w, c->engine->name,
			       nb_crypto_status_name(c->status), c->reason);
		if (c->have_driver) {
			printf("  %-*s kernel driver %s", w, "", c->driver.driver);
			if (c->driver.mac_driver[0])
				printf(" + %s", c->driver.mac_driver);
			if (c->driver.priority >= 0)
				printf(", priority %d", c->driver.priority);
			if (c->driver.module[0])
				printf(", module %s", c->driver.module);
			printf(" (%s)\n", hw_word(c->driver.hw));
		}
	}
}

/* The table of points, size by size, and why a point's sys column is not shown. */
static void print_points(const struct nb_crypto_result *r, size_t ai, int w)
{
	const struct nb_crypto_params *o = &r->opts;

	printf("  %6s  %-*s %10s %8s %11s %9s %9s  %14s %10s\n", "bytes", w, "engine", "MB/s",
	       "+-95%", "ops/s", "p50 us", "p99 us", "CPU us/KB proc", "sys");
	const struct nb_crypto_point *lost_at = NULL; /* first point whose sys column is out */
	int lost_ticks = 0;
	for (size_t si = 0; si < o->nsizes; si++)
		for (size_t ei = 0; ei < o->nengines; ei++) {
			const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
			const struct nb_crypto_point *p = &c->points[si];
			if (c->status != NB_CRYPTO_OK || !nb_crypto_point_whole(p))
				continue;
			if (!p->valid) {
				printf("  %6u  %-*s invalid: %s\n", p->size_bytes, w,
				       c->engine->name, p->invalid_reason);
				continue;
			}
			printf("  %6u  %-*s %10.1f", p->size_bytes, w, c->engine->name,
			       p->mbyte_per_s);
			if (isfinite(p->mbyte_ci95))
				printf(" %8.*f", p->mbyte_ci95 < 1 ? 2 : 1, p->mbyte_ci95);
			else
				printf(" %8s", "-");
			printf(" %11.0f %9.2f %9.2f  %14.3f", p->ops_per_s, p->lat_p50_us,
			       p->lat_p99_us, p->proc_us_per_kbyte);
			if (!p->cpu.valid || nb_cpu_consistent(&p->cpu)) {
				printf(" %10.3f\n", p->sys_us_per_kbyte); /* NaN: unknown */
				continue;
			}
			printf(" %10s\n", "-*");
			if (!lost_ticks++)
				lost_at = p;
		}
	/* The system counted less busy time than the process used: never both as if
	 * consistent. */
	if (lost_at)
		printf(
		    "  * sys not shown (%d point%s): the process used %.3f CPU-s where the whole "
		    "system counted %.3f busy (%u CPUs, %.3f s window); the kernel's tick "
		    "sampling lost busy time (late timer ticks: an emulated board, or a host "
		    "that did not run it on time), so the system's CPU figures of %s are not "
		    "established\n",
		    lost_ticks, lost_ticks == 1 ? "" : "s", lost_at->cpu.proc_cpu_s,
		    lost_at->cpu.busy_cpu_s, lost_at->cpu.ncpu, lost_at->cpu.window_s,
		    lost_ticks == 1 ? "that point" : "those points");
}

static void print_soft_note(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_params *o = &r->opts;

	/* Soft computes in this process: if it got much less than the CPUs it asked for, other
	 * load ate into the window and MB/s understates it (CPU us/KB does not). Kernel engines
	 * may rightly leave the process idle, so only soft is judged. */
	double least = INFINITY;
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || c->engine != &nb_crypto_soft)
			continue;
		for (size_t si = 0; si < o->nsizes; si++)
			if (c->points[si].valid && isfinite(c->points[si].cpu.proc_pct))
				least = fmin(least, c->points[si].cpu.proc_pct / o->inflight);
	}
	if (least < 80.0)
		printf("  note: soft got as little as %.0f %% of a CPU per thread at some sizes "
		       "(other "
		       "load); its MB/s is low there, its CPU us/KB is not\n",
		       least);
}

/* Where each engine beats soft, or why that is not established; false when the run was cut
 * short. */
static bool print_crossovers(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_params *o = &r->opts;

	bool cut = false, others = false; /* others: engines a crossover would be stated for */
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		cut |= !nb_crypto_cell_reached(c);
		others |= r->engine_ok[ei] && c->engine != &nb_crypto_soft;
		for (size_t si = 0; c->status == NB_CRYPTO_OK && si < o->nsizes; si++)
			cut |= !nb_crypto_point_whole(&c->points[si]);
	}
	if (cut) { /* a crossover needs every size of both engines */
		if (others)
			printf("  crossover: not established, the run was interrupted before every "
			       "engine and size was measured\n");
		return false;
	}
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || c->engine == &nb_crypto_soft)
			continue;
		const char *vs = c->crossover_ref ? c->crossover_ref->name : "soft";
		if (c->crossover_index >= 0)
			printf("  crossover: %s beats %s from %u bytes up\n", c->engine->name, vs,
			       o->sizes[c->crossover_index]);
		else if (c->crossover_index == -1)
			printf("  crossover: none, %s does not beat %s at the largest size\n",
			       c->engine->name, vs);
		else if (c->have_driver && c->driver.hw == 0)
			printf("  crossover: none stated for %s, a CPU driver (%s): software "
			       "itself, with no soft row to compare it with\n",
			       c->engine->name, c->driver.driver);
		else
			printf("  crossover: unknown for %s, no software engine was measured\n",
			       c->engine->name);
	}
	return true;
}

static void print_algo(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_params *o = &r->opts;
	const struct nb_crypto_algo *a = o->algos[ai];
	bool shown = false;
	int w = 10; /* the engine column: afalg:DRIVER names are long */

	for (size_t ei = 0; ei < o->nengines; ei++)
		if ((int)strlen(o->engines[ei]->name) > w)
			w = (int)strlen(o->engines[ei]->name);

	for (size_t ei = 0; ei < o->nengines; ei++)
		shown |= nb_crypto_cell_at(r, ai, ei)->status != NB_CRYPTO_UNAVAILABLE;
	if (!shown)
		return; /* every engine unavailable: said once, above */
	printf("\n%s: %s", a->name, a->kind == NB_CRYPTO_MAC ? "MAC" : "encrypt");
	if (a->kind == NB_CRYPTO_AEAD)
		printf(", %u bytes AAD", o->aad_len);
	printf(", %u in flight, %.2f s per size\n", o->inflight, (double)o->time_ns / 1e9);
	print_checks(r, ai, w);
	bool any = false;
	for (size_t ei = 0; ei < o->nengines; ei++)
		any |= nb_crypto_cell_at(r, ai, ei)->status == NB_CRYPTO_OK;
	if (!any)
		return;
	print_points(r, ai, w);
	print_intervals(r, ai);
#ifndef NB_AGENT_ONLY
	print_prof(r, ai, w);
#endif
	print_soft_note(r, ai);
	if (print_crossovers(r, ai))
		print_no_soft(r);
}

static void print_engines(const struct nb_crypto_result *r)
{
	const struct nb_crypto_params *o = &r->opts;
	printf("netbench crypto: engines");
	for (size_t ei = 0; ei < o->nengines; ei++)
		printf(" %s (%s)", o->engines[ei]->name,
		       r->engine_ok[ei] ? "available" : "unavailable");
	printf("\n");
	for (size_t ei = 0; ei < o->nengines; ei++)
		if (!r->engine_ok[ei])
			printf("  %s: %s\n", o->engines[ei]->name, r->engine_reason[ei]);
}

/* Human output as the run goes: one algorithm's table as soon as it is complete. */
static void on_progress(void *arg, const struct nb_crypto_result *r, size_t ai)
{
	(void)arg;
	progress_clear();
	if (ai == 0)
		print_engines(r);
	print_algo(r, ai);
	fflush(stdout);
	if (ai + 1 < r->opts.nalgos)
		progress_step(ai + 1, "%s", r->opts.algos[ai + 1]->name);
}

/* With -J: the tables are in the document; only the progress line moves. */
static void on_step(void *arg, const struct nb_crypto_result *r, size_t ai)
{
	(void)arg;
	if (ai + 1 < r->opts.nalgos)
		progress_step(ai + 1, "%s", r->opts.algos[ai + 1]->name);
}

/* The header of a remote run, once the session is up. */
static void on_connected(void *arg, const struct nb_ctl *ctl)
{
	const struct crypto_opts *o = arg;
	progress_clear();
	printf("netbench crypto on the agent at %s port %u: %s (%s, Linux %s)\n", o->remote.host,
	       nb_ctl_port(ctl), ctl->remote.hostname, ctl->remote.arch, ctl->remote.kernel);
	virt_note_print(stdout, "agent", &ctl->remote);
	if (o->p.nalgos)
		progress_step(0, "%s", o->p.algos[0]->name);
}

#ifndef NB_AGENT_ONLY
/* --profile-folded FILE: each point's stacks under a root frame naming it ("aes-128-cbc;
 * afalg:cbc(aes-generic);1024 B"), written whole or not at all. */
static void write_folded(const struct crypto_opts *o, const struct nb_crypto_result *r)
{
	struct nb_atomic_file a;
	const char *why = "no point was timed";
	size_t lines = 0;
	if (!o->profile_folded)
		return;
	cli_folded_open(&a, o->profile_folded);
	for (size_t i = 0; i < r->ncells; i++)
		for (size_t si = 0; si < r->opts.nsizes; si++) {
			const struct nb_crypto_cell *c = &r->cells[i];
			const struct nb_prof_result *pr = nb_crypto_point_prof(r, c, si);
			if (!pr || !c->points[si].valid)
				continue;
			if (!pr->available) {
				why = pr->why;
				continue;
			}
			if (!pr->folded_len && !lines)
				why = "no stack in any window";
			for (const char *p = pr->folded, *e = p + pr->folded_len; p < e;) {
				const char *nl = memchr(p, '\n', (size_t)(e - p));
				size_t k = nl ? (size_t)(nl - p) : (size_t)(e - p);
				fprintf(a.f, "%s;%s;%u B;%.*s\n", c->algo->name, c->engine->name,
					c->points[si].size_bytes, (int)k, p);
				p += k + 1;
				lines++;
			}
		}
	cli_folded_close(&a, o->profile_folded, lines, why);
}
#endif

int cmd_crypto(int argc, char **argv)
{
	struct crypto_opts o;
	struct nb_crypto_result *r = NULL;
	char err[512] = "";
	int ret;

	if (crypto_parse_opts(argc, argv, &o))
		return 0;
	o.p.stop = &cli_stop;
	cli_catch_signals();
	/* A step per algorithm: every engine at every size, each a warm-up and a window (the
	 * correctness checks and the engines that cannot run show in the pace). */
	progress_begin("crypto", o.p.nalgos,
		       (double)(o.p.nengines * o.p.nsizes) * (double)(o.p.time_ns + o.p.warmup_ns) /
			   1e9);
	if (o.p.nalgos)
		progress_step(0, "%s", o.p.algos[0]->name);

	const struct nb_crypto_ctl_cb cb = {
	    .connected = o.json ? NULL : on_connected,
	    .algo_done = o.json ? on_step : on_progress,
	    .arg = &o,
	};
	ret = nb_crypto_ctl_run(&(struct nb_crypto_ctl_req){.p = &o.p, .target = o.remote}, &cb, &r,
				err, sizeof(err));
	if (ret) {
		nb_crypto_result_free(r);
		cli_fail(0, "%s", err);
	}

	progress_end();
	size_t ok = 0;
	for (size_t i = 0; i < r->ncells; i++)
		ok += r->cells[i].status == NB_CRYPTO_OK;
	if (cli_save_wants_doc(&o.save)) {
		struct nb_sysinfo si;
		struct nb_result_agent ag;
		const struct nb_result_agent *agent =
		    nb_ctl_doc_ends(r->ctl, o.remote.host, &si, &ag);
		char *doc;
		size_t len;
		if (nb_crypto_doc_text(r, &si, agent, &doc, &len))
			cli_fail(ENOMEM, "building the JSON document");
		cli_save_doc(&o.save, doc, len);
	}
	fflush(stdout);
#ifndef NB_AGENT_ONLY
	write_folded(&o, r);
#endif
	if (ok)
		cli_save_finish(&o.save);
	bool interrupted = r->interrupted;
	size_t whole = 0, planned = 0;
	for (size_t i = 0; i < r->ncells; i++)
		for (size_t si = 0; r->cells[i].status == NB_CRYPTO_OK && si < r->opts.nsizes; si++)
			whole += nb_crypto_point_whole(&r->cells[i].points[si]);
	for (size_t ei = 0; ei < r->opts.nengines; ei++)
		planned += r->engine_ok[ei] ? r->opts.nalgos * r->opts.nsizes : 0;
	nb_crypto_result_free(r);
	if (interrupted) {
		/* Ctrl-C: what was measured whole is printed and kept, as in every test. */
		if (o.json)
			cli_warn("interrupted: %zu (algorithm, engine, size) points measured, of "
				 "at most %zu",
				 whole, planned);
		else
			printf("\ninterrupted: %zu (algorithm, engine, size) points measured, of "
			       "at most %zu\n",
			       whole, planned);
		return 130;
	}
	if (!ok)
		cli_fail(0, "no engine could run any selected algorithm %s (reasons above)",
			 o.remote.host ? "on the agent" : "here");
	return 0;
}
