/* SPDX-License-Identifier: BSD-2-Clause */
/* The RFC 2544 procedures of `netbench rate` (core/rate/rfc2544.c) driven without root against a
 * simulated device under test: a function that loses the frames above its capacity (with noise)
 * or beyond its buffer in a burst. Asserts the search's result, its trial count, the trials'
 * purposes and rates, the back-to-back burst, the loss curve, latency at the throughput rate,
 * invalid and failing trials, and the verdict. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/rfc2544.h"
#include "tap.h"

struct dut {
	double capacity_fps, noise; /* capacity varies by +-noise (a ratio) per trial */
	double gen_max_fps;	    /* what the generator offers flat out */
	double buffer_frames;	    /* a burst longer than this loses the rest */
	double trial_s;
	unsigned seed;
	bool invalid;	  /* every trial's counts fail to reconcile */
	uint32_t fail_at; /* the trial with this number fails with -EIO (0: none) */
	uint32_t calls;
	uint64_t lat_base_ns; /* latency reported: lat_base_ns + trial id */
};

static int sim_trial(void *ctx, const struct nb_rate_trial_req *q, struct nb_rate_trial *rec,
		     char *err, size_t errlen)
{
	struct dut *d = ctx;
	double rate =
	    q->rate_fps <= 0 || q->rate_fps > d->gen_max_fps ? d->gen_max_fps : q->rate_fps;
	double cap = d->capacity_fps * (1 + d->noise * (2.0 * rand_r(&d->seed) / RAND_MAX - 1));

	if (++d->calls == d->fail_at) {
		snprintf(err, errlen, "simulated failure");
		return -EIO;
	}
	rec->offered_fps = rate;
	rec->window_s = d->trial_s;
	if (q->frames) {
		rec->c.tx = q->frames;
		rec->c.lost = (double)q->frames > d->buffer_frames
				  ? q->frames - (uint64_t)d->buffer_frames
				  : 0;
	} else {
		rec->c.tx = (uint64_t)(rate * d->trial_s);
		rec->c.lost = rate > cap ? (uint64_t)((rate - cap) * d->trial_s) + 1 : 0;
	}
	rec->c.rx = rec->c.tx - rec->c.lost;
	rec->c.valid = !d->invalid;
	if (d->invalid)
		snprintf(rec->c.why, sizeof(rec->c.why), "simulated");
	rec->lat_valid = rec->c.valid;
	for (int i = 0; i < 6; i++)
		rec->lat_ns[i] = d->lat_base_ns + rec->id + (uint64_t)i;
	return 0;
}

static void params(struct nb_rate_params *p, enum nb_rate_test t)
{
	memset(p, 0, sizeof(*p));
	p->test = t;
	p->trial_ns = 1000000000ULL;
	p->resolution_pct = 0.5;
	p->flows = 1;
	p->repeat = 1;
}

static int run(struct nb_rate_params *p, struct dut *d, struct nb_rate_proc *pr,
	       struct nb_rate_size *s, uint32_t size, char *err, size_t errlen)
{
	memset(pr, 0, sizeof(*pr));
	memset(s, 0, sizeof(*s));
	pr->p = p;
	pr->trial = sim_trial;
	pr->ctx = d;
	s->size = size;
	return nb_rate_procedure(pr, s, err, errlen);
}

static size_t count_purpose(const struct nb_rate_proc *pr, const char *purpose)
{
	size_t n = 0;
	for (size_t i = 0; i < pr->ntrials; i++)
		n += !strcmp(pr->trials[i].purpose, purpose);
	return n;
}

static void throughput(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut d = {.capacity_fps = 300000, .gen_max_fps = 2e6, .trial_s = 1, .seed = 1};
	char err[128] = "";
	int ret;

	/* No noise: 1M fails; halving 500k F, 250k P, 375k F, 312.5k F, 281.25k P, 296.875k P,
	 * 304.6875k F, 300.78125k F leaves a gap under 5000 fps (0.5 %); verify 296875 P. */
	params(&p, NB_RATE_THROUGHPUT);
	p.rate_fps = 1000000;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0, "throughput runs (%d %s)", ret, err);
	CHECK(pr.ntrials == 10 && s.ntrials == 10 && s.first_trial == 0,
	      "throughput: 10 trials (1 at the maximum, 8 halving, 1 verify), got %zu", pr.ntrials);
	CHECK(s.fps == 296875, "throughput: result 296875 fps, got %.1f", s.fps);
	CHECK(s.verified && !s.at_max && !s.failed && !s.zero, "throughput: verified, not at max");
	CHECK(pr.trials[0].asked_fps == 1000000 && !strcmp(pr.trials[0].purpose, "search"),
	      "throughput: first trial at the maximum");
	CHECK(!strcmp(pr.trials[9].purpose, "verify") && pr.trials[9].asked_fps == 296875,
	      "throughput: the last trial verifies the result");
	CHECK(pr.trials[9].id == 10, "throughput: trial ids count from 1 (%u)", pr.trials[9].id);
	CHECK(s.lat_valid && s.lat_ns[0] == 10, "throughput: latency of the verify trial");
	CHECK(nb_rate_status(&p, &s) == 0, "throughput: exit status 0");
	nb_rate_proc_free(&pr);

	/* With 2 % noise the answer stays within the noise and the resolution of the capacity. */
	for (unsigned seed = 1; seed <= 20; seed++) {
		d.noise = 0.02;
		d.seed = seed;
		ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
		if (!CHECK(ret == 0 && s.fps >= 300000 * 0.98 - 5000 && s.fps <= 300000 * 1.02 &&
			       pr.ntrials >= 9 && pr.ntrials <= 40,
			   "noisy throughput seed %u: %.0f fps in %zu trials", seed, s.fps,
			   pr.ntrials))
			break;
		nb_rate_proc_free(&pr);
	}
	nb_rate_proc_free(&pr);

	/* A DUT faster than the maximum: the first trial passes and is verified. */
	d.noise = 0;
	d.capacity_fps = 5e6;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && pr.ntrials == 2 && s.at_max && s.verified && s.fps == 1000000,
	      "DUT above the maximum: 2 trials, generator bound (%zu, %.0f)", pr.ntrials, s.fps);
	nb_rate_proc_free(&pr);

	/* No maximum known: the first trial runs flat out and its offered rate is the maximum. */
	p.rate_fps = 0;
	d.capacity_fps = 300000;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && pr.trials[0].asked_fps == 0 && pr.trials[1].asked_fps == 1e6,
	      "flat out first, then half of what it offered (%.0f)", pr.trials[1].asked_fps);
	CHECK(fabs(s.fps - 300000) <= 0.005 * 2e6, "flat out search lands near 300k (%.0f)", s.fps);
	nb_rate_proc_free(&pr);

	/* The line rate caps the maximum: 1 Gbit/s at 64 bytes is 1488095 fps. */
	p.line_bps = 1000000000ULL;
	CHECK(fabs(nb_rate_max_fps(&p, 64) - 1e9 / (84 * 8.0)) < 1e-6, "max at 64 B on 1G: %.1f",
	      nb_rate_max_fps(&p, 64));
	p.rate_fps = 100000;
	CHECK(nb_rate_max_fps(&p, 64) == 100000, "--rate below the line rate wins");
	CHECK(fabs(nb_rate_line_pct(&p, 64, 1e9 / (84 * 8.0)) - 100) < 1e-9, "line%% at line rate");
}

static void invalid_and_failing(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut d = {.capacity_fps = 300000, .gen_max_fps = 2e6, .trial_s = 1, .invalid = true};
	char err[128] = "";
	int ret;

	params(&p, NB_RATE_THROUGHPUT);
	p.rate_fps = 1000000;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && s.failed && pr.ntrials == 3 && s.fps == 0,
	      "three invalid trials end the search as failed (%zu trials)", pr.ntrials);
	CHECK(nb_rate_status(&p, &s) == 1, "a failed size earns exit status 1");
	nb_rate_proc_free(&pr);

	d.invalid = false;
	d.fail_at = 3;
	d.calls = 0;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == -EIO && !strcmp(err, "simulated failure") && pr.ntrials == 3,
	      "a failing trial ends the procedure with its error (%d, %s)", ret, err);
	nb_rate_proc_free(&pr);

	/* A DUT that drops everything down to the lowest rate: zero. */
	d.fail_at = 0;
	d.capacity_fps = 0;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && s.zero && s.fps == 0 && nb_rate_status(&p, &s) == 1,
	      "0 fps at every rate: zero, status 1 (%zu trials)", pr.ntrials);
	nb_rate_proc_free(&pr);
}

static void b2b(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut d = {
	    .capacity_fps = 1e9, .gen_max_fps = 1e6, .buffer_frames = 123456, .trial_s = 1};
	char err[128] = "";
	size_t per;
	int ret;

	params(&p, NB_RATE_B2B);
	p.repeat = 3;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0, "b2b runs (%s)", err);
	CHECK(!strcmp(pr.trials[0].purpose, "measure maximum") && pr.trials[0].asked_fps == 0,
	      "b2b: one trial flat out measures the maximum");
	CHECK(s.fps == 1e6, "b2b: bursts at the generator's 1M fps (%.0f)", s.fps);
	per = (pr.ntrials - 1) / 3;
	CHECK((pr.ntrials - 1) % 3 == 0 && count_purpose(&pr, "burst") == pr.ntrials - 1,
	      "b2b: 3 equal searches of bursts (%zu trials)", pr.ntrials);
	/* Longest burst 1M frames, resolution 0.5 % (5000 frames): a first trial and about
	 * log2(1M / 5000) = 8 halvings, then a verification. */
	CHECK(per >= 9 && per <= 11, "b2b: %zu trials per search", per);
	CHECK(s.b2b_min == s.b2b_max && s.b2b_avg == s.b2b_min,
	      "b2b: a steady DUT, equal searches");
	CHECK(s.b2b_avg <= 123456 && s.b2b_avg >= 123456 - 5000,
	      "b2b: burst %.0f within 5000 frames below the buffer of 123456", s.b2b_avg);
	CHECK(pr.trials[1].asked_frames == 1000000 && pr.trials[1].asked_fps == 1e6,
	      "b2b: the first burst is one trial's worth at the maximum");
	nb_rate_proc_free(&pr);
}

static void loss_curve(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut d = {.capacity_fps = 600000, .gen_max_fps = 2e6, .trial_s = 1};
	char err[128] = "";
	int ret;

	/* 1M, 900k, 800k, 700k lose; 600k and 500k are clean: two in a row end it. */
	params(&p, NB_RATE_LOSS);
	p.rate_fps = 1000000;
	ret = run(&p, &d, &pr, &s, 512, err, sizeof(err));
	CHECK(ret == 0 && pr.ntrials == 6, "loss curve: 6 trials (%zu)", pr.ntrials);
	CHECK(pr.trials[0].asked_fps == 1e6 && pr.trials[5].asked_fps == 500000 &&
		  count_purpose(&pr, "loss curve") == 6,
	      "loss curve: from the maximum down in 10 %% steps");
	CHECK(fabs(s.loss_pct - 40) < 0.01, "loss curve: 40 %% lost at the maximum (%.3f)",
	      s.loss_pct);
	CHECK(s.fps == 1e6, "loss curve: reported at the maximum");
	nb_rate_proc_free(&pr);
}

static void latency(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut d = {
	    .capacity_fps = 300000, .gen_max_fps = 2e6, .trial_s = 1, .lat_base_ns = 1000};
	char err[128] = "";
	int ret;

	params(&p, NB_RATE_LATENCY);
	p.rate_fps = 1000000;
	p.repeat = 4;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && pr.ntrials == 14, "latency: 10 search trials and 4 at the result (%zu)",
	      pr.ntrials);
	CHECK(count_purpose(&pr, "latency") == 4 && pr.trials[13].asked_fps == 296875 &&
		  pr.trials[10].asked_fps == 296875,
	      "latency: trials at the throughput rate");
	CHECK(s.lat_valid && s.lat_ns[0] == 1000 + 14 && s.lat_ns[5] == 1000 + 14 + 5,
	      "latency: percentiles of the last latency trial (%llu)",
	      (unsigned long long)s.lat_ns[0]);
	nb_rate_proc_free(&pr);
}

static void single(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut d = {.capacity_fps = 1e9, .gen_max_fps = 500000, .trial_s = 1};
	char err[128] = "";
	int ret;

	params(&p, NB_RATE_TRIAL);
	p.rate_fps = 1000000;
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && pr.ntrials == 1 && s.fps == 500000 && s.gen_short,
	      "single trial: what the generator offered, short of --rate");
	CHECK(nb_rate_status(&p, &s) == 1, "single trial short of --rate: status 1");
	p.rate_fps = 400000;
	nb_rate_proc_free(&pr);
	ret = run(&p, &d, &pr, &s, 64, err, sizeof(err));
	CHECK(ret == 0 && s.fps == 400000 && !s.gen_short && nb_rate_status(&p, &s) == 0,
	      "single trial at a rate the generator reaches: status 0");
	nb_rate_proc_free(&pr);
}

/* The verdict across sizes, each sentence pinned; and the same windows decide it as decide the
 * sizes' bottlenecks, so the two never disagree. */
/* Pins a sentence; on a mismatch the line shows what was said. */
#define CHECK_STR(got, want, what)                                                                 \
	do {                                                                                       \
		const char *got_ = (got);                                                          \
		if (!CHECK(!strcmp(got_, want), "%s", what))                                       \
			printf("#   said: %s\n#   want: %s\n", got_, want);                        \
	} while (0)

static const char *overall(const struct nb_rate_params *p, const struct nb_rate_size *s, size_t n)
{
	static struct nb_rate_overall v;
	nb_rate_conclude(p, s, n, &v);
	return v.text;
}

static void verdict(void)
{
	struct nb_rate_params p;
	struct nb_rate_size s[3];
	struct nb_rate_overall v;

	params(&p, NB_RATE_THROUGHPUT);
	memset(s, 0, sizeof(s));
	s[0].size = 64;
	s[0].fps = 1e6;
	CHECK_STR(overall(&p, s, 1),
		  "no verdict across sizes: it needs results at two or more frame sizes",
		  "one size: no verdict across sizes");
	s[1].size = 1518;
	s[1].fps = 0.9e6;
	CHECK_STR(overall(&p, s, 2),
		  "frame-rate bound: frames/s nearly constant across sizes (spread 10 %)",
		  "fps nearly constant: frame-rate bound");
	s[1].fps = 1e6 * 64 / 1518;
	CHECK_STR(overall(&p, s, 2),
		  "bandwidth bound: bits/s nearly constant across sizes (spread 0 %)",
		  "bits/s constant: bandwidth bound");
	s[1].fps = 0.5e6;
	CHECK_STR(overall(&p, s, 2),
		  "mixed: frames/s falls 50 % and bits/s varies 92 % across sizes",
		  "otherwise mixed");
	s[0].at_max = s[1].at_max = true;
	CHECK_STR(overall(&p, s, 2),
		  "generator bound: the DUT passed the generator's maximum at every size (its CPUs "
		  "not observed: whether it was near its limit is not known)",
		  "maximum passed at every size, no observer: generator bound, saturation unknown");
	/* The maximum was the user's --rate, not the generator's: nothing is known above it. */
	p.rate_fps = 50000;
	CHECK_STR(overall(&p, s, 2),
		  "not established: the DUT passed the asked maximum (--rate) at every size; its "
		  "limit lies above it (raise --rate or leave it out to find it)",
		  "maximum passed at every size under --rate: the asked maximum, not the generator's");
	CHECK(nb_rate_max_is_asked(&p, 64), "--rate 50000 with no line rate: the asked maximum");
	p.line_bps = 100000000; /* 100 Mbit/s: 148810 fps at 64 B, 8127 at 1518 B */
	CHECK(nb_rate_max_is_asked(&p, 64) && !nb_rate_max_is_asked(&p, 1518),
	      "--rate caps 64 B, the line rate caps 1518 B below --rate");
	p.line_bps = 0;
	p.rate_fps = 0;
	/* Observed: the bottleneck of each size was judged on its last clean trial. */
	s[0].have_bneck = s[1].have_bneck = true;
	s[0].bneck.kind = s[1].bneck.kind = NB_V_GENERATOR;
	s[0].bneck.busiest_cpu = s[1].bneck.busiest_cpu = 1;
	s[0].bneck.busiest_pct = 40;
	s[1].bneck.busiest_pct = 20;
	CHECK_STR(
	    overall(&p, s, 2),
	    "generator bound: the DUT passed the generator's maximum at every size (busiest DUT "
	    "CPU 40 %, below 95 %); per size: generator bound at 64, 1518 B",
	    "maximum passed, DUT CPUs below 95 %: generator bound, with the busiest share");
	/* The case of the issue: the generator at its maximum, the DUT CPU 100 % busy. */
	s[0].bneck.kind = NB_V_DUT_CPU;
	s[0].bneck.busiest_pct = 100;
	s[0].bneck.cpu_at_limit = true;
	CHECK_STR(
	    overall(&p, s, 2),
	    "generator's maximum reached at every size; DUT cpu1 100 % busy at 64 B: the DUT is "
	    "at its limit near this rate; per size: DUT CPU at its limit at 64 B; generator "
	    "bound at 1518 B",
	    "maximum passed but a DUT CPU at 100 %: the DUT is named, never 'not saturated'");
	CHECK(!strstr(overall(&p, s, 2), "not saturated"), "never 'not saturated' then");
	/* Loss at one size: the shape, and each size's bottleneck beside it. */
	s[0].at_max = false;
	s[0].fps = 20000;
	s[0].bneck.lost = 4100;
	s[1].fps = 19000;
	CHECK_STR(overall(&p, s, 2),
		  "frame-rate bound: frames/s nearly constant across sizes (spread 5 %); per size: "
		  "DUT CPU bound at 64 B; generator bound at 1518 B",
		  "DUT CPU bound at one size: named in the verdict across sizes");
	/* 0 fps at every rate: no result, but the bottleneck that shows why is still named. */
	s[0].fps = s[1].fps = 0;
	s[0].zero = s[1].zero = true;
	s[1].have_bneck = false;
	CHECK_STR(overall(&p, s, 2),
		  "no verdict: no frame size has a result; per size: DUT CPU bound at 64 B",
		  "nothing passed: no verdict, the bottleneck still named");
	s[0].zero = s[1].zero = false;
	s[0].at_max = s[1].at_max = false;
	s[0].have_bneck = s[1].have_bneck = false;
	s[0].fps = 1e6;
	s[1].fps = 0.5e6;
	s[0].at_max = s[1].at_max = true;
	p.line_bps = 1000000000ULL;
	s[0].fps = 1e9 / (84 * 8.0);
	s[1].fps = 1e9 / (1538 * 8.0);
	CHECK_STR(overall(&p, s, 2), "line-rate bound: every size reached the line rate",
		  "every size at the line rate: line-rate bound");
	s[2].size = 512;
	s[2].failed = true;
	CHECK_STR(overall(&p, s, 3), "line-rate bound: every size reached the line rate",
		  "a failed size does not count");
	CHECK(nb_rate_has_verdict(NB_RATE_THROUGHPUT) && nb_rate_has_verdict(NB_RATE_B2B) &&
		  !nb_rate_has_verdict(NB_RATE_LOSS) && !nb_rate_has_verdict(NB_RATE_TRIAL),
	      "which tests end with a verdict");
	params(&p, NB_RATE_TRIAL);
	nb_rate_conclude(&p, s, 2, &v);
	CHECK(!v.have && !v.text[0], "a single trial: no verdict stored");
}

/* The pacing a run uses: burst by default, spin for the latency test unless --burst asks for
 * groups; txtime refused. */
static void pacing_choice(void)
{
	CHECK(nb_rate_pacing(NB_PACING_AUTO, NB_RATE_THROUGHPUT, 0) == NB_PACING_BURST &&
		  nb_rate_pacing(NB_PACING_AUTO, NB_RATE_TRIAL, 0) == NB_PACING_BURST &&
		  nb_rate_pacing(NB_PACING_AUTO, NB_RATE_B2B, 0) == NB_PACING_BURST,
	      "auto: burst for throughput, trial and b2b");
	CHECK(nb_rate_pacing(NB_PACING_AUTO, NB_RATE_LATENCY, 0) == NB_PACING_SPIN,
	      "auto: spin for the latency test (exact gaps at the throughput rate)");
	CHECK(nb_rate_pacing(NB_PACING_AUTO, NB_RATE_LATENCY, 8) == NB_PACING_BURST,
	      "auto with --burst: burst, latency test too");
	CHECK(nb_rate_pacing(NB_PACING_SPIN, NB_RATE_THROUGHPUT, 0) == NB_PACING_SPIN &&
		  nb_rate_pacing(NB_PACING_BURST, NB_RATE_LATENCY, 0) == NB_PACING_BURST,
	      "spin and burst as asked");
	CHECK(nb_rate_pacing(NB_PACING_TXTIME, NB_RATE_TRIAL, 0) == -EOPNOTSUPP,
	      "txtime: not supported by the generators");
}

int main(void)
{
	throughput();
	invalid_and_failing();
	b2b();
	loss_curve();
	latency();
	single();
	verdict();
	pacing_choice();
	return tap_done();
}
