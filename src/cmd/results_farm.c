/* SPDX-License-Identifier: BSD-2-Clause */
/* `results merge` and `results export --lava` (results_farm.h): the two things a farm of
 * boards and CI machines needs from the store beyond one machine's list and compare. */
#include "cmd/results_farm.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/store_cli.h"
#include "core/store/jdoc.h"
#include "core/store/lava.h"
#include "core/store/views.h"

enum { OPT_LAVA = 0x5600, OPT_PREFIX };

int results_merge(int argc, char **argv)
{
	static const struct option opts[] = {{"db", required_argument, NULL, SC_OPT_DB},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	char err[512] = "";
	size_t added = 0, skipped = 0;
	int c;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h') {
			printf("Usage: netbench results merge [--db FILE] OTHER.db...\n"
			       "Copies the results of other stores (another PC, a CI job, a LAVA "
			       "job's) into\n"
			       "this one, with their labels and tags; a document already here is "
			       "skipped.\n");
			return 0;
		}
		if (!store_cli_option(&sc, c))
			cli_bad_option(argv, c);
	}
	if (optind >= argc)
		cli_usage_error("merge: give the stores to merge in (OTHER.db...)");
	struct nb_store *st = store_cli_open(&sc);
	for (int i = optind; i < argc; i++) {
		size_t a, s;
		int ret = nb_store_merge(st, argv[i], &a, &s, err, sizeof(err));
		if (ret) {
			nb_store_close(st);
			cli_fail(0, "merge: %s (nothing merged from it)", err);
		}
		fprintf(stderr, "netbench results: %s: %zu result%s merged, %zu already here\n",
			argv[i], a, a == 1 ? "" : "s", s);
		added += a;
		skipped += s;
	}
	nb_store_close(st);
	if (argc - optind > 1)
		fprintf(stderr, "netbench results: %zu merged, %zu already here in all\n", added,
			skipped);
	return 0;
}

bool results_lava_asked(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--lava"))
			return true;
	return false;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Points a view could not hold are named, as export --csv names them: LAVA gets no partial
 * picture without the job's log saying so. Returns how many. */
static size_t lava_lost(const char *what, const struct nb_view *views, size_t n)
{
	size_t lost = 0;
	for (size_t v = 0; v < n; v++) {
		if (!views[v].lost_points)
			continue;
		lost += views[v].lost_points;
		fprintf(stderr,
			"netbench results export: %s, view %s: %zu points not exported (a view "
			"holds %d series of %d points)\n",
			what, views[v].id, views[v].lost_points, NB_VIEW_MAX_SERIES,
			NB_VIEW_MAX_POINTS);
	}
	return lost;
}

static size_t lava_doc(const char *path, const char *prefix, size_t *lost)
{
	size_t len, lines;
	char *text = store_cli_read_doc(path, &len), err[256];
	struct nb_jdoc *d = NULL;
	struct nb_view *views = calloc(NB_VIEW_MAX, sizeof(*views));
	size_t nv = 0;

	if (!views)
		cli_fail(ENOMEM, "out of memory");
	if (nb_jdoc_parse(text, len, &d, err, sizeof(err)))
		cli_fail(0, "%s: %s", path, err);
	if (nb_views_extract(d, NULL, views, NB_VIEW_MAX, &nv))
		cli_fail(0, "%s is not a netbench result document", path);
	const char *test = nb_jstr(nb_jget(d, nb_jdoc_root(d), "test"));
	lines = nb_lava_cases(stdout, prefix, test ? test : "result", views, nv);
	*lost += lava_lost(path, views, nv);
	nb_jdoc_free(d);
	free(views);
	free(text);
	return lines;
}

int results_export_lava(int argc, char **argv)
{
	static const struct option opts[] = {STORE_CLI_LONGOPTS,
					     {"lava", no_argument, NULL, OPT_LAVA},
					     {"prefix", required_argument, NULL, OPT_PREFIX},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	const char *prefix = NULL;
	char pfx[NB_STORE_LABEL_MAX];
	bool files = false, ids = false;
	size_t lines = 0, lost = 0;
	int c;

	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (c == OPT_LAVA)
			continue;
		if (c == OPT_PREFIX) {
			nb_lava_name(optarg, pfx, sizeof(pfx));
			if (!pfx[0] || strcmp(pfx, optarg))
				cli_usage_error(
				    "--prefix: '%s' must be letters, digits, '.', '_' or "
				    "'-'",
				    optarg);
			prefix = optarg;
			continue;
		}
		if (!store_cli_option(&sc, c))
			cli_bad_option(argv, c);
	}
	for (int i = optind; i < argc; i++)
		*(all_digits(argv[i]) ? &ids : &files) = true;
	if (files && (ids || sc.db || sc.f.test || sc.f.label || sc.f.host || sc.f.since_utc ||
		      sc.f.until_utc || sc.f.ntags))
		cli_usage_error("export --lava: give result documents (FILE.json) or store filters "
				"and IDs, not both");
	if (files) {
		for (int i = optind; i < argc; i++)
			lines += lava_doc(argv[i], prefix, &lost);
	} else {
		if (!nb_store_available())
			cli_fail(0,
				 "this build has no SQLite: export --lava of stored results needs "
				 "it (give result documents instead: FILE.json)");
		store_cli_ids(&sc, argc, argv);
		struct nb_store *st = store_cli_open_read(&sc);
		struct nb_store_row *rows;
		size_t n;
		struct loaded *l = store_cli_load(st, &sc, NULL, &rows, &n);
		for (size_t i = 0; i < n; i++) {
			const char *p = prefix;
			if (!p && rows[i].label[0]) {
				nb_lava_name(rows[i].label, pfx, sizeof(pfx));
				p = pfx;
			}
			lines += nb_lava_cases(stdout, p, rows[i].test, l[i].views, l[i].nviews);
			char what[32];
			snprintf(what, sizeof(what), "result %lld", (long long)rows[i].id);
			lost += lava_lost(what, l[i].views, l[i].nviews);
		}
		store_cli_free(l, rows, n);
		nb_store_close(st);
	}
	if (lost)
		cli_fail(0, "export is incomplete: %zu points left out (listed above)", lost);
	if (!lines)
		fprintf(stderr, "netbench results: export --lava: no measured point to export\n");
	return 0;
}
