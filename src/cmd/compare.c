/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench compare: stored results side by side, one table per view (docs/results.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/compare_gate.h"
#include "cmd/store_cli.h"
#include "core/base/json.h"
#include "core/store/compare.h"
#include "core/store/regress_gate.h"

static const char usage_text[] =
    "Usage: netbench compare [filters] [ID...] [--baseline ID|LABEL] [--csv | -J]\n"
    "       netbench compare [filters] --rows AXIS --columns AXIS [--baseline VALUE]\n"
    "       netbench compare [filters] --trend KEY [--rows AXIS] [--baseline VALUE]\n"
    "       netbench compare --baseline LABEL --fail-if-worse PCT [--junit FILE] ...\n"
    "\n"
    "Puts stored results side by side in the shape of each test's table: stream as\n"
    "results (one row per receiver) by bitrate with the receiver's CPU; tput, rate,\n"
    "crypto and mem as the swept size (or rule count) by result. Results with the\n"
    "same label and tags are repeated runs: a cell is their mean, +- the 95 %\n"
    "interval of the mean (Student's t).\n"
    "\n"
    "Filters:\n" STORE_CLI_HELP "Options:\n"
    "      --baseline ID|LABEL  each cell also shows its ratio to this result's (or\n"
    "                         label's); '*' when the ratio's 95 % interval excludes 1\n"
    "      --only LABEL,...   compare only runs with these labels (and the baseline)\n"
    "      --rows AXIS        lay the tables out on chosen axes: rows by AXIS\n"
    "                         (label, host,\n"
    "      --columns AXIS     size: the swept size, or a tag's key such as\n"
    "                         kernel); one table per value of what is on neither\n"
    "                         axis (default rows: label, columns: size);\n"
    "                         --baseline then names a column value\n"
    "      --trend KEY        one metric across a tag's values: columns by\n"
    "                         KEY (kernel=6.1, 6.6, ... in version order),\n"
    "                         rows by label, one table per size\n"
    "      --fail-if-worse PCT  the regression gate: exit 1 when a metric\n"
    "                         is established worse than the baseline by\n"
    "                         more than PCT % (0 < PCT <= 1000)\n"
    "      --gate-point       with one run on a side, gate on the point value\n"
    "      --junit FILE       with --fail-if-worse: the verdicts as JUnit XML\n"
    "      --cpu WHAT         stream: the receiver CPU shown:\n"
    "                         total (default), softirq, process\n"
    "      --algo NAME        crypto: the algorithm compared (default: the one most\n"
    "                         engines ran)\n"
    "      --fit 'M ~ F + F'  what metric M (fps, ns_per_frame, kbyte_per_s,\n"
    "                         mbyte_per_s, ns_per_load, cpu_pct) follows: a log-log\n"
    "                         fit against numeric tags F (or cpu_mhz) per step, with\n"
    "                         each exponent and its uncertainty\n"
    "      --linear           with --fit: fit M = c + b x F + ... instead\n"
    "                         (a factor may be 0; 'ns_per_frame ~ rules'\n"
    "                         is the lab's per-rule cost)\n"
    "      --csv              CSV, one line per cell\n"
    "  -J, --json             one JSON document\n"
    "  -h, --help             this help\n" CLI_VERSION_HELP;

enum { O_BASE = 0x5500, O_CSV, O_ONLY, O_WORSE, O_POINT, O_JUNIT, O_ROWS, O_COLS, O_TREND };

/* --only: is this result's label (or group) one of the comma-separated names? */
static bool only_has(const char *list, const struct loaded *l)
{
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");
		if ((strlen(l->row->label) == k && !strncmp(p, l->row->label, k)) ||
		    (strlen(l->group) == k && !strncmp(p, l->group, k)))
			return true;
		p += k + (p[k] == ',');
	}
	return false;
}

struct pivot_out {
	bool json, csv;
	struct nb_json j;
	size_t ntables;
	const char *baseline, *col_key;
};

static void pivot_table(struct nb_cmp_table *t, void *ctx)
{
	struct pivot_out *o = ctx;
	if (o->json)
		nb_cmp_write_json(&o->j, t);
	else if (o->csv)
		nb_cmp_write_csv(stdout, t, o->ntables == 0);
	else {
		if (o->ntables)
			putchar('\n');
		nb_cmp_write_text(stdout, t);
		if (o->baseline && !t->has_baseline)
			printf("(no %s column %s in this table: no ratios)\n", o->col_key,
			       o->baseline);
	}
	o->ntables++;
}

/* --rows/--columns/--trend: per view id, the tables on the chosen axes. */
static int compare_pivot(const struct loaded *l, size_t n, const struct nb_piv_axis *ra,
			 const struct nb_piv_axis *ca, const char *baseline, bool json, bool csv)
{
	struct pivot_out o = {.json = json, .csv = csv, .baseline = baseline, .col_key = ca->key};
	store_cli_pivot_baseline(l, n, ca, baseline);
	if (json) {
		nb_json_init(&o.j, stdout);
		nb_json_obj_begin(&o.j, NULL);
		nb_json_str(&o.j, "schema", "netbench-compare/1");
		nb_json_str(&o.j, "baseline", baseline);
		nb_json_str(&o.j, "rows", ra->key);
		nb_json_str(&o.j, "columns", ca->key);
		nb_json_arr_begin(&o.j, "tables");
	}
	store_cli_pivot(l, n, ra, ca, baseline, pivot_table, &o);
	if (json) {
		nb_json_arr_end(&o.j);
		nb_json_obj_end(&o.j);
		fputc('\n', stdout);
	}
	if (!o.ntables)
		cli_warn("the %zu selected result%s hold nothing to compare (lab status documents "
			 "have no measurements)",
			 n, n == 1 ? "" : "s");
	return 0;
}

/* compare's command line. */
struct compare_args {
	struct store_cli sc;
	struct store_view_cli view;
	const char *baseline_arg, *only, *junit;
	bool json, csv, gate, pivot, has_rows, has_cols;
	struct nb_piv_axis ra, ca;
	struct nb_gate_opts go;
};

static void parse_worse(struct compare_args *a, const char *arg)
{
	char *end;
	a->go.worse_pct = strtod(arg, &end);
	if (end == arg || *end || !(a->go.worse_pct > 0) || a->go.worse_pct > 1000)
		cli_usage_error("--fail-if-worse: '%s' is not a percentage above 0 "
				"and at most 1000",
				arg);
	a->gate = true;
}

static void compare_option(struct compare_args *a, int c, char **argv)
{
	switch (c) {
	case O_BASE:
		a->baseline_arg = optarg;
		break;
	case O_CSV:
		a->csv = true;
		break;
	case O_ONLY:
		if (!*optarg)
			cli_usage_error("--only: give labels separated by commas");
		a->only = optarg;
		break;
	case O_WORSE:
		parse_worse(a, optarg);
		break;
	case O_POINT:
		a->go.gate_point = true;
		break;
	case O_JUNIT:
		if (!*optarg)
			cli_usage_error("--junit: the file name is empty");
		a->junit = optarg;
		break;
	case O_ROWS:
		store_cli_axis("--rows", optarg, &a->ra);
		a->pivot = a->has_rows = true;
		break;
	case O_TREND:
	case O_COLS:
		if (a->has_cols)
			cli_usage_error("--trend KEY is --columns KEY: give one of them");
		if (c == O_TREND)
			store_cli_trend(optarg, &a->ca);
		else
			store_cli_axis("--columns", optarg, &a->ca);
		a->pivot = a->has_cols = true;
		break;
	case 'J':
		a->json = true;
		break;
	default:
		if (!store_cli_option(&a->sc, c) && !store_cli_view_option(&a->view, c))
			cli_last_option(argv, c, usage_text, NULL);
	}
}

/* Parses and refuses what does not go together (exit 2). */
static void compare_parse(int argc, char **argv, struct compare_args *a)
{
	static const struct option opts[] = {STORE_CLI_LONGOPTS,
					     STORE_VIEW_LONGOPTS,
					     {"baseline", required_argument, NULL, O_BASE},
					     {"csv", no_argument, NULL, O_CSV},
					     {"only", required_argument, NULL, O_ONLY},
					     {"fail-if-worse", required_argument, NULL, O_WORSE},
					     {"gate-point", no_argument, NULL, O_POINT},
					     {"junit", required_argument, NULL, O_JUNIT},
					     {"rows", required_argument, NULL, O_ROWS},
					     {"columns", required_argument, NULL, O_COLS},
					     {"trend", required_argument, NULL, O_TREND},
					     {"json", no_argument, NULL, 'J'},
					     {"help", no_argument, NULL, 'h'},
					     CLI_VERSION_LONGOPT,
					     {NULL, 0, NULL, 0}};
	int c;

	a->ra = (struct nb_piv_axis){.kind = NB_PIV_LABEL, .key = "label"};
	a->ca = (struct nb_piv_axis){.kind = NB_PIV_SIZE, .key = "size"};
	while ((c = getopt_long(argc, argv, ":JhV", opts, NULL)) != -1)
		compare_option(a, c, argv);
	if (a->csv && a->json)
		cli_usage_error("--csv and -J exclude each other");
	if (a->view.fit && (a->csv || a->json || a->baseline_arg || a->gate))
		cli_usage_error("--fit prints sentences: without --csv, -J, --baseline or "
				"--fail-if-worse");
	if (a->gate && !a->baseline_arg)
		cli_usage_error(
		    "--fail-if-worse needs --baseline: the runs it is measured against");
	if ((a->junit || a->go.gate_point) && !a->gate)
		cli_usage_error("--junit and --gate-point are parts of the gate: add "
				"--fail-if-worse PCT");
	if (a->pivot && (a->view.fit || a->gate || a->only))
		cli_usage_error("--rows, --columns and --trend lay out tables: without --fit, "
				"--fail-if-worse or --only (use --where)");
	if (a->pivot && a->ra.kind == a->ca.kind && !strcmp(a->ra.key, a->ca.key))
		cli_usage_error("--rows and --columns are both '%s': give two different axes",
				a->ra.key);
	store_cli_view_check(&a->view);
	store_cli_ids(&a->sc, argc, argv);
	a->sc.axes = a->pivot;
}

/* --only: which results stay out of every table (the baseline stays in). */
static bool *compare_skip(const struct compare_args *a, const struct loaded *l, size_t n,
			  const char *baseline)
{
	bool *skip = calloc(n + 1, sizeof(*skip));
	size_t kept = 0;
	if (!skip)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		skip[i] = a->only && !only_has(a->only, &l[i]) &&
			  !(baseline && !strcmp(l[i].group, baseline));
		kept += !skip[i] && !(baseline && !strcmp(l[i].group, baseline));
	}
	if (a->only && !kept)
		cli_usage_error("--only: no selected result has one of the labels '%s'", a->only);
	return skip;
}

/* The tables' output and the gate's rows as the tables are built. */
struct compare_out {
	const struct compare_args *a;
	const char *baseline;
	struct nb_json j;
	struct nb_cmp_entry *e;
	struct nb_gate_row *grows;
	size_t ngrows, ntables;
};

/* The entries of view id from result i on (none when an earlier result had it). */
static size_t view_entries(const struct loaded *l, size_t n, const bool *skip, size_t i,
			   const char *id, struct nb_cmp_entry *e)
{
	size_t ne = 0;
	for (size_t k = 0; k < i; k++)
		for (size_t w = 0; w < l[k].nviews && !skip[k]; w++)
			if (!strcmp(l[k].views[w].id, id))
				return 0;
	for (size_t k = i; k < n; k++)
		for (size_t w = 0; w < l[k].nviews && !skip[k]; w++)
			if (!strcmp(l[k].views[w].id, id))
				e[ne++] = (struct nb_cmp_entry){
				    .group = l[k].group, .env = &l[k].env, .view = &l[k].views[w]};
	return ne;
}

static void compare_table(struct compare_out *o, const char *id, size_t ne)
{
	const struct compare_args *a = o->a;
	bool has_base = false;
	struct nb_cmp_table *t;
	for (size_t k = 0; k < ne && o->baseline; k++)
		has_base |= !strcmp(o->e[k].group, o->baseline);
	int ret = nb_cmp_build(o->e, ne, has_base ? o->baseline : NULL, &t);
	if (ret)
		cli_fail(ret, "building the %s table", id);
	if (a->gate && has_base &&
	    (nb_gate_table(t, &a->go, &o->grows, &o->ngrows) ||
	     nb_gate_unseen(o->e, ne, &o->grows, &o->ngrows)))
		cli_fail(ENOMEM, "out of memory");
	if (a->json)
		nb_cmp_write_json(&o->j, t);
	else if (a->csv)
		nb_cmp_write_csv(stdout, t, o->ntables == 0);
	else {
		if (o->ntables)
			putchar('\n');
		nb_cmp_write_text(stdout, t);
		if (o->baseline && !has_base)
			printf("(no %s result in this table: no ratios)\n", o->baseline);
	}
	o->ntables++;
	nb_cmp_table_free(t);
}

/* One table per view id, in the order the results bring them; then the gate's verdict. */
static int compare_tables(const struct compare_args *a, const struct loaded *l, size_t n,
			  const char *baseline)
{
	struct compare_out o = {.a = a, .baseline = baseline};
	bool *skip = compare_skip(a, l, n, baseline);
	int status = 0;

	o.e = calloc(n + 1, sizeof(*o.e));
	if (!o.e)
		cli_fail(ENOMEM, "out of memory");
	if (a->json) {
		nb_json_init(&o.j, stdout);
		nb_json_obj_begin(&o.j, NULL);
		/* Not a result document (no platform, nothing measured): its own schema name, so
		 * that results import refuses it. */
		nb_json_str(&o.j, "schema", "netbench-compare/1");
		nb_json_str(&o.j, "baseline", baseline);
		nb_json_arr_begin(&o.j, "tables");
	}
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < l[i].nviews && !skip[i]; v++) {
			size_t ne = view_entries(l, n, skip, i, l[i].views[v].id, o.e);
			if (ne)
				compare_table(&o, l[i].views[v].id, ne);
		}
	if (a->json)
		nb_json_arr_end(&o.j);
	if (a->gate)
		status = compare_gate_report(a->csv    ? stderr
					     : a->json ? NULL
						       : stdout,
					     a->json ? &o.j : NULL, o.grows, o.ngrows, &a->go,
					     baseline, a->junit);
	if (a->json) {
		nb_json_obj_end(&o.j);
		fputc('\n', stdout);
	}
	if (!o.ntables)
		cli_warn("the %zu selected result%s hold nothing to compare (lab status documents "
			 "have no measurements)",
			 n, n == 1 ? "" : "s");
	free(o.e);
	free(skip);
	free(o.grows);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = {0};
	struct nb_store_row *rows;
	size_t n;
	int status;

	compare_parse(argc, argv, &a);
	struct nb_store *st = store_cli_open_read(&a.sc);
	struct loaded *l = store_cli_load(st, &a.sc, &a.view.vo, &rows, &n);
	if (!n)
		cli_fail(0, "no stored result matches in %s", store_cli_path(&a.sc));
	if (a.view.fit)
		status = store_cli_fit(a.view.fit, a.view.linear, l, n, stdout, NULL);
	else if (a.pivot)
		status = compare_pivot(l, n, &a.ra, &a.ca, a.baseline_arg, a.json, a.csv);
	else
		status = compare_tables(
		    &a, l, n, a.baseline_arg ? store_cli_baseline(l, n, a.baseline_arg) : NULL);
	store_cli_free(l, rows, n);
	nb_store_close(st);
	return status;
}
