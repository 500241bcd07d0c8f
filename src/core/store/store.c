/* SPDX-License-Identifier: BSD-2-Clause */
/* The results store on SQLite. WAL journal and a busy timeout let several netbench processes
 * save at once; every change is one transaction, so a process killed mid-write leaves the
 * database as it was before that change. Platform facts are copied out of the document with
 * SQLite's JSON functions when a result is added, so listing and filtering never parse JSON. */
#include "core/store/store.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/escape.h"

int nb_store_tag_parse(const char *text, struct nb_store_tag *t)
{
	const char *eq = strchr(text, '=');
	size_t kl, vl;
	if (!eq)
		return -EINVAL;
	kl = (size_t)(eq - text);
	vl = strlen(eq + 1);
	if (!kl || kl >= sizeof(t->key) || !vl || vl >= sizeof(t->value))
		return -EINVAL;
	for (size_t i = 0; i < kl; i++)
		if (!isalnum((unsigned char)text[i]) && !strchr("_-.", text[i]))
			return -EINVAL;
	for (size_t i = 0; i < vl; i++)
		if (!isprint((unsigned char)eq[1 + i]) || eq[1 + i] == ',')
			return -EINVAL;
	memcpy(t->key, text, kl);
	t->key[kl] = '\0';
	memcpy(t->value, eq + 1, vl + 1);
	return 0;
}

void nb_store_rows_free(struct nb_store_row *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++) {
		free(rows[i].doc);
		free(rows[i].table_text);
	}
	free(rows);
}

#ifndef HAVE_SQLITE

bool nb_store_available(void)
{
	return false;
}

int nb_store_open(const char *path, struct nb_store **out, char *err, size_t errlen)
{
	*out = NULL;
	snprintf(err, errlen, "this build has no SQLite (rebuild with libsqlite3-dev installed)");
	return -ENOSYS;
}

int nb_store_open_read(const char *path, struct nb_store **out, char *err, size_t errlen)
{
	return nb_store_open(path, out, err, errlen);
}

void nb_store_close(struct nb_store *s)
{
}

int nb_store_add(struct nb_store *s, const struct nb_store_add *a, size_t n, int64_t *ids,
		 char *err, size_t errlen)
{
	return -ENOSYS;
}

int nb_store_query(struct nb_store *s, const struct nb_store_filter *f, bool want_doc,
		   struct nb_store_row **rows, size_t *nrows, char *err, size_t errlen)
{
	*rows = NULL;
	*nrows = 0;
	return -ENOSYS;
}

int nb_store_rm(struct nb_store *s, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	return -ENOSYS;
}

int nb_store_merge(struct nb_store *s, const char *other, size_t *added, size_t *skipped,
		   char *err, size_t errlen)
{
	*added = *skipped = 0;
	return -ENOSYS;
}

#else

#include <sqlite3.h>

struct nb_store {
	sqlite3 *db;
};

bool nb_store_available(void)
{
	return true;
}

static int db_fail(struct nb_store *s, char *err, size_t errlen, const char *what)
{
	int code = sqlite3_errcode(s->db);
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(s->db));
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return -EBUSY;
	if (code == SQLITE_NOMEM)
		return -ENOMEM;
	if (code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN)
		return -EACCES;
	return -EIO;
}

static int exec(struct nb_store *s, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s, err, errlen, sql);
	return 0;
}

/* Version 1. Upgrades add a step from the version before; the version is PRAGMA user_version. */
static const char schema_v1[] =
    "CREATE TABLE results ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " test TEXT NOT NULL,"
    " label TEXT,"
    " time_utc TEXT,"
    " saved_utc TEXT NOT NULL,"
    " source TEXT NOT NULL,"
    " host TEXT, kernel TEXT, arch TEXT, cpu_model TEXT, cpu_mhz REAL, driver TEXT,"
    " doc TEXT NOT NULL CHECK (json_valid(doc)),"
    " table_text TEXT);"
    "CREATE INDEX results_by_test ON results(test, time_utc);"
    "CREATE TABLE tags ("
    " result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL,"
    " value TEXT NOT NULL,"
    " num REAL,"
    " PRIMARY KEY (result_id, key));"
    "PRAGMA user_version = 1;";

static int user_version(struct nb_store *s, int *v)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -EIO;
}

int nb_store_open(const char *path, struct nb_store **out, char *err, size_t errlen)
{
	struct nb_store *s = calloc(1, sizeof(*s));
	int ret, v = 0;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		ret = db_fail(s, err, errlen, path);
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 15000);
	/* WAL: readers never block the writer, and a torn write is rolled back on the next open.
	 * On a file system without shared memory it stays in the rollback journal: still safe. */
	sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	if ((ret = exec(s, "PRAGMA foreign_keys=ON", err, errlen)))
		goto fail;
	/* Creating the schema is itself a transaction, so two first writers cannot both do it. */
	if ((ret = exec(s, "BEGIN IMMEDIATE", err, errlen)))
		goto fail;
	if (user_version(s, &v)) {
		ret = db_fail(s, err, errlen, path);
		exec(s, "ROLLBACK", NULL, 0);
		goto fail;
	}
	if (v > NB_STORE_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "%s has results schema version %d; this netbench knows up to %d "
			 "(use a newer netbench)",
			 path, v, NB_STORE_SCHEMA_VERSION);
		exec(s, "ROLLBACK", NULL, 0);
		ret = -EPROTO;
		goto fail;
	}
	if (v == 0) {
		sqlite3_stmt *st;
		bool other = false;
		/* A database with tables of its own is not ours to add to. */
		if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st,
				       NULL) == SQLITE_OK) {
			other = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
			sqlite3_finalize(st);
		}
		if (other) {
			snprintf(err, errlen,
				 "%s is a SQLite database but not a netbench results store", path);
			exec(s, "ROLLBACK", NULL, 0);
			ret = -EINVAL;
			goto fail;
		}
		if ((ret = exec(s, schema_v1, err, errlen))) {
			exec(s, "ROLLBACK", NULL, 0);
			goto fail;
		}
	}
	if ((ret = exec(s, "COMMIT", err, errlen)))
		goto fail;
	*out = s;
	return 0;
fail:
	if (ret == -EIO && sqlite3_errcode(s->db) == SQLITE_NOTADB)
		snprintf(err, errlen, "%s is not a SQLite database", path);
	nb_store_close(s);
	return ret;
}

/* file:PATH?immutable=1 when no writer has the store open (no PATH-wal), else false. */
static bool ro_uri(const char *path, char *uri, size_t len)
{
	char wal[4096];
	size_t o;
	if ((size_t)snprintf(wal, sizeof(wal), "%s-wal", path) >= sizeof(wal) ||
	    access(wal, F_OK) == 0)
		return false;
	o = (size_t)snprintf(uri, len, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < len; p++)
		o += (size_t)(isalnum(*p) || strchr("/._-", *p)
				  ? snprintf(uri + o, len - o, "%c", *p)
				  : snprintf(uri + o, len - o, "%%%02X", *p));
	return o + 16 < len && snprintf(uri + o, len - o, "?immutable=1") > 0;
}

int nb_store_open_read(const char *path, struct nb_store **out, char *err, size_t errlen)
{
	struct nb_store *s;
	struct stat sb;
	int ret, v = 0;

	*out = NULL;
	/* A read never creates: a mistyped --db must not leave an empty store behind. */
	if (stat(path, &sb)) {
		ret = -errno;
		if (ret == -ENOENT)
			snprintf(err, errlen,
				 "%s: no results store there (results are stored by --save or "
				 "'results import')",
				 path);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		ret = db_fail(s, err, errlen, path);
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 15000);
	if (user_version(s, &v) && sqlite3_errcode(s->db) == SQLITE_READONLY) {
		/* A WAL store in a directory this user may not write: SQLite cannot make the
		 * shared-memory file a reader needs. With no -wal file no writer is at work,
		 * and the file alone is the whole store: read it as immutable. */
		char uri[8192];
		if (ro_uri(path, uri, sizeof(uri))) {
			sqlite3_close(s->db);
			s->db = NULL;
			if (sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
					    NULL) != SQLITE_OK) {
				ret = db_fail(s, err, errlen, path);
				goto fail;
			}
		}
		v = 0;
		if (user_version(s, &v)) {
			ret = db_fail(s, err, errlen, path);
			goto fail;
		}
	} else if (sqlite3_errcode(s->db) != SQLITE_OK) {
		ret = db_fail(s, err, errlen, path);
		goto fail;
	}
	if (v > NB_STORE_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "%s has results schema version %d; this netbench knows up to %d "
			 "(use a newer netbench)",
			 path, v, NB_STORE_SCHEMA_VERSION);
		ret = -EPROTO;
		goto fail;
	}
	if (v < 1) {
		snprintf(err, errlen, "%s is not a netbench results store", path);
		ret = -EINVAL;
		goto fail;
	}
	*out = s;
	return 0;
fail:
	if (ret == -EIO && sqlite3_errcode(s->db) == SQLITE_NOTADB)
		snprintf(err, errlen, "%s is not a SQLite database", path);
	nb_store_close(s);
	return ret;
}

void nb_store_close(struct nb_store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

/* The measured end's fact: env.remote when the document has one, else (a run with several
 * receiving agents) the first receiver's env, else env.local. A fact that end lacks stays NULL:
 * never filled from the other end (a board's driver is not the controller's). */
#define FACT(f)                                                                                    \
	"CASE WHEN json_type(?1, '$.env.remote') = 'object' THEN json_extract(?1, "                \
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

static const char check_sql[] =
    "SELECT json_valid(?1) AND json_type(?1) = 'object' AND "
    "json_extract(?1, '$.schema') LIKE 'netbench/%' AND json_type(?1, '$.test') = 'text'";

int nb_store_add(struct nb_store *s, const struct nb_store_add *a, size_t n, int64_t *ids,
		 char *err, size_t errlen)
{
	sqlite3_stmt *chk = NULL, *ins = NULL, *tag = NULL;
	int ret;

	if ((ret = exec(s, "BEGIN IMMEDIATE", err, errlen)))
		return ret;
	if (sqlite3_prepare_v2(s->db, check_sql, -1, &chk, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, insert_sql, -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		s->db, "INSERT INTO tags (result_id, key, value, num) VALUES (?1, ?2, ?3, ?4)", -1,
		&tag, NULL) != SQLITE_OK) {
		ret = db_fail(s, err, errlen, "preparing the insert");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(chk);
		sqlite3_bind_text(chk, 1, a[i].doc, -1, SQLITE_STATIC);
		if (sqlite3_step(chk) != SQLITE_ROW || !sqlite3_column_int(chk, 0)) {
			snprintf(err, errlen,
				 "document %zu is not a netbench result (a JSON object with "
				 "\"schema\": \"netbench/...\" and \"test\")",
				 i + 1);
			ret = -EINVAL;
			goto out;
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
			ret = db_fail(s, err, errlen, "storing a result");
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
				ret = db_fail(s, err, errlen, "storing a tag");
				goto out;
			}
		}
	}
	ret = exec(s, "COMMIT", err, errlen);
out:
	sqlite3_finalize(chk);
	sqlite3_finalize(ins);
	sqlite3_finalize(tag);
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* A store may come from anyone (a copied file, an import): every text leaves it escaped. */
static void col_text(sqlite3_stmt *st, int c, char *dst, size_t len)
{
	const unsigned char *t = sqlite3_column_text(st, c);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
	nb_esc_inplace(dst, len, NB_ESC_LINE);
}

static char *col_dup(sqlite3_stmt *st, int c, enum nb_esc_mode mode)
{
	const unsigned char *t = sqlite3_column_text(st, c);
	return t ? nb_esc_dup((const char *)t, mode) : NULL;
}

int nb_store_query(struct nb_store *s, const struct nb_store_filter *f, bool want_doc,
		   struct nb_store_row **rows, size_t *nrows, char *err, size_t errlen)
{
	char sql[4096];
	size_t len, cap = 0, n = 0;
	sqlite3_stmt *st = NULL, *tq = NULL;
	struct nb_store_row *r = NULL;
	int ret = 0, b = 1;

	*rows = NULL;
	*nrows = 0;
	len = (size_t)snprintf(sql, sizeof(sql),
			       "SELECT id, test, label, time_utc, saved_utc, source, host, kernel, "
			       "arch, cpu_model, cpu_mhz, driver, %s FROM results r WHERE 1",
			       want_doc ? "doc, table_text" : "NULL, NULL");
#define ADD(...) len += (size_t)snprintf(sql + len, sizeof(sql) - len, __VA_ARGS__)
	if (f->nids) {
		ADD(" AND id IN (");
		for (size_t i = 0; i < f->nids && len < sizeof(sql) - 64; i++)
			ADD("%s%lld", i ? "," : "", (long long)f->ids[i]);
		ADD(")");
	}
	if (f->test)
		ADD(" AND test = ?%d", b++);
	if (f->label)
		ADD(strpbrk(f->label, "%_") ? " AND label LIKE ?%d" : " AND label = ?%d", b++);
	if (f->host)
		ADD(" AND host = ?%d", b++);
	if (f->since_utc)
		ADD(" AND time_utc >= ?%d", b++);
	if (f->until_utc)
		ADD(" AND time_utc <= ?%d", b++);
	for (size_t i = 0; i < f->ntags; i++, b += 2)
		ADD(" AND EXISTS (SELECT 1 FROM tags t WHERE t.result_id = r.id AND t.key = ?%d "
		    "AND "
		    "t.value = ?%d)",
		    b, b + 1);
	ADD(" ORDER BY id");
#undef ADD
	if (len >= sizeof(sql)) {
		snprintf(err, errlen, "too many filters");
		return -E2BIG;
	}
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "SELECT key, value FROM tags WHERE result_id = ?1 ORDER BY key", -1,
			       &tq, NULL) != SQLITE_OK) {
		ret = db_fail(s, err, errlen, "querying results");
		goto out;
	}
	b = 1;
	if (f->test)
		sqlite3_bind_text(st, b++, f->test, -1, SQLITE_STATIC);
	if (f->label)
		sqlite3_bind_text(st, b++, f->label, -1, SQLITE_STATIC);
	if (f->host)
		sqlite3_bind_text(st, b++, f->host, -1, SQLITE_STATIC);
	if (f->since_utc)
		sqlite3_bind_text(st, b++, f->since_utc, -1, SQLITE_STATIC);
	if (f->until_utc)
		sqlite3_bind_text(st, b++, f->until_utc, -1, SQLITE_STATIC);
	for (size_t i = 0; i < f->ntags; i++) {
		sqlite3_bind_text(st, b++, f->tags[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, b++, f->tags[i].value, -1, SQLITE_STATIC);
	}
	for (;;) {
		int rc = sqlite3_step(st);
		if (rc == SQLITE_DONE)
			break;
		if (rc != SQLITE_ROW) {
			ret = db_fail(s, err, errlen, "reading results");
			goto out;
		}
		if (n == cap) {
			size_t c2 = cap ? 2 * cap : 16;
			struct nb_store_row *p = realloc(r, c2 * sizeof(*p));
			if (!p) {
				ret = -ENOMEM;
				goto out;
			}
			r = p;
			cap = c2;
		}
		struct nb_store_row *o = &r[n++];
		memset(o, 0, sizeof(*o));
		o->id = sqlite3_column_int64(st, 0);
		col_text(st, 1, o->test, sizeof(o->test));
		col_text(st, 2, o->label, sizeof(o->label));
		col_text(st, 3, o->time_utc, sizeof(o->time_utc));
		col_text(st, 4, o->saved_utc, sizeof(o->saved_utc));
		col_text(st, 5, o->source, sizeof(o->source));
		col_text(st, 6, o->host, sizeof(o->host));
		col_text(st, 7, o->kernel, sizeof(o->kernel));
		col_text(st, 8, o->arch, sizeof(o->arch));
		col_text(st, 9, o->cpu_model, sizeof(o->cpu_model));
		o->cpu_mhz = sqlite3_column_type(st, 10) == SQLITE_NULL
				 ? NAN
				 : sqlite3_column_double(st, 10);
		col_text(st, 11, o->driver, sizeof(o->driver));
		if (want_doc) {
			o->doc = col_dup(st, 12, NB_ESC_JSON);
			o->table_text = col_dup(st, 13, NB_ESC_TEXT);
			if (!o->doc) {
				ret = -ENOMEM;
				goto out;
			}
		}
		sqlite3_reset(tq);
		sqlite3_bind_int64(tq, 1, o->id);
		while (sqlite3_step(tq) == SQLITE_ROW && o->ntags < NB_STORE_MAX_TAGS) {
			col_text(tq, 0, o->tags[o->ntags].key, sizeof(o->tags[0].key));
			col_text(tq, 1, o->tags[o->ntags].value, sizeof(o->tags[0].value));
			o->ntags++;
		}
	}
	*rows = r;
	*nrows = n;
	r = NULL;
	n = 0;
out:
	sqlite3_finalize(st);
	sqlite3_finalize(tq);
	nb_store_rows_free(r, n);
	return ret;
}

int nb_store_rm(struct nb_store *s, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int ret;

	if ((ret = exec(s, "BEGIN IMMEDIATE", err, errlen)))
		return ret;
	if (sqlite3_prepare_v2(s->db, "DELETE FROM results WHERE id = ?1", -1, &st, NULL) !=
	    SQLITE_OK) {
		ret = db_fail(s, err, errlen, "removing results");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			ret = db_fail(s, err, errlen, "removing results");
			goto out;
		}
		if (sqlite3_changes(s->db) != 1) {
			snprintf(err, errlen, "no result with id %lld (nothing removed)",
				 (long long)ids[i]);
			ret = -ENOENT;
			goto out;
		}
	}
	ret = exec(s, "COMMIT", err, errlen);
out:
	sqlite3_finalize(st);
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* The other store is opened read-only and never created: a mistyped path is an error, not an
 * empty store merged in silence. */
static int open_other(const char *path, sqlite3 **db, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int v = -1, tables = 0;

	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, *db ? sqlite3_errmsg(*db) : "cannot open");
		return -ENOENT;
	}
	sqlite3_busy_timeout(*db, 15000);
	if (sqlite3_prepare_v2(*db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(*db,
			       "SELECT count(*) FROM sqlite_master WHERE name IN ('results', "
			       "'tags')",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		tables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (v < 0) {
		snprintf(err, errlen, "%s is not a SQLite database (or cannot be read)", path);
		return -EINVAL;
	}
	if (v > NB_STORE_SCHEMA_VERSION) {
		snprintf(err, errlen,
			 "%s has results schema version %d; this netbench knows up to %d (use a "
			 "newer netbench)",
			 path, v, NB_STORE_SCHEMA_VERSION);
		return -EPROTO;
	}
	if (v != NB_STORE_SCHEMA_VERSION || tables != 2) {
		snprintf(err, errlen, "%s is not a netbench results store", path);
		return -EINVAL;
	}
	return 0;
}

int nb_store_merge(struct nb_store *s, const char *other, size_t *added, size_t *skipped,
		   char *err, size_t errlen)
{
	sqlite3 *o = NULL;
	sqlite3_stmt *rd = NULL, *rdtag = NULL, *dup = NULL, *ins = NULL, *tag = NULL;
	int ret, rc;

	*added = *skipped = 0;
	if ((ret = open_other(other, &o, err, errlen)))
		goto done;
	if ((ret = exec(s, "BEGIN IMMEDIATE", err, errlen)))
		goto done;
	if (sqlite3_prepare_v2(o,
			       "SELECT id, label, doc, table_text FROM results ORDER BY id", -1,
			       &rd, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(o, "SELECT key, value, num FROM tags WHERE result_id = ?1", -1,
			       &rdtag, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", other, sqlite3_errmsg(o));
		ret = -EIO;
		goto out;
	}
	/* A document already here, byte for byte, is the same run: skipped. */
	if (sqlite3_prepare_v2(s->db,
			       "SELECT 1 FROM results WHERE length(doc) = length(?1) AND doc = ?1 "
			       "LIMIT 1",
			       -1, &dup, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, insert_sql, -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		s->db, "INSERT INTO tags (result_id, key, value, num) VALUES (?1, ?2, ?3, ?4)", -1,
		&tag, NULL) != SQLITE_OK) {
		ret = db_fail(s, err, errlen, "preparing the merge");
		goto out;
	}
	while ((rc = sqlite3_step(rd)) == SQLITE_ROW) {
		sqlite3_reset(dup);
		sqlite3_bind_value(dup, 1, sqlite3_column_value(rd, 2));
		rc = sqlite3_step(dup);
		if (rc == SQLITE_ROW) {
			(*skipped)++;
			continue;
		}
		if (rc != SQLITE_DONE) {
			ret = db_fail(s, err, errlen, "looking for a duplicate");
			goto out;
		}
		sqlite3_reset(ins);
		sqlite3_bind_value(ins, 1, sqlite3_column_value(rd, 2));
		sqlite3_bind_value(ins, 2, sqlite3_column_value(rd, 1));
		sqlite3_bind_text(ins, 3, "merge", -1, SQLITE_STATIC);
		sqlite3_bind_value(ins, 4, sqlite3_column_value(rd, 3));
		if (sqlite3_step(ins) != SQLITE_DONE) {
			ret = db_fail(s, err, errlen, "storing a merged result");
			goto out;
		}
		int64_t id = sqlite3_last_insert_rowid(s->db);
		sqlite3_reset(rdtag);
		sqlite3_bind_int64(rdtag, 1, sqlite3_column_int64(rd, 0));
		while ((rc = sqlite3_step(rdtag)) == SQLITE_ROW) {
			sqlite3_reset(tag);
			sqlite3_bind_int64(tag, 1, id);
			for (int c = 0; c < 3; c++)
				sqlite3_bind_value(tag, c + 2, sqlite3_column_value(rdtag, c));
			if (sqlite3_step(tag) != SQLITE_DONE) {
				ret = db_fail(s, err, errlen, "storing a merged tag");
				goto out;
			}
		}
		if (rc != SQLITE_DONE) {
			snprintf(err, errlen, "%s: reading tags: %s", other, sqlite3_errmsg(o));
			ret = -EIO;
			goto out;
		}
		(*added)++;
	}
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "%s: reading results: %s", other, sqlite3_errmsg(o));
		ret = -EIO;
		goto out;
	}
	ret = exec(s, "COMMIT", err, errlen);
out:
	sqlite3_finalize(rd);
	sqlite3_finalize(rdtag);
	sqlite3_finalize(dup);
	sqlite3_finalize(ins);
	sqlite3_finalize(tag);
	if (ret) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		*added = 0;
	}
done:
	sqlite3_close(o);
	return ret;
}

#endif
