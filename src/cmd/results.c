/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench results: the store's contents. import adds JSON documents (results of runs without
 * --save, from a board or the demo's directory), list and show read them back, export writes
 * every measured point as CSV, rm removes. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/results_farm.h"
#include "cmd/store_cli.h"
#include "core/base/json.h"
#include "core/store/compare.h"

static const char usage_text[] =
    "Usage: netbench results import [--db FILE] [--label TEXT] [--tag KEY=VALUE]...\n"
    "                               FILE.json...\n"
    "       netbench results list [filters] [-J]\n"
    "       netbench results show [--db FILE] [-J] ID\n"
    "       netbench results export --csv [filters]\n"
    "       netbench results export --lava [--prefix NAME] [filters | FILE.json...]\n"
    "       netbench results merge [--db FILE] OTHER.db...\n"
    "       netbench results rm [--db FILE] ID...\n"
    "\n"
    "The results store: one SQLite file holding result documents with a label and\n"
    "tags. Measuring subcommands add to it with --save; import adds documents printed\n"
    "with -J. A document stored already (byte for byte) is skipped by import and\n"
    "merge: a run counts once.\n"
    "\n"
    "Filters (list, export):\n" STORE_CLI_HELP "Options:\n"
    "      --label TEXT       import: the label of the imported results\n"
    "      --tag KEY=VALUE    import: a tag on the imported results (repeatable)\n"
    "      --csv              export: CSV, one line per measured point\n"
    "      --lava             export: one lava-test-case line per measured\n"
    "                         point, for stored results or for result\n"
    "                         documents (FILE.json, - for stdin)\n"
    "      --prefix NAME      export --lava: starts every\n"
    "                         test-case name (default: the label)\n"
    "  -J, --json             list: one JSON document;\n"
    "                         show: the stored result document\n"
    "  -h, --help             this help\n" CLI_VERSION_HELP;

static noreturn void usage_exit(void)
{
	fputs(usage_text, stdout);
	exit(0);
}

/* What each file became: its result id, or the earlier result it duplicates (its document
 * freed); then the sum. */
static void import_report(const struct store_cli *sc, char **names, size_t n,
			  const struct nb_store_add *a, const int64_t *ids, const int64_t *same)
{
	size_t dups = 0;
	for (size_t i = 0; i < n; i++) {
		/* The same document twice would be two runs with a zero-width interval. */
		if (same[i]) {
			dups++;
			fprintf(stderr,
				"netbench results: %s is result %lld already (the same document, "
				"byte for byte): skipped, a run counts once\n",
				names[i], (long long)same[i]);
		} else {
			printf("%lld\t%s\n", (long long)ids[i], names[i]);
		}
		free((char *)a[i].doc);
	}
	fprintf(stderr, "netbench results: imported %zu result%s into %s", n - dups,
		n - dups == 1 ? "" : "s", store_cli_path(sc));
	if (dups)
		fprintf(stderr, " (%zu duplicate%s skipped)", dups, dups == 1 ? "" : "s");
	fputc('\n', stderr);
}

static int do_import(int argc, char **argv)
{
	static const struct option opts[] = {{"db", required_argument, NULL, SC_OPT_DB},
					     {"label", required_argument, NULL, 'l'},
					     {"tag", required_argument, NULL, 't'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	struct nb_store_tag tags[NB_STORE_MAX_TAGS];
	size_t ntags = 0;
	const char *label = NULL;
	char err[512] = "";
	int c;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (strlen(optarg) >= NB_STORE_LABEL_MAX)
				cli_usage_error("--label is too long: %zu bytes (at most %d)",
						strlen(optarg), NB_STORE_LABEL_MAX - 1);
			label = optarg;
			break;
		case 't':
			if (ntags == NB_STORE_MAX_TAGS)
				cli_usage_error("--tag: at most %d tags", NB_STORE_MAX_TAGS);
			if (nb_store_tag_parse(optarg, &tags[ntags]))
				cli_usage_error(
				    "--tag: '%s' is not KEY=VALUE (key: letters, digits, "
				    "_ - .; value: printable, no comma)",
				    optarg);
			ntags++;
			break;
		default:
			if (!store_cli_option(&sc, c))
				cli_last_option(argv, c, usage_text, NULL);
		}
	}
	if (optind >= argc)
		cli_usage_error("import: which files? give FILE.json... ('-' for stdin)");
	size_t n = (size_t)(argc - optind);
	struct nb_store_add *a = calloc(n, sizeof(*a));
	int64_t *ids = calloc(n, sizeof(*ids)), *same = calloc(n, sizeof(*same));
	if (!a || !ids || !same)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *doc = store_cli_read_doc(argv[optind + (int)i], &len);
		/* Before the store is opened (or created): a refused import leaves nothing. */
		if (nb_store_entry_check(doc, len, label, tags, ntags, err, sizeof(err)))
			cli_fail(0, "%s %s (nothing imported)", argv[optind + (int)i], err);
		a[i] = (struct nb_store_add){.doc = doc,
					     .name = argv[optind + (int)i],
					     .label = label,
					     .source = "import",
					     .tags = tags,
					     .ntags = ntags,
					     .same_as = &same[i]};
	}
	struct nb_store *st = store_cli_open(&sc);
	int ret = nb_store_add(st, a, n, ids, err, sizeof(err));
	nb_store_close(st);
	if (ret)
		cli_fail(0, "%s (nothing imported)", err);
	import_report(&sc, argv + optind, n, a, ids, same);
	free(a);
	free(ids);
	free(same);
	return 0;
}

static void tags_text(const struct nb_store_row *r, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < r->ntags && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", i ? "," : "", r->tags[i].key,
				      r->tags[i].value);
}

/* list's, export's and show's options: the store's, -J, and --csv where opts has it (csv NULL
 * otherwise). */
static void read_opts(int argc, char **argv, const struct option *opts, struct store_cli *sc,
		      bool *json, bool *csv)
{
	int c;

	while ((c = getopt_long(argc, argv, ":Jh", opts, NULL)) != -1) {
		switch (c) {
		case 'J':
			*json = true;
			break;
		case 'C':
			*csv = true; /* only where opts has --csv */
			break;
		default:
			if (!store_cli_option(sc, c))
				cli_last_option(argv, c, usage_text, NULL);
		}
	}
}

/* One point of a series as a CSV line: the result, the end it was measured on (env), the
 * view and the point. */
static void csv_point(const struct nb_store_row *r, const struct nb_facts *env, const char *tags,
		      const struct nb_view *vw, size_t s, size_t k)
{
	const char *f[] = {r->test,	r->label,  r->time_utc,	  env->host,
			   env->kernel, env->arch, env->cpu_model};

	printf("%lld", (long long)r->id);
	for (size_t q = 0; q < 7; q++) {
		putchar(',');
		nb_csv_field(stdout, f[q]);
	}
	if (isfinite(env->cpu_mhz))
		printf(",%g,", env->cpu_mhz);
	else
		fputs(",,", stdout);
	nb_csv_field(stdout, env->driver);
	putchar(',');
	nb_csv_field(stdout, tags);
	putchar(',');
	nb_csv_field(stdout, vw->id);
	putchar(',');
	nb_csv_field(stdout, vw->s[s].name);
	printf(",%.9g,", vw->s[s].x[k]);
	nb_csv_field(stdout, vw->x_unit);
	printf(",%.9g,", vw->s[s].y[k]);
	nb_csv_field(stdout, vw->y_unit);
	printf(",%s,", vw->s[s].polluted[k] ? "yes" : "no");
	nb_csv_field(stdout, env->virt);
	putchar('\n');
}

/* Every measured point of the results as CSV; what did not fit in a view is said, never
 * dropped silently. */
static int export_csv_write(struct nb_store *st, struct store_cli *sc)
{
	struct nb_store_row *rows;
	size_t n, lost_total = 0;
	char tags[512];
	struct loaded *l = store_cli_load(st, sc, NULL, &rows, &n);

	fputs("id,test,label,time_utc,host,kernel,arch,cpu_model,cpu_mhz,driver,tags,view,"
	      "series,x,x_unit,y,y_unit,cpu_polluted,virtualization\n",
	      stdout);
	for (size_t i = 0; i < n; i++) {
		tags_text(l[i].row, tags, sizeof(tags));
		for (size_t v = 0; v < l[i].nviews; v++) {
			const struct nb_view *vw = &l[i].views[v];
			for (size_t s = 0; s < vw->nseries; s++) {
				if (vw->s[s].model)
					continue;
				/* The end this series was measured on: a receiver of its own,
				 * else the document's measured end. */
				const struct nb_facts *env =
				    vw->s[s].own_env ? &vw->s[s].env : &l[i].env;
				for (size_t k = 0; k < vw->s[s].n; k++)
					csv_point(l[i].row, env, tags, vw, s, k);
			}
		}
	}
	fflush(stdout);
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < l[i].nviews; v++) {
			const struct nb_view *vw = &l[i].views[v];
			if (!vw->lost_points)
				continue;
			lost_total += vw->lost_points;
			fprintf(stderr,
				"netbench results export: result %lld, view %s: %zu points not "
				"exported (a view holds %d series of %d points)\n",
				(long long)l[i].row->id, vw->id, vw->lost_points,
				NB_VIEW_MAX_SERIES, NB_VIEW_MAX_POINTS);
		}
	store_cli_free(l, rows, n);
	nb_store_close(st);
	if (lost_total)
		cli_fail(0, "export is incomplete: %zu points left out (listed above)", lost_total);
	return 0;
}

static void list_json(const struct store_cli *sc, const struct nb_store_row *rows, size_t n)
{
	struct nb_json j;

	nb_json_init(&j, stdout);
	nb_json_obj_begin(&j, NULL);
	nb_json_str(&j, "database", store_cli_path(sc));
	nb_json_u64(&j, "store_schema_version", NB_STORE_SCHEMA_VERSION);
	nb_json_arr_begin(&j, "results");
	for (size_t i = 0; i < n; i++) {
		const struct nb_store_row *r = &rows[i];
		nb_json_obj_begin(&j, NULL);
		nb_json_i64(&j, "id", r->id);
		nb_json_str(&j, "test", r->test);
		nb_json_str(&j, "label", *r->label ? r->label : NULL);
		nb_json_str(&j, "time_utc", r->time_utc);
		nb_json_str(&j, "saved_utc", r->saved_utc);
		nb_json_str(&j, "source", r->source);
		nb_json_str(&j, "host", r->host);
		nb_json_str(&j, "kernel", r->kernel);
		nb_json_str(&j, "arch", r->arch);
		nb_json_str(&j, "cpu_model", r->cpu_model);
		nb_json_double(&j, "cpu_mhz", r->cpu_mhz, 0);
		nb_json_str(&j, "driver", *r->driver ? r->driver : NULL);
		nb_json_obj_begin(&j, "tags");
		for (size_t k = 0; k < r->ntags; k++)
			nb_json_str(&j, r->tags[k].key, r->tags[k].value);
		nb_json_obj_end(&j);
		nb_json_obj_end(&j);
	}
	nb_json_arr_end(&j);
	nb_json_obj_end(&j);
	fputc('\n', stdout);
}

static void list_text(const struct store_cli *sc, const struct nb_store_row *rows, size_t n)
{
	char tags[512];

	printf("%5s  %-6s  %-20s  %-24s  %-16s  %-18s  %s\n", "ID", "TEST", "TIME (UTC)", "LABEL",
	       "HOST", "KERNEL", "TAGS");
	for (size_t i = 0; i < n; i++) {
		const struct nb_store_row *r = &rows[i];
		tags_text(r, tags, sizeof(tags));
		printf("%5lld  %-6s  %-20s  %-24s  %-16s  %-18s  %s\n", (long long)r->id, r->test,
		       r->time_utc, *r->label ? r->label : "-", r->host, r->kernel, tags);
	}
	if (!n)
		fprintf(stderr, "netbench results: no result matches in %s\n", store_cli_path(sc));
}

static int do_list(int argc, char **argv, bool export_csv)
{
	static const struct option opts[] = {STORE_CLI_LONGOPTS,
					     {"json", no_argument, NULL, 'J'},
					     {"csv", no_argument, NULL, 'C'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	bool json = false, csv = false;

	read_opts(argc, argv, opts, &sc, &json, &csv);
	store_cli_ids(&sc, argc, argv);
	if (export_csv && !csv)
		cli_usage_error("export: give the format: --csv or --lava");
	if (!export_csv && csv)
		cli_usage_error("--csv is for 'results export'");
	if (export_csv && json)
		cli_usage_error("export writes CSV; -J is for list and show");
	struct nb_store *st = store_cli_open_read(&sc);
	struct nb_store_row *rows;
	size_t n;

	if (export_csv)
		return export_csv_write(st, &sc);
	store_cli_query(st, &sc, false, false, &rows, &n);
	if (json)
		list_json(&sc, rows, n);
	else
		list_text(&sc, rows, n);
	nb_store_rows_free(rows, n);
	nb_store_close(st);
	return 0;
}

static int do_show(int argc, char **argv)
{
	static const struct option opts[] = {{"db", required_argument, NULL, SC_OPT_DB},
					     {"json", no_argument, NULL, 'J'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	bool json = false;

	read_opts(argc, argv, opts, &sc, &json, NULL);
	if (argc - optind != 1)
		cli_usage_error("show: give one result ID");
	store_cli_ids(&sc, argc, argv);
	struct nb_store *st = store_cli_open_read(&sc);
	struct nb_store_row *rows;
	size_t n;
	struct loaded *l = store_cli_load(st, &sc, NULL, &rows, &n);
	if (!n)
		cli_fail(ENOENT, "no result %lld in %s", (long long)sc.ids[0], store_cli_path(&sc));
	const struct nb_store_row *r = &rows[0];
	if (json) {
		fputs(r->doc, stdout);
		if (!*r->doc || r->doc[strlen(r->doc) - 1] != '\n')
			fputc('\n', stdout);
	} else {
		char tags[512];
		tags_text(r, tags, sizeof(tags));
		printf("result %lld: %s, %s, label %s, ran %s on %s (%s, %s)%s%s\n",
		       (long long)r->id, r->test, r->source, *r->label ? r->label : "-",
		       r->time_utc, r->host, r->arch, r->kernel, *tags ? ", tags " : "", tags);
		if (r->table_text) {
			fputs(r->table_text, stdout);
		} else {
			printf("(stored without its table: shown from the document)\n");
			for (size_t v = 0; v < l[0].nviews; v++) {
				struct nb_cmp_entry e = {
				    .group = l[0].group, .env = &l[0].env, .view = &l[0].views[v]};
				struct nb_cmp_table *t;
				if (nb_cmp_build(&e, 1, NULL, &t))
					cli_fail(ENOMEM, "out of memory");
				putchar('\n');
				nb_cmp_write_text(stdout, t);
				nb_cmp_table_free(t);
			}
		}
	}
	store_cli_free(l, rows, n);
	nb_store_close(st);
	return 0;
}

static int do_rm(int argc, char **argv)
{
	static const struct option opts[] = {{"db", required_argument, NULL, SC_OPT_DB},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct store_cli sc = {0};
	char err[512] = "";
	int c;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (!store_cli_option(&sc, c))
			cli_last_option(argv, c, usage_text, NULL);
	}
	if (optind >= argc)
		cli_usage_error("rm: give the IDs of the results to remove");
	store_cli_ids(&sc, argc, argv);
	struct nb_store *st = store_cli_open(&sc);
	int ret = nb_store_rm(st, sc.ids, sc.f.nids, err, sizeof(err));
	nb_store_close(st);
	if (ret)
		cli_fail(0, "%s", err);
	fprintf(stderr, "netbench results: removed %zu result%s\n", sc.f.nids,
		sc.f.nids == 1 ? "" : "s");
	return 0;
}

int cmd_results(int argc, char **argv)
{
	if (argc < 2)
		cli_usage_error("give an action: import, list, show, export, merge or rm");
	const char *a = argv[1];
	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		usage_exit();
	if (!strcmp(a, "-V") || !strcmp(a, "--version"))
		cli_version();
	/* Documents become LAVA test cases on a board too, whose static build has no store. */
	if (!strcmp(a, "export") && results_lava_asked(argc - 1, argv + 1))
		return results_export_lava(argc - 1, argv + 1);
	if (!nb_store_available())
		cli_fail(0, "this build has no SQLite: the results store needs it (rebuild with "
			    "libsqlite3-dev installed)");
	argc--;
	argv++;
	if (!strcmp(a, "import"))
		return do_import(argc, argv);
	if (!strcmp(a, "list"))
		return do_list(argc, argv, false);
	if (!strcmp(a, "export"))
		return do_list(argc, argv, true);
	if (!strcmp(a, "show"))
		return do_show(argc, argv);
	if (!strcmp(a, "rm"))
		return do_rm(argc, argv);
	if (!strcmp(a, "merge"))
		return results_merge(argc, argv);
	cli_usage_error("unknown action '%s' (accepted: import, list, show, export, merge, rm)", a);
}
