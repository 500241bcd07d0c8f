/* SPDX-License-Identifier: BSD-2-Clause */
/* The terminal view of `netbench rate` renders what the run decided and stored, word for word:
 * the verdict across sizes, each size's bottleneck, the DUT's cycles per frame, a rule sweep's
 * fits and ruleset decisions. The printer is built into this test from src/cmd; its output is
 * read back and each sentence compared with the stored one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/cmd/observe_cli.c"
#include "../../src/cmd/pacing.c"
#include "../../src/cmd/rate_print.c"
#include "../../src/cmd/virt_note.c"
#include "tap.h"

/* The printer's file links with the front end's option helpers; none is reached here. */
void cli_usage_error(const char *fmt, ...)
{
	(void)fmt;
	abort();
}
void cli_fail(int err, const char *fmt, ...)
{
	(void)err;
	(void)fmt;
	abort();
}
uint64_t cli_uint(const char *opt, const char *val, uint64_t min, uint64_t max)
{
	(void)opt, (void)val, (void)min, (void)max;
	abort();
}
size_t cli_rate_list(const char *opt, const char *arg, uint64_t *out, size_t max, uint64_t min,
		     uint64_t maxv)
{
	(void)opt, (void)arg, (void)out, (void)max, (void)min, (void)maxv;
	abort();
}
const char *cli_command(void)
{
	abort();
}

/* Runs fn with stdout into a buffer; returns the text (static). */
static const char *capture(void (*fn)(void *), void *arg)
{
	static char buf[65536];
	FILE *tmp = tmpfile();
	int saved = dup(1);
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), 1);
	fn(arg);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
	return buf;
}

/* True when text holds exactly this line. */
static bool has_line(const char *text, const char *line)
{
	size_t len = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

struct table_args {
	const struct nb_rate_run *r;
	const struct nb_rate_size *s;
	size_t n;
	const struct nb_rate_overall *v;
};
static void print_table(void *a)
{
	struct table_args *t = a;
	rate_print_table(t->r, t->s, t->n, t->v);
}

struct sweep_args {
	const struct nb_rate_run *r;
	const struct nb_rate_sweep_point *pt;
	size_t np;
	const struct nb_rate_sweep_fits *fits;
};
static void print_sweep(void *a)
{
	struct sweep_args *t = a;
	rate_print_sweep(t->r, t->pt, t->np, t->fits);
}

int main(void)
{
	static struct nb_rate_run r;
	static struct nb_obs_set set;
	static struct nb_obs_snap w;
	static struct nb_obs_summary m;
	static struct nb_rate_trial trials[2];
	struct nb_gen_engine eng = {.name = "udp"};
	struct nb_rx_engine rx = {.name = "local", .counts = true};
	struct nb_rate_params p;
	struct nb_rate_size s[2];
	struct nb_rate_overall v;
	char want[1024];
	const char *out;

	memset(&p, 0, sizeof(p));
	p.test = NB_RATE_THROUGHPUT;
	p.engine = &eng;
	p.receiver = &rx;
	p.flows = 1;
	p.trial_ns = 1000000000ULL;
	p.nsizes = 2;
	p.sizes[0] = 64;
	p.sizes[1] = 1518;
	p.observe = &set;
	set.n = 1;
	set.spec[0] = "198.18.0.254";
	r.p = &p;
	r.proc.trials = trials;
	r.proc.ntrials = 2;

	/* A window of the DUT: cpu1 100 % busy, 20,000 frames in, 4,990 came out. */
	w.mono_ns = 1200000000;
	w.clk_tck = 100;
	w.ncpu = 2;
	w.cpu[0].id = 0;
	w.cpu[0].idle = 120;
	w.cpu[1].id = 1;
	w.cpu[1].softirq = 120;
	w.nsoftnet = 2;
	w.softnet[1].cpu = 1;
	w.nif = 2;
	w.peak_cpu = -1;
	strcpy(w.ifs[0].name, "dut0");
	strcpy(w.ifs[1].name, "dut1");
	w.ifs[0].rx_packets = 20000;
	w.ifs[1].tx_packets = 5000;
	nb_obs_summarize(&w, 1u << 1, &m);
	for (int i = 0; i < 2; i++) {
		trials[i].id = (uint16_t)(i + 1);
		trials[i].size = (uint32_t)p.sizes[i];
		trials[i].purpose = "verify";
		trials[i].offered_fps = 20000;
		trials[i].window_s = 1.0;
		trials[i].c.valid = true;
		trials[i].c.tx = 20000;
		trials[i].c.lost = i ? 0 : 15010;
		trials[i].drops_known = true;
		trials[i].obs.n = 1;
		trials[i].obs.w[0] = &w;
		trials[i].obs.s[0] = &m;
		trials[i].obs.mask[0] = 1u << 1;
		nb_obs_cost_decide(&w, &m, 2000, true, trials[i].c.tx - trials[i].c.lost, 0, 1500,
				   &trials[i].obs.cost[0]);
	}
	memset(s, 0, sizeof(s));
	for (int i = 0; i < 2; i++) {
		s[i].size = (uint32_t)p.sizes[i];
		s[i].fps = i ? 20000 : 4990;
		s[i].verified = true;
		s[i].at_max = i == 1;
		s[i].first_trial = (size_t)i;
		s[i].ntrials = 1;
		nb_rate_bottleneck(&p, trials, &s[i]);
	}
	nb_rate_conclude(&p, s, 2, &v);

	struct table_args ta = {&r, s, 2, &v};
	out = capture(print_table, &ta);
	snprintf(want, sizeof(want), "verdict: %s", v.text);
	CHECK(v.have && has_line(out, want), "the printed verdict is the stored one: %s", v.text);
	for (int i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "bottleneck %u B: %s", s[i].size, s[i].bneck.text);
		CHECK(s[i].have_bneck && has_line(out, want),
		      "the printed bottleneck of %u B is the stored one: %s", s[i].size,
		      s[i].bneck.text);
	}
	CHECK(s[1].bneck.kind == NB_V_DUT_CPU && strstr(v.text, "DUT CPU at its limit at 1518 B") &&
		  !strstr(out, "not saturated"),
	      "the generator's maximum with cpu1 at 100 %%: the DUT named everywhere");
	const struct nb_obs_cost *q = &trials[0].obs.cost[0];
	snprintf(want, sizeof(want),
		 "    clock 2000 MHz (cpufreq): %.0f cycles per frame handled (20k ingress frames, "
		 "rx_packets), %.0f per forwarded frame (%.0f, the receiver's count)",
		 q->cycles_per_frame, q->cycles_per_forwarded_frame, (double)q->forwarded_frames);
	if (!CHECK(has_line(out, want), "the printed cycles per frame are the stored ones"))
		printf("# want: %s\n# out:\n%s", want, out);

	/* A rule sweep: every fit and decision line is the stored sentence. */
	{
		struct nb_rate_size res[3][2];
		struct nb_rate_sweep_point pt[3];
		static struct nb_rate_sweep_fits fits;
		double fps[3] = {200000, 150000, 40000};
		memset(res, 0, sizeof(res));
		memset(pt, 0, sizeof(pt));
		p.nkinds = 1;
		p.kinds[0] = NB_LAB_RULES_LINEAR;
		p.observe = NULL;
		for (int i = 0; i < 3; i++) {
			pt[i].kind = NB_LAB_RULES_LINEAR;
			pt[i].rules = i == 0 ? 0 : i == 1 ? 100 : 1000;
			pt[i].res = res[i];
			for (int k2 = 0; k2 < 2; k2++) {
				res[i][k2].size = (uint32_t)p.sizes[k2];
				res[i][k2].fps = fps[i] / (k2 + 1);
			}
			nb_rate_conclude(&p, res[i], 2, &pt[i].verdict);
		}
		nb_rate_sweep_conclude(&p, pt, 3, &fits);
		struct sweep_args sa = {&r, pt, 3, &fits};
		out = capture(print_sweep, &sa);
		bool all = fits.n == 2;
		for (size_t i = 0; i < fits.n; i++) {
			snprintf(want, sizeof(want), "fit linear, %u B: %s", fits.f[i].frame_bytes,
				 fits.f[i].fit_text);
			all &= has_line(out, want);
			snprintf(want, sizeof(want), "linear, %u B: %s", fits.f[i].frame_bytes,
				 fits.f[i].bound_text);
			all &= has_line(out, want);
		}
		CHECK(all, "the printed fits and ruleset decisions are the stored ones");
		snprintf(want, sizeof(want), "verdict: %s", pt[2].verdict.text);
		CHECK(has_line(out, want), "each sweep point's printed verdict is its stored one");
	}
	return tap_done();
}
