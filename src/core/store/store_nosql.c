/* SPDX-License-Identifier: BSD-2-Clause */
/* The store in a build without SQLite (NO_SQLITE=1, every static build): each call says so
 * and returns -ENOSYS, so --save, results, compare and report refuse with one clear sentence. */
#include "core/store/store.h"

#include <errno.h>
#include <stdio.h>

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

int nb_store_merge(struct nb_store *s, const char *other, size_t *added, size_t *skipped, char *err,
		   size_t errlen)
{
	*added = *skipped = 0;
	return -ENOSYS;
}

#endif
