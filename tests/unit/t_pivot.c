/* SPDX-License-Identifier: BSD-2-Clause */
/* Tables on chosen axes: values in the order a person reads them (board2 before board10, kernel
 * 6.9 before 6.10), one table per combination of what is on neither axis (never averaging two
 * sizes or two settings), a cell's mean and 95 % interval of its runs, a baseline column's
 * ratios, the kernel axis falling back to the measured platform, and the refusals. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/store/pivot.h"
#include "core/store/runs.h"
#include "tap.h"

static void fill(struct nb_view *v, const double *x, const double *y, size_t n)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->id, sizeof(v->id), "rate.fps");
	snprintf(v->title, sizeof(v->title), "rate");
	snprintf(v->x_name, sizeof(v->x_name), "frame");
	snprintf(v->x_unit, sizeof(v->x_unit), "bytes");
	snprintf(v->y_unit, sizeof(v->y_unit), "fps");
	v->x_fmt = NB_XFMT_BYTES;
	v->nseries = 1;
	snprintf(v->s[0].name, sizeof(v->s[0].name), "fps");
	for (size_t i = 0; i < n; i++)
		nb_series_add(&v->s[0], x[i], y[i]);
}

int main(void)
{
	struct nb_piv_axis a;
	CHECK(nb_piv_natcmp("board2", "board10") < 0, "board2 before board10");
	CHECK(nb_piv_natcmp("6.9", "6.10") < 0 && nb_piv_natcmp("6.10", "6.12") < 0,
	      "6.9 before 6.10 before 6.12");
	CHECK(nb_piv_natcmp("5.15", "6.1") < 0 && nb_piv_natcmp("6.01", "6.1") == 0,
	      "5.15 before 6.1; leading zeros do not count");
	CHECK(nb_piv_natcmp("a", "b") < 0 && nb_piv_natcmp("ab", "a") > 0, "the rest by bytes");
	CHECK(nb_piv_axis_parse("label", &a) == 0 && a.kind == NB_PIV_LABEL, "label");
	CHECK(nb_piv_axis_parse("size", &a) == 0 && a.kind == NB_PIV_SIZE, "size");
	CHECK(nb_piv_axis_parse("kernel", &a) == 0 && a.kind == NB_PIV_TAG &&
		  !strcmp(a.key, "kernel"),
	      "any other word is a tag key");
	CHECK(nb_piv_axis_parse("", &a) == -EINVAL && nb_piv_axis_parse("a b", &a) == -EINVAL &&
		  nb_piv_axis_parse("x=1", &a) == -EINVAL,
	      "empty or malformed keys are refused");

	/* board10 and board2, kernels 6.10 and 6.9; board2 on 6.9 ran twice. 64 and 1518 bytes. */
	static struct nb_view v[5];
	double x[] = {64, 1518};
	double y0[] = {100, 10}, y1[] = {110, 11}, y2[] = {200, 20}, y3[] = {300, 30},
	       y4[] = {400, 40};
	fill(&v[0], x, y0, 2);
	fill(&v[1], x, y1, 2);
	fill(&v[2], x, y2, 2);
	fill(&v[3], x, y3, 2);
	fill(&v[4], x, y4, 2);
	struct nb_store_tag k69 = {"kernel", "6.9"}, k610 = {"kernel", "6.10"};
	struct nb_facts env = {.kernel = "6.1.0"};
	struct nb_piv_entry e[] = {
	    {1, "board2", "h", &k69, 1, NULL, &v[0]},	{2, "board2", "h", &k69, 1, NULL, &v[1]},
	    {3, "board2", "h", &k610, 1, NULL, &v[2]},	{4, "board10", "h", &k69, 1, NULL, &v[3]},
	    {5, "board10", "h", &k610, 1, NULL, &v[4]},
	};
	struct nb_piv_axis rows, cols;
	nb_piv_axis_parse("label", &rows);
	nb_piv_axis_parse("kernel", &cols);
	struct nb_cmp_table **t;
	size_t nt;
	CHECK(nb_piv_build(e, 5, &rows, &cols, "6.9", &t, &nt) == 0 && nt == 2,
	      "label by kernel: one table per frame size");
	if (nt == 2) {
		CHECK(strstr(t[0]->title, "frame 64 bytes") && strstr(t[1]->title, "frame 1518"),
		      "tables in size order, titled by what is on neither axis");
		CHECK(!strcmp(t[0]->row[0], "board2") && !strcmp(t[0]->row[1], "board10") &&
			  !strcmp(t[0]->col[0], "6.9") && !strcmp(t[0]->col[1], "6.10"),
		      "rows and columns in natural order");
		const struct nb_cmp_cell *c = nb_cmp_at(t[0], 0, 0);
		struct nb_runs r = {0};
		nb_runs_add(&r, 100);
		nb_runs_add(&r, 110);
		CHECK(c->runs == 2 && c->mean == 105 && fabs(c->spread - nb_runs_ci95(&r)) < 1e-9,
		      "a cell: the mean of its two runs and their 95 %% interval (%g)", c->spread);
		CHECK(t[0]->has_baseline &&
			  fabs(nb_cmp_at(t[0], 0, 1)->ratio - 200.0 / 105) < 1e-9 &&
			  fabs(nb_cmp_at(t[0], 1, 1)->ratio - 400.0 / 300) < 1e-9,
		      "ratios to the same row's 6.9 cell");
		CHECK(!nb_cmp_at(t[0], 1, 1)->judged,
		      "one run a side: the ratio's significance is not judged");
		CHECK(t[0]->pivot && t[0]->group_runs[0] == 2 &&
			  !strcmp(t[0]->corner, "label \\ kernel"),
		      "marked as chosen axes; corner '%s'", t[0]->corner);
	}
	nb_piv_free(t, nt);

	nb_piv_axis_parse("size", &cols);
	CHECK(nb_piv_build(e, 5, &rows, &cols, NULL, &t, &nt) == 0 && nt == 2,
	      "label by size: one table per kernel (never averaged across kernels)");
	if (nt == 2)
		CHECK(strstr(t[0]->title, "kernel=6.9") && strstr(t[1]->title, "kernel=6.10") &&
			  !strcmp(t[0]->col[0], "64") && !strcmp(t[0]->col[1], "1518"),
		      "kernels in order, sizes by number");
	nb_piv_free(t, nt);
	CHECK(nb_piv_build(e, 5, &rows, &rows, NULL, &t, &nt) == -EINVAL,
	      "the same axis twice is refused");
	nb_piv_axis_parse("kernel", &cols);
	CHECK(nb_piv_build(e, 5, &rows, &cols, "7.0", &t, &nt) == -ENOENT && !t && !nt,
	      "a baseline no column has: -ENOENT, nothing built");

	/* Without a kernel tag the axis reads the measured platform's kernel. */
	struct nb_piv_entry f = {6, "", "h", NULL, 0, &env, &v[0]};
	char buf[64];
	nb_piv_value(&cols, &f, 64, buf, sizeof(buf));
	CHECK(!strcmp(buf, "6.1.0"), "kernel from the platform: %s", buf);
	nb_piv_value(&rows, &f, 64, buf, sizeof(buf));
	CHECK(!strcmp(buf, "#6"), "no label: #ID (%s)", buf);
	nb_piv_axis_parse("board_rev", &cols);
	nb_piv_value(&cols, &f, 64, buf, sizeof(buf));
	CHECK(!strcmp(buf, "-"), "an absent tag: '-'");
	return tap_done();
}
