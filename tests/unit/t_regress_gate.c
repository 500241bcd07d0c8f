/* SPDX-License-Identifier: BSD-2-Clause */
/* The regression gate's decisions and sentences, Student's t, and the pieces compare rests on:
 * grouping by label and tags, the measured end's facts, fixed-point numbers, per-receiver rows,
 * polluted windows, crossover sentences naming the engines compared, memory bandwidth. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/compare.h"
#include "core/store/regress_gate.h"
#include "core/store/group.h"
#include "core/store/runs.h"
#include "tap.h"

static struct nb_cmp_cell cell(const double *v, size_t n)
{
	struct nb_cmp_cell c = {.has = true};
	for (size_t i = 0; i < n; i++)
		nb_runs_add(&c.runs_stat, v[i]);
	c.mean = c.runs_stat.mean;
	c.runs = c.runs_stat.n;
	return c;
}

static void decide(const double *x, size_t nx, const double *b, size_t nb, bool lower, double pct,
		   bool point, struct nb_gate_row *g)
{
	struct nb_cmp_cell cx = cell(x, nx), cb = cell(b, nb);
	struct nb_gate_opts o = {.worse_pct = pct, .gate_point = point};
	memset(g, 0, sizeof(*g));
	nb_gate_decide(&cx, &cb, lower, &o, g);
}

static struct nb_jdoc *parse(const char *s)
{
	struct nb_jdoc *d = NULL;
	char err[128];
	if (nb_jdoc_parse(s, strlen(s), &d, err, sizeof(err)))
		return NULL;
	return d;
}

int main(void)
{
	/* Student's t, 0.975 point: known values. */
	CHECK(fabs(nb_t975(1) - 12.7062) < 1e-4 && fabs(nb_t975(2) - 4.3027) < 1e-4 &&
		  fabs(nb_t975(10) - 2.2281) < 1e-4 && fabs(nb_t975(30) - 2.0423) < 1e-4,
	      "t(1) 12.706, t(2) 4.303, t(10) 2.228, t(30) 2.042");
	CHECK(fabs(nb_t975(35) - 2.0301) < 2e-3 && fabs(nb_t975(1e9) - 1.96) < 1e-3,
	      "t(35) 2.030 (got %.4f), t(large) 1.960", nb_t975(35));
	CHECK(nb_t975(2.5) < nb_t975(2) && nb_t975(2.5) > nb_t975(3), "fractional df between");
	CHECK(isnan(nb_t975(0.5)) && isnan(nb_t975(NAN)), "df below 1: no quantile");
	struct nb_runs r = {0};
	double v3[] = {10, 12, 14};
	for (int i = 0; i < 3; i++)
		nb_runs_add(&r, v3[i]);
	CHECK(r.mean == 12 && fabs(nb_runs_sd(&r) - 2) < 1e-12 &&
		  fabs(nb_runs_ci95(&r) - 4.3027 * 2 / sqrt(3)) < 1e-3,
	      "10, 12, 14: mean 12, sd 2, interval +-4.97");

	/* The gate. */
	struct nb_gate_row g;
	double base[] = {1000, 1010, 990}, same[] = {1000, 1010, 990};
	decide(same, 3, base, 3, false, 10, false, &g);
	CHECK(g.verdict == NB_GATE_PASS && !g.uncertain && fabs(g.ratio - 1) < 1e-12,
	      "equal runs pass");
	CHECK(!strcmp(g.sentence, "worse by 0.0 % (95 % interval -2.3 to 2.2 % worse, ratio "
				  "0.978..1.023; 3 runs against 3): within the 10 % threshold"),
	      "its sentence: %s", g.sentence);
	double half[] = {500, 505, 495};
	decide(half, 3, base, 3, false, 10, false, &g);
	CHECK(g.verdict == NB_GATE_FAIL && nb_gate_fails(g.verdict), "a 50 %% drop in fps fails");
	CHECK(!strcmp(g.sentence, "worse by 50.0 % (95 % interval 48.9 to 51.1 % worse, ratio "
				  "0.489..0.511; 3 runs against 3): beyond the 10 % threshold"),
	      "its sentence: %s", g.sentence);
	decide(half, 3, base, 3, true, 10, false, &g);
	CHECK(g.verdict == NB_GATE_PASS && g.worse_pct == -50 &&
		  !strncmp(g.sentence, "better by 50.0 %", 16),
	      "half the latency is better, not worse: %s", g.sentence);
	double noisy_b[] = {1000, 1300, 700}, noisy_x[] = {900, 1200, 600};
	decide(noisy_x, 3, noisy_b, 3, false, 5, false, &g);
	CHECK(g.verdict == NB_GATE_PASS && g.uncertain && strstr(g.sentence, "not established"),
	      "10 %% worse inside the runs' spread: not established, passes: %s", g.sentence);
	double one[] = {500};
	decide(one, 1, base, 3, false, 10, false, &g);
	CHECK(g.verdict == NB_GATE_NOT_JUDGED && !nb_gate_fails(g.verdict) && isnan(g.lo),
	      "one run, 50 %% worse: not judged, does not fail");
	CHECK(strstr(g.sentence, "one run on a side, so significance cannot be judged") &&
		  strstr(g.sentence, "--gate-point"),
	      "it says why and what to do: %s", g.sentence);
	decide(one, 1, base, 3, false, 10, true, &g);
	CHECK(g.verdict == NB_GATE_POINT_FAIL && nb_gate_fails(g.verdict),
	      "with --gate-point the point value fails");
	double near[] = {980};
	decide(near, 1, base, 1, false, 10, true, &g);
	CHECK(g.verdict == NB_GATE_PASS && g.uncertain, "one run within the threshold passes");
	double slow[] = {1.5, 1.52, 1.49}, fast[] = {1.0, 1.01, 0.99};
	decide(slow, 3, fast, 3, true, 20, false, &g);
	CHECK(g.verdict == NB_GATE_FAIL, "latency up 50 %% fails (lower is better)");

	/* A table's verdicts and the JUnit XML naming the metric. */
	static struct nb_view v[4];
	for (int i = 0; i < 4; i++) {
		snprintf(v[i].id, sizeof(v[i].id), "rate.fps");
		snprintf(v[i].x_name, sizeof(v[i].x_name), "frame");
		snprintf(v[i].x_unit, sizeof(v[i].x_unit), "bytes");
		snprintf(v[i].y_unit, sizeof(v[i].y_unit), "fps");
		v[i].nseries = 1;
		snprintf(v[i].s[0].name, sizeof(v[i].s[0].name), "fps");
		nb_series_add(&v[i].s[0], 64, i < 2 ? 1000 + i * 10 : 500 + i * 5);
	}
	struct nb_cmp_entry e[] = {{"old <kernel>", NULL, &v[0]},
				   {"old <kernel>", NULL, &v[1]},
				   {"new & \"fast\"", NULL, &v[2]},
				   {"new & \"fast\"", NULL, &v[3]}};
	struct nb_cmp_table *t;
	struct nb_gate_row *rows = NULL;
	size_t n = 0;
	struct nb_gate_opts o = {.worse_pct = 10};
	CHECK(nb_cmp_build(e, 4, "old <kernel>", &t) == 0 && nb_gate_table(t, &o, &rows, &n) == 0 &&
		  n == 1 && rows[0].verdict == NB_GATE_FAIL,
	      "a table with a 50 %% drop: one verdict, fail");
	CHECK(n && !strcmp(rows[0].metric, "rate.fps fps, frame 64 bytes") &&
		  !strcmp(rows[0].group, "new & \"fast\""),
	      "the metric is named by view, series and step: '%s'", n ? rows[0].metric : "");
	char *xml = NULL;
	size_t xl;
	FILE *f = open_memstream(&xml, &xl);
	nb_gate_write_junit(f, rows, n, &o, "old <kernel>");
	fclose(f);
	CHECK(strstr(xml, "<testcase classname=\"netbench.rate.fps\" name=\"rate.fps fps, frame 64 "
			  "bytes: new &amp; &quot;fast&quot;\"") &&
		  strstr(xml, "<failure type=\"regression\" message=\"worse by 49.0 %") &&
		  strstr(xml, "old &lt;kernel&gt;") && strstr(xml, "failures=\"1\""),
	      "JUnit: one testcase naming the metric, a failure with the sentence, escaped");
	free(xml);

	/* Points a view could not hold: one refusal per result, counted as a JUnit error. */
	v[2].lost_points = 36;
	CHECK(nb_gate_unseen(e, 4, &rows, &n) == 0 && n == 2 && rows[1].verdict == NB_GATE_UNSEEN &&
		  !nb_gate_fails(rows[1].verdict) &&
		  !strcmp(nb_gate_verdict_name(rows[1].verdict), "refused") &&
		  strstr(rows[1].sentence, "36 measured points of a result of new & \"fast\" were "
					   "not judged: a view holds at most 16 series of 64 "
					   "points"),
	      "36 points beyond the view: refused, saying so: %s", n > 1 ? rows[1].sentence : "");
	f = open_memstream(&xml, &xl);
	nb_gate_write_junit(f, rows, n, &o, "old <kernel>");
	fclose(f);
	CHECK(strstr(xml, "tests=\"2\" failures=\"1\" errors=\"1\" skipped=\"0\"") &&
		  strstr(xml, "<error type=\"not-judged\" message=\"36 measured points"),
	      "JUnit counts the refusal as an error beside the failure");
	free(xml);

	/* What XML 1.0 forbids never reaches the file: U+FFFE, U+FFFF, a surrogate, a byte
	 * that is not UTF-8, a C0 control; printable UTF-8 is kept. */
	snprintf(rows[0].group, sizeof(rows[0].group),
		 "a\xef\xbf\xbe b\xef\xbf\xbf c\xed\xa0\x80 d\xff e\x01 f\xc3\xa9");
	f = open_memstream(&xml, &xl);
	nb_gate_write_junit(f, rows, n, &o, "old <kernel>");
	fclose(f);
	CHECK(strstr(xml, "a\xef\xbf\xbd b\xef\xbf\xbd c\xef\xbf\xbd d"
			  "\xef\xbf\xbd e\xef\xbf\xbd f\xc3\xa9") &&
		  !strstr(xml, "\xef\xbf\xbe") && !strstr(xml, "\xef\xbf\xbf") && !strchr(xml, 1),
	      "JUnit: U+FFFE, U+FFFF, a surrogate, a stray byte and a control become U+FFFD");
	free(xml);
	free(rows);
	nb_cmp_table_free(t);

	/* Groups: a label whose runs differ in a tag is split, never averaged. */
	struct nb_store_tag r0[] = {{"rules", "0"}, {"board", "x"}},
			    r1[] = {{"rules", "100"}, {"board", "x"}}, same_t[] = {{"board", "x"}};
	struct nb_group_in gi[] = {{1, "rate", "fw", r0, 2},	 {2, "rate", "fw", r1, 2},
				   {3, "rate", "fw", r0, 2},	 {4, "rate", "pc", same_t, 1},
				   {5, "rate", "pc", same_t, 1}, {6, "rate", "", NULL, 0},
				   {7, "mem", "pc", NULL, 0}};
	char names[7][NB_GROUP_NAME_MAX], split[256];
	size_t ns = nb_group_names(gi, 7, names, split, sizeof(split));
	CHECK(ns == 1 && !strcmp(names[0], "fw [rules=0]") && !strcmp(names[1], "fw [rules=100]") &&
		  !strcmp(names[2], "fw [rules=0]"),
	      "fw split by rules: '%s', '%s'", names[0], names[1]);
	CHECK(!strcmp(names[3], "pc") && !strcmp(names[4], "pc") && !strcmp(names[5], "#6"),
	      "same tags: one group; no label: its own");
	CHECK(!strcmp(names[6], "pc"), "another test's runs with the label do not split it");
	CHECK(!strcmp(split, "fw (its runs differ in rules)"), "the warning names it: %s", split);

	/* Facts: the measured end only. */
	const char *sdoc =
	    "{\"schema\":\"netbench/1\",\"test\":\"stream\",\"env\":{\"local\":{\"hostname\":"
	    "\"pc\",\"kernel\":\"6.12\",\"iface\":\"br0\",\"driver\":\"bridge\"},\"remote\":null},"
	    "\"receivers\":[{\"agent\":\"board1\",\"env\":{\"hostname\":\"b1\",\"kernel\":\"5.10\","
	    "\"iface\":\"eth0\",\"driver\":\"gianfar\",\"virtualization\":\"none\"},\"steps\":[{"
	    "\"valid\":true,\"rate_bps_asked\":4e6,\"cpu\":{\"sys_busy_pct\":87.9},"
	    "\"cpu_polluted\":true}]},{\"agent\":\"board2\",\"env\":{\"hostname\":\"b2\","
	    "\"kernel\":\"5.4\",\"iface\":null,\"driver\":null},\"steps\":[{\"valid\":true,"
	    "\"rate_bps_asked\":4e6,\"cpu\":{\"sys_busy_pct\":17.8},\"cpu_polluted\":false}]}]}";
	struct nb_jdoc *d = parse(sdoc);
	static struct nb_view views[NB_VIEW_MAX];
	size_t nv = 0;
	struct nb_facts fm;
	CHECK(d && nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 1 &&
		  views[0].nseries == 2,
	      "two receivers: two series");
	nb_facts_measured(d, &fm);
	CHECK(!strcmp(fm.host, "pc"), "no env.remote: the measured end of the document is local");
	CHECK(views[0].s[1].own_env && !strcmp(views[0].s[1].env.host, "b2") &&
		  !*views[0].s[1].env.driver &&
		  nb_facts_virt(&views[0].s[1].env) == NB_VIRT_UNKNOWN,
	      "board2's driver stays unknown, never the controller's bridge");
	struct nb_cmp_entry se = {"two boards", &fm, &views[0]};
	CHECK(nb_cmp_build(&se, 1, NULL, &t) == 0 && t->nrows == 2,
	      "compare: one row per receiver");
	CHECK(!strcmp(t->row[0], "two boards / board1 (5.10, eth0 gianfar)") &&
		  !strcmp(t->row[1], "two boards / board2 (5.4, driver unknown)"),
	      "rows named by label and receiver with their own facts: '%s', '%s'", t->row[0],
	      t->row[1]);
	CHECK(nb_cmp_at(t, 0, 0)->polluted == 1 && nb_cmp_at(t, 1, 0)->polluted == 0,
	      "the polluted window keeps its mark");
	f = open_memstream(&xml, &xl);
	nb_cmp_write_text(f, t);
	fclose(f);
	CHECK(strstr(xml, "87.90!") && strstr(xml, "! in at least one run other processes used"),
	      "text: the mark and its footnote");
	free(xml);
	nb_cmp_table_free(t);
	nb_jdoc_free(d);

	/* Numbers in fixed point. */
	char num[32];
	nb_cmp_fmt_num(74650, num, sizeof(num));
	CHECK(!strcmp(num, "74650"), "74650, not 7.465e+04 (%s)", num);
	nb_cmp_fmt_num(87.9, num, sizeof(num));
	CHECK(!strcmp(num, "87.90"), "87.90 (%s)", num);
	nb_cmp_fmt_num(0.0123, num, sizeof(num));
	CHECK(!strcmp(num, "0.01230"), "0.01230 (%s)", num);
	nb_cmp_fmt_num(1.5e9, num, sizeof(num));
	CHECK(!strcmp(num, "1500000000"), "1500000000 (%s)", num);

	/* Crossovers name the engines compared. */
	const char *cdoc =
	    "{\"schema\":\"netbench/1\",\"test\":\"crypto\",\"results\":["
	    "{\"algo\":\"aes-128-cbc\",\"engine\":\"afalg\",\"status\":\"ok\",\"points\":[{"
	    "\"valid\":true,\"size_bytes\":16,\"mbyte_per_s\":10}]},"
	    "{\"algo\":\"aes-128-cbc\",\"engine\":\"cryptodev\",\"status\":\"ok\","
	    "\"crossover_bytes\":1024,\"crossover_vs\":\"afalg\",\"points\":[{\"valid\":true,"
	    "\"size_bytes\":16,\"mbyte_per_s\":2}]}]}";
	d = parse(cdoc);
	CHECK(d && nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 1 &&
		  !strcmp(views[0].note, "cryptodev is faster than afalg from 1k bytes") &&
		  !strcmp(views[0].marks[0].text, "cryptodev beats afalg"),
	      "crossover against the engine the run compared with: '%s'", views[0].note);
	nb_jdoc_free(d);

	/* Memory bandwidth is a view. */
	const char *mdoc = "{\"schema\":\"netbench/1\",\"test\":\"mem\",\"bandwidth\":{\"results\":"
			   "[{\"threads\":1,\"read_mbyte_per_s\":5000,\"write_mbyte_per_s\":3000,"
			   "\"copy_mbyte_per_s\":2500},{\"threads\":2,\"read_mbyte_per_s\":9000,"
			   "\"write_mbyte_per_s\":null,\"copy_mbyte_per_s\":4000}]}}";
	d = parse(mdoc);
	CHECK(d && nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 2 &&
		  !strcmp(views[1].id, "mem.bandwidth") && views[1].nseries == 3 &&
		  views[1].s[0].n == 2 && views[1].s[1].n == 1 && !views[1].lower_is_better,
	      "mem.bandwidth: read, write, copy by threads");
	nb_jdoc_free(d);
	return tap_done();
}
