/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate: frames per second through a device under test, by the RFC 2544 procedures
 * (throughput, frame loss rate, back-to-back, latency) or as single trials. This file runs the
 * procedures the options (rate_opts.c) asked for through core's driver (rate_ctl.h) and prints
 * tables and progress; the procedures, the trials, the receivers, the rule sweep and the JSON
 * are in src/core/rate/. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/lab_pick.h"
#include "cmd/save.h"
#include "cmd/commands.h"
#include "cmd/folded.h"
#include "cmd/progress.h"
#include "cmd/rate_opts.h"
#include "cmd/rate_print.h"
#include "core/base/atomicfile.h"
#include "core/base/enosys.h"
#include "core/base/lab_fit.h"
#include "core/base/lab_rules.h"
#include "core/base/net.h"
#include "core/lab/lab.h"
#include "core/lab/lab_status.h"
#include "core/rate/rate_ctl.h"
#include "cmd/observe_cli.h"

/* The options and what the run adds to them for its progress lines. */
struct rate_front {
	struct rate_opts o;
	char abuf[INET6_ADDRSTRLEN]; /* where frames go, for progress lines */
	bool begun;		     /* the generator started: the first trial came */
	size_t nstarted;	     /* procedures begun (sizes, x rulesets or clocks): the step */
	char ruleset[64];	     /* the rule sweep's ruleset, for the progress line */
};

/* Trials one frame size's procedure plans: the search halves the gap from the maximum down to
 * the resolution, plus its first and verification trials; a flat-out trial first finds the
 * maximum where no rate was given. An estimate for the progress line's time left, which the
 * pace of the sizes measured then corrects. */
static double plan_trials(const struct nb_rate_params *p)
{
	double asked = p->nsizes ? nb_rate_asked_fps(p, (uint32_t)p->sizes[0]) : 0;
	double flat = asked > 0 || p->line_bps ? 0 : 1;
	double halvings = 8;
	if (!p->resolution_fps && p->resolution_pct > 0)
		halvings = ceil(log2(100 / p->resolution_pct));
	else if (p->resolution_fps && asked > 0)
		halvings = ceil(log2(asked / (double)p->resolution_fps));
	switch (p->test) {
	case NB_RATE_THROUGHPUT:
		return 2 + halvings;
	case NB_RATE_LOSS:
		return flat + 2; /* down from the maximum until two clean trials */
	case NB_RATE_B2B:
		return flat + p->repeat * (2 + ceil(log2(200))); /* bursts to 0.5 % */
	case NB_RATE_LATENCY:
		return 2 + halvings + p->repeat;
	case NB_RATE_NDRPDR: /* the first ratio's search, a few more trials per other ratio */
		return p->repeat * (2 + halvings + 3.0 * (p->nratios - 1));
	default:
		return 1;
	}
}

static void progress_start(const struct rate_opts *o, size_t procedures)
{
	progress_begin("rate", procedures,
		       plan_trials(&o->p) * (double)(o->p.trial_ns + o->p.drain_ns) / 1e9);
}

/* Progress on stderr while the run goes: a line per size and trial (not with --json), and on a
 * terminal the live line (progress.h) below them (with --json too). */
static void progress(void *arg, const struct nb_rate_event *ev)
{
	struct rate_front *f = arg;
	const struct rate_opts *o = &f->o;
	const struct nb_rate_trial *t = ev->trial;
	const struct nb_rate_size *s = ev->result;

	switch (ev->kind) {
	case NB_RATE_EV_SIZE:
		if (!o->json) {
			progress_clear();
			fprintf(stderr, "netbench rate: %u-byte frames to %s port %u\n", ev->size,
				f->abuf, o->p.rx.port);
		}
		progress_step(f->nstarted++, "%s%s%u-byte frames", f->ruleset,
			      f->ruleset[0] ? ", " : "", ev->size);
		break;
	case NB_RATE_EV_LEARNED:
		if (o->json)
			break;
		progress_clear();
		if (ev->learn->confirmed)
			fprintf(stderr,
				"  learning (%s): frames arrived on every flow after %.2f s (%u "
				"rounds, %llu of %llu frames)\n",
				ev->learn->when, ev->learn->took_s, ev->learn->rounds,
				(unsigned long long)ev->learn->rx,
				(unsigned long long)ev->learn->tx);
		else
			fprintf(stderr,
				"  learning (%s): %llu frames sent, not confirmed (no receiver "
				"counts frames)\n",
				ev->learn->when, (unsigned long long)ev->learn->tx);
		break;
	case NB_RATE_EV_TRIAL: {
		char dut[160] = "";
		if (!t->c.valid)
			progress_result("trial %u invalid", t->id);
		else
			progress_result("trial %u: %.0f fps, loss %.3f %%", t->id, t->offered_fps,
					t->c.tx ? 100.0 * (double)t->c.lost / (double)t->c.tx
						: 0.0);
		if (o->json)
			break; /* the trials are in the document */
		progress_clear();
		if (t->obs.n) {
			const struct nb_obs_summary *d = t->obs.s[0];
			snprintf(dut, sizeof(dut), "; DUT cpu%d %.0f %% busy, backlog drops %llu",
				 d->busiest_cpu, d->busiest_pct,
				 (unsigned long long)d->softnet_dropped);
		}
		fprintf(stderr,
			"  trial %u: %u B, %s %.0f fps offered, %llu sent (%llu slipped), "
			"%llu lost%s%s%s%s\n",
			t->id, t->size, t->purpose, t->offered_fps, (unsigned long long)t->c.tx,
			(unsigned long long)t->slipped_frames, (unsigned long long)t->c.lost,
			t->rx_dropped ? " (some at the receiver's full socket)" : "",
			t->c.valid ? "" : ", INVALID: ", t->c.valid ? "" : t->c.why, dut);
		rate_print_bidir_trial(stderr, t);
		break;
	}
	case NB_RATE_EV_BEGIN:
		f->begun = true;
		progress_start(o, o->p.nsweep	   ? o->p.nsweep * o->p.nkinds * o->p.nsizes
				  : o->obs.nclocks ? o->obs.nclocks * o->p.nsizes
						   : o->p.nsizes);
		break;
	case NB_RATE_EV_SIZE_DONE:
		if (o->p.test != NB_RATE_TRIAL && s->gen_short)
			cli_warn("engine %s could not offer the %.0f fps asked at %u bytes: rates "
				 "above what it offered were not tested",
				 o->p.engine->name, nb_rate_max_fps(&o->p, s->size), s->size);
		break;
	case NB_RATE_EV_CLOCK:
		snprintf(f->ruleset, sizeof(f->ruleset), "DUT clock %u MHz", ev->clock_mhz);
		if (!o->json) {
			progress_clear();
			fprintf(stderr, "netbench rate: DUT clock %u MHz\n", ev->clock_mhz);
		}
		break;
	case NB_RATE_EV_RULESET:
		snprintf(f->ruleset, sizeof(f->ruleset), "%s %llu rules",
			 nb_lab_rules_kind_name(ev->rules_kind), (unsigned long long)ev->rules);
		if (!o->json) {
			progress_clear();
			fprintf(stderr, "netbench rate: DUT ruleset %s, %llu rules\n",
				nb_lab_rules_kind_name(ev->rules_kind),
				(unsigned long long)ev->rules);
		}
		break;
	}
}

/* The sweep's DUT (struct nb_rate_dut): the lab's, under --lab-prefix. */
static int lab_dut_load(void *ctx, const struct nb_lab_rules *rules, size_t *n, size_t *elems,
			char *err, size_t errlen)
{
	struct nb_lab *lab = ctx;
	int ret = nb_lab_ruleset(lab, rules, n, elems);

	if (ret)
		snprintf(err, errlen, "%s: %s", lab->ns[NB_LAB_DUT],
			 lab->err[0] ? lab->err : strerror(-ret));
	return ret;
}

static void lab_dut_flush(void *ctx)
{
	(void)nb_lab_ruleset_flush(ctx);
}

/* --profile-folded FILE: the stacks of each size's judged trial under a root frame naming it
 * ("64 B", or "1000 linear rules;64 B" in a sweep), written whole or not at all. */
static void write_folded(const struct rate_opts *o, const struct nb_rate_run *r,
			 const struct nb_rate_sweep_point *pts, size_t np,
			 const struct nb_rate_size *res, size_t nsizes)
{
	struct nb_atomic_file a;
	char root[96];
	const char *why = "no trial was judged with an observer";
	size_t lines = 0;
	if (!o->profile_folded)
		return;
	cli_folded_open(&a, o->profile_folded);
	for (size_t i = 0; i < (pts ? np : 1); i++) {
		const struct nb_rate_size *s = pts ? pts[i].res : res;
		for (size_t k = 0; k < nsizes; k++) {
			if (!s[k].have_bneck)
				continue;
			if (pts)
				snprintf(root, sizeof(root), "%llu %s rules;%u B",
					 (unsigned long long)pts[i].rules,
					 nb_lab_rules_kind_name(pts[i].kind), s[k].size);
			else
				snprintf(root, sizeof(root), "%u B", s[k].size);
			const struct nb_obs_trial *t = &r->proc.trials[s[k].bneck_trial].obs;
			lines += obs_cli_folded(a.f, t, root);
			if (t->n && t->prof[0] && !t->prof[0]->available)
				why = t->prof[0]->why;
			else if (t->n && t->prof[0] && !lines)
				why = "no sample on the DUT's CPUs";
		}
	}
	cli_folded_close(&a, o->profile_folded, lines, why);
}

/* The lab under --lab-prefix (a bad prefix is a usage error). */
static struct nb_lab *sweep_lab(const struct rate_opts *o)
{
	struct nb_lab *lab = nb_lab_new();

	if (!lab)
		cli_fail(ENOMEM, "out of memory");
	if (nb_lab_set_prefix(lab, o->lab_prefix))
		cli_usage_error("--lab-prefix: '%s' is not a lab prefix (letters, digits, _ and -, "
				"at most %d)",
				o->lab_prefix, NB_LAB_PREFIX_MAX);
	return lab;
}

/* A rule sweep loads its rules into the lab's DUT: with no lab up under the prefix, say so
 * before anything is sent, with the command that brings one up. */
static void sweep_check_lab(struct rate_opts *o)
{
	struct nb_lab *lab = sweep_lab(o);
	struct nb_lab_status st;
	const char *pfx;
	char name[96];
	bool picked;

	/* None named: the one lab up, never a guess among several. */
	pfx = o->lab_prefix = lab_pick(o->lab_prefix, "--lab-prefix", &picked);
	nb_lab_set_prefix(lab, pfx);
	lab_pick_name(pfx, name, sizeof(name));
	if (!o->json)
		fprintf(stderr,
			"netbench rate: --sweep-rules loads its rules into the DUT of %s%s\n", name,
			picked ? ", the one lab up" : "");
	nb_lab_status(lab, &st);
	nb_lab_free(lab);
	if (!st.state_found && !st.ns[NB_LAB_DUT])
		cli_fail(0,
			 "--sweep-rules: no lab%s%s%s is up (the sweep loads its DUT's rules): "
			 "run `netbench lab up%s%s`",
			 pfx ? " '" : "", pfx ? pfx : "", pfx ? "'" : "", pfx ? " --prefix " : "",
			 pfx ? pfx : "");
}

/* The user's ruleset on the DUT: a rule sweep replaces it, it is loaded back after (after a
 * failure or Ctrl-C too). */
static struct nb_lab *sweep_keep(const struct rate_opts *o, struct nb_lab_kept *kept)
{
	struct nb_lab *lab = sweep_lab(o);
	int ret;

	if ((ret = nb_lab_ruleset_keep(lab, kept)) == -ENOTSUP)
		cli_fail(0, "--sweep-rules: %s", lab->err);
	else if (ret)
		cli_fail(ret, "cannot read the lab's DUT ruleset before the sweep: %s", lab->err);
	return lab;
}

/* After the sweep (or its failure, once it began): the user's ruleset loaded back. Returns
 * 0, or the failure (warned about). */
static int sweep_restore(const struct rate_opts *o, struct nb_lab *lab, struct nb_lab_kept *kept)
{
	size_t rules = 0;
	int ret = nb_lab_ruleset_restore(lab, kept, &rules);

	nb_lab_kept_free(kept);
	if (ret)
		cli_warn("the DUT's ruleset from before the sweep could not be loaded back "
			 "(%s): the DUT has another now, check `netbench lab status`",
			 lab->err[0] ? lab->err : strerror(-ret));
	else if (!o->json)
		fprintf(stderr,
			"netbench rate: the DUT's ruleset from before the sweep is loaded "
			"back (%zu rules)\n",
			rules);
	return ret;
}

static void print_sweep(struct rate_opts *o, struct nb_rate_result *res)
{
	struct nb_rate_run *r = res->run;

	write_folded(o, r, res->points, res->npoints, NULL, o->p.nsizes);
	if (!o->json)
		rate_print_sweep(r, res->points, res->npoints, res->fits);
	if (res->interrupted)
		cli_warn("interrupted: %zu of %zu rule sweep points measured", res->npoints,
			 o->p.nkinds * o->p.nsweep);
}

/* The clock experiment (--observe-clocks): the procedure at each DUT clock, then frames/s
 * fitted against clock per size. Where the DUT has no cpufreq it says so in one line and
 * measures once, at the clock it has. */
static void print_clocks(struct rate_opts *o, struct nb_rate_result *res)
{
	const struct nb_rate_clock_point *pt = res->clocks;
	size_t np = res->nclock_points;

	if (!res->have_freq)
		cli_warn("%s", pt[0].note);
	if (!o->json)
		rate_print_clocks(res->run, pt, np, res->have_freq, &res->clock_fits);
	if (res->interrupted)
		cli_warn("interrupted: %zu of %zu DUT clocks measured", np, o->obs.nclocks);
}

/* The procedure at every size: the table, the document, and a warning for each size the
 * result cannot speak for. */
static int print_sizes(struct rate_opts *o, struct nb_rate_result *res)
{
	struct nb_rate_run *r = res->run;
	const struct nb_rate_size *s = res->res;
	size_t nsizes = res->ndone;
	int status = nb_rate_result_status(res);

	write_folded(o, r, NULL, 0, s, nsizes);
	if (!o->json) {
		rate_print_table(r, s, nsizes, &res->verdict);
		rate_print_mix(r);
		rate_print_ratios(r, s, nsizes);
		rate_print_bidir(r, s, nsizes);
	}
	if (res->interrupted)
		cli_warn("interrupted: %zu of %zu frame sizes measured", nsizes, o->p.nsizes);
	cli_save_finish(&o->save);
	if (res->interrupted)
		status = 130;
	for (size_t i = 0; i < nsizes; i++) {
		if (s[i].zero)
			cli_warn(
			    "%u-byte frames: 0 fps at every rate (the DUT dropped every trial)",
			    s[i].size);
		if (s[i].failed)
			cli_warn("%u-byte frames: counters did not reconcile; no result",
				 s[i].size);
		if (s[i].receiver_limited)
			cli_warn(
			    "%u-byte frames: the receiver dropped frames at its full socket%s: "
			    "the receiver, not the device under test, was the limit there",
			    s[i].size,
			    o->local_rx ? " (in this process, on the generator's CPUs)" : "");
		if (o->p.test == NB_RATE_TRIAL && s[i].gen_short)
			cli_warn(
			    "%u-byte frames: engine %s reached only %.0f fps of the %.0f asked",
			    s[i].size, o->p.engine->name, s[i].fps,
			    nb_rate_asked_fps(&o->p, s[i].size));
	}
	return status;
}

/* The receiver is open (nb_rate_ctl_run): the main thread steps down below the receiver's
 * priority, and the observers of the DUT open (the lab's by default) now that where frames go
 * is known. */
static int rate_opened(void *arg, struct nb_rate_run *r, char *err, size_t errlen)
{
	struct rate_front *f = arg;
	struct rate_opts *o = &f->o;

	(void)err;
	(void)errlen;
	if (o->p.realtime && o->local_rx) {
		struct sched_param sp = {.sched_priority = 1};
		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			cli_fail(errno, "--realtime: cannot step down to priority 1");
	}
	nb_net_addr_str((struct sockaddr *)&r->dst, false, f->abuf, sizeof(f->abuf));
	obs_cli_lab_default(&o->obs, f->abuf, o->json);
	obs_cli_open(&o->obs, o->psk_file);
	return 0;
}

int cmd_rate(int argc, char **argv)
{
	static struct rate_front f;
	struct rate_opts *o = &f.o;
	struct nb_rate_result *res = NULL;
	struct nb_lab *lab = NULL;
	struct nb_lab_kept kept;
	struct nb_rate_dut dut = {lab_dut_load, lab_dut_flush, NULL};
	char err[512] = "";
	int ret, status, kept_ret = 0;

	rate_parse_opts(argc, argv, o);
	cli_save_start(&o->save, "rate", o->json);
	/* Test aid: make the kernel look older than it is (docs/rate.md). */
	if (getenv("NETBENCH_SIMULATE_ENOSYS")) {
		ret = nb_simulate_enosys(getenv("NETBENCH_SIMULATE_ENOSYS"));
		if (ret)
			cli_fail(ret, "NETBENCH_SIMULATE_ENOSYS='%s' (accepted: sendmmsg,recvmmsg)",
				 getenv("NETBENCH_SIMULATE_ENOSYS"));
	}
	if (o->p.realtime) {
		/* Before any thread exists, so that the receiver threads inherit it. The kernel's
		 * RT throttling still leaves other tasks 5 % of each CPU. The receiver gets one
		 * priority step above the generator threads (the main thread steps down once the
		 * receiver runs): a generator that spins between frames never yields to an equal
		 * SCHED_FIFO thread, and with more threads than CPUs the receiver would starve. */
		struct sched_param sp = {.sched_priority = o->local_rx ? 2 : 1};
		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			cli_fail(errno, "--realtime: cannot switch to SCHED_FIFO%s",
				 errno == EPERM ? " (needs CAP_SYS_NICE)" : "");
	}
	cli_catch_signals();
	if (o->p.nsweep) {
		sweep_check_lab(o);
		dut.ctx = lab = sweep_keep(o, &kept);
	}
	ret = nb_rate_ctl_run(&o->p,
			      &(struct nb_rate_ctl_cb){.opened = rate_opened,
						       .progress = progress,
						       .arg = &f,
						       .dut = lab ? &dut : NULL,
						       .clocks_mhz = o->obs.clocks_mhz,
						       .nclocks = o->obs.nclocks},
			      &res, err, sizeof(err));
	progress_end();
	if (lab && f.begun)
		kept_ret = sweep_restore(o, lab, &kept);
	if (ret && res && res->bad_input)
		cli_usage_error("%s", err);
	if (ret)
		cli_fail(0, "%s", err);
	if (cli_save_wants_doc(&o->save)) {
		char *doc;
		size_t len;
		if (nb_rate_result_doc_text(res, &doc, &len))
			cli_fail(ENOMEM, "building the JSON document");
		cli_save_doc(&o->save, doc, len);
	}
	if (o->p.nsweep || o->obs.nclocks) {
		if (o->p.nsweep)
			print_sweep(o, res);
		else
			print_clocks(o, res);
		cli_save_finish(&o->save);
		status = res->interrupted ? 130 : kept_ret ? 1 : nb_rate_result_status(res);
	} else {
		status = print_sizes(o, res);
	}
	nb_rate_result_free(res);
	nb_obs_set_close(&o->obs.set);
	nb_lab_free(lab);
	return status;
}
