/* SPDX-License-Identifier: BSD-2-Clause */
/* compare: repeated runs become a mean with its 95 % interval, a baseline adds ratios with
 * their interval, a difference inside the runs' noise is not flagged, stream is laid out as seed
 * 002's table with one row per receiver, facts come from the measured end only, and the views
 * come out of real-shaped documents. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/compare.h"
#include "core/store/jdoc.h"
#include "core/store/views.h"
#include "tap.h"

static void fill(struct nb_view *v, const char *id, bool by_result, const char *series,
		 const double *x, const double *y, size_t n)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->id, sizeof(v->id), "%s", id);
	snprintf(v->title, sizeof(v->title), "t");
	snprintf(v->x_name, sizeof(v->x_name), "block");
	snprintf(v->x_unit, sizeof(v->x_unit), "bytes");
	snprintf(v->y_unit, sizeof(v->y_unit), "KByte/s");
	v->x_fmt = NB_XFMT_BYTES;
	v->by_result = by_result;
	v->nseries = 1;
	snprintf(v->s[0].name, sizeof(v->s[0].name), "%s", series);
	for (size_t i = 0; i < n; i++)
		nb_series_add(&v->s[0], x[i], y[i]);
}

static char *render_csv(const struct nb_cmp_table *t)
{
	char *out = NULL;
	size_t len;
	FILE *f = open_memstream(&out, &len);
	nb_cmp_write_csv(f, t, true);
	fclose(f);
	return out;
}

int main(void)
{
	static struct nb_view v[5];
	double x[] = {1024, 8192};
	double a1[] = {100, 200}, a2[] = {110, 210}; /* board A: two runs, spread 5 */
	double b1[] = {104, 300};		     /* board B: within noise at 1k, not at 8k */
	double c1[] = {50, 100};

	fill(&v[0], "tput.kbyte", false, "Tx", x, a1, 2);
	fill(&v[1], "tput.kbyte", false, "Tx", x, a2, 2);
	fill(&v[2], "tput.kbyte", false, "Tx", x, b1, 2);
	fill(&v[3], "tput.kbyte", false, "Tx", x, c1, 1); /* C has only the 1k point */
	struct nb_cmp_entry e[] = {
	    {"A", NULL, &v[0]}, {"A", NULL, &v[1]}, {"B", NULL, &v[2]}, {"C", NULL, &v[3]}};
	double t1 = nb_t975(1);
	struct nb_cmp_table *t;

	CHECK(nb_cmp_build(e, 4, NULL, &t) == 0, "table builds");
	CHECK(t->nrows == 2 && t->ncols == 3, "rows = block sizes, columns = labels (%zux%zu)",
	      t->nrows, t->ncols);
	CHECK(!strcmp(t->row[0], "1k") && !strcmp(t->row[1], "8k"), "rows 1k, 8k");
	CHECK(!strcmp(t->col[0], "A: Tx") && !strcmp(t->col[2], "C: Tx"), "columns name the label");
	struct nb_cmp_cell *c = nb_cmp_at(t, 0, 0);
	CHECK(c->runs == 2 && c->mean == 105 && fabs(c->spread - t1 * 5) < 1e-9,
	      "two runs: mean 105, 95 %% interval t(1) x sd / sqrt(2) = 63.5 (got %g)", c->spread);
	CHECK(nb_cmp_at(t, 0, 2)->has && !nb_cmp_at(t, 1, 2)->has, "a missing point stays empty");
	CHECK(isnan(c->ratio), "no baseline, no ratio");
	nb_cmp_table_free(t);

	CHECK(nb_cmp_build(e, 4, "A", &t) == 0, "with baseline A");
	c = nb_cmp_at(t, 0, 1);
	CHECK(fabs(c->ratio - 104.0 / 105) < 1e-12 && !c->differs && !c->judged,
	      "B at 1k: 0.99x, one run: not judged, not flagged");
	c = nb_cmp_at(t, 1, 1);
	CHECK(fabs(c->ratio - 300.0 / 205) < 1e-12 && !c->differs && !c->judged,
	      "B at 8k: 1.46x, one run: not judged (one run has no noise to judge by)");
	CHECK(nb_cmp_at(t, 0, 0)->is_base && !nb_cmp_at(t, 0, 0)->differs,
	      "the baseline's own cells are values");
	char *csv = render_csv(t);
	CHECK(!strncmp(csv,
		       "view,row,column,unit,mean,ci95,runs,ratio,ratio_lo,ratio_hi,differs,"
		       "polluted,virtualization\n",
		       89),
	      "CSV header");
	CHECK(strstr(csv, "tput.kbyte,8k,B: Tx,KByte/s,300,,1,1.46341,,,not judged,0,\n") != NULL,
	      "CSV line for B at 8k");
	CHECK(strstr(csv, "tput.kbyte,1k,A: Tx,KByte/s,105,63.5310,2,1,,,,0,\n") != NULL ||
		  strstr(csv, "tput.kbyte,1k,A: Tx,KByte/s,105,63.531,2,1,,,,0,\n") != NULL,
	      "CSV line for A at 1k: mean, interval and runs");
	char *txt0 = NULL;
	size_t tlen0;
	FILE *tf = open_memstream(&txt0, &tlen0);
	nb_cmp_write_text(tf, t);
	fclose(tf);
	CHECK(strstr(txt0, "300.0 1.46x") && strstr(txt0, "105.0 ±64") &&
		  strstr(txt0, "significance not judged"),
	      "text: value beside its ratio, the interval, the unjudged note");
	CHECK(!strchr(txt0, 'e') || !strstr(txt0, "e+"), "no e-notation");
	{
		/* Three runs of one group, two verdicts: the disagreement is said, with the
		 * count of each, and the group's verdict is not established; a group whose runs
		 * agree on the class (figures apart) says nothing more. */
		static struct nb_view dv[5];
		for (int i = 0; i < 5; i++)
			fill(&dv[i], "rate.fps", false, "fps", x, a1, 2);
		snprintf(dv[0].note, sizeof(dv[0].note), "generator bound: 50k fps offered");
		snprintf(dv[1].note, sizeof(dv[1].note),
			 "DUT ingress bound (NIC, DMA or bus): host tap drops 4733");
		snprintf(dv[2].note, sizeof(dv[2].note),
			 "DUT ingress bound (NIC, DMA or bus): host tap drops 5120");
		snprintf(dv[3].note, sizeof(dv[3].note), "frame-rate bound: spread 2 %%");
		snprintf(dv[4].note, sizeof(dv[4].note), "frame-rate bound: spread 3 %%");
		struct nb_cmp_entry de[] = {{"board", NULL, &dv[0]},
					    {"board", NULL, &dv[1]},
					    {"board", NULL, &dv[2]},
					    {"pc", NULL, &dv[3]},
					    {"pc", NULL, &dv[4]}};
		struct nb_cmp_table *dt = NULL;
		int built = nb_cmp_build(de, 5, NULL, &dt);
		if (!CHECK(built == 0 && dt, "disagreeing runs: the table builds (%d)", built))
			return tap_done();
		CHECK(dt->nnotes == 6, "disagreeing runs: one line more than the runs' notes (%zu)",
		      dt->nnotes);
		CHECK(
		    !strcmp(dt->notes[0],
			    "board: the runs disagree: 2 of 3 runs: DUT ingress bound (NIC, DMA or "
			    "bus), 1: generator bound; the group's verdict is not established "
			    "(repeat the runs, or look for what differed between them)"),
		    "2 of 3 runs: X, 1: Y, not established (%s)", dt->notes[0]);
		bool pc = false;
		for (size_t k = 0; k < dt->nnotes; k++)
			pc |= !strncmp(dt->notes[k], "pc: the runs disagree", 21);
		CHECK(!pc, "runs that agree on the verdict (figures apart) do not disagree");
		nb_cmp_table_free(dt);
	}
	free(txt0);
	free(csv);
	nb_cmp_table_free(t);

	CHECK(nb_cmp_build(e, 4, "nobody", &t) == -ENOENT && !t, "unknown baseline refused");

	/* Repeated runs on both sides: the ratio's interval decides. */
	double b2[] = {96, 300}, a3[] = {101, 205}, b3[] = {104, 302};
	fill(&v[4], "tput.kbyte", false, "Tx", x, b2, 2);
	static struct nb_view w[2];
	fill(&w[0], "tput.kbyte", false, "Tx", x, a3, 2);
	fill(&w[1], "tput.kbyte", false, "Tx", x, b3, 2);
	struct nb_cmp_entry e2[] = {{"A", NULL, &v[0]}, {"A", NULL, &v[1]}, {"A", NULL, &w[0]},
				    {"B", NULL, &v[2]}, {"B", NULL, &v[4]}, {"B", NULL, &w[1]}};
	CHECK(nb_cmp_build(e2, 6, "A", &t) == 0, "three runs each");
	c = nb_cmp_at(t, 0, 1);
	CHECK(c->judged && !c->differs && c->ratio_lo < 1 && c->ratio_hi > 1,
	      "B 1k (104, 96, 104) against A (100, 110, 101): interval %.3f..%.3f includes 1",
	      c->ratio_lo, c->ratio_hi);
	c = nb_cmp_at(t, 1, 1);
	CHECK(c->judged && c->differs && c->ratio_lo > 1.3,
	      "B 8k (300, 300, 302) against A (200, 210, 205): interval %.3f..%.3f above 1",
	      c->ratio_lo, c->ratio_hi);
	nb_cmp_table_free(t);

	/* Seed 002's shape: rows = results, columns = bitrate. */
	double mbit[] = {4, 8, 12}, cpu_a[] = {10, 22, 40}, cpu_b[] = {5, 9, 14};
	fill(&v[0], "stream.cpu", true, "receiver", mbit, cpu_a, 3);
	fill(&v[1], "stream.cpu", true, "receiver", mbit, cpu_b, 3);
	v[0].x_fmt = v[1].x_fmt = NB_XFMT_NUM;
	struct nb_facts fa = {.known = true, .kernel = "2.6.28", .driver = "gianfar"},
			fb = {.known = true,
			      .kernel = "2.6.20",
			      .iface = "eth0",
			      .driver = "ixp4xx_eth",
			      .virt = "qemu-user armeb on x86_64"};
	struct nb_cmp_entry s[] = {{"MPC8313", &fa, &v[0]}, {"IXP425", &fb, &v[1]}};
	CHECK(nb_cmp_build(s, 2, "MPC8313", &t) == 0, "stream table builds");
	CHECK(t->by_result && t->nrows == 2 && t->ncols == 3, "2 results x 3 bitrates");
	CHECK(!strcmp(t->row[0], "MPC8313 (2.6.28, gianfar)") &&
		  !strcmp(t->row[1], "IXP425 (2.6.20, eth0 ixp4xx_eth)") &&
		  !strcmp(t->col[2], "12"),
	      "row names result, kernel, interface and driver; column 12 (Mbit/s)");
	CHECK(fabs(nb_cmp_at(t, 1, 2)->ratio - 14.0 / 40) < 1e-12, "IXP425 at 12M: 0.35x");
	char *txt = NULL;
	size_t len;
	FILE *f = open_memstream(&txt, &len);
	nb_cmp_write_text(f, t);
	fclose(f);
	CHECK(strstr(txt, "14.00 0.35x") && strstr(txt, "result \\ block bytes"),
	      "text shows the value and its ratio");
	CHECK(strstr(txt, "IXP425 (2.6.20, eth0 ixp4xx_eth)~") &&
		  strstr(txt,
			 "~ IXP425 ran under qemu-user armeb on x86_64: its instructions were "
			 "translated and its CPU figures are the host kernel's, not a board's"),
	      "an emulated platform is marked and said so");
	free(txt);
	nb_cmp_table_free(t);

	/* Views from documents shaped as the tests write them. */
	const char *tput =
	    "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"steps\":["
	    "{\"block_bytes\":1024,\"direction\":\"tx\",\"valid\":true,\"kbyte_per_s\":100,"
	    "\"demand_remote_us_per_kbyte\":3},"
	    "{\"block_bytes\":1024,\"direction\":\"rx\",\"valid\":false,\"kbyte_per_s\":null},"
	    "{\"block_bytes\":2048,\"direction\":\"rx\",\"valid\":true,\"kbyte_per_s\":250,"
	    "\"demand_remote_us_per_kbyte\":2}]}";
	struct nb_jdoc *d;
	char err[128];
	static struct nb_view views[NB_VIEW_MAX];
	size_t nv;
	CHECK(nb_jdoc_parse(tput, strlen(tput), &d, err, sizeof(err)) == 0, "tput doc parses");
	CHECK(nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 2,
	      "tput: two views");
	CHECK(views[0].nseries == 2 && views[0].s[0].n == 1 && views[0].s[1].n == 1 &&
		  views[0].s[1].y[0] == 250,
	      "the invalid Rx step is left out");
	CHECK(views[0].x_log && views[0].x_fmt == NB_XFMT_BYTES, "block sizes on a log axis");
	CHECK(!*views[0].note && !*views[1].note,
	      "no congestion control in the steps (UDP, an older netbench): no note");
	nb_jdoc_free(d);
	/* Which TCP congestion control sent each direction goes with the figures. */
	static const struct {
		const char *tx, *rx, *note;
	} ccs[] = {
	    {"\"bbr\"", "\"bbr\"", "TCP congestion control bbr"},
	    {"\"cubic\"", "\"bbr\"", "TCP congestion control Tx cubic, Rx bbr"},
	    {"\"cubic\"", "null", "TCP congestion control Tx cubic, Rx not known"},
	    {"\"Cu bic\"", "\"reno\"", "TCP congestion control Tx not known, Rx reno"},
	};
	for (size_t i = 0; i < sizeof(ccs) / sizeof(ccs[0]); i++) {
		char doc[600];
		snprintf(doc, sizeof(doc),
			 "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"steps\":["
			 "{\"block_bytes\":1024,\"direction\":\"tx\",\"valid\":true,"
			 "\"kbyte_per_s\":100,\"congestion\":%s},"
			 "{\"block_bytes\":2048,\"direction\":\"tx\",\"valid\":true,"
			 "\"kbyte_per_s\":200,\"congestion\":%s},"
			 "{\"block_bytes\":1024,\"direction\":\"rx\",\"valid\":true,"
			 "\"kbyte_per_s\":100,\"congestion\":%s}]}",
			 ccs[i].tx, ccs[i].tx, ccs[i].rx);
		CHECK(nb_jdoc_parse(doc, strlen(doc), &d, err, sizeof(err)) == 0 &&
			  nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 2 &&
			  !strcmp(views[0].note, ccs[i].note) &&
			  !strcmp(views[1].note, ccs[i].note),
		      "Tx %s, Rx %s: the note reads \"%s\" (got \"%s\")", ccs[i].tx, ccs[i].rx,
		      ccs[i].note, views[0].note);
		nb_jdoc_free(d);
	}
	{
		const char *mixed = "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"steps\":["
				    "{\"block_bytes\":1024,\"direction\":\"tx\",\"valid\":true,"
				    "\"kbyte_per_s\":1,\"congestion\":\"bbr\"},"
				    "{\"block_bytes\":2048,\"direction\":\"tx\",\"valid\":true,"
				    "\"kbyte_per_s\":1,\"congestion\":\"cubic\"}]}";
		CHECK(nb_jdoc_parse(mixed, strlen(mixed), &d, err, sizeof(err)) == 0 &&
			  nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 &&
			  !strcmp(views[0].note, "TCP congestion control Tx mixed, Rx not known"),
		      "steps of one direction with different algorithms: mixed (got \"%s\")",
		      views[0].note);
		nb_jdoc_free(d);
	}

	const char *mem =
	    "{\"schema\":\"netbench/1\",\"test\":\"mem\",\"latency\":{\"points\":["
	    "{\"set_bytes\":1024,\"ns_per_load\":1.2},{\"set_bytes\":65536,"
	    "\"ns_per_load\":4.7}]},\"caches\":{\"inferred\":[{\"size_bytes\":32768}]}}";
	CHECK(nb_jdoc_parse(mem, strlen(mem), &d, err, sizeof(err)) == 0, "mem doc parses");
	CHECK(nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 1 &&
		  views[0].s[0].n == 2 && views[0].nmarks == 1 && views[0].marks[0].x == 32768,
	      "mem: latency curve with the cache step marked");
	CHECK(views[0].lower_is_better && views[0].y_log, "latency: log axis");
	nb_jdoc_free(d);

	const char *rate =
	    "{\"schema\":\"netbench/1\",\"test\":\"rate\",\"parameters\":{\"line_rate_bps\":1e9},"
	    "\"verdict\":\"bus bound\",\"sizes\":[{\"frame_bytes\":64,\"fps\":1e5,\"valid\":true},"
	    "{\"frame_bytes\":1518,\"fps\":81274,\"valid\":true}]}";
	CHECK(nb_jdoc_parse(rate, strlen(rate), &d, err, sizeof(err)) == 0, "rate doc parses");
	CHECK(nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 1 &&
		  views[0].nseries == 2 && views[0].s[1].model,
	      "rate: fps and the line-rate curve");
	CHECK(fabs(views[0].s[1].y[0] - 1488095.238) < 0.01,
	      "line rate at 64 B on 1 Gbit/s: "
	      "1488095 fps (got %.3f)",
	      views[0].s[1].y[0]);
	CHECK(!strcmp(views[0].note, "bus bound"), "the verdict becomes the note");
	nb_jdoc_free(d);

	const char *lab = "{\"schema\":\"netbench/1\",\"test\":\"lab\"}";
	CHECK(nb_jdoc_parse(lab, strlen(lab), &d, err, sizeof(err)) == 0 &&
		  nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == 0 && nv == 0,
	      "lab documents have no views");
	nb_jdoc_free(d);
	const char *notres = "{\"a\":1}";
	CHECK(nb_jdoc_parse(notres, strlen(notres), &d, err, sizeof(err)) == 0 &&
		  nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv) == -EINVAL,
	      "a document without test is refused");
	nb_jdoc_free(d);
	return tap_done();
}
