/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's page from views built here: Student's t and the interval of a mean (known
 * answers), error bars only where a label has repeated runs, a rule sweep as one chart per frame
 * size, tput in Mbit/s, a platform that is not a board marked, polluted points kept, captions
 * that describe the page's own content, and a value no axis takes refused with a sentence. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/runs.h"
#include "core/store/jdoc.h"
#include "core/store/report.h"
#include "tap.h"

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void tput_view(struct nb_view *v, double scale, bool polluted)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->id, sizeof(v->id), "tput.kbyte");
	snprintf(v->title, sizeof(v->title), "tput: throughput by block size");
	snprintf(v->x_name, sizeof(v->x_name), "block");
	snprintf(v->x_unit, sizeof(v->x_unit), "bytes");
	snprintf(v->y_name, sizeof(v->y_name), "throughput");
	snprintf(v->y_unit, sizeof(v->y_unit), "KByte/s");
	v->x_fmt = NB_XFMT_BYTES;
	v->x_log = true;
	v->nseries = 1;
	snprintf(v->s[0].name, sizeof(v->s[0].name), "Tx");
	nb_series_add(&v->s[0], 1024, 10000 * scale);
	nb_series_add(&v->s[0], 8192, 12000 * scale);
	v->s[0].polluted[1] = polluted;
}

static void sweep_view(struct nb_view *v, double noise)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->id, sizeof(v->id), "rate.rules");
	snprintf(v->title, sizeof(v->title), "rate: frames/s by firewall rule count");
	snprintf(v->x_name, sizeof(v->x_name), "rules");
	snprintf(v->y_name, sizeof(v->y_name), "throughput");
	snprintf(v->y_unit, sizeof(v->y_unit), "fps");
	static const double sizes[] = {64, 512, 1518};
	for (size_t k = 0; k < 2; k++)
		for (size_t s = 0; s < 3; s++) {
			struct nb_series *se = &v->s[v->nseries++];
			snprintf(se->name, sizeof(se->name), "%s, %g B", k ? "set" : "linear",
				 sizes[s]);
			se->facet = sizes[s];
			for (double r = 0; r <= 1000; r += 500)
				nb_series_add(se, r,
					      1e9 / (5000 + sizes[s] + (k ? 1 : 30) * r) * noise);
		}
	for (size_t s = 0; s < 3; s++) { /* each run's fitted cost of the linear kind */
		struct nb_series *se = &v->s[v->nseries++];
		snprintf(se->name, sizeof(se->name), "fit linear, %g B", sizes[s]);
		se->model = true;
		se->facet = sizes[s];
		for (double r = 0; r <= 1000; r += 250)
			nb_series_add(se, r, 1e9 / (5000 + sizes[s] + 30 * noise * r));
	}
}

static char *render(const struct nb_report_item *it, size_t n, int *ret, char *err, size_t el)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	*ret = nb_report_html_err(f, it, n, "t", "Written now.", NULL, err, el);
	fclose(f);
	return out;
}

int main(void)
{
	/* Student's t at 0.975 and the interval of a mean. */
	CHECK(fabs(nb_t975(1) - 12.706) < 0.001 && fabs(nb_t975(2) - 4.303) < 0.001 &&
		  fabs(nb_t975(30) - 2.042) < 0.001,
	      "t: 12.706, 4.303, ..., 2.042 (the table's, to its three decimals)");
	CHECK(fabs(nb_t975(40) - 2.021) < 0.001 && fabs(nb_t975(120) - 1.980) < 0.001,
	      "t beyond the table: 2.021 at 40, 1.980 at 120 (%.4f, %.4f)", nb_t975(40),
	      nb_t975(120));
	CHECK(isnan(nb_t975(0)), "no t for 0 degrees of freedom");
	double v3[] = {1, 2, 3}, mean, half;
	CHECK(nb_ci95(v3, 3, &mean, &half) == 0 && mean == 2 &&
		  fabs(half - 4.303 / sqrt(3)) < 1e-3,
	      "1, 2, 3: mean 2 +- 4.303 x 1 / sqrt 3 (%.6f)", half);
	double v1[] = {7};
	CHECK(nb_ci95(v1, 1, &mean, &half) == 0 && mean == 7 && isnan(half),
	      "one run: the mean, no interval");
	double vn[] = {1, NAN};
	CHECK(nb_ci95(vn, 2, &mean, &half) == -EINVAL && nb_ci95(vn, 0, &mean, &half) == -EINVAL,
	      "a non-finite value or none: -EINVAL");

	/* Label A ran three times, B once and under qemu-user, with a polluted window. */
	struct nb_view va[3], vb, vs[2];
	tput_view(&va[0], 1.0, false);
	tput_view(&va[1], 1.1, false);
	tput_view(&va[2], 0.9, false);
	tput_view(&vb, 0.5, true);
	struct nb_report_item it[] = {
	    {.id = 1,
	     .group = "A",
	     .test = "tput",
	     .time_utc = "2026-01-01T00:00:00Z",
	     .host = "h1",
	     .cpu_mhz = NAN,
	     .virt = "none",
	     .views = &va[0],
	     .nviews = 1},
	    {.id = 2,
	     .group = "A",
	     .test = "tput",
	     .time_utc = "2026-01-02T00:00:00Z",
	     .host = "h1",
	     .cpu_mhz = NAN,
	     .virt = "none",
	     .views = &va[1],
	     .nviews = 1},
	    {.id = 3,
	     .group = "A",
	     .test = "tput",
	     .time_utc = "2026-01-03T00:00:00Z",
	     .host = "h1",
	     .cpu_mhz = NAN,
	     .virt = "none",
	     .views = &va[2],
	     .nviews = 1},
	    {.id = 4,
	     .group = "B <ppc>",
	     .test = "tput",
	     .time_utc = "2026-01-01T12:00:00Z",
	     .host = "h2",
	     .cpu_mhz = 2596,
	     .virt = "qemu-user ppc on x86_64",
	     .views = &vb,
	     .nviews = 1},
	};
	char err[256] = "";
	int ret;
	char *out = render(it, 4, &ret, err, sizeof(err));
	CHECK(ret == 0, "page written (%d)", ret);
	CHECK(count(out, "class=\"errbar\"") == 2,
	      "an error bar at each of A's two points, none "
	      "on B's one run (%zu)",
	      count(out, "class=\"errbar\""));
	/* A at 1k: 10000, 11000, 9000 KByte/s; mean 10000 x 8192 / 1e6 = 81.92 Mbit/s. */
	CHECK(strstr(out, "throughput (Mbit/s)</text>") != NULL, "the y axis in Mbit/s");
	CHECK(strstr(out, ">100</text>") && !strstr(out, "k</text>\n<text class=\"axis-label y"),
	      "its ticks are plain numbers, no k or M on top of the unit's own M");
	CHECK(strstr(out, "Throughput in Mbit/s (stored as KByte/s, 1 KByte = 1024 bytes)") != NULL,
	      "the caption says the unit was converted");
	CHECK(strstr(out, "A: 3 runs. B &lt;ppc&gt;: 1 run. ") != NULL,
	      "the chart's caption counts each label's runs, escaped");
	CHECK(strstr(out, "Points are means; bars are 95 % intervals (Student's t)") != NULL,
	      "and says what the bars are");
	CHECK(strstr(out, "B &lt;ppc&gt;: Tx (not a board)") != NULL,
	      "the emulated label is marked in the legend");
	CHECK(strstr(out, "<td class=\"emulated\">not a board: qemu-user ppc on x86_64") &&
		  strstr(out, "<td>a board (none)"),
	      "the facts say what runs each platform");
	CHECK(strstr(out, "B &lt;ppc&gt; ran under qemu-user ppc on x86_64: not a board.") != NULL,
	      "a note says its CPU figures are not a board's");
	CHECK(count(out, "class=\"polluted\"") == 1 && strstr(out, "Hollow points (1)"),
	      "the polluted window keeps its mark, and the caption says so");
	CHECK(strstr(out, "4 results (tput 4) under 2 labels from 2 hosts, run from "
			  "2026-01-01T00:00:00Z to 2026-01-03T00:00:00Z. 1 label has repeated "
			  "runs") != NULL,
	      "the page's caption describes this page (%.160s)",
	      strstr(out, " results (") ? strstr(out, " results (") - 2 : "no caption");
	CHECK(strstr(out, "1 label ran emulated or virtualized") != NULL,
	      "the page's caption names the emulated platform");
	CHECK(!strstr(out, "do not say whether"), "every label said what it ran on");
	free(out);

	/* Another page says other things: one run, no bars, no emulation. */
	it[0].virt = NULL;
	out = render(it, 1, &ret, err, sizeof(err));
	CHECK(strstr(out, "1 result (tput 1) under 1 label from 1 host, run at "
			  "2026-01-01T00:00:00Z. No label has repeated runs") &&
		  !strstr(out, "not a board") && !strstr(out, "class=\"errbar\""),
	      "one run: its own caption, no bar");
	CHECK(strstr(out, "<td>unknown</td>") != NULL, "a document that does not say: unknown");
	CHECK(strstr(out, "1 label comes from documents that do not say whether they ran on a "
			  "board or emulated") != NULL,
	      "and the page's caption says so");
	free(out);
	/* One label, two tests, one run each: no repeated runs. */
	struct nb_report_item two[] = {it[0], it[1]};
	two[1].test = "mem";
	out = render(two, 2, &ret, err, sizeof(err));
	CHECK(strstr(out, "No label has repeated runs") != NULL,
	      "a tput and a mem run of one label are not repeated runs");
	free(out);

	/* A rule sweep imported twice: one chart per frame size, two kinds each. */
	sweep_view(&vs[0], 0.98);
	sweep_view(&vs[1], 1.02);
	struct nb_report_item sw[] = {
	    {.id = 5, .group = "fw", .test = "rate", .cpu_mhz = NAN, .views = &vs[0], .nviews = 1},
	    {.id = 6, .group = "fw", .test = "rate", .cpu_mhz = NAN, .views = &vs[1], .nviews = 1}};
	out = render(sw, 2, &ret, err, sizeof(err));
	CHECK(ret == 0 && strstr(out, "data-facets=\"3\""), "three frame sizes, three charts");
	CHECK(count(out, "<figure class=\"facet\"") == 3 && count(out, "data-series=\"4\"") == 3,
	      "each chart with its two kinds and each run's fit");
	CHECK(count(out, "class=\"series model\"") == 6 &&
		  count(out, ">fit linear (each of 2 runs)<title>") == 3,
	      "each run's fit is drawn, listed once in the legend with the number of runs");
	CHECK(strstr(out, "512-byte frames: frames/s by rule count") &&
		  strstr(out, "data-name=\"linear\"") && !strstr(out, "data-name=\"linear, 64 B\""),
	      "the size is in the title, not in each line's name");
	CHECK(count(out, "class=\"errbar\"") == 3 * 2 * 3, "a bar at every point (%zu)",
	      count(out, "class=\"errbar\""));
	CHECK(strstr(out, "stroke=\"#1f77b4\"") && strstr(out, "stroke=\"#d62728\""),
	      "the two kinds in two colours");
	free(out);

	/* A value no axis takes: refused with a sentence, not a hang. */
	struct nb_view vh;
	sweep_view(&vh, 1);
	vh.s[0].x[2] = 1e308;
	struct nb_report_item h = {
	    .id = 9, .group = "x", .test = "rate", .cpu_mhz = NAN, .views = &vh, .nviews = 1};
	out = render(&h, 1, &ret, err, sizeof(err));
	CHECK(ret == -ERANGE, "1e308 rules: -ERANGE");
	CHECK(!strcmp(err, "view rate.rules (result 9): the x axis cannot take 1e+308: an axis "
			   "takes magnitudes from 1e-300 to 1e+300"),
	      "the error names the view, the result and the range: %s", err);
	free(out);

	/* A rule sweep's fits in the view's note: whole sentences, "..." for what does not fit. */
	const char *doc =
	    "{\"schema\":\"netbench/1\",\"test\":\"rate\",\"sweep\":[],\"fits\":["
	    "{\"kind\":\"linear\",\"frame_bytes\":64,\"base_ns\":5128,\"per_rule_ns\":30},"
	    "{\"kind\":\"linear\",\"frame_bytes\":512,\"base_ns\":6024,\"per_rule_ns\":30},"
	    "{\"kind\":\"linear\",\"frame_bytes\":1518,\"base_ns\":8036,\"per_rule_ns\":30},"
	    "{\"kind\":\"set\",\"frame_bytes\":64,\"base_ns\":5128,\"per_rule_ns\":0.5},"
	    "{\"kind\":\"set\",\"frame_bytes\":512,\"base_ns\":6024,\"per_rule_ns\":0.5}]}";
	struct nb_jdoc *d;
	struct nb_view fv[NB_VIEW_MAX];
	size_t nfv = 0;
	CHECK(nb_jdoc_parse(doc, strlen(doc), &d, err, sizeof(err)) == 0 &&
		  nb_views_extract(d, NULL, fv, NB_VIEW_MAX, &nfv) == 0 && nfv == 1,
	      "a sweep document gives its view");
	const char *note = fv[0].note, *tail = note + strlen(note) - 5;
	CHECK(strlen(note) > 5 && !strcmp(tail, "; ...") &&
		  strstr(note, "linear, 1518 B: 8036.0 ns/frame + 30.000 ns per rule; ...") != NULL,
	      "the note ends on a whole sentence and '; ...': %s", note);
	nb_jdoc_free(d);
	return tap_done();
}
