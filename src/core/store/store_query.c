/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading the results store: the rows a filter selects (test, label, host, time, tags, ids),
 * every text escaped on the way out, since a store may come from anyone. */
#ifdef HAVE_SQLITE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/escape.h"
#include "core/store/store_db.h"

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

/* The query's text for the filter (SQL parameters numbered in the order bind_filter binds
 * them). -E2BIG: it does not fit. */
static int sql_build(const struct nb_store_filter *f, bool want_doc, char *sql, size_t cap,
		     char *err, size_t errlen)
{
	size_t len;
	int b = 1;

	len = (size_t)snprintf(sql, cap,
			       "SELECT id, test, label, time_utc, saved_utc, source, host, kernel, "
			       "arch, cpu_model, cpu_mhz, driver, %s FROM results r WHERE 1",
			       want_doc ? "doc, table_text" : "NULL, NULL");
#define ADD(...) len += (size_t)snprintf(sql + len, cap - len, __VA_ARGS__)
	if (f->nids) {
		ADD(" AND id IN (");
		for (size_t i = 0; i < f->nids && len < cap - 64; i++)
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
	if (len >= cap) {
		snprintf(err, errlen, "too many filters");
		return -E2BIG;
	}
	return 0;
}

static void bind_filter(sqlite3_stmt *st, const struct nb_store_filter *f)
{
	int b;

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
}

/* One result's row (o), its document when asked, and its tags (tq). */
static int row_read(sqlite3_stmt *st, sqlite3_stmt *tq, bool want_doc, struct nb_store_row *o)
{
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
	o->cpu_mhz =
	    sqlite3_column_type(st, 10) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 10);
	col_text(st, 11, o->driver, sizeof(o->driver));
	if (want_doc) {
		o->doc = col_dup(st, 12, NB_ESC_JSON);
		o->table_text = col_dup(st, 13, NB_ESC_TEXT);
		if (!o->doc)
			return -ENOMEM;
	}
	sqlite3_reset(tq);
	sqlite3_bind_int64(tq, 1, o->id);
	while (sqlite3_step(tq) == SQLITE_ROW && o->ntags < NB_STORE_MAX_TAGS) {
		col_text(tq, 0, o->tags[o->ntags].key, sizeof(o->tags[0].key));
		col_text(tq, 1, o->tags[o->ntags].value, sizeof(o->tags[0].value));
		o->ntags++;
	}
	return 0;
}

int nb_store_query(struct nb_store *s, const struct nb_store_filter *f, bool want_doc,
		   struct nb_store_row **rows, size_t *nrows, char *err, size_t errlen)
{
	char sql[4096];
	size_t cap = 0, n = 0;
	sqlite3_stmt *st = NULL, *tq = NULL;
	struct nb_store_row *r = NULL;
	int ret;

	*rows = NULL;
	*nrows = 0;
	if ((ret = sql_build(f, want_doc, sql, sizeof(sql), err, errlen)))
		return ret;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db,
			       "SELECT key, value FROM tags WHERE result_id = ?1 ORDER BY key", -1,
			       &tq, NULL) != SQLITE_OK) {
		ret = nb_store_db_fail(s, err, errlen, "querying results");
		goto out;
	}
	bind_filter(st, f);
	for (;;) {
		int rc = sqlite3_step(st);
		if (rc == SQLITE_DONE)
			break;
		if (rc != SQLITE_ROW) {
			ret = nb_store_db_fail(s, err, errlen, "reading results");
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
		if ((ret = row_read(st, tq, want_doc, &r[n++])))
			goto out;
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
#endif
