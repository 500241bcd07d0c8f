/* SPDX-License-Identifier: BSD-2-Clause */
/* Every change to the results store: add documents, remove results, merge another store.
 * Each is one transaction, so a process killed mid-write leaves the store as it was. Platform
 * facts are copied out of the document with SQLite's JSON functions when a result is added, so
 * listing and filtering never parse JSON. */
#ifdef HAVE_SQLITE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/jdoc.h"
#include "core/store/store_db.h"

/* The measured end's fact: env.dut when the document has one (rate through a DUT with its
 * observer), else env.remote, else (a run with several receiving agents) the first receiver's
 * env, else env.local. A fact that end lacks stays NULL: never filled from the other end (a
 * board's driver is not the controller's). */
#define FACT(f)                                                                                    \
	"CASE WHEN json_type(?1, '$.env.dut') = 'object' THEN json_extract(?1, '$.env.dut." f      \
	"') WHEN json_type(?1, '$.env.remote') = 'object' THEN json_extract(?1, "                  \
	"'$.env.remote." f                                                                         \
	"') WHEN json_type(?1, '$.receivers[1]') IS NOT NULL AND json_type(?1, "                   \
	"'$.receivers[0].agent') = 'text' AND json_type(?1, '$.receivers[0].env') = 'object' "     \
	"THEN json_extract(?1, '$.receivers[0].env." f "') ELSE json_extract(?1, '$.env.local." f  \
	"') END"

static const char insert_sql[] =
    "INSERT INTO results (test, label, time_utc, saved_utc, source, host, kernel, "
    "arch, "
    "cpu_model, cpu_mhz, driver, doc, table_text) VALUES (json_extract(?1, "
    "'$.test'), ?2, "
    "json_extract(?1, '$.time_utc'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), "
    "?3, " FACT("hostname") ", " FACT("kernel") ", " FACT("arch") ", " FACT("cpu_model") ", " FACT(
	"cpu_mhz") ", " FACT("driver") ", ?1, ?4)";

/* A document already here, byte for byte, is the same run. */
static const char dup_sql[] =
    "SELECT id FROM results WHERE length(doc) = length(?1) AND doc = ?1 ORDER BY id LIMIT 1";

/* nb_store_add's work inside the caller's transaction. */
static int add_entries(struct nb_store *s, const struct nb_store_add *a, size_t n, int64_t *ids,
		       char *err, size_t errlen)
{
	sqlite3_stmt *ins = NULL, *tag = NULL, *dup = NULL;
	char why[320];
	int ret = 0;

	if (sqlite3_prepare_v2(s->db, dup_sql, -1, &dup, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, insert_sql, -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		s->db, "INSERT INTO tags (result_id, key, value, num) VALUES (?1, ?2, ?3, ?4)", -1,
		&tag, NULL) != SQLITE_OK) {
		ret = nb_store_db_fail(s, err, errlen, "preparing the insert");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		ret = nb_store_entry_check(a[i].doc, strlen(a[i].doc), a[i].label, a[i].tags,
					   a[i].ntags, why, sizeof(why));
		if (ret) {
			if (a[i].name)
				snprintf(err, errlen, "%s %s", a[i].name, why);
			else
				snprintf(err, errlen, "document %zu %s", i + 1, why);
			goto out;
		}
		if (a[i].same_as) {
			/* Stored already (or earlier in this call): counted once, never twice. */
			*a[i].same_as = 0;
			sqlite3_reset(dup);
			sqlite3_bind_text(dup, 1, a[i].doc, -1, SQLITE_STATIC);
			int rc = sqlite3_step(dup);
			if (rc == SQLITE_ROW) {
				*a[i].same_as = sqlite3_column_int64(dup, 0);
				if (ids)
					ids[i] = *a[i].same_as;
				continue;
			}
			if (rc != SQLITE_DONE) {
				ret = nb_store_db_fail(s, err, errlen, "looking for a duplicate");
				goto out;
			}
		}
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, a[i].doc, -1, SQLITE_STATIC);
		if (a[i].label && *a[i].label)
			sqlite3_bind_text(ins, 2, a[i].label, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 2);
		sqlite3_bind_text(ins, 3, a[i].source ? a[i].source : "save", -1, SQLITE_STATIC);
		if (a[i].table_text)
			sqlite3_bind_text(ins, 4, a[i].table_text, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 4);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			ret = nb_store_db_fail(s, err, errlen, "storing a result");
			goto out;
		}
		int64_t id = sqlite3_last_insert_rowid(s->db);
		if (ids)
			ids[i] = id;
		for (size_t k = 0; k < a[i].ntags; k++) {
			sqlite3_reset(tag);
			sqlite3_bind_int64(tag, 1, id);
			sqlite3_bind_text(tag, 2, a[i].tags[k].key, -1, SQLITE_STATIC);
			sqlite3_bind_text(tag, 3, a[i].tags[k].value, -1, SQLITE_STATIC);
			/* A value that is a whole number is also kept as one, for fits. */
			char *end;
			double num = strtod(a[i].tags[k].value, &end);
			if (*end || end == a[i].tags[k].value || !isfinite(num))
				sqlite3_bind_null(tag, 4);
			else
				sqlite3_bind_double(tag, 4, num);
			if (sqlite3_step(tag) != SQLITE_DONE) {
				ret = nb_store_db_fail(s, err, errlen, "storing a tag");
				goto out;
			}
		}
	}
out:
	sqlite3_finalize(dup);
	sqlite3_finalize(ins);
	sqlite3_finalize(tag);
	return ret;
}

int nb_store_add(struct nb_store *s, const struct nb_store_add *a, size_t n, int64_t *ids,
		 char *err, size_t errlen)
{
	int ret;

	if ((ret = nb_store_exec(s, "BEGIN IMMEDIATE", err, errlen)))
		return ret;
	ret = add_entries(s, a, n, ids, err, errlen);
	if (!ret)
		ret = nb_store_exec(s, "COMMIT", err, errlen);
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

int nb_store_rm(struct nb_store *s, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int ret;

	if ((ret = nb_store_exec(s, "BEGIN IMMEDIATE", err, errlen)))
		return ret;
	if (sqlite3_prepare_v2(s->db, "DELETE FROM results WHERE id = ?1", -1, &st, NULL) !=
	    SQLITE_OK) {
		ret = nb_store_db_fail(s, err, errlen, "removing results");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			ret = nb_store_db_fail(s, err, errlen, "removing results");
			goto out;
		}
		if (sqlite3_changes(s->db) != 1) {
			snprintf(err, errlen, "no result with id %lld (nothing removed)",
				 (long long)ids[i]);
			ret = -ENOENT;
			goto out;
		}
	}
	ret = nb_store_exec(s, "COMMIT", err, errlen);
out:
	sqlite3_finalize(st);
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* The work reading another store may take, in SQLite's virtual-machine steps (about 10 s): a
 * store crafted to make a query spin is refused, not waited for. */
#define MERGE_STEPS_MAX	  1000000000ull
#define MERGE_STEPS_EVERY 10000

static int merge_progress(void *arg)
{
	unsigned long long *steps = arg;
	*steps += MERGE_STEPS_EVERY;
	return *steps > MERGE_STEPS_MAX;
}

/* The other store is opened read-only and never created: a mistyped path is an error, not an
 * empty store merged in silence. It is foreign data: SQLite's defensive settings (no schema
 * functions it does not trust, no triggers, no views), a bounded length and number of steps,
 * and its schema must be netbench's, object for object. */
static int open_other(const char *path, sqlite3 **db, unsigned long long *steps, char *err,
		      size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int v = -1, ret;

	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, *db ? sqlite3_errmsg(*db) : "cannot open");
		return -ENOENT;
	}
	sqlite3_db_config(*db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(*db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(*db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(*db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_limit(*db, SQLITE_LIMIT_LENGTH, (int)NB_JDOC_MAX_BYTES + 1);
	sqlite3_progress_handler(*db, MERGE_STEPS_EVERY, merge_progress, steps);
	sqlite3_busy_timeout(*db, 15000);
	if (sqlite3_prepare_v2(*db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (v < 0) {
		snprintf(err, errlen, "%s is not a SQLite database (or cannot be read)", path);
		return -EINVAL;
	}
	if (v > NB_STORE_SCHEMA_VERSION)
		return nb_store_too_new(path, v, err, errlen);
	if (v != NB_STORE_SCHEMA_VERSION || (ret = nb_store_schema_same(*db)) == -EINVAL) {
		snprintf(err, errlen,
			 "%s is not a netbench results store (its schema is not netbench's: its "
			 "tables, index and nothing else; no view, trigger or virtual table)",
			 path);
		return -EINVAL;
	}
	if (ret) {
		snprintf(err, errlen, "%s: reading its schema: %s", path, sqlite3_errmsg(*db));
		return ret;
	}
	/* SQLite's advice for a database file from elsewhere: check its structure first. */
	ret = -EINVAL;
	if (sqlite3_prepare_v2(*db, "PRAGMA quick_check", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    !strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		ret = 0;
	sqlite3_finalize(st);
	if (ret)
		snprintf(err, errlen, "%s is damaged (SQLite's quick_check does not say ok)", path);
	return ret;
}

int nb_store_merge(struct nb_store *s, const char *other, size_t *added, size_t *skipped, char *err,
		   size_t errlen)
{
	sqlite3 *o = NULL;
	sqlite3_stmt *rd = NULL, *rdtag = NULL;
	unsigned long long steps = 0;
	int ret, rc;

	*added = *skipped = 0;
	if ((ret = open_other(other, &o, &steps, err, errlen)))
		goto done;
	if ((ret = nb_store_exec(s, "BEGIN IMMEDIATE", err, errlen)))
		goto done;
	if (sqlite3_prepare_v2(o, "SELECT id, label, doc, table_text FROM results ORDER BY id", -1,
			       &rd, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(o, "SELECT key, value FROM tags WHERE result_id = ?1 ORDER BY key",
			       -1, &rdtag, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", other, sqlite3_errmsg(o));
		ret = -EIO;
		goto out;
	}
	while ((rc = sqlite3_step(rd)) == SQLITE_ROW) {
		/* One more than a result may have, so that too many are refused, not cut. */
		struct nb_store_tag tags[NB_STORE_MAX_TAGS + 1];
		size_t ntags = 0;
		long long id = sqlite3_column_int64(rd, 0);
		sqlite3_reset(rdtag);
		sqlite3_bind_int64(rdtag, 1, id);
		while (ntags <= NB_STORE_MAX_TAGS && (rc = sqlite3_step(rdtag)) == SQLITE_ROW) {
			const char *k = (const char *)sqlite3_column_text(rdtag, 0),
				   *v = (const char *)sqlite3_column_text(rdtag, 1);
			struct nb_store_tag *t = &tags[ntags++];
			/* What does not fit is no tag: the check refuses an empty key. */
			if (!k || !v || strlen(k) >= sizeof(t->key) ||
			    strlen(v) >= sizeof(t->value))
				k = v = "";
			snprintf(t->key, sizeof(t->key), "%s", k);
			snprintf(t->value, sizeof(t->value), "%s", v);
		}
		if (ntags <= NB_STORE_MAX_TAGS && rc != SQLITE_DONE)
			break;
		/* Through the one door every document takes: checked, a duplicate skipped. */
		const char *doc = (const char *)sqlite3_column_text(rd, 2);
		char name[300];
		int64_t same = 0;
		snprintf(name, sizeof(name), "%s: result %lld", other, id);
		struct nb_store_add a = {.doc = doc ? doc : "",
					 .label = (const char *)sqlite3_column_text(rd, 1),
					 .table_text = (const char *)sqlite3_column_text(rd, 3),
					 .source = "merge",
					 .tags = tags,
					 .ntags = ntags,
					 .same_as = &same,
					 .name = name};
		if ((ret = add_entries(s, &a, 1, NULL, err, errlen)))
			goto out;
		if (same)
			(*skipped)++;
		else
			(*added)++;
	}
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "%s: reading results: %s", other, sqlite3_errmsg(o));
		ret = -EIO;
		goto out;
	}
	ret = nb_store_exec(s, "COMMIT", err, errlen);
out:
	sqlite3_finalize(rd);
	sqlite3_finalize(rdtag);
	if (ret) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		*added = 0;
	}
done:
	if (steps > MERGE_STEPS_MAX)
		snprintf(err, errlen,
			 "%s: reading it took more than %llu of SQLite's steps: refused (a store "
			 "crafted to make the merge spin?)",
			 other, MERGE_STEPS_MAX);
	sqlite3_close(o);
	return ret;
}
#endif
