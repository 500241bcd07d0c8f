/* SPDX-License-Identifier: BSD-2-Clause */
/* Opening the results store on SQLite: created with its schema on the first write, opened
 * read-only (and never created) for a read. WAL journal and a busy timeout let several netbench
 * processes save at once. */
#ifdef HAVE_SQLITE
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/store/store_db.h"

bool nb_store_available(void)
{
	return true;
}

int nb_store_db_fail(struct nb_store *s, char *err, size_t errlen, const char *what)
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

int nb_store_exec(struct nb_store *s, const char *sql, char *err, size_t errlen)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return nb_store_db_fail(s, err, errlen, sql);
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

int nb_store_schema_same(sqlite3 *db)
{
	static const char q[] = "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master "
				"ORDER BY type, name";
	sqlite3 *ref = NULL;
	sqlite3_stmt *a = NULL, *b = NULL;
	int ret = -EIO, ra, rb;

	if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(ref, schema_v1, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(ref, q, -1, &a, NULL) != SQLITE_OK)
		goto out;
	if (sqlite3_prepare_v2(db, q, -1, &b, NULL) != SQLITE_OK) {
		/* A schema SQLite refuses to read (defensive mode: a view, a trigger) is not ours.
		 */
		ret = sqlite3_errcode(db) == SQLITE_ERROR ? -EINVAL : -EIO;
		goto out;
	}
	for (;;) {
		ra = sqlite3_step(a);
		rb = sqlite3_step(b);
		if (ra != rb || (ra != SQLITE_ROW && ra != SQLITE_DONE)) {
			ret = rb == SQLITE_ROW || rb == SQLITE_DONE ? -EINVAL : -EIO;
			break;
		}
		if (ra == SQLITE_DONE) {
			ret = 0;
			break;
		}
		bool same = true;
		for (int c = 0; c < 4 && same; c++) {
			const char *x = (const char *)sqlite3_column_text(a, c),
				   *y = (const char *)sqlite3_column_text(b, c);
			same = x && y && !strcmp(x, y);
		}
		if (!same) {
			ret = -EINVAL;
			break;
		}
	}
out:
	sqlite3_finalize(a);
	sqlite3_finalize(b);
	sqlite3_close(ref);
	return ret;
}

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

int nb_store_too_new(const char *path, int v, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "%s has results schema version %d; this netbench knows up to %d (use a newer "
		 "netbench)",
		 path, v, NB_STORE_SCHEMA_VERSION);
	return -EPROTO;
}

/* An open that failed: a file that is no database says so; s is closed. Returns ret. */
static int open_failed(struct nb_store *s, int ret, const char *path, char *err, size_t errlen)
{
	if (ret == -EIO && sqlite3_errcode(s->db) == SQLITE_NOTADB)
		snprintf(err, errlen, "%s is not a SQLite database", path);
	nb_store_close(s);
	return ret;
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
		ret = nb_store_db_fail(s, err, errlen, path);
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 15000);
	/* WAL: readers never block the writer, and a torn write is rolled back on the next open.
	 * On a file system without shared memory it stays in the rollback journal: still safe. */
	sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	if ((ret = nb_store_exec(s, "PRAGMA foreign_keys=ON", err, errlen)))
		goto fail;
	/* Creating the schema is itself a transaction, so two first writers cannot both do it. */
	if ((ret = nb_store_exec(s, "BEGIN IMMEDIATE", err, errlen)))
		goto fail;
	if (user_version(s, &v)) {
		ret = nb_store_db_fail(s, err, errlen, path);
		nb_store_exec(s, "ROLLBACK", NULL, 0);
		goto fail;
	}
	if (v > NB_STORE_SCHEMA_VERSION) {
		ret = nb_store_too_new(path, v, err, errlen);
		nb_store_exec(s, "ROLLBACK", NULL, 0);
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
			nb_store_exec(s, "ROLLBACK", NULL, 0);
			ret = -EINVAL;
			goto fail;
		}
		if ((ret = nb_store_exec(s, schema_v1, err, errlen))) {
			nb_store_exec(s, "ROLLBACK", NULL, 0);
			goto fail;
		}
	}
	if ((ret = nb_store_exec(s, "COMMIT", err, errlen)))
		goto fail;
	*out = s;
	return 0;
fail:
	return open_failed(s, ret, path, err, errlen);
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
		ret = nb_store_db_fail(s, err, errlen, path);
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
				ret = nb_store_db_fail(s, err, errlen, path);
				goto fail;
			}
		}
		v = 0;
		if (user_version(s, &v)) {
			ret = nb_store_db_fail(s, err, errlen, path);
			goto fail;
		}
	} else if (sqlite3_errcode(s->db) != SQLITE_OK) {
		ret = nb_store_db_fail(s, err, errlen, path);
		goto fail;
	}
	if (v > NB_STORE_SCHEMA_VERSION) {
		ret = nb_store_too_new(path, v, err, errlen);
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
	return open_failed(s, ret, path, err, errlen);
}

void nb_store_close(struct nb_store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}
#endif
