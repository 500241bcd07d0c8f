/* SPDX-License-Identifier: BSD-2-Clause */
/* rate --bidir's decisions (core/rate/bidir.c, conclude.c): a trial passes only when both
 * directions do, and says which failed; the agent's caps are judged on the sum of both
 * directions (a rate split over them is refused as a whole); and the RFC 2544 throughput and
 * ndrpdr searches, run against a simulated DUT whose two directions have different capacities,
 * find the rate at which both pass. */
#include <stdio.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/bidir.h"
#include "core/rate/rfc2544.h"
#include "tap.h"

static struct nb_trial_counts counts(uint64_t tx, uint64_t lost, bool valid)
{
	struct nb_trial_counts c;
	memset(&c, 0, sizeof(c));
	c.tx = tx;
	c.lost = lost;
	c.rx = tx - lost;
	c.valid = valid;
	if (!valid)
		snprintf(c.why, sizeof(c.why), "flow 0 received 3 more than sent");
	return c;
}

static void judge(void)
{
	struct nb_trial_counts f = counts(10000, 0, true), r = counts(10000, 12, true);
	struct nb_bidir_judged j;

	nb_bidir_judge(&f, &r, 0, &j);
	CHECK(j.valid && j.failed == NB_BIDIR_REV && j.tx == 10000 && j.lost == 12,
	      "reverse loss fails the trial, judged on the reverse's counts");
	CHECK(!strcmp(j.text, "reverse failed: reverse lost 12 of 10000 (0.120 %), above 0 %"),
	      "the sentence names the reverse: %s", j.text);
	nb_bidir_judge(&r, &f, 0, &j);
	CHECK(j.failed == NB_BIDIR_FWD && j.lost == 12 &&
		  !strcmp(j.text, "forward failed: forward lost 12 of 10000 (0.120 %), above 0 %"),
	      "forward loss names the forward: %s", j.text);
	nb_bidir_judge(&f, &f, 0, &j);
	CHECK(j.failed == NB_BIDIR_NONE && j.lost == 0 && !strcmp(j.text, "both directions passed"),
	      "no loss: both passed");
	nb_bidir_judge(&f, &r, 0.005, &j);
	CHECK(j.failed == NB_BIDIR_NONE && j.lost == 12,
	      "0.12 %% within a 0.5 %% tolerance: passes, still the worse direction's counts");
	f = counts(20000, 200, true); /* 1 % */
	r = counts(10000, 60, true);  /* 0.6 % */
	nb_bidir_judge(&f, &r, 0.005, &j);
	CHECK(j.failed == NB_BIDIR_BOTH && j.tx == 20000 && j.lost == 200,
	      "both above: both named, the worse ratio judged (%s)", j.text);
	CHECK(strstr(j.text, "both failed: forward lost 200 of 20000 (1.000 %), reverse lost 60 of "
			     "10000 (0.600 %), above 0.5 %") != NULL,
	      "both directions in the sentence: %s", j.text);
	r = counts(0, 0, true);
	f = counts(10000, 0, true);
	nb_bidir_judge(&f, &r, 0.1, &j);
	CHECK(j.failed == NB_BIDIR_REV && j.tx == 0,
	      "a reverse that sent nothing fails (nothing measured): %s", j.text);
	r = counts(10000, 0, false);
	nb_bidir_judge(&f, &r, 0, &j);
	CHECK(!j.valid && j.failed == NB_BIDIR_INVALID &&
		  strstr(j.text, "reverse did not reconcile"),
	      "an unreconciled reverse makes the trial invalid: %s", j.text);
}

static void caps(void)
{
	struct nb_caps c = {.known = true, .max_time_ns = 10000000000ULL};
	char err[256] = "";
	/* 64-byte frames: 84 bytes, 672 bits on the wire each. */
	uint64_t fwd_bps = 10000ULL * 64 * 8;

	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, fwd_bps, 10000, 64, err, sizeof(err)) == 0,
	      "no rate cap: accepted");
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, 0, 0, 64, err, sizeof(err)) == 0,
	      "no rate cap: flat out accepted");
	CHECK(nb_bidir_check_caps(&c, 20000000000ULL, fwd_bps, 10000, 64, err, sizeof(err)) < 0 &&
		  strstr(err, "max-time"),
	      "max-time still judged: %s", err);
	c.max_rate_bps = 10000000; /* 10 Mbit/s: 6.72 each way is within, 13.44 together not */
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, fwd_bps, 10000, 64, err, sizeof(err)) < 0 &&
		  strstr(err, "refused by rule max-rate: 13440000 bit/s on the wire over both "
			      "directions (forward 6720000, reverse 6720000), at most 10000000"),
	      "a rate split over both directions is judged on the sum: %s", err);
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, 5000ULL * 64 * 8, 5000, 64, err,
				  sizeof(err)) == 0,
	      "half the rate each way fits");
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, 1000ULL * 64 * 8, 14000, 64, err,
				  sizeof(err)) < 0,
	      "a small forward does not buy a large reverse: %s", err);
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, fwd_bps, 0, 64, err, sizeof(err)) < 0 &&
		  strstr(err, "unlimited rate asked in the reverse direction"),
	      "a flat-out reverse under a cap: %s", err);
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, 0, 10, 64, err, sizeof(err)) < 0 &&
		  strstr(err, "forward"),
	      "a flat-out forward under a cap: %s", err);
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, fwd_bps, UINT64_MAX / 100, 64, err,
				  sizeof(err)) < 0 &&
		  strstr(err, "64 bits"),
	      "a reverse rate whose wire bits wrap: %s", err);
	c.max_rate_bps = 0;
	c.max_pps = 15000;
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, fwd_bps, 10000, 64, err, sizeof(err)) < 0 &&
		  strstr(err, "refused by rule max-pps: 20000 packets/s over both directions "
			      "(forward 10000, reverse 10000), at most 15000"),
	      "max-pps on the sum: %s", err);
	CHECK(nb_bidir_check_caps(&c, 1000000000ULL, 7000ULL * 64 * 8, 7000, 64, err,
				  sizeof(err)) == 0,
	      "7000 each way within 15000 packets/s");
}

/* --bidir --imix: the mix travels to the agent as text and parses back to the same mix; the
 * reverse's frames of each size reconcile at the controller's receiver as the forward's do, and
 * a reverse whose sizes do not reconcile makes the trial invalid, naming the reverse; the caps
 * judge the reverse on the mix's mean frame rounded up. */
static void imix_reverse(void)
{
	struct nb_mix m, back;
	struct nb_rx_snap *sn = calloc(1, sizeof(*sn));
	struct nb_trial_counts fwd = counts(2400, 0, true), rev;
	struct nb_bidir_judged j;
	uint64_t tx_flow[2] = {1200, 1200}, mix_tx[NB_MIX_MAX], mix_rx[NB_MIX_MAX];
	char txt[160], err[256] = "";
	bool known = false;
	struct nb_caps c = {.known = true, .max_time_ns = 10000000000ULL};

	if (!sn) {
		CHECK(0, "out of memory");
		return;
	}
	CHECK(nb_mix_parse("simple", 64, 9216, &m, err, sizeof(err)) == 0, "simple IMIX parses");
	CHECK(nb_mix_format(&m, txt, sizeof(txt)) == 0 && !strcmp(txt, "64:7,570:4,1518:1"),
	      "sent to the agent as %s", txt);
	CHECK(nb_mix_parse(txt, 64, 9216, &back, err, sizeof(err)) == 0 && back.n == m.n &&
		  back.plen == m.plen && !memcmp(back.pattern, m.pattern, m.plen),
	      "the agent parses the same mix and pattern");
	CHECK(nb_mix_format(&m, txt, 10) < 0, "a buffer too short is refused");
	/* IPv4 payloads: 64 -> 18, 570 -> 524, 1518 -> 1472 bytes. The agent sent 1200 frames
	 * on each of 2 flows (100 patterns of 12: 700, 400, 100 each); 3 of 570 bytes lost. */
	sn->trial = 7;
	sn->any = true;
	sn->lens_known = true;
	sn->nlens = 3;
	sn->len_bytes[0] = 18, sn->len_rx[0] = 1400;
	sn->len_bytes[1] = 524, sn->len_rx[1] = 797;
	sn->len_bytes[2] = 1472, sn->len_rx[2] = 200;
	rev = counts(2400, 3, true);
	nb_mix_reconcile(&m, AF_INET, tx_flow, 2, sn, true, mix_tx, mix_rx, &known, &rev);
	CHECK(known && rev.valid && mix_tx[0] == 1400 && mix_tx[1] == 800 && mix_tx[2] == 200 &&
		  mix_rx[1] == 797,
	      "reverse by size: sent 1400/800/200, 570-byte received %llu",
	      (unsigned long long)mix_rx[1]);
	nb_bidir_judge(&fwd, &rev, 0, &j);
	CHECK(j.failed == NB_BIDIR_REV && j.lost == 3, "the mix's reverse loss fails it: %s",
	      j.text);
	sn->len_rx[2] = 201; /* one 1518-byte frame more than the agent sent of it */
	rev = counts(2400, 2, true);
	nb_mix_reconcile(&m, AF_INET, tx_flow, 2, sn, true, mix_tx, mix_rx, &known, &rev);
	CHECK(!rev.valid && !strcmp(rev.why, "1518-byte frames: received 201 of 200 sent"),
	      "more of a size than sent: %s", rev.why);
	nb_bidir_judge(&fwd, &rev, 0, &j);
	CHECK(!j.valid && j.failed == NB_BIDIR_INVALID &&
		  strstr(j.text, "reverse did not reconcile: 1518-byte frames"),
	      "and the trial is invalid, naming the reverse: %s", j.text);
	sn->len_rx[2] = 200;
	sn->len_bytes[1] = 600; /* 797 frames of a length not in the mix */
	rev = counts(2400, 3, true);
	nb_mix_reconcile(&m, AF_INET, tx_flow, 2, sn, true, mix_tx, mix_rx, &known, &rev);
	CHECK(!rev.valid && strstr(rev.why, "add up to 1600 received frames, not 2397"),
	      "a length outside the mix: %s", rev.why);
	sn->lens_known = false;
	rev = counts(2400, 3, true);
	nb_mix_reconcile(&m, AF_INET, tx_flow, 2, sn, true, mix_tx, mix_rx, &known, &rev);
	CHECK(!known && rev.valid,
	      "a receiver without counts by length: sizes unknown, not judged");
	free(sn);
	/* A mix of mean 353.2 bytes: the forward's rate is stated at 353-byte frames, the
	 * reverse is judged at 354 (rounded up). 10 Mbit/s cap. */
	c.max_rate_bps = 10000000;
	CHECK(nb_bidir_check_caps_sizes(&c, 1000000000ULL, 1000ULL * 353 * 8, 353, 1000, 354, err,
					sizeof(err)) == 0,
	      "2.98 + 2.99 Mbit/s within 10: %s", err);
	CHECK(nb_bidir_check_caps_sizes(&c, 1000000000ULL, 2000ULL * 353 * 8, 353, 1600, 354, err,
					sizeof(err)) < 0 &&
		  strstr(err, "10755200 bit/s on the wire over both directions (forward 5968000, "
			      "reverse 4787200)"),
	      "each direction at its own mean: %s", err);
}

/* Forward and reverse capacities of a simulated DUT. */
struct dut2 {
	double fwd_cap, rev_cap, gen_max;
	double tolerance;
	uint64_t fwd_buf, rev_buf; /* a burst: frames each direction holds (b2b) */
	bool one_clock;		   /* the agent on this kernel: the reverse's latency measured */
	uint64_t lat_trials;
};

/* A burst of frames into a buffer of buf frames: what does not fit is lost. */
static void burst(uint64_t frames, uint64_t buf, struct nb_trial_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->tx = frames;
	c->lost = frames > buf ? frames - buf : 0;
	c->rx = c->tx - c->lost;
	c->valid = true;
}

static void direction(double rate, double cap, struct nb_trial_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->tx = (uint64_t)rate;
	c->lost = rate > cap ? (uint64_t)(rate - cap) + 1 : 0;
	c->rx = c->tx - c->lost;
	c->valid = true;
}

static int sim2(void *ctx, const struct nb_rate_trial_req *q, struct nb_rate_trial *rec, char *err,
		size_t errlen)
{
	struct dut2 *d = ctx;
	double rate = q->rate_fps <= 0 || q->rate_fps > d->gen_max ? d->gen_max : q->rate_fps;
	(void)err;
	(void)errlen;
	rec->offered_fps = rate;
	rec->window_s = 1;
	rec->rev.on = true;
	rec->rev.offered_fps = rate;
	if (q->frames) { /* both directions send the same burst */
		burst(q->frames, d->fwd_buf, &rec->c);
		burst(q->frames, d->rev_buf, &rec->rev.c);
	} else {
		direction(rate, d->fwd_cap, &rec->c);
		direction(rate, d->rev_cap, &rec->rev.c);
	}
	nb_bidir_judge(&rec->c, &rec->rev.c, d->tolerance, &rec->rev.j);
	if (d->one_clock) { /* each latency trial's reverse p50 is 1000 ns more than the last */
		rec->rev.lat_valid = true;
		for (int i = 0; i < 6; i++)
			rec->rev.lat_ns[i] = 1000 * (1 + d->lat_trials);
		d->lat_trials++;
	} else {
		snprintf(rec->rev.lat_why, sizeof(rec->rev.lat_why),
			 "not measured: the agent runs on another kernel");
	}
	return 0;
}

static void search(enum nb_rate_test test, double fwd, double rev, const char *dir)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut2 d = {.fwd_cap = fwd, .rev_cap = rev, .gen_max = 200000};
	double lim = fwd < rev ? fwd : rev;
	char err[256] = "";
	int ret;

	memset(&p, 0, sizeof(p));
	p.test = test;
	p.trial_ns = 1000000000ULL;
	p.resolution_pct = 0.5;
	p.flows = 1;
	p.repeat = 1;
	p.bidir = true;
	if (test == NB_RATE_NDRPDR) {
		p.loss_ratios[0] = 0;
		p.nratios = 1;
	}
	memset(&pr, 0, sizeof(pr));
	memset(&s, 0, sizeof(s));
	pr.p = &p;
	pr.trial = sim2;
	pr.ctx = &d;
	s.size = 64;
	ret = nb_rate_procedure(&pr, &s, err, sizeof(err));
	CHECK(ret == 0, "%s search ran: %s", nb_rate_test_names[test], err);
	CHECK(s.fps <= lim && s.fps >= lim * 0.99,
	      "%s: found %.0f fps, where both directions pass (forward %.0f, reverse %.0f)",
	      nb_rate_test_names[test], s.fps, fwd, rev);
	nb_rate_bidir_conclude(&p, pr.trials, &s);
	CHECK(!strncmp(s.bidir_text, dir, strlen(dir)) && strstr(s.bidir_text, "trial "),
	      "%s: the limiting direction named: %s", nb_rate_test_names[test], s.bidir_text);
	nb_rate_proc_free(&pr);
}

static void run_proc(struct nb_rate_params *p, struct nb_rate_proc *pr, struct nb_rate_size *s,
		     struct dut2 *d, enum nb_rate_test test)
{
	char err[256] = "";

	memset(p, 0, sizeof(*p));
	p->test = test;
	p->trial_ns = 1000000000ULL;
	p->resolution_pct = 0.5;
	p->flows = 1;
	p->repeat = 1;
	p->bidir = true;
	memset(pr, 0, sizeof(*pr));
	memset(s, 0, sizeof(*s));
	pr->p = p;
	pr->trial = sim2;
	pr->ctx = d;
	s->size = 64;
	CHECK(nb_rate_procedure(pr, s, err, sizeof(err)) == 0, "%s ran: %s",
	      nb_rate_test_names[test], err);
	nb_rate_bidir_conclude(p, pr->trials, s);
}

/* RFC 2544 26.3 with both directions loaded: each step's loss per direction, and the curve
 * goes on down until two steps in a row lost nothing in either direction. */
static void loss_curve(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut2 d = {.fwd_cap = 150000, .rev_cap = 90000, .gen_max = 200000};
	bool fwd_clean_rev_lost = false;
	size_t n;

	run_proc(&p, &pr, &s, &d, NB_RATE_LOSS);
	n = pr.ntrials;
	/* measure maximum (200k), then 200k, 180k, ... 100k lose in the reverse (200k to 160k
	 * forward too); 80k and 60k are clean both ways. */
	CHECK(n == 9 && pr.trials[n - 1].offered_fps == 60000 &&
		  pr.trials[n - 2].offered_fps == 80000,
	      "the curve ends after two clean steps in both directions: %zu trials, last at %.0f",
	      n, n ? pr.trials[n - 1].offered_fps : 0);
	for (size_t k = 1; k < n; k++) {
		const struct nb_rate_trial *t = &pr.trials[k];
		fwd_clean_rev_lost |= t->c.lost == 0 && t->rev.c.lost > 0;
	}
	CHECK(fwd_clean_rev_lost, "a step clean forward but lossy in reverse does not end it");
	CHECK(pr.trials[1].c.lost == 50001 && pr.trials[1].rev.c.lost == 110001,
	      "the first step's loss per direction: forward %llu, reverse %llu",
	      (unsigned long long)pr.trials[1].c.lost, (unsigned long long)pr.trials[1].rev.c.lost);
	CHECK(s.bidir_failed == NB_BIDIR_REV &&
		  !strncmp(s.bidir_text,
			   "reverse direction lost: trial 7 at 100000 fps, the lowest step that "
			   "lost, reverse failed: reverse lost 10001 of 100000",
			   strlen("reverse direction lost: trial 7 at 100000 fps, the lowest step "
				  "that lost, reverse failed: reverse lost 10001 of 100000")),
	      "the lowest lossy step names the reverse: %s", s.bidir_text);
	CHECK(strstr(s.bidir_text, "(7 of 9 trials lost: forward in 4, reverse in 7)") != NULL,
	      "and counts each direction's lossy steps: %s", s.bidir_text);
	nb_rate_proc_free(&pr);
}

/* RFC 2544 26.4 with both directions loaded: the same burst each way, a burst passes only
 * when neither direction lost a frame, so the result is the smaller buffer's. */
static void b2b(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut2 d = {.fwd_cap = 1e9, .rev_cap = 1e9, .gen_max = 200000};
	bool same = true;

	d.fwd_buf = 5000, d.rev_buf = 3000;
	run_proc(&p, &pr, &s, &d, NB_RATE_B2B);
	for (size_t k = 1; k < pr.ntrials; k++)
		same &= pr.trials[k].c.tx == pr.trials[k].rev.c.tx && pr.trials[k].c.tx > 0;
	CHECK(same, "each burst went both ways, of one length");
	CHECK(s.b2b_avg <= 3000 && s.b2b_avg >= 3000 - 200000 * 0.005,
	      "b2b: %.0f frames, within the reverse's 3000 (resolution 1000)", s.b2b_avg);
	CHECK(s.bidir_failed == NB_BIDIR_REV &&
		  !strncmp(s.bidir_text, "reverse direction limited: trial ",
			   strlen("reverse direction limited: trial ")) &&
		  strstr(s.bidir_text, "the shortest that lost, reverse failed: reverse lost"),
	      "the reverse named as what limited the burst: %s", s.bidir_text);
	d.fwd_buf = 2000;
	nb_rate_proc_free(&pr);
	run_proc(&p, &pr, &s, &d, NB_RATE_B2B);
	CHECK(s.b2b_avg <= 2000 && s.bidir_failed != NB_BIDIR_REV &&
		  !strncmp(s.bidir_text, "forward direction limited",
			   strlen("forward direction limited")),
	      "a smaller forward buffer: %.0f frames, %s", s.b2b_avg, s.bidir_text);
	nb_rate_proc_free(&pr);
}

/* RFC 2544 26.2 with both directions loaded: the latency trials run at the rate both pass; the
 * reverse's latency is the last latency trial's, or why it was not measured. */
static void latency(void)
{
	struct nb_rate_params p;
	struct nb_rate_proc pr;
	struct nb_rate_size s;
	struct dut2 d = {.fwd_cap = 150000, .rev_cap = 90000, .gen_max = 200000, .one_clock = true};
	uint64_t last = 0;

	run_proc(&p, &pr, &s, &d, NB_RATE_LATENCY);
	for (size_t k = 0; k < pr.ntrials; k++)
		if (!strcmp(pr.trials[k].purpose, "latency"))
			last = pr.trials[k].rev.lat_ns[0];
	CHECK(s.fps <= 90000 && s.fps >= 90000 * 0.99 && s.rev_lat_valid &&
		  s.rev_lat_ns[0] == last && last > 0,
	      "latency at %.0f fps: the reverse's p50 %llu ns is the last latency trial's (%llu)",
	      s.fps, (unsigned long long)s.rev_lat_ns[0], (unsigned long long)last);
	nb_rate_proc_free(&pr);
	d.one_clock = false;
	run_proc(&p, &pr, &s, &d, NB_RATE_LATENCY);
	CHECK(!s.rev_lat_valid &&
		  !strcmp(s.rev_lat_why, "not measured: the agent runs on another kernel"),
	      "another kernel: the reverse's latency not measured, and why: %s", s.rev_lat_why);
	nb_rate_proc_free(&pr);
}

int main(void)
{
	judge();
	caps();
	imix_reverse();
	loss_curve();
	b2b();
	latency();
	search(NB_RATE_THROUGHPUT, 150000, 90000, "reverse direction limited");
	search(NB_RATE_THROUGHPUT, 80000, 120000, "forward direction limited");
	search(NB_RATE_NDRPDR, 150000, 90000, "reverse direction limited");
	search(NB_RATE_THROUGHPUT, 100000, 100000, "both directions limited");
	return tap_done();
}
