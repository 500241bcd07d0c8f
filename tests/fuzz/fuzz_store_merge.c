/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for `results merge`: the bytes are another store's SQLite file, merged into
 * a fresh store (nb_store_merge: the schema compared object for object under SQLite's defensive
 * settings, quick_check, every row through nb_store_entry_check and nb_store_add). A merge that
 * succeeds must leave a store every reader reads: each merged document passes the check again.
 * Built with -DFUZZ_SEED it writes a sound store of two results with a label and tags to
 * stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/store/store.h"

static const char doc[] =
    "{\"schema\":\"netbench/1\",\"test\":\"rate\",\"time_utc\":\"2026-01-01T00:00:00Z\","
    "\"env\":{\"local\":{\"hostname\":\"h\"}},\"sizes\":[{\"frame_bytes\":64,\"valid\":true,"
    "\"fps\":100000}]}";

#ifdef FUZZ_SEED
int main(void)
{
	struct nb_store *s;
	struct nb_store_tag tags[] = {{"board", "a"}, {"rules", "100"}};
	struct nb_store_add a[] = {{.doc = doc, .label = "base", .tags = tags, .ntags = 2},
				   {.doc = "{\"schema\":\"netbench/1\",\"test\":\"mem\"}",
				    .label = "x",
				    .source = "import"}};
	char path[64], err[256], buf[4096];
	size_t n;
	int ret;

	snprintf(path, sizeof(path), "/tmp/fuzz_merge_seed.%d", (int)getpid());
	unlink(path);
	if (nb_store_open(path, &s, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	ret = nb_store_add(s, a, 2, NULL, err, sizeof(err));
	nb_store_close(s);
	if (ret)
		fprintf(stderr, "%s\n", err);
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	while (!ret && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	unlink(path);
	return ret != 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char other[64], mine[64], err[512];
	struct nb_store *s = NULL;
	size_t added, skipped;

	snprintf(other, sizeof(other), "/tmp/fuzz_merge_o.%d", (int)getpid());
	snprintf(mine, sizeof(mine), "/tmp/fuzz_merge_m.%d", (int)getpid());
	unlink(mine);
	FILE *f = fopen(other, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	if (nb_store_open(mine, &s, err, sizeof(err)))
		abort();
	if (nb_store_merge(s, other, &added, &skipped, err, sizeof(err)) == 0 && added) {
		struct nb_store_row *rows;
		size_t n;
		struct nb_store_filter flt = {0};
		if (nb_store_query(s, &flt, true, &rows, &n, err, sizeof(err)) || n != added)
			abort();
		for (size_t i = 0; i < n; i++)
			if (nb_store_entry_check(rows[i].doc, strlen(rows[i].doc), rows[i].label,
						 rows[i].tags, rows[i].ntags, err, sizeof(err)))
				abort();
		nb_store_rows_free(rows, n);
	}
	nb_store_close(s);
	unlink(mine);
	unlink(other);
	return 0;
}
#endif
