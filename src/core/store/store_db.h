/* SPDX-License-Identifier: BSD-2-Clause */
/* Private to the store's SQLite files: the handle and the two helpers every statement uses
 * (an SQLite error as -errno plus a text, a statement run for its effect). */
#ifndef NB_STORE_DB_H
#define NB_STORE_DB_H

#include <stddef.h>
#include <sqlite3.h>

#include "core/store/store.h"

struct nb_store {
	sqlite3 *db;
};

int nb_store_db_fail(struct nb_store *s, char *err, size_t errlen, const char *what);
int nb_store_exec(struct nb_store *s, const char *sql, char *err, size_t errlen);
/* A store of a newer schema version than this netbench knows: says so, returns -EPROTO. */
int nb_store_too_new(const char *path, int v, char *err, size_t errlen);

/* Is db's schema netbench's, object for object (type, name, table and SQL of each table and
 * index in sqlite_master)? 0, -EINVAL when not, -EIO when it cannot be read. */
int nb_store_schema_same(sqlite3 *db);

#endif
