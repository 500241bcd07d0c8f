/* SPDX-License-Identifier: BSD-2-Clause */
/* --save [DB], --label, --tag and -o FILE for every measuring subcommand, in one place. A front
 * end adds CLI_SAVE_LONGOPTS to its options and "o:" to its short ones, hands unknown option
 * codes to cli_save_option, calls cli_save_start after parsing, hands the JSON document its
 * test's core built to cli_save_doc, and calls cli_save_finish once its output is printed. */
#ifndef NB_CLI_SAVE_H
#define NB_CLI_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/opt_table.h"
#include "core/store/store.h"

enum { CLI_OPT_SAVE = 0x5300, CLI_OPT_LABEL, CLI_OPT_TAG };

#define CLI_SAVE_LONGOPTS                                                                          \
	{"save", optional_argument, NULL, CLI_OPT_SAVE},                                           \
	    {"label", required_argument, NULL, CLI_OPT_LABEL},                                     \
	    {"tag", required_argument, NULL, CLI_OPT_TAG},                                         \
	{                                                                                          \
		"output", required_argument, NULL, 'o'                                             \
	}

/* The same options as an option table's rows, their help with them (cli_save_option takes them). */
#define CLI_SAVE_ROWS                                                                              \
	OPT_ROW_PASS_LONG("save", optional_argument, CLI_OPT_SAVE, "[DB]",                         \
			  "store the result in DB (default $NETBENCH_DB or\n./netbench.db)"),      \
	    OPT_ROW_PASS_LONG(                                                                     \
		"label", required_argument, CLI_OPT_LABEL, "TEXT",                                 \
		"the result's label in the store (e.g. the board and\nits setting)"),              \
	    OPT_ROW_PASS_LONG("tag", required_argument, CLI_OPT_TAG, "KEY=VALUE",                  \
			      "a tag on the stored result (repeatable; numbers can\nbe fitted)"),  \
	    OPT_ROW_PASS_HELP("output", 'o', required_argument, "FILE",                            \
			      "also write the JSON document to FILE")

struct cli_save {
	bool save;
	const char *db;
	const char *label;
	const char *out;
	struct nb_store_tag tags[NB_STORE_MAX_TAGS];
	size_t ntags;
	const char *test;
	bool json;
	/* The JSON document, as core built it. */
	char *doc;
	size_t doc_len;
};

/* For a front end's option switch: true when c was one of ours. */
bool cli_save_option(struct cli_save *s, int c, int argc, char **argv);

/* What the commands that run on an agent and save a document (crypto, mem, tput) share among
 * the options their table passes on (OPT_PASS): -J into *json, the agent's options
 * (cli_remote_option), --save's, then -h (usage's), -V or an unknown option
 * (cli_last_option). */
struct cli_remote;
struct cli_common {
	bool *json;
	struct cli_remote *remote;
	struct cli_save *save;
	void (*usage)(FILE *f);
};
void cli_common_option(const struct cli_common *cc, int c, const char *name, int argc, char **argv);
/* The same as an option table's other() for opt_parse, cc the struct cli_common. */
void cli_common_other(void *cc, int c, const char *name, int argc, char **argv);
/* After option parsing: refuses --label/--tag without --save, and --save in a build without
 * SQLite (exit 1); checks that -o FILE and --save's DB can be written (exit 1 naming the path),
 * before anything is measured. */
void cli_save_start(struct cli_save *s, const char *test, bool json);
/* Before the measurement: exits 1 naming opt and path when path cannot be written (its
 * directory is missing or not writable, or it is a directory). Creates nothing. */
void cli_check_writable(const char *opt, const char *path);
/* True when the run's JSON document is wanted (-J, --save or -o). */
bool cli_save_wants_doc(const struct cli_save *s);
/* Takes the document (malloc'd text, len bytes): printed on stdout with -J, kept for -o and
 * --save (cli_save_finish), freed here otherwise. The front end builds it in core, with its
 * test's _json.c. */
void cli_save_doc(struct cli_save *s, char *doc, size_t len);
/* Writes -o FILE and stores the result; says where in one line on stderr. When a write fails
 * anyway, the other is still done, the document is printed on stdout (unless -J printed it
 * already) and it exits 1 naming where it could not go. */
void cli_save_finish(struct cli_save *s);

#endif
