/* SPDX-License-Identifier: BSD-2-Clause */
/* The report's HTML page: the head with its inline CSS, the caption of what the page holds,
 * and one section per view in a fixed order (report_section.c draws each). */
#include "core/store/report.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/chart.h"
#include "core/store/report_sect.h"

static const char *const order[] = {
    "rate.fps",	    "rate.rules", "rate.profile",   "tput.kbyte",   "tput.cpu",
    "tput.profile", "stream.cpu", "stream.profile", "crypto.mbyte", "mem.latency"};

static const char css[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1200px}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}"
    "section.view{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}"
    "section.view figure{margin:0;flex:0 0 640px}section.view aside{flex:1 1 420px;min-width:420px}"
    "div.facets{display:flex;flex-wrap:wrap;gap:8px;flex:0 0 100%}div.facets.one{flex:0 0 auto}"
    "div.facets figure{flex:0 0 auto;width:min-content}"
    "figcaption{font-size:12px;color:#444;max-width:640px}"
    "table.facts{border-collapse:collapse;font-size:12px;max-width:100%}"
    "table.facts td:first-child{overflow-wrap:anywhere;min-width:6em}"
    "table.facts td,table.facts th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
    "td.emulated{background:#fde8c8}"
    "p.crowded{background:#fde8c8;padding:4px 8px;max-width:640px}"
    "ul.notes{font-size:13px}.meta{color:#444;font-size:13px;max-width:1000px}";

/* Whether a label has repeated runs: two of its results of one test. */
static bool group_repeats(const struct nb_report_item *it, size_t n, const char *group)
{
	for (size_t q = 0; q < n; q++)
		for (size_t z = q + 1; z < n; z++)
			if (!strcmp(it[q].group, group) && !strcmp(it[z].group, group) &&
			    it[q].test && it[z].test && !strcmp(it[q].test, it[z].test))
				return true;
	return false;
}

/* What the caption counts over the results. */
struct caption_counts {
	size_t groups, repeated, hosts, flagged, emulated, unknown;
	const char *t0, *t1; /* the first and last run's time */
	bool marks, models;
};

static void caption_count(const struct nb_report_item *it, size_t n, struct caption_counts *c)
{
	for (size_t i = 0; i < n; i++) {
		bool first, hfirst = true;
		nb_report_group_runs(it, n, i, NULL, &first);
		c->groups += first;
		c->repeated += first && group_repeats(it, n, it[i].group);
		c->emulated += first && nb_report_not_a_board(it[i].virt);
		c->unknown += first && !(it[i].virt && *it[i].virt);
		/* strcmp's sign, not its value: "&=" with it kept bit 0 of a byte difference. */
		for (size_t q = 0; q < i && hfirst; q++)
			hfirst =
			    strcmp(it[q].host ? it[q].host : "", it[i].host ? it[i].host : "") != 0;
		c->hosts += hfirst;
		if (it[i].time_utc && *it[i].time_utc) {
			if (!c->t0 || strcmp(it[i].time_utc, c->t0) < 0)
				c->t0 = it[i].time_utc;
			if (!c->t1 || strcmp(it[i].time_utc, c->t1) > 0)
				c->t1 = it[i].time_utc;
		}
		for (size_t v = 0; v < it[i].nviews; v++) {
			const struct nb_view *vw = &it[i].views[v];
			c->marks |= vw->nmarks > 0;
			for (size_t q = 0; q < vw->nseries; q++) {
				c->models |= vw->s[q].model;
				for (size_t p = 0; p < vw->s[q].n; p++)
					c->flagged += vw->s[q].polluted[p];
			}
		}
	}
}

/* The page's caption: what this report holds, from its own results. */
static void caption(FILE *f, const struct nb_report_item *it, size_t n, const char *generated)
{
	static const char *const tests[] = {"tput", "rate", "stream", "crypto", "mem"};
	struct caption_counts c = {0};

	fputs("<p class=\"meta caption\">", f);
	fprintf(f, "%zu result%s", n, n == 1 ? "" : "s");
	size_t k = 0;
	for (size_t t = 0; t < sizeof(tests) / sizeof(tests[0]); t++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			m += it[i].test && !strcmp(it[i].test, tests[t]);
		if (m)
			fprintf(f, "%s%s %zu", k++ ? ", " : " (", tests[t], m);
	}
	fputs(k ? ")" : "", f);
	caption_count(it, n, &c);
	fprintf(f, " under %zu label%s from %zu host%s", c.groups, c.groups == 1 ? "" : "s",
		c.hosts, c.hosts == 1 ? "" : "s");
	if (c.t0) {
		fputs(", run ", f);
		if (strcmp(c.t0, c.t1)) {
			fputs("from ", f);
			nb_xml_text(f, c.t0);
			fputs(" to ", f);
			nb_xml_text(f, c.t1);
		} else {
			fputs("at ", f);
			nb_xml_text(f, c.t0);
		}
	}
	fputs(". ", f);
	if (c.repeated)
		fprintf(
		    f,
		    "%zu label%s ha%s repeated runs: drawn at their mean with the 95 %% interval "
		    "(Student's t) as error bars. ",
		    c.repeated, c.repeated == 1 ? "" : "s", c.repeated == 1 ? "s" : "ve");
	else
		fputs("No label has repeated runs: every point is one run, without an interval. ",
		      f);
	if (c.models)
		fputs("Dashed lines are computed curves, not measurements. ", f);
	if (c.marks)
		fputs("Dotted verticals mark cache steps and crypto crossovers. ", f);
	if (c.flagged)
		fprintf(f,
			"%zu CPU figure%s came from windows polluted by other processes (hollow "
			"points). ",
			c.flagged, c.flagged == 1 ? "" : "s");
	if (c.emulated)
		fprintf(f,
			"%zu label%s ran emulated or virtualized, not on a board: marked \"not a "
			"board\". ",
			c.emulated, c.emulated == 1 ? "" : "s");
	if (c.unknown)
		fprintf(f,
			"%zu label%s come%s from documents that do not say whether they ran on a "
			"board or emulated (\"unknown\"). ",
			c.unknown, c.unknown == 1 ? "" : "s", c.unknown == 1 ? "s" : "");
	nb_xml_text(f, generated);
	fputs("</p>\n", f);
}

int nb_report_html_err(FILE *f, const struct nb_report_item *it, size_t n, const char *title,
		       const char *generated, const char *extra_html, char *err, size_t errlen)
{
	const char *last_test = "";
	int ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	nb_xml_text(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	nb_xml_text(f, title);
	fputs("</h1>\n", f);
	caption(f, it, n, generated);
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = nb_report_has_view(&it[i], order[o]);
		if (!any)
			continue;
		size_t tl = strcspn(order[o], ".");
		if (strncmp(last_test, order[o], tl) || last_test[tl] != '.') {
			fprintf(f, "<h2 id=\"test-%.*s\">%.*s</h2>\n", (int)tl, order[o], (int)tl,
				order[o]);
			last_test = order[o];
		}
		if ((ret = nb_report_section(f, it, n, order[o], err, errlen)))
			return ret;
	}
	if (!n)
		fputs("<p>No results matched.</p>\n", f);
	if (extra_html)
		fputs(extra_html, f);
	fputs("</body>\n</html>\n", f);
	return 0;
}
