/* SPDX-License-Identifier: BSD-2-Clause */
/* From stored results to fits (compare --fit, report --fit). Crypto documents whose engine names
 * are longer than a stored series name, imported three times with different core_mhz tags, once
 * overflowed the fit's run arrays (names were stored cut but compared whole): each step must
 * hold one run per result, and two long names that share their beginning stay two series. A
 * rule sweep is a set of runs of its own: each swept point one run, its rule count the factor. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/fit_out.h"
#include "core/store/fit_runs.h"
#include "core/store/jdoc.h"
#include "tap.h"

#define E60A "EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEA"
#define E60B "EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEB"

static const char crypto[] =
    "{\"schema\":\"netbench/1\",\"test\":\"crypto\",\"results\":["
    "{\"algo\":\"aes-128-cbc\",\"engine\":\"" E60A "\",\"status\":\"ok\",\"points\":["
    "{\"size_bytes\":16,\"mbyte_per_s\":%g,\"valid\":true},"
    "{\"size_bytes\":1024,\"mbyte_per_s\":%g,\"valid\":true}]},"
    "{\"algo\":\"aes-128-cbc\",\"engine\":\"" E60B "\",\"status\":\"ok\",\"points\":["
    "{\"size_bytes\":16,\"mbyte_per_s\":%g,\"valid\":true},"
    "{\"size_bytes\":1024,\"mbyte_per_s\":%g,\"valid\":true}]}]}";

/* A rule sweep at 0, 100 and 1000 rules, one kind, one frame size: ns per frame 5000 + 10 x
 * rules, then made noisy by +-f ns. */
static const char sweep[] =
    "{\"schema\":\"netbench/1\",\"test\":\"rate\",\"sweep\":["
    "{\"kind\":\"linear\",\"rules\":0,\"sizes\":[{\"frame_bytes\":64,\"fps\":%.17g,"
    "\"valid\":true}]},"
    "{\"kind\":\"linear\",\"rules\":100,\"sizes\":[{\"frame_bytes\":64,\"fps\":%.17g,"
    "\"valid\":true}]},"
    "{\"kind\":\"linear\",\"rules\":500,\"sizes\":[{\"frame_bytes\":64,\"fps\":%.17g,"
    "\"valid\":true}]},"
    "{\"kind\":\"linear\",\"rules\":1000,\"sizes\":[{\"frame_bytes\":64,\"fps\":%.17g,"
    "\"valid\":true}]}]}";

struct res {
	struct nb_store_row row;
	struct nb_jdoc *doc;
	struct nb_view views[NB_VIEW_MAX];
	size_t nviews;
};

static bool load(struct res *r, const char *text, const char *tag, const char *value)
{
	char err[200];
	memset(&r->row, 0, sizeof(r->row));
	r->row.cpu_mhz = NAN;
	if (tag) {
		snprintf(r->row.tags[0].key, sizeof(r->row.tags[0].key), "%s", tag);
		snprintf(r->row.tags[0].value, sizeof(r->row.tags[0].value), "%s", value);
		r->row.ntags = 1;
	}
	return !nb_jdoc_parse(text, strlen(text), &r->doc, err, sizeof(err)) &&
	       !nb_views_extract(r->doc, NULL, r->views, NB_VIEW_MAX, &r->nviews);
}

int main(void)
{
	static struct res r[4];
	struct nb_fit_source src[4];
	struct nb_fit_set s;
	char text[2048], why[256] = "";
	const char *mhz[] = {"250", "333", "416"};

	for (int i = 0; i < 3; i++) {
		double c = 0.2 * (250 + 83 * i);
		snprintf(text, sizeof(text), crypto, c, 10 * c, 2 * c, 20 * c);
		CHECK(load(&r[i], text, "core_mhz", mhz[i]), "crypto document %d loads", i);
		src[i] = (struct nb_fit_source){&r[i].row, r[i].views, r[i].nviews};
	}
	CHECK(r[0].nviews == 1 && r[0].views[0].nseries == 2,
	      "two engines with long names sharing 59 characters: two series (%zu)",
	      r[0].nviews ? r[0].views[0].nseries : 0);
	CHECK(strlen(r[0].views[0].s[0].name) == NB_SERIES_NAME_MAX - 1 &&
		  strcmp(r[0].views[0].s[0].name, r[0].views[0].s[1].name) &&
		  !strcmp(r[0].views[0].s[0].name, r[1].views[0].s[0].name),
	      "stored names: %s and %s, the same in every result", r[0].views[0].s[0].name,
	      r[0].views[0].s[1].name);
	CHECK(nb_fit_set_make("mbyte_per_s ~ core_mhz", false, src, 3, &s, why, sizeof(why)) == 0,
	      "the fit is made (%s)", why);
	bool three = s.nsteps == 4;
	for (size_t i = 0; i < s.nsteps; i++)
		three &= s.step[i].runs == 3 && s.step[i].ret == 0 && s.step[i].fit.dof == 1;
	CHECK(three, "4 steps (2 engines x 2 sizes), each of 3 runs, 1 residual dof (%zu steps)",
	      s.nsteps);
	CHECK(s.nsteps && fabs(s.step[0].fit.exponent[0] - 1) < 1e-9,
	      "MB/s proportional to the core: exponent 1");
	nb_fit_set_free(&s);
	/* The linear form gathers the same runs. */
	CHECK(nb_fit_set_make("mbyte_per_s ~ core_mhz", true, src, 3, &s, why, sizeof(why)) == 0 &&
		  s.nsteps == 4 && s.step[0].runs == 3,
	      "linear: the same steps");
	nb_fit_set_free(&s);

	/* Usage errors and nothing to fit. */
	CHECK(nb_fit_set_make("speed ~ core_mhz", false, src, 3, &s, why, sizeof(why)) == -EINVAL &&
		  strstr(why, "'speed' is not a metric"),
	      "an unknown metric: %s", why);
	CHECK(nb_fit_set_make("fps ~ core_mhz", false, src, 3, &s, why, sizeof(why)) == -ENOENT &&
		  strstr(why, "no chosen result has fps"),
	      "no rate result: %s", why);

	/* A rule sweep, untagged: each swept point is a run with its rule count. */
	double rules[] = {0, 100, 500, 1000}, noise[] = {40, -60, 30, -10}, fps[4];
	for (int i = 0; i < 4; i++)
		fps[i] = 1e9 / (5000 + 10 * rules[i] + noise[i]);
	snprintf(text, sizeof(text), sweep, fps[0], fps[1], fps[2], fps[3]);
	CHECK(load(&r[3], text, NULL, NULL), "sweep document loads");
	src[3] = (struct nb_fit_source){&r[3].row, r[3].views, r[3].nviews};
	CHECK(nb_fit_set_make("ns_per_frame ~ rules", true, src + 3, 1, &s, why, sizeof(why)) ==
		      0 &&
		  s.nsteps == 1 && s.step[0].runs == 4 && s.step[0].ret == 0,
	      "ns_per_frame ~ rules on a sweep: one step of 4 runs (%s)", why);
	if (s.nsteps == 1 && !s.step[0].ret) {
		const struct nb_fit *f = &s.step[0].fit;
		CHECK(!strcmp(s.step[0].name, "linear, 64 B") && f->dof == 2 && f->lo[0] < 10 &&
			  f->hi[0] > 10 && f->lo[0] > 9,
		      "%s: slope %.3f ns per rule, 95 %% interval %.3f to %.3f, dof %zu",
		      s.step[0].name, f->exponent[0], f->lo[0], f->hi[0], f->dof);
		CHECK(strstr(s.step[0].sentence, "rules slope 9.9") &&
			  strstr(s.step[0].sentence, "4 runs, 2 residual dof"),
		      "sentence: %s", s.step[0].sentence);
		/* The words compare --fit prints and report --fit shows, and the report's chart. */
		struct nb_fit_who who[1] = {{7, "sweep"}};
		char *out = NULL, *svg = NULL;
		size_t outlen = 0, svglen = 0;
		FILE *f1 = open_memstream(&out, &outlen), *f2 = open_memstream(&svg, &svglen);
		nb_fit_write_text(f1, &s, who);
		int cret = nb_fit_write_charts(f2, &s);
		fclose(f1);
		fclose(f2);
		CHECK(out &&
			  !strncmp(out,
				   "fit ns_per_frame ~ rules: linear least squares, ns_per_frame "
				   "= c + b x rules; each slope with its 95 % interval",
				   99) &&
			  strstr(out, "\n  linear, 64 B: ") && strstr(out, s.step[0].sentence),
		      "fit text: %s", out ? out : "(none)");
		CHECK(cret == 0 && svg && strstr(svg, "data-view=\"fit:rules\"") &&
			  strstr(svg, "<svg"),
		      "one chart for the one factor (%d, %zu bytes)", cret, svglen);
		free(out);
		free(svg);
	}
	nb_fit_set_free(&s);
	CHECK(nb_fit_set_make("ns_per_frame ~ rules", true, src, 4, &s, why, sizeof(why)) == 0 &&
		  s.nsteps == 1 && s.left_out == 0,
	      "crypto results do not count as left out of a rate fit");
	nb_fit_set_free(&s);
	for (int i = 0; i < 4; i++)
		nb_jdoc_free(r[i].doc);
	return tap_done();
}
