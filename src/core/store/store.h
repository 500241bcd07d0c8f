/* SPDX-License-Identifier: BSD-2-Clause */
/* The results store: result documents in one SQLite file with their label, tags and the
 * platform facts taken from the document. Built only with HAVE_SQLITE (the controller's
 * optional library); otherwise every call returns -ENOSYS. Schema: docs/results.md. */
#ifndef NB_STORE_H
#define NB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NB_STORE_SCHEMA_VERSION 1
#define NB_STORE_MAX_TAGS	16
#define NB_STORE_TAG_KEY_MAX	32
#define NB_STORE_TAG_VALUE_MAX	64
#define NB_STORE_LABEL_MAX	128
#define NB_STORE_DEFAULT_PATH	"netbench.db"

struct nb_store;

struct nb_store_tag {
	char key[NB_STORE_TAG_KEY_MAX];
	char value[NB_STORE_TAG_VALUE_MAX];
};

/* One stored result. Platform facts come from the measured end: env.remote when the document
 * has one, else env.local. */
struct nb_store_row {
	int64_t id;
	char test[16];
	char label[NB_STORE_LABEL_MAX];
	char time_utc[32];  /* when it ran (the document's time_utc) */
	char saved_utc[32]; /* when it was stored */
	char source[16];    /* "save" or "import" */
	char host[64], kernel[96], arch[32], cpu_model[96], driver[64];
	double cpu_mhz; /* NAN when unknown */
	struct nb_store_tag tags[NB_STORE_MAX_TAGS];
	size_t ntags;
	char *doc;	  /* with want_doc only */
	char *table_text; /* with want_doc only; NULL when none was stored */
};

/* Every given field narrows the result; NULL / 0 fields do not. */
struct nb_store_filter {
	const int64_t *ids;
	size_t nids;
	const char *test;
	const char *label; /* exact, or a SQL LIKE pattern when it holds % or _ */
	const char *host;
	const char *since_utc, *until_utc; /* compared with time_utc as text (ISO 8601) */
	const struct nb_store_tag *tags;   /* every one must match */
	size_t ntags;
};

bool nb_store_available(void);
/* Opens (creating) the database and brings its schema to NB_STORE_SCHEMA_VERSION; a database
 * of a newer schema is refused (-EPROTO). err gets a sentence on failure. */
int nb_store_open(const char *path, struct nb_store **out, char *err, size_t errlen);
/* Opens an existing store read-only (SQLITE_OPEN_READONLY): never creates nor changes a file,
 * so any user who may read the file may list it. A missing file is -ENOENT naming the path. */
int nb_store_open_read(const char *path, struct nb_store **out, char *err, size_t errlen);
void nb_store_close(struct nb_store *s);

/* Adds documents in one transaction: all or none. doc must be a JSON object with "schema"
 * netbench/... and "test" (else -EINVAL naming the document's index). ids may be NULL. */
struct nb_store_add {
	const char *doc;
	const char *table_text; /* may be NULL */
	const char *label;	/* may be NULL */
	const char *source;
	const struct nb_store_tag *tags;
	size_t ntags;
	/* NULL: always added. Else a document already stored byte for byte (or earlier in the
	 * same call) is not added again, and *same_as is that result's id (0 when added): an
	 * imported document counts once, however often it is imported. */
	int64_t *same_as;
	const char *name; /* in messages (a file, "OTHER.db: result 7"); NULL: "document N" */
};
/* Every document, label and tags enter through nb_store_add (import, --save, merge), and it
 * checks each entry with nb_store_entry_check first: all or none. */
int nb_store_add(struct nb_store *s, const struct nb_store_add *a, size_t n, int64_t *ids,
		 char *err, size_t errlen);

/* Every text of a row (and the document, the stored table) comes out with control characters
 * escaped (core/base/escape.h): a store is foreign data. */
int nb_store_query(struct nb_store *s, const struct nb_store_filter *f, bool want_doc,
		   struct nb_store_row **rows, size_t *nrows, char *err, size_t errlen);
void nb_store_rows_free(struct nb_store_row *rows, size_t n);

/* Removes results by id in one transaction; -ENOENT (none removed) when one is missing. */
int nb_store_rm(struct nb_store *s, const int64_t *ids, size_t n, char *err, size_t errlen);

/* Copies another store's results in, with their labels, tags and tables, in one transaction
 * (all or none). A document already present byte for byte is skipped, so merging twice adds
 * nothing. The other store is opened read-only and never created. Merged rows have source
 * "merge". */
int nb_store_merge(struct nb_store *s, const char *other, size_t *added, size_t *skipped, char *err,
		   size_t errlen);

/* The one check of what enters a store: the document parses within jdoc's limits (64 MiB,
 * 1,048,576 values, depth 64) as a JSON object with "schema": "netbench/..." and "test"; the
 * label (NULL: none) is shorter than NB_STORE_LABEL_MAX; at most NB_STORE_MAX_TAGS tags, each
 * what nb_store_tag_parse takes. 0, or -EINVAL (-E2BIG past jdoc's limits) with err a
 * sentence to follow the entry's name ("is not a JSON document: ..."). */
int nb_store_entry_check(const char *doc, size_t len, const char *label,
			 const struct nb_store_tag *tags, size_t ntags, char *err, size_t errlen);

/* Parses "key=value" (key: letters, digits, _ - .; value: printable, no comma). */
int nb_store_tag_parse(const char *text, struct nb_store_tag *t);

#endif
