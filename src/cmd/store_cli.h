/* SPDX-License-Identifier: BSD-2-Clause */
/* What results, compare and report share: the database path, the filter options, and loading
 * the chosen results with their documents parsed into views. */
#ifndef NB_STORE_CLI_H
#define NB_STORE_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/store/facts.h"
#include "core/store/group.h"
#include "core/store/jdoc.h"
#include "core/store/pivot.h"
#include "core/store/settings.h"
#include "core/store/store.h"
#include "core/store/views.h"

enum {
	SC_OPT_DB = 0x5400,
	SC_OPT_TEST,
	SC_OPT_LABEL,
	SC_OPT_HOST,
	SC_OPT_SINCE,
	SC_OPT_UNTIL,
	SC_OPT_TAG,
	SC_OPT_WHERE,
	SC_OPT_CPU, /* the view options compare and report share */
	SC_OPT_ALGO,
	SC_OPT_FIT,
	SC_OPT_LINEAR,
};

#define STORE_CLI_LONGOPTS                                                                         \
	{"db", required_argument, NULL, SC_OPT_DB},                                                \
	    {"test", required_argument, NULL, SC_OPT_TEST},                                        \
	    {"label", required_argument, NULL, SC_OPT_LABEL},                                      \
	    {"host", required_argument, NULL, SC_OPT_HOST},                                        \
	    {"since", required_argument, NULL, SC_OPT_SINCE},                                      \
	    {"until", required_argument, NULL, SC_OPT_UNTIL},                                      \
	    {"tag", required_argument, NULL, SC_OPT_TAG},                                          \
	{                                                                                          \
		"where", required_argument, NULL, SC_OPT_WHERE                                     \
	}

#define STORE_CLI_HELP                                                                             \
	"      --db FILE          the results database (default\n"                                 \
	"                         $NETBENCH_DB or ./netbench.db)\n"                                \
	"      --test NAME        only results of this test\n"                                     \
	"                         (tput, rate, stream, crypto, mem)\n"                             \
	"      --label TEXT       only results with this label\n"                                  \
	"                         (% and _ match as in SQL LIKE)\n"                                \
	"      --host NAME        only results measured on this host\n"                            \
	"      --since TIME       only results that ran at or after TIME (ISO 8601, UTC)\n"        \
	"      --until TIME       only results that ran at or before TIME\n"                       \
	"      --tag KEY=VALUE    only results with this tag (repeatable: all must match)\n"       \
	"      --where KEY=V[,V]  only results whose KEY is one of the values:\n"                  \
	"                         label, host, a tag's key (kernel, arch: the tag,\n"              \
	"                         else the measured platform's); size=64,1518\n"                   \
	"                         keeps compare's and report's points at those\n"                  \
	"                         sizes (repeatable: all must match)\n"                            \
	"  ID...                  only these results\n"

/* The view options (each command writes its own help lines for them). */
#define STORE_VIEW_LONGOPTS                                                                        \
	{"cpu", required_argument, NULL, SC_OPT_CPU},                                              \
	    {"algo", required_argument, NULL, SC_OPT_ALGO},                                        \
	    {"fit", required_argument, NULL, SC_OPT_FIT},                                          \
	{                                                                                          \
		"linear", no_argument, NULL, SC_OPT_LINEAR                                         \
	}

struct store_view_cli {
	struct nb_view_opts vo; /* --cpu, --algo */
	const char *fit;	/* --fit's formula, or NULL */
	bool linear;
};

/* --where KEY=V[,V]: an axis and the values it may take. */
struct store_where {
	struct nb_piv_axis axis;
	const char *values; /* comma-separated */
	const char *text;   /* as typed, for messages */
};
#define STORE_CLI_MAX_WHERE 16

struct store_cli {
	const char *db;
	struct store_where where[STORE_CLI_MAX_WHERE];
	size_t nwhere;
	bool axes; /* tables on chosen axes: a label split by a tag is no news */
	struct nb_store_filter f;
	struct nb_store_tag tags[NB_STORE_MAX_TAGS];
	int64_t ids[1024];
};

struct loaded {
	struct nb_store_row *row;
	struct nb_jdoc *doc;
	char group[NB_GROUP_NAME_MAX]; /* label and the tags that differ within it */
	struct nb_facts env;	       /* the measured end, from the document */
	struct nb_view *views;
	size_t nviews;
	char virt[96];	 /* the measured end's env "virtualization" (store_cli_load_views) */
	bool virt_known; /* false: the document does not say */
	/* The run's tags, then its settings (core/store/settings.h): what groups it. */
	struct nb_store_tag set[NB_STORE_MAX_TAGS + NB_SETTINGS_MAX];
	size_t nset;
};

/* Filter options: true when c was one of them. */
bool store_cli_option(struct store_cli *sc, int c);
/* View options: true when c was one of them; exits 2 on a bad --cpu. */
bool store_cli_view_option(struct store_view_cli *v, int c);
/* After the options: exits 2 when --linear comes without --fit. */
void store_cli_view_check(const struct store_view_cli *v);
/* Remaining arguments as result IDs. */
void store_cli_ids(struct store_cli *sc, int argc, char **argv);
/* Queries the store with the filters and --where (size= needs views: refused with views false);
 * exits 1 on failure. */
void store_cli_query(struct nb_store *st, const struct store_cli *sc, bool want_doc, bool views,
		     struct nb_store_row **rows, size_t *n);
/* Opens the database; exits 1 with one line (no SQLite in this build, unreadable file, ...). */
struct nb_store *store_cli_open(const struct store_cli *sc);
/* For the read commands: an existing store, read-only; a missing one exits 1 naming it. */
struct nb_store *store_cli_open_read(const struct store_cli *sc);
const char *store_cli_path(const struct store_cli *sc);
/* Loads the matching results with documents; parses each into views (opts may be NULL).
 * Exits 1 on failure. */
struct loaded *store_cli_load(struct nb_store *st, const struct store_cli *sc,
			      const struct nb_view_opts *opts, struct nb_store_row **rows,
			      size_t *n);
/* The same, one document at a time: each is fetched, parsed into its views and freed before
 * the next, so that memory holds one document and the views of all (rows have no doc; l[].doc
 * is NULL). A document beyond the reader's limits (NB_JDOC_MAX_BYTES, NB_JDOC_MAX_VALUES) is
 * named with the limit and exits 1. */
struct loaded *store_cli_load_views(struct nb_store *st, const struct store_cli *sc,
				    const struct nb_view_opts *opts, struct nb_store_row **rows,
				    size_t *n);
void store_cli_free(struct loaded *l, struct nb_store_row *rows, size_t n);
/* The group of a baseline given as an ID, a group name or a label; exits 2 when none matches
 * or when the label was split by its tags into several groups (naming them). */
const char *store_cli_baseline(const struct loaded *l, size_t n, const char *arg);

/* --rows, --columns, --trend: the axis named by text; a bad one is a usage error naming opt. */
void store_cli_axis(const char *opt, const char *text, struct nb_piv_axis *a);
/* --trend KEY: the axis of a tag's values; anything but a tag's key is a usage error. */
void store_cli_trend(const char *text, struct nb_piv_axis *a);
/* A --baseline with chosen axes is a value of the column axis: a usage error (before anything is
 * printed) when no selected point has it. NULL passes. */
void store_cli_pivot_baseline(const struct loaded *l, size_t n, const struct nb_piv_axis *ca,
			      const char *baseline);
/* The tables on the chosen axes, per view id in the order the results bring them: each is
 * given to fn, then freed. Exits 1 on failure. */
void store_cli_pivot(const struct loaded *l, size_t n, const struct nb_piv_axis *ra,
		     const struct nb_piv_axis *ca, const char *baseline,
		     void (*fn)(struct nb_cmp_table *t, void *ctx), void *ctx);

/* Reads a whole result document (a path, or "-" for standard input), bounded by what the store
 * takes (NB_JDOC_MAX_BYTES); exits 1 on failure. */
char *store_cli_read_doc(const char *path, size_t *len);

/* compare --fit and report --fit: fits the loaded results (core/store/fit_runs.c) and writes the
 * sentences to text and, with svg, each fit's charts (one per factor, for the report). Returns
 * the exit status (1 when no step could be fitted); a wrong formula is a usage error. */
int store_cli_fit(const char *formula, bool linear, const struct loaded *l, size_t n, FILE *text,
		  FILE *svg);

#endif
