/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench report: one self-contained HTML file with a chart per view of the chosen results. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/base/atomicfile.h"
#include "cmd/commands.h"
#include "cmd/store_cli.h"
#include "core/store/chart.h"
#include "core/store/report.h"

static const char usage_text[] =
    "Usage: netbench report [filters] [ID...] -o FILE.html [--title TEXT]\n"
    "\n"
    "Writes one HTML file (inline SVG, no scripts or external resources: it opens\n"
    "offline) with a chart per test view of the chosen stored results: frames/s by\n"
    "frame size with the line rate, frames/s by rule count with the fitted cost, tput\n"
    "by block size and CPU per KByte, receiver CPU by bitrate (one line per result\n"
    "label), crypto MB/s by size per engine with crossovers, memory latency by\n"
    "working set with the cache steps.\n"
    "\n"
    "Filters:\n" STORE_CLI_HELP "Options:\n"
    "  -o, --output FILE      the HTML file to write (required)\n"
    "      --title TEXT       the page's title (default \"netbench report\")\n"
    "      --trend KEY        instead of a chart per view: one metric across a tag's\n"
    "                         values (kernel 5.10, 6.1, ... in version order), a line\n"
    "                         per label (or per --rows AXIS: label, host or a tag), 8\n"
    "                         lines a chart, one section per size, with compare\n"
    "                         --trend's table beside it\n"
    "      --rows AXIS        with --trend: what a line is (default: label)\n"
    "      --cpu WHAT         stream: total (default), softirq or process\n"
    "      --algo NAME        crypto: the algorithm drawn\n"
    "      --fit 'M ~ F + F'  add compare --fit's fit: M against each\n"
    "                         factor F on log-log axes with the fitted line\n"
    "                         and the reference probe's line\n"
    "      --linear           with --fit: the linear form (linear axes)\n"
    "  -h, --help             this help\n" CLI_VERSION_HELP;

enum { O_TITLE = 0x5600, O_TREND, O_ROWS };

/* --trend: the sections of compare --trend's tables. */
struct trend_out {
	FILE *f;
	int ret;
	char err[512];
};

static void trend_table(struct nb_cmp_table *t, void *ctx)
{
	struct trend_out *o = ctx;
	if (!o->ret)
		o->ret = nb_report_trend_html(o->f, &t, 1, o->err, sizeof(o->err));
}

static char *trend_html(const struct loaded *l, size_t n, const struct nb_piv_axis *ra,
			const struct nb_piv_axis *ca)
{
	char *html = NULL;
	size_t len = 0;
	struct trend_out o = {.f = open_memstream(&html, &len)};
	if (!o.f)
		cli_fail(ENOMEM, "out of memory");
	fputs("<h2 id=\"trend\">trend by ", o.f);
	nb_xml_text(o.f, ca->key);
	fputs("</h2>\n", o.f);
	store_cli_pivot(l, n, ra, ca, NULL, trend_table, &o);
	fclose(o.f);
	if (o.ret == -ERANGE)
		cli_fail(0, "%s; nothing written (leave the result out by choosing the others)",
			 o.err);
	if (o.ret)
		cli_fail(o.ret, "drawing the trend");
	return html;
}

/* The fit's section: its sentences and one chart per factor per step. */
static char *fit_html(const char *formula, bool linear, const struct loaded *l, size_t n)
{
	char *text = NULL, *svg = NULL, *html = NULL;
	size_t tl = 0, sl = 0, hl = 0;
	FILE *t = open_memstream(&text, &tl), *s = open_memstream(&svg, &sl);
	if (!t || !s)
		cli_fail(ENOMEM, "out of memory");
	store_cli_fit(formula, linear, l, n, t, s);
	fclose(t);
	fclose(s);
	FILE *h = open_memstream(&html, &hl);
	if (!h)
		cli_fail(ENOMEM, "out of memory");
	fputs("<h2 id=\"fit\">fit</h2>\n<pre class=\"fit\">", h);
	nb_xml_text(h, text);
	fprintf(h, "</pre>\n%s", svg);
	fclose(h);
	free(text);
	free(svg);
	return html;
}

/* What report's options give. */
struct report_cli {
	struct store_cli sc;
	struct store_view_cli view;
	const char *out, *title;
	struct nb_piv_axis ra, ca; /* --trend's rows and columns */
	bool trend, rows_given;
};

static void report_parse_opts(int argc, char **argv, struct report_cli *o)
{
	static const struct option opts[] = {STORE_CLI_LONGOPTS,
					     STORE_VIEW_LONGOPTS,
					     {"output", required_argument, NULL, 'o'},
					     {"title", required_argument, NULL, O_TITLE},
					     {"trend", required_argument, NULL, O_TREND},
					     {"rows", required_argument, NULL, O_ROWS},
					     {"help", no_argument, NULL, 'h'},
					     CLI_VERSION_LONGOPT,
					     {NULL, 0, NULL, 0}};
	int c;

	while ((c = getopt_long(argc, argv, ":o:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				cli_usage_error("--output: the file name is empty");
			o->out = optarg;
			break;
		case O_TITLE:
			o->title = optarg;
			break;
		case O_TREND:
			store_cli_trend(optarg, &o->ca);
			o->trend = true;
			break;
		case O_ROWS:
			store_cli_axis("--rows", optarg, &o->ra);
			o->rows_given = true;
			break;
		default:
			if (!store_cli_option(&o->sc, c) && !store_cli_view_option(&o->view, c))
				cli_last_option(argv, c, usage_text, NULL);
		}
	}
	if (!o->out)
		cli_usage_error("where to? give -o FILE.html");
	if (o->rows_given && !o->trend)
		cli_usage_error("--rows is a part of --trend: add --trend KEY");
	if (o->trend && (o->view.fit || o->ra.kind == NB_PIV_SIZE ||
			 (o->ra.kind == NB_PIV_TAG && !strcmp(o->ra.key, o->ca.key))))
		cli_usage_error("--trend draws lines by label, host or another tag: without --fit, "
				"and --rows neither size nor the trend's own key");
	o->sc.axes = o->trend;
	store_cli_view_check(&o->view);
	store_cli_ids(&o->sc, argc, argv);
}

/* The page's items: each result with its views. */
static struct nb_report_item *items_make(const struct loaded *l, size_t n)
{
	struct nb_report_item *it = calloc(n + 1, sizeof(*it));

	if (!it)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct nb_store_row *r = l[i].row;
		it[i] = (struct nb_report_item){.id = r->id,
						.group = l[i].group,
						.test = r->test,
						.time_utc = r->time_utc,
						.host = r->host,
						.kernel = r->kernel,
						.arch = r->arch,
						.cpu_model = r->cpu_model,
						.driver = r->driver,
						.cpu_mhz = r->cpu_mhz,
						.virt = l[i].virt_known ? l[i].virt : NULL,
						.views = l[i].views,
						.nviews = l[i].nviews};
	}
	return it;
}

/* Written beside the target and renamed over it: the file is whole or absent. */
static void page_write(const char *out, const struct nb_report_item *it, size_t n,
		       const char *title, const char *extra)
{
	char gen[96];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(gen, sizeof(gen), "Written %Y-%m-%d %H:%M UTC by netbench " NB_VERSION ".", &tm);
	struct nb_atomic_file af;
	int ret = nb_atomic_open(&af, out, 0644);
	if (ret)
		cli_fail(ret, "cannot write beside %s", out);
	char why[512] = "";
	/* A report stopped by a signal leaves no temporary file behind. */
	cli_unlink_on_signal(af.tmp);
	ret = nb_report_html_err(af.f, it, n, title, gen, extra, why, sizeof(why));
	if (ret == -ERANGE) {
		nb_atomic_abort(&af);
		cli_fail(0, "%s; %s not written (leave the result out by choosing the others)", why,
			 out);
	}
	if (ret) {
		nb_atomic_abort(&af);
		cli_fail(ret, "writing %s", out);
	}
	ret = nb_atomic_commit(&af);
	cli_unlink_on_signal(NULL);
	if (ret)
		cli_fail(ret, "writing %s", out);
}

int cmd_report(int argc, char **argv)
{
	struct report_cli o = {.title = "netbench report",
			       .ra = {.kind = NB_PIV_LABEL, .key = "label"}};

	report_parse_opts(argc, argv, &o);
	struct nb_store *st = store_cli_open_read(&o.sc);
	struct nb_store_row *rows;
	size_t n;
	/* One document at a time: memory holds one document and the views of all. */
	struct loaded *l = store_cli_load_views(st, &o.sc, &o.view.vo, &rows, &n);

	if (!n)
		cli_fail(0, "no stored result matches in %s", store_cli_path(&o.sc));
	struct nb_report_item *it = items_make(l, n);
	char *extra = o.view.fit ? fit_html(o.view.fit, o.view.linear, l, n)
		      : o.trend	 ? trend_html(l, n, &o.ra, &o.ca)
				 : NULL;
	/* With --trend the page holds the trend, not a chart per view. */
	for (size_t i = 0; i < n && o.trend; i++)
		it[i].nviews = 0;
	page_write(o.out, it, n, o.title, extra);
	fprintf(stderr, "netbench report: %zu result%s in %s\n", n, n == 1 ? "" : "s", o.out);
	free(it);
	free(extra);
	store_cli_free(l, rows, n);
	nb_store_close(st);
	return 0;
}
