/* SPDX-License-Identifier: BSD-2-Clause */
/* What the store's callers hold without a database: a tag parsed from KEY=VALUE and the rows a
 * query hands back. The SQLite side is store_open.c (opening, the schema), store_write.c
 * (add, remove, merge) and store_query.c; a build without SQLite has store_nosql.c. */
#include "core/store/store.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
