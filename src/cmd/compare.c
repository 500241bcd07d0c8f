/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench compare: stored results side by side, one table per view (docs/results.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/compare_fit.h"
#include "cmd/store_cli.h"
#include "core/base/json.h"
#include "core/store/compare.h"

static const char usage_text[] =
    "Usage: netbench compare [filters] [ID...] [--baseline ID|LABEL] [--csv | -J]\n"
    "\n"
    "Puts stored results side by side in the shape of each test's table: stream as results\n"
    "by bitrate with the receiver's CPU; tput, rate, crypto and mem as the swept size (or\n"
    "rule count) by result. Results with the same label are repeated runs: a cell is their\n"
    "mean, with +- half their range.\n"
    "\n"
    "Filters:\n" STORE_CLI_HELP "Options:\n"
    "      --baseline ID|LABEL  cells become ratios to this result's (or label's); a '*'\n"
    "                         marks a difference larger than both results' spread\n"
    "      --cpu WHAT         stream: the receiver CPU shown: total (default), softirq,\n"
    "                         process\n"
    "      --algo NAME        crypto: the algorithm compared (default: the one most\n"
    "                         engines ran)\n"
    "      --fit 'M ~ F + F'  what metric M (fps, ns_per_frame, kbyte_per_s, mbyte_per_s,\n"
    "                         ns_per_load, cpu_pct) follows: a log-log fit against numeric\n"
    "                         tags F (or cpu_mhz) per step, with each exponent and its\n"
    "                         uncertainty\n"
    "      --linear           with --fit: fit M = c + b x F + ... instead (a factor may be 0;\n"
    "                         'ns_per_frame ~ rules' is the lab's per-rule cost)\n"
    "      --csv              CSV, one line per cell\n"
    "  -J, --json             one JSON document\n"
    "  -h, --help             this help\n";

enum { O_BASE = 0x5500, O_CSV };

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {STORE_CLI_LONGOPTS,
					     STORE_VIEW_LONGOPTS,
					     {"baseline", required_argument, NULL, O_BASE},
					     {"csv", no_argument, NULL, O_CSV},
					     {"json", no_argument, NULL, 'J'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	struct store_view_cli view = {0};
	const char *baseline_arg = NULL;
	bool json = false, csv = false;
	int c;

	while ((c = getopt_long(argc, argv, ":Jh", opts, NULL)) != -1) {
		switch (c) {
		case O_BASE:
			baseline_arg = optarg;
			break;
		case O_CSV:
			csv = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			if (!store_cli_option(&sc, c) && !store_cli_view_option(&view, c))
				cli_bad_option(argv, c);
		}
	}
	if (csv && json)
		cli_usage_error("--csv and -J exclude each other");
	if (view.fit && (csv || json || baseline_arg))
		cli_usage_error("--fit prints sentences: without --csv, -J or --baseline");
	store_cli_view_check(&view);
	store_cli_ids(&sc, argc, argv);

	struct nb_store *st = store_cli_open_read(&sc);
	struct nb_store_row *rows;
	size_t n, ntables = 0;
	struct loaded *l = store_cli_load(st, &sc, &view.vo, &rows, &n);
	struct nb_cmp_entry *e = calloc(n + 1, sizeof(*e));
	const char *baseline = NULL;
	struct nb_json j;

	if (!e)
		cli_fail(ENOMEM, "out of memory");
	if (!n)
		cli_fail(0, "no stored result matches in %s", store_cli_path(&sc));
	if (view.fit) {
		int status = compare_fit(view.fit, view.linear, l, n, stdout, NULL);
		free(e);
		store_cli_free(l, rows, n);
		nb_store_close(st);
		return status;
	}
	if (baseline_arg)
		baseline = store_cli_baseline(l, n, baseline_arg);
	if (json) {
		nb_json_init(&j, stdout);
		nb_json_obj_begin(&j, NULL);
		/* Not a result document (no platform, nothing measured): its own schema name, so
		 * that results import refuses it. */
		nb_json_str(&j, "schema", "netbench-compare/1");
		nb_json_str(&j, "baseline", baseline);
		nb_json_arr_begin(&j, "tables");
	}
	/* One table per view id, in the order the results bring them. */
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < l[i].nviews; v++) {
			const char *id = l[i].views[v].id;
			bool done = false;
			size_t ne = 0;
			for (size_t k = 0; k < i && !done; k++)
				for (size_t w = 0; w < l[k].nviews; w++)
					done |= !strcmp(l[k].views[w].id, id);
			if (done)
				continue;
			for (size_t k = i; k < n; k++)
				for (size_t w = 0; w < l[k].nviews; w++)
					if (!strcmp(l[k].views[w].id, id))
						e[ne++] =
						    (struct nb_cmp_entry){.group = l[k].group,
									  .facts = l[k].facts,
									  .view = &l[k].views[w]};
			bool has_base = false;
			for (size_t k = 0; k < ne && baseline; k++)
				has_base |= !strcmp(e[k].group, baseline);
			struct nb_cmp_table *t;
			int ret = nb_cmp_build(e, ne, has_base ? baseline : NULL, &t);
			if (ret)
				cli_fail(ret, "building the %s table", id);
			if (json)
				nb_cmp_write_json(&j, t);
			else if (csv)
				nb_cmp_write_csv(stdout, t, ntables == 0);
			else {
				if (ntables)
					putchar('\n');
				nb_cmp_write_text(stdout, t);
				if (baseline && !has_base)
					printf("(no %s result in this table: no ratios)\n",
					       baseline);
			}
			ntables++;
			nb_cmp_table_free(t);
		}
	if (json) {
		nb_json_arr_end(&j);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	}
	if (!ntables)
		cli_warn("the %zu selected result%s hold nothing to compare (lab status documents "
			 "have no measurements)",
			 n, n == 1 ? "" : "s");
	free(e);
	store_cli_free(l, rows, n);
	nb_store_close(st);
	return 0;
}
