/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto core: known-answer vectors on the soft engine (every algorithm), the engine
 * table and selection, the correctness gate against fake engines (a wrong engine is reported
 * broken and never timed), the crossover rule, and one short timed run. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/base/stats.h"
#include "core/crypto/crypto_json.h"
#include "core/crypto/crypto_run.h"
#include "core/session/proto.h"
#include "tap.h"

/* A fake engine (the built-in reference, spoiled) whose answers are wrong from 1024 bytes up:
 * the known answer (64 bytes) passes, only the comparison at every size catches it. */
static int fake_probe(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 0;
}

static int fake_large_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
			  const struct nb_crypto_keys *k, void **s, char *why, size_t len)
{
	return nb_crypto_ref.session_new(&nb_crypto_ref, a, k, s, why, len);
}

static int fake_large_run(void *s, const struct nb_crypto_req *r)
{
	int ret = nb_crypto_ref.run(s, r);
	if (!ret && r->len >= 1024)
		r->out[r->len / 2] ^= 1;
	return ret;
}

static void fake_large_free(void *s)
{
	nb_crypto_ref.session_free(s);
}

static const struct nb_crypto_engine fake_large = {
    "fake-large",   "wrong from 1024 bytes", true, fake_probe, fake_large_new, NULL,
    fake_large_run, fake_large_free,	     NULL,
};

/* Always wrong: zeros. Needs no OpenSSL, so it is caught by the known answer alone. */
static int zero_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		    const struct nb_crypto_keys *k, void **s, char *why, size_t len)
{
	(void)k;
	(void)why;
	(void)len;
	const struct nb_crypto_algo **p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	*p = a;
	*s = p;
	return 0;
}

static int zero_run(void *s, const struct nb_crypto_req *r)
{
	const struct nb_crypto_algo **a = s;
	memset(r->out, 0, nb_crypto_out_len(*a, r->len));
	return 0;
}

static int none_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		    const struct nb_crypto_keys *k, void **s, char *why, size_t len)
{
	(void)a;
	(void)k;
	(void)s;
	snprintf(why, len, "no such operation");
	return -EOPNOTSUPP;
}

static const struct nb_crypto_engine fake_zero = {
    "fake-zero", "writes zeros", true, fake_probe, zero_new, NULL, zero_run, free, NULL,
};
static const struct nb_crypto_engine fake_none = {
    "fake-none", "offers nothing", true, fake_probe, none_new, NULL, zero_run, free, NULL,
};

/* A slow engine, like a device behind a syscall: 2 ms per request, no CPU. */
static int slow_run(void *s, const struct nb_crypto_req *r)
{
	struct timespec ts = {0, 2000000};
	nanosleep(&ts, NULL);
	return nb_crypto_ref.run(s, r);
}

static const struct nb_crypto_engine fake_slow = {
    "fake-slow", "2 ms per request", true, fake_probe, fake_large_new, NULL,
    slow_run,	 fake_large_free,    NULL,
};

static bool soft_here(void)
{
	char why[200];
	return nb_crypto_soft.probe(why, sizeof(why)) == 0;
}

int main(void)
{
	struct nb_crypto_params o;
	char bad[64], why[200];
	uint8_t buf[8];

	/* Algorithm table and sizes. */
	CHECK(nb_crypto_nalgos == 8, "eight algorithms");
	CHECK(nb_crypto_algo_find("aes-128-gcm") && !nb_crypto_algo_find("aes-128-xts"),
	      "algorithm lookup");
	const struct nb_crypto_algo *cbc = nb_crypto_algo_find("aes-128-cbc");
	const struct nb_crypto_algo *gcm = nb_crypto_algo_find("aes-128-gcm");
	const struct nb_crypto_algo *sha = nb_crypto_algo_find("hmac-sha256");
	const struct nb_crypto_algo *esp = nb_crypto_algo_find("aes-128-cbc-hmac-sha1");
	CHECK(nb_crypto_padded_len(cbc, 1420) == 1424, "CBC pads 1420 to 1424 (as ESP does)");
	CHECK(nb_crypto_padded_len(gcm, 1420) == 1420, "GCM does not pad");
	CHECK(nb_crypto_out_len(gcm, 64) == 80 && nb_crypto_out_len(sha, 64) == 32 &&
		  nb_crypto_out_len(esp, 64) == 84 && nb_crypto_out_len(cbc, 64) == 64,
	      "output lengths: tag after the data");
	for (size_t i = 0; i < nb_crypto_nalgos; i++)
		CHECK(nb_crypto_kat_find(nb_crypto_algos[i].name), "%s has a known-answer vector",
		      nb_crypto_algos[i].name);
	CHECK(nb_crypto_hex("0aFf", buf, sizeof(buf)) == 2 && buf[0] == 0x0a && buf[1] == 0xff,
	      "hex decode");
	CHECK(nb_crypto_hex("0g", buf, sizeof(buf)) == -EINVAL, "bad hex rejected");
	CHECK(nb_crypto_hex("abc", buf, sizeof(buf)) == -EINVAL, "odd hex rejected");

	/* Engine table and selection. */
	CHECK(nb_crypto_engines[0] == &nb_crypto_soft && nb_crypto_engines[3] == NULL,
	      "engine table: soft first, three engines");
	CHECK(nb_crypto_engine_find("afalg") == &nb_crypto_afalg && !nb_crypto_engine_find("qat"),
	      "engine lookup");
	nb_crypto_params_default(&o);
	CHECK(o.nengines == 3 && o.nalgos == 8 && o.nsizes == 7 && o.sizes[4] == 1420,
	      "defaults: every engine and algorithm, seven sizes");
	CHECK(nb_crypto_select_engines(&o, "afalg,soft", bad, sizeof(bad)) == 0 &&
		  o.nengines == 2 && o.engines[0] == &nb_crypto_soft &&
		  o.engines[1] == &nb_crypto_afalg,
	      "selection puts soft first");
	CHECK(nb_crypto_select_engines(&o, "soft,soft", bad, sizeof(bad)) == 0 && o.nengines == 1,
	      "duplicates ignored");
	CHECK(nb_crypto_select_engines(&o, "soft,qat", bad, sizeof(bad)) == -ENOENT &&
		  !strcmp(bad, "qat"),
	      "unknown engine named");
	CHECK(nb_crypto_select_engines(&o, "soft,", bad, sizeof(bad)) == -ENOENT,
	      "empty name rejected");
	CHECK(nb_crypto_select_engines(&o, "all", bad, sizeof(bad)) == 0 && o.nengines == 3,
	      "all engines");
	CHECK(nb_crypto_select_algos(&o, "hmac-sha1,aes-256-gcm", bad, sizeof(bad)) == 0 &&
		  o.nalgos == 2 && o.algos[1] == nb_crypto_algo_find("aes-256-gcm"),
	      "algorithm selection in order");
	CHECK(nb_crypto_select_algos(&o, "rot13", bad, sizeof(bad)) == -ENOENT &&
		  !strcmp(bad, "rot13"),
	      "unknown algorithm named");

	/* Known answers on the soft engine: every algorithm. */
	if (soft_here()) {
		for (size_t i = 0; i < nb_crypto_nalgos; i++) {
			int r = nb_crypto_kat_check(&nb_crypto_soft, &nb_crypto_algos[i], why,
						    sizeof(why));
			CHECK(r == 0, "soft %s: %s", nb_crypto_algos[i].name,
			      r ? why : nb_crypto_kat_find(nb_crypto_algos[i].name)->source);
		}
	} else {
		CHECK(nb_crypto_soft.probe(why, sizeof(why)) != 0 && strstr(why, "OpenSSL"),
		      "without OpenSSL the soft engine says what is missing");
		tap_skip("known-answer tests on the soft engine: built without OpenSSL");
	}

	/* The correctness gate. */
	nb_crypto_params_default(&o);
	struct nb_crypto_cell cell;
	memset(&cell, 0, sizeof(cell));
	cell.engine = &fake_zero;
	cell.algo = gcm;
	CHECK(nb_crypto_check_cell(&o, &cell, soft_here() ? &nb_crypto_soft : NULL) == -EBADMSG &&
		  cell.status == NB_CRYPTO_BROKEN && strstr(cell.reason, "wrong answer"),
	      "an engine writing zeros is broken: %s", cell.reason);
	memset(&cell, 0, sizeof(cell));
	cell.engine = &fake_none;
	cell.algo = gcm;
	CHECK(nb_crypto_check_cell(&o, &cell, NULL) == -EOPNOTSUPP &&
		  cell.status == NB_CRYPTO_UNSUPPORTED && strstr(cell.reason, "no such operation"),
	      "an engine without the algorithm is unsupported, with its reason");
	const struct nb_crypto_engine *ref = soft_here() ? &nb_crypto_soft : &nb_crypto_ref;
	memset(&cell, 0, sizeof(cell));
	cell.engine = &fake_large;
	cell.algo = esp;
	CHECK(nb_crypto_check_cell(&o, &cell, ref) == -EBADMSG && cell.status == NB_CRYPTO_BROKEN &&
		  strstr(cell.reason, "1024 bytes"),
	      "wrong only at 1024 bytes: caught by the comparison with %s: %s", ref->name,
	      cell.reason);
	memset(&cell, 0, sizeof(cell));
	cell.engine = &fake_large;
	cell.algo = esp;
	o.nsizes = 2; /* 16 and 64 only: the fake is right there */
	CHECK(nb_crypto_check_cell(&o, &cell, ref) == 0 && cell.status == NB_CRYPTO_OK &&
		  strstr(cell.check, "at 2 sizes"),
	      "right at the sizes asked: ok (%s)", cell.check);
	memset(&cell, 0, sizeof(cell));
	cell.engine = &fake_large;
	cell.algo = gcm;
	o.nsizes = 7;
	CHECK(nb_crypto_check_cell(&o, &cell, &nb_crypto_ref) == -EBADMSG &&
		  cell.status == NB_CRYPTO_BROKEN && strstr(cell.reason, "reference"),
	      "without OpenSSL the built-in reference catches it: %s", cell.reason);

	/* A broken engine inside a run is reported and never timed. */
	nb_crypto_params_default(&o);
	o.engines[0] = &fake_zero;
	o.nengines = 1;
	o.algos[0] = cbc;
	o.nalgos = 1;
	o.time_ns = 20000000;
	o.warmup_ns = 0;
	struct nb_crypto_result *res = NULL;
	CHECK(nb_crypto_run(&o, NULL, NULL, &res) == 0 && res, "run with a broken engine");
	if (res) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(res, 0, 0);
		bool untimed = true;
		for (size_t i = 0; i < o.nsizes; i++)
			untimed &= !c->points[i].valid && c->points[i].ops == 0;
		CHECK(c->status == NB_CRYPTO_BROKEN && untimed, "broken engine never timed");
	}
	nb_crypto_result_free(res);

	/* JSON text for the agent: one algorithm, every engine measured at every size, must fit in
	 * one protocol message; the whole result is one object. */
	nb_crypto_params_default(&o);
	res = nb_crypto_result_new(&o);
	if (res) {
		for (size_t i = 0; i < res->ncells; i++) {
			struct nb_crypto_cell *c = &res->cells[i];
			c->status = NB_CRYPTO_OK;
			c->have_driver = true;
			snprintf(c->driver.driver, sizeof(c->driver.driver),
				 "authenc-hmac-sha1-cbc-aes-talitos");
			for (size_t si = 0; si < o.nsizes; si++) {
				c->points[si].valid = true;
				c->points[si].ops = 123456789;
				c->points[si].cpu.busiest_cpu = 1;
			}
		}
		char *text = NULL;
		size_t len = 0;
		int jr = nb_crypto_result_json_text(res, 2, &text, &len);
		CHECK(jr == 0 && text && len == strlen(text) && len < NB_MSG_MAX &&
			  strstr(text, "\"algo\": \"aes-128-gcm\"") &&
			  strstr(text, "\"engine\": \"afalg\""),
		      "one algorithm's JSON, 3 engines x 7 sizes: %zu bytes (< %u)", len,
		      NB_MSG_MAX);
		free(text);
		text = NULL;
		jr = nb_crypto_result_json_text(res, NB_CRYPTO_JSON_HEAD, &text, &len);
		CHECK(jr == 0 && text && strstr(text, "\"engines\"") &&
			  !strstr(text, "\"results\"") && len < 4096,
		      "head without results (%zu bytes)", len);
		free(text);
		text = NULL;
		jr = nb_crypto_result_json_text(res, NB_CRYPTO_JSON_ALL, &text, &len);
		CHECK(jr == 0 && text && text[0] == '{' && strstr(text, "\"parameters\"") &&
			  strstr(text, "\"engines\""),
		      "whole result as one object (%zu bytes)", len);
		free(text);
	}
	nb_crypto_result_free(res);

	/* A stopped run: 2 algorithms x 2 engines x 3 sizes, stopped in the second algorithm's
	 * first engine at its second size. Kept: every point of the first algorithm, the first
	 * size of the cut cell, the broken engine of the first algorithm (its verdict is whole);
	 * left out: the cut point, the sizes not reached, the cell not reached. */
	nb_crypto_params_default(&o);
	o.algos[0] = nb_crypto_algo_find("hmac-sha1");
	o.algos[1] = nb_crypto_algo_find("aes-128-cbc");
	o.nalgos = 2;
	o.engines[0] = &nb_crypto_soft;
	o.engines[1] = &fake_zero;
	o.nengines = 2;
	o.sizes[0] = 64, o.sizes[1] = 256, o.sizes[2] = 1024;
	o.nsizes = 3;
	res = nb_crypto_result_new(&o);
	if (res) {
		struct nb_crypto_cell *a0 = nb_crypto_cell_at(res, 0, 0),
				      *b0 = nb_crypto_cell_at(res, 0, 1);
		struct nb_crypto_cell *a1 = nb_crypto_cell_at(res, 1, 0),
				      *b1 = nb_crypto_cell_at(res, 1, 1);
		CHECK(!nb_crypto_cell_reached(a1) && !nb_crypto_cell_reached(b1) &&
			  !nb_crypto_point_whole(&a1->points[0]) &&
			  !nb_crypto_algo_any_whole(res, 1),
		      "a new result: no cell reached, no point whole");
		a0->status = a1->status = NB_CRYPTO_OK;
		b0->status = NB_CRYPTO_BROKEN;
		snprintf(b0->reason, sizeof(b0->reason), "output differs from soft at 64 bytes");
		for (size_t si = 0; si < 3; si++) {
			a0->points[si].valid = true;
			a0->points[si].ops = 1000;
			a0->points[si].window_s = 0.1;
		}
		a1->points[0] = a0->points[0];
		a1->points[1].valid = false;
		snprintf(a1->points[1].invalid_reason, sizeof(a1->points[1].invalid_reason),
			 NB_CRYPTO_CUT);
		res->interrupted = true;
		CHECK(nb_crypto_cell_reached(b0) && nb_crypto_cell_reached(a1) &&
			  !nb_crypto_cell_reached(b1),
		      "reached: the broken cell and the cut one; not reached: the last");
		CHECK(nb_crypto_point_whole(&a1->points[0]) &&
			  !nb_crypto_point_whole(&a1->points[1]) &&
			  !nb_crypto_point_whole(&a1->points[2]) &&
			  nb_crypto_algo_any_whole(res, 1),
		      "whole: the cut cell's first point; not: the cut one, the one not reached");
		char *text = NULL;
		size_t len = 0;
		int jr = nb_crypto_result_json_text(res, NB_CRYPTO_JSON_ALL, &text, &len);
		size_t npts = 0, ncells = 0;
		for (const char *q = text; q && (q = strstr(q, "\"size_bytes\"")); q++)
			npts++;
		for (const char *q = text; q && (q = strstr(q, "\"engine\": ")); q++)
			ncells++;
		CHECK(jr == 0 && text && strstr(text, "\"interrupted\": true") && npts == 4 &&
			  ncells == 3 && !strstr(text, "\"invalid_reason\": \"" NB_CRYPTO_CUT) &&
			  !strstr(text, NB_CRYPTO_NOT_RUN),
		      "stopped run's document: 4 whole points in 3 cells, no cut or unreached one "
		      "(%zu points, %zu cells)",
		      npts, ncells);
		free(text);
	}
	nb_crypto_result_free(res);

	/* Crossover: the first size from which the engine wins at every larger size. */
	struct nb_crypto_cell *e = calloc(1, sizeof(*e)), *s = calloc(1, sizeof(*s));
	double em[5] = {1, 5, 30, 20, 50}, sm[5] = {10, 10, 10, 10, 10};
	for (int i = 0; i < 5; i++) {
		e->points[i].valid = s->points[i].valid = true;
		e->points[i].mbyte_per_s = em[i];
		s->points[i].mbyte_per_s = sm[i];
	}
	CHECK(nb_crypto_crossover(e, s, 5) == 2, "crossover at the third size");
	e->points[4].mbyte_per_s = 9;
	CHECK(nb_crypto_crossover(e, s, 5) == -1, "slower at the largest size: no crossover");
	e->points[4].mbyte_per_s = 50;
	e->points[3].valid = false;
	CHECK(nb_crypto_crossover(e, s, 5) == 4, "an invalid point ends the run of wins");

	/* The agent's table of t against the statistics engine's quantile. */
	bool t_ok = isnan(nb_crypto_t95(0)) && isnan(nb_crypto_t95(NB_CRYPTO_MAX_REPEAT));
	for (size_t dof = 1; dof < NB_CRYPTO_MAX_REPEAT; dof++)
		t_ok &= fabs(nb_crypto_t95(dof) - nb_student_t95(dof)) < 1e-4;
	CHECK(t_ok, "t95 table matches nb_student_t95 for 1 to %d dof", NB_CRYPTO_MAX_REPEAT - 1);
	/* Intervals: three windows of 4, 5 and 6 MB/s give 5 +- t(2) x 1 / sqrt(3) = 2.484. */
	double w3[3] = {4, 5, 6};
	CHECK(fabs(nb_crypto_ci95(w3, 3) - 4.302653 / sqrt(3.0)) < 1e-4 &&
		  isnan(nb_crypto_ci95(w3, 1)),
	      "95 %% half-width of 4, 5, 6: %.4f; none from one window", nb_crypto_ci95(w3, 3));
	/* The board's afalg and afalg:cbc-aes-neonbs, one driver: 6.4 against 4.0 MB/s at
	 * 1024 bytes. With windows that spread as a loaded board's do, it is no difference;
	 * with tight windows it is one (the load changed between the two engines). */
	double wa[3] = {8.9, 3.1, 7.2}, wb[3] = {5.5, 2.0, 4.5};
	struct nb_crypto_point pa = {.valid = true, .mbyte_per_s = 6.4},
			       pb = {.valid = true, .mbyte_per_s = 4.0};
	pa.mbyte_ci95 = nb_crypto_ci95(wa, 3);
	pb.mbyte_ci95 = nb_crypto_ci95(wb, 3);
	CHECK(!nb_crypto_differ(&pa, &pb) && !nb_crypto_faster(&pa, &pb),
	      "6.4 +-%.1f against 4.0 +-%.1f MB/s: inside the intervals, not a difference",
	      pa.mbyte_ci95, pb.mbyte_ci95);
	double ta[3] = {6.3, 6.4, 6.5}, tb[3] = {3.9, 4.0, 4.1};
	pa.mbyte_ci95 = nb_crypto_ci95(ta, 3);
	pb.mbyte_ci95 = nb_crypto_ci95(tb, 3);
	CHECK(nb_crypto_differ(&pa, &pb) && nb_crypto_faster(&pa, &pb),
	      "6.4 +-%.2f against 4.0 +-%.2f MB/s: a difference", pa.mbyte_ci95, pb.mbyte_ci95);
	pa.mbyte_ci95 = pb.mbyte_ci95 = NAN;
	CHECK(!nb_crypto_differ(&pa, &pb) && nb_crypto_faster(&pa, &pb),
	      "without intervals: a difference is not judged, the larger mean still ranks");
	/* A crossover rests on wins beyond the intervals: the engine's 30 against 10 at the
	 * third size is inside intervals of +-15 each, so it wins from the fourth size up. */
	e->points[3].valid = true;
	e->points[4].mbyte_per_s = 50;
	for (int i = 0; i < 5; i++)
		e->points[i].mbyte_ci95 = s->points[i].mbyte_ci95 = i == 2 ? 15 : 1;
	CHECK(nb_crypto_crossover(e, s, 5) == 3,
	      "a win inside the intervals is not one: crossover at the fourth size (%d)",
	      nb_crypto_crossover(e, s, 5));
	free(e);
	free(s);

	/* A slow engine: every request timed, latency at least 2 ms, and 4 in flight give well
	 * over twice the rate of 1 (the requests wait, they do not compete for the CPU). Upper
	 * bounds are loose: on a loaded machine a sleeping thread wakes late. */
	double rate[5] = {0};
	for (uint32_t inflight = 1; inflight <= 4; inflight *= 4) {
		nb_crypto_params_default(&o);
		o.engines[0] = &fake_slow;
		o.nengines = 1;
		o.algos[0] = nb_crypto_algo_find("hmac-sha1");
		o.nalgos = 1;
		o.sizes[0] = 1024;
		o.nsizes = 1;
		o.time_ns = 200000000;
		o.warmup_ns = 10000000;
		o.inflight = inflight;
		res = NULL;
		int rr = nb_crypto_run(&o, NULL, NULL, &res);
		const struct nb_crypto_point *p =
		    res ? &nb_crypto_cell_at(res, 0, 0)->points[0] : NULL;
		/* Requests that straddle an edge may land on either side of one count. */
		CHECK(rr == 0 && p && p->valid && p->lat_samples + inflight >= p->ops &&
			  p->lat_samples <= p->ops + inflight && p->lat_p50_us > 1900 &&
			  p->lat_p50_us < 50000,
		      "slow engine, %u in flight: p50 %.0f us, %llu of %llu requests timed",
		      inflight, p ? p->lat_p50_us : 0, p ? (unsigned long long)p->lat_samples : 0,
		      p ? (unsigned long long)p->ops : 0);
		rate[inflight] = p && p->valid ? p->ops_per_s : 0;
		CHECK(rate[inflight] > 0 && rate[inflight] < 510.0 * inflight,
		      "slow engine, %u in flight: %.0f requests/s (at most %u)", inflight,
		      rate[inflight], 500 * inflight);
		nb_crypto_result_free(res);
	}
	CHECK(rate[1] > 0 && rate[4] > 2.0 * rate[1], "4 in flight: %.1f times the rate of 1",
	      rate[1] > 0 ? rate[4] / rate[1] : 0);

	/* One short timed point on soft: rates from the window, latency percentiles ordered. */
	if (soft_here()) {
		nb_crypto_params_default(&o);
		o.engines[0] = &nb_crypto_soft;
		o.nengines = 1;
		o.algos[0] = gcm;
		o.nalgos = 1;
		o.sizes[0] = 1420;
		o.nsizes = 1;
		o.time_ns = 100000000;
		o.warmup_ns = 5000000;
		o.inflight = 2;
		res = NULL;
		CHECK(nb_crypto_run(&o, NULL, NULL, &res) == 0 && res, "timed run");
		if (res) {
			const struct nb_crypto_point *p = &nb_crypto_cell_at(res, 0, 0)->points[0];
			CHECK(p->valid && p->ops > 0 && p->window_s >= 0.095,
			      "point valid, %llu requests in %.3f s", (unsigned long long)p->ops,
			      p->window_s);
			CHECK(fabs(p->mbyte_per_s - (double)p->ops * 1420 / p->window_s / 1e6) <
				  1e-6,
			      "MB/s = requests x size / window");
			CHECK(p->lat_samples > 0 && p->lat_p50_us > 0 &&
				  p->lat_p99_us >= p->lat_p50_us,
			      "p50 %.3f us <= p99 %.3f us", p->lat_p50_us, p->lat_p99_us);
			CHECK(p->proc_us_per_kbyte > 0, "process CPU per KByte %.3f us",
			      p->proc_us_per_kbyte);
			CHECK(p->windows == 3 && isfinite(p->mbyte_ci95) && p->mbyte_ci95 >= 0,
			      "the window in 3 parts: %.1f +-%.1f MB/s", p->mbyte_per_s,
			      p->mbyte_ci95);
		}
		nb_crypto_result_free(res);
	} else {
		tap_skip("timed run on soft: built without OpenSSL");
	}
	/* afalg:DRIVER engines: named, bound to their driver, soft first, kept by a copy. */
	{
		struct nb_crypto_params d, cp;
		char dbad[80] = "";
		nb_crypto_params_default(&d);
		CHECK(nb_crypto_select_engines(
			  &d, "afalg:virtio_crypto_aes_cbc,soft,afalg:cbc(aes-generic)", dbad,
			  sizeof(dbad)) == 0 &&
			  d.nengines == 3 && d.engines[0] == &nb_crypto_soft &&
			  !strcmp(d.engines[1]->name, "afalg:virtio_crypto_aes_cbc") &&
			  !strcmp(d.engines[2]->kernel_driver, "cbc(aes-generic)") &&
			  d.engines[2]->session_new == nb_crypto_afalg.session_new,
		      "afalg:DRIVER selects the afalg engine bound to that driver");
		nb_crypto_params_copy(&cp, &d);
		CHECK(cp.engines[1] == &cp.drv_engines[0] &&
			  cp.engines[2]->name == cp.drv_names[1][0] &&
			  !strcmp(cp.engines[2]->name, "afalg:cbc(aes-generic)"),
		      "a copy of the options points at its own driver engines");
		CHECK(nb_crypto_select_engines(&d, "afalg:", dbad, sizeof(dbad)) == -ENOENT &&
			  nb_crypto_select_engines(&d, "afalg:a b", dbad, sizeof(dbad)) ==
			      -ENOENT &&
			  nb_crypto_select_engines(&d, "soft,,afalg:x", dbad, sizeof(dbad)) ==
			      -ENOENT &&
			  nb_crypto_select_engines(&d, "afalg:x,", dbad, sizeof(dbad)) == -ENOENT,
		      "empty, blank and dangling driver names refused");
		CHECK(nb_crypto_select_engines(&d, "afalg:x,afalg:x", dbad, sizeof(dbad)) == 0 &&
			  d.nengines == 1,
		      "a driver named twice is one engine");
		/* ESP's transform by driver: the comma inside its parentheses is the name's. */
		CHECK(nb_crypto_select_engines(
			  &d, "soft,afalg:authenc(hmac(sha1-generic),cbc(aes-generic)),afalg:x",
			  dbad, sizeof(dbad)) == 0 &&
			  d.nengines == 3 &&
			  !strcmp(d.engines[1]->kernel_driver,
				  "authenc(hmac(sha1-generic),cbc(aes-generic))") &&
			  !strcmp(d.engines[2]->kernel_driver, "x"),
		      "a driver name with a comma inside parentheses is one engine: %s",
		      d.nengines > 1 ? d.engines[1]->name : dbad);
		CHECK(nb_crypto_select_engines(&d, "afalg:authenc(hmac(sha1),cbc(aes)", dbad,
					       sizeof(dbad)) == -EINVAL &&
			  !strcmp(dbad, "afalg:authenc(hmac(sha1),cbc(aes)") &&
			  nb_crypto_select_engines(&d, "soft,afalg:cbc(aes))", dbad,
						   sizeof(dbad)) == -EINVAL,
		      "unbalanced parentheses refused, naming the item: %s", dbad);
	}
	return tap_done();
}
