/* SPDX-License-Identifier: BSD-2-Clause */
/* The tables of `netbench rate`: one run's per-size results, and a rule sweep's points and fits,
 * rendered from what the run decided and stored (nothing is decided here). */
#include <stdio.h>

#include "cmd/rate_print.h"
#include "cmd/observe_cli.h"
#include "cmd/pacing.h"

static void fmt_us(char *buf, size_t len, bool valid, uint64_t ns)
{
	if (valid)
		snprintf(buf, len, "%.1f", (double)ns / 1000);
	else
		snprintf(buf, len, "-");
}

/* What limited the DUT at each size, and the DUT's view of the trial that shows it. */
static void print_bottlenecks(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n)
{
	const struct nb_obs_set *set = r->p->observe;
	for (size_t i = 0; i < n; i++) {
		const struct nb_rate_trial *t;
		if (!s[i].have_bneck || (s[i].bneck.kind == NB_V_NONE && !(set && set->n)))
			continue;
		t = &r->proc.trials[s[i].bneck_trial];
		printf("bottleneck %u B: %s\n", s[i].size, s[i].bneck.text);
		printf("  judged on trial %u (%s): %.0f fps offered, %llu lost, %llu accounted "
		       "for%s\n",
		       t->id, t->purpose, t->offered_fps, (unsigned long long)s[i].bneck.lost,
		       (unsigned long long)s[i].bneck.accounted,
		       t->drops_known ? "" : " (the receiver's socket drops unknown)");
		if (t->obs.n && set)
			obs_cli_print(stdout, set, &t->obs, "  ");
	}
}

/* How the generator paced each size's last trial, and what the pacing cost. */
static void print_pacing(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct nb_rate_trial *t;
		char how[32];
		if (!s[i].ntrials)
			continue;
		t = &r->proc.trials[s[i].first_trial + s[i].ntrials - 1];
		if (t->pacing == NB_PACING_AUTO)
			continue; /* flat out: nothing paced */
		pacing_describe(how, sizeof(how), t->pacing, t->pacing_burst);
		printf(
		    "pacing %u B: %s (asked %s); trial %u: proc %.1f %%, of which pacing %.1f %%\n",
		    s[i].size, how, nb_pacing_name(r->p->pacing_asked), t->id, t->cpu.proc_pct,
		    nb_pacing_cpu_pct(t->pacing_cpu_ns, t->window_s));
	}
}

void rate_print_table(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n,
		      const struct nb_rate_overall *v)
{
	const struct nb_rate_params *p = r->p;
	char line[16], a[16], b[16], c[16], loss[24];

	printf("netbench rate: %s, engine %s (%s), %u flow%s, trial %.3g s\n",
	       nb_rate_test_titles[p->test], p->engine->name, r->engine_desc, p->flows,
	       p->flows == 1 ? "" : "s", (double)p->trial_ns / 1e9);
	if (p->test == NB_RATE_B2B) {
		printf("%6s %12s %12s %12s %12s\n", "frame", "at fps", "burst avg", "burst min",
		       "burst max");
		for (size_t i = 0; i < n; i++)
			printf("%5u B %12.0f %12.0f %12.0f %12.0f%s\n", s[i].size, s[i].fps,
			       s[i].b2b_avg, s[i].b2b_min, s[i].b2b_max,
			       s[i].failed   ? "  (counts did not reconcile)"
			       : s[i].at_max ? "  (no loss within one trial)"
					     : "");
		print_pacing(r, s, n);
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
		else if (p->test == NB_RATE_THROUGHPUT || p->test == NB_RATE_LATENCY)
			note = s[i].at_max && nb_rate_max_is_asked(p, s[i].size)
				   ? "verified; the asked maximum (--rate)"
			       : s[i].at_max   ? "verified; generator's maximum"
			       : s[i].verified ? "verified"
			       : s[i].fps > 0  ? "NOT verified"
					       : "";
		else if (p->test == NB_RATE_LOSS)
			note = "loss at maximum rate; curve in JSON";
		else if (s[i].gen_short)
			note = "engine fell short of --rate";
		if (p->line_bps)
			snprintf(line, sizeof(line), "%.1f",
				 nb_rate_line_pct(p, s[i].size, s[i].fps));
		else
			snprintf(line, sizeof(line), "-");
		fmt_us(a, sizeof(a), s[i].lat_valid, s[i].lat_ns[0]);
		fmt_us(b, sizeof(b), s[i].lat_valid, s[i].lat_ns[2]);
		fmt_us(c, sizeof(c), s[i].lat_valid, s[i].lat_ns[4]);
		if (p->receiver->counts)
			snprintf(loss, sizeof(loss), "%.3f", s[i].loss_pct);
		else
			snprintf(loss, sizeof(loss), "-"); /* send only: nothing counted frames */
		printf(r->rtt ? "%5u B %12.0f %10.2f %7s %8s %10s %10s %10s  %s\n"
			      : "%5u B %12.0f %10.2f %7s %8s %9s %9s %9s  %s\n",
		       s[i].size, s[i].fps, s[i].fps * nb_rate_frame_bytes(p, s[i].size) * 8 / 1e6,
		       line, loss, a, b, c, note);
	}
	if (r->rtt)
		printf(
		    "latency: round trip (sender to receiver and back) of probe frames the agent "
		    "reflected, %.0f per second at most\n",
		    NB_RATE_PROBE_PPS);
	else if (r->same_clock)
		printf("latency: one-way (receiver and sender share one clock)\n");
	print_pacing(r, s, n);
	if (v->have)
		printf("verdict: %s\n", v->text);
	print_bottlenecks(r, s, n);
}

void rate_print_sweep(const struct nb_rate_run *r, const struct nb_rate_sweep_point *pt, size_t np,
		      const struct nb_rate_sweep_fits *fits)
{
	const struct nb_rate_params *p = r->p;

	for (size_t i = 0; i < np; i++) {
		printf("== DUT ruleset: %s, %llu rules ==\n", nb_lab_rules_kind_name(pt[i].kind),
		       (unsigned long long)pt[i].rules);
		rate_print_table(r, pt[i].res, p->nsizes, &pt[i].verdict);
		printf("\n");
	}
	printf("rule sweep: %s at each point (ns/frame = 10^9 / fps)\n",
	       nb_rate_test_names[p->test]);
	bool nf = false;
	for (size_t i = 0; i < np; i++)
		for (size_t k = 0; k < p->nsizes; k++)
			nf |= pt[i].res[k].nf.have;
	printf("%-10s %8s %7s %12s %12s%s\n", "kind", "rules", "frame", "fps", "ns/frame",
	       nf ? "  netfilter ns/frame (profile, 95 %)" : "");
	for (size_t i = 0; i < np; i++)
		for (size_t k = 0; k < p->nsizes; k++) {
			const struct nb_rate_prof_nf *q = &pt[i].res[k].nf;
			printf("%-10s %8llu %5u B %12.0f %12.1f",
			       nb_lab_rules_kind_name(pt[i].kind), (unsigned long long)pt[i].rules,
			       pt[i].res[k].size, pt[i].res[k].fps,
			       pt[i].res[k].fps > 0 ? 1e9 / pt[i].res[k].fps : 0);
			if (q->have)
				printf("  %8.1f (%.1f to %.1f)", q->ns, q->lo, q->hi);
			else if (nf)
				printf("  %8s", "-");
			printf("\n");
		}
	for (size_t i = 0; i < fits->n; i++)
		printf("fit %s, %u B: %s\n", nb_lab_rules_kind_name(fits->f[i].kind),
		       fits->f[i].frame_bytes, fits->f[i].fit_text);
	for (size_t i = 0; i < fits->n; i++)
		if (fits->f[i].bound_text[0])
			printf("%s, %u B: %s\n", nb_lab_rules_kind_name(fits->f[i].kind),
			       fits->f[i].frame_bytes, fits->f[i].bound_text);
	for (size_t i = 0; i < fits->n; i++)
		if (fits->f[i].nf_text[0])
			printf("%s, %u B: %s\n", nb_lab_rules_kind_name(fits->f[i].kind),
			       fits->f[i].frame_bytes, fits->f[i].nf_text);
}

void rate_print_clocks(const struct nb_rate_run *r, const struct nb_rate_clock_point *pt, size_t np,
		       bool have_freq, const struct nb_rate_clock_fits *fits)
{
	for (size_t c = 0; c < np; c++) {
		if (have_freq)
			printf("== DUT clock %u MHz (%s) ==\n", pt[c].mhz, pt[c].note);
		else
			printf("== DUT clock unchanged: %s ==\n", pt[c].note);
		rate_print_table(r, pt[c].res, r->p->nsizes, &pt[c].verdict);
		printf("\n");
	}
	for (size_t k = 0; have_freq && k < fits->n; k++) {
		const struct nb_clock_fit *fit = &fits->f[k].fit;
		if (fits->f[k].have && fit->dof)
			printf(
			    "clock fit %u B: fps ~ clock^%.2f: %s (exponent 95 %% interval %.2f to "
			    "%.2f; r2 %.2f, %zu clocks, %zu residual dof)\n",
			    fits->f[k].frame_bytes, fit->exponent, fit->wording, fit->lo, fit->hi,
			    fit->r2, fit->points, fit->dof);
		else if (fits->f[k].have)
			printf(
			    "clock fit %u B: fps ~ clock^%.2f: %s (no interval: %zu clocks fix the "
			    "line exactly; measure a third clock to judge it)\n",
			    fits->f[k].frame_bytes, fit->exponent, fit->wording, fit->points);
		else
			printf("clock fit %u B: none (needs two clocks with results)\n",
			       fits->f[k].frame_bytes);
	}
}
