/* SPDX-License-Identifier: BSD-2-Clause */
/* The results store: import with the platform facts taken from the document, filters, tags,
 * all-or-nothing adds, removal, the schema version (a newer one is refused, a foreign database
 * is not touched), and two processes writing at once. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/store/store.h"
#include "tap.h"

#ifdef HAVE_SQLITE
#include <sqlite3.h>

static const char doc_a[] =
    "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"time_utc\":\"2026-01-02T03:04:05Z\","
    "\"env\":{\"local\":{\"hostname\":\"pc\",\"kernel\":\"6.1\",\"arch\":\"x86_64\"},"
    "\"remote\":{\"hostname\":\"board\",\"kernel\":\"2.6.28\",\"arch\":\"ppc\","
    "\"cpu_model\":\"e300c3\",\"cpu_mhz\":333,\"driver\":\"gianfar\"}},\"steps\":[]}";
static const char doc_b[] =
    "{\"schema\":\"netbench/1\",\"test\":\"mem\",\"time_utc\":\"2026-02-01T00:00:00Z\","
    "\"env\":{\"local\":{\"hostname\":\"pc\",\"kernel\":\"6.1\",\"arch\":\"x86_64\","
    "\"cpu_mhz\":null},\"remote\":null}}";

static size_t count(struct nb_store *s, const struct nb_store_filter *f)
{
	struct nb_store_row *r;
	size_t n = 0;
	char err[256];
	if (nb_store_query(s, f, false, &r, &n, err, sizeof(err)))
		return (size_t)-1;
	nb_store_rows_free(r, n);
	return n;
}
#endif

int main(void)
{
	struct nb_store_tag t;
	CHECK(nb_store_tag_parse("core_mhz=333", &t) == 0 && !strcmp(t.key, "core_mhz") &&
		  !strcmp(t.value, "333"),
	      "tag KEY=VALUE parses");
	CHECK(nb_store_tag_parse("=1", &t) == -EINVAL && nb_store_tag_parse("a", &t) == -EINVAL &&
		  nb_store_tag_parse("a b=1", &t) == -EINVAL &&
		  nb_store_tag_parse("a=1,2", &t) == -EINVAL && nb_store_tag_parse("a=", &t) == -EINVAL,
	      "bad tags refused");

	if (!nb_store_available()) {
		tap_skip("this build has no SQLite");
		return tap_done();
	}
#ifdef HAVE_SQLITE
	char dir[] = "/tmp/nb-t-store.XXXXXX", path[256], err[512] = "";
	struct nb_store *s;
	struct nb_store_row *rows;
	size_t n;
	int64_t ids[3];

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	CHECK(nb_store_open(path, &s, err, sizeof(err)) == 0, "creates a new store (%s)", err);
	struct nb_store_tag tags[] = {{"core_mhz", "333"}, {"bus", "csb166"}};
	struct nb_store_add a[] = {
	    {.doc = doc_a, .table_text = "table A\n", .label = "MPC8313", .source = "save",
	     .tags = tags, .ntags = 2},
	    {.doc = doc_b, .label = "pc", .source = "import"},
	    {.doc = doc_a, .label = "MPC8313 @400", .source = "save", .tags = tags, .ntags = 1}};
	CHECK(nb_store_add(s, a, 3, ids, err, sizeof(err)) == 0 && ids[0] == 1 && ids[2] == 3,
	      "three results added, ids 1..3 (%s)", err);

	struct nb_store_filter all = {0};
	CHECK(nb_store_query(s, &all, true, &rows, &n, err, sizeof(err)) == 0 && n == 3,
	      "all three listed");
	CHECK(!strcmp(rows[0].host, "board") && !strcmp(rows[0].kernel, "2.6.28") &&
		  rows[0].cpu_mhz == 333 && !strcmp(rows[0].driver, "gianfar"),
	      "facts of the measured end (env.remote)");
	CHECK(!strcmp(rows[1].host, "pc") && isnan(rows[1].cpu_mhz),
	      "without a remote: env.local; unknown MHz stays unknown");
	CHECK(!strcmp(rows[0].time_utc, "2026-01-02T03:04:05Z") && rows[0].saved_utc[0] == '2',
	      "run time from the document, save time from the store");
	CHECK(rows[0].ntags == 2 && !strcmp(rows[0].tags[0].key, "bus"), "tags read back, sorted");
	CHECK(!strcmp(rows[0].table_text, "table A\n") && !rows[1].table_text,
	      "table text kept when given");
	CHECK(strstr(rows[1].doc, "\"test\":\"mem\"") != NULL, "document kept");
	nb_store_rows_free(rows, n);

	struct nb_store_filter f = {.test = "tput"};
	CHECK(count(s, &f) == 2, "filter by test");
	f = (struct nb_store_filter){.label = "MPC8313"};
	CHECK(count(s, &f) == 1, "label: exact");
	f = (struct nb_store_filter){.label = "MPC%"};
	CHECK(count(s, &f) == 2, "label: LIKE pattern");
	f = (struct nb_store_filter){.host = "pc"};
	CHECK(count(s, &f) == 1, "filter by host");
	f = (struct nb_store_filter){.since_utc = "2026-01-15"};
	CHECK(count(s, &f) == 1, "filter by date");
	struct nb_store_tag want[] = {{"core_mhz", "333"}, {"bus", "csb166"}};
	f = (struct nb_store_filter){.tags = want, .ntags = 1};
	CHECK(count(s, &f) == 2, "filter by one tag");
	f = (struct nb_store_filter){.tags = want, .ntags = 2};
	CHECK(count(s, &f) == 1, "filter by two tags (both must match)");
	int64_t pick[] = {2, 3};
	f = (struct nb_store_filter){.ids = pick, .nids = 2, .test = "tput"};
	CHECK(count(s, &f) == 1, "IDs combine with filters");

	/* All or nothing: one bad document in a batch stores none. */
	struct nb_store_add bad[] = {{.doc = doc_b}, {.doc = "{\"test\":\"x\"}"}};
	CHECK(nb_store_add(s, bad, 2, NULL, err, sizeof(err)) == -EINVAL &&
		  strstr(err, "document 2") && count(s, &all) == 3,
	      "a batch with a non-result stores nothing (%s)", err);
	struct nb_store_add notjson[] = {{.doc = "{\"schema\":\"netbench/1\",\"test\":"}};
	CHECK(nb_store_add(s, notjson, 1, NULL, err, sizeof(err)) == -EINVAL,
	      "malformed JSON refused");

	/* An import of a document stored already, byte for byte, adds nothing and names the
	 * result it is; so does the same new document given twice in one call. */
	static const char doc_c[] = "{\"schema\":\"netbench/1\",\"test\":\"mem\"}";
	int64_t same[3] = {-1, -1, -1}, got[3] = {0};
	struct nb_store_add again[] = {{.doc = doc_b, .source = "import", .same_as = &same[0]},
				       {.doc = doc_c, .source = "import", .same_as = &same[1]},
				       {.doc = doc_c, .source = "import", .same_as = &same[2]}};
	CHECK(nb_store_add(s, again, 3, got, err, sizeof(err)) == 0 && same[0] == 2 &&
		  got[0] == 2 && same[1] == 0 && got[1] == 4 && same[2] == 4 && got[2] == 4 &&
		  count(s, &all) == 4,
	      "a duplicate import is skipped and named (same as %lld, %lld, %lld; %s)",
	      (long long)same[0], (long long)same[1], (long long)same[2], err);
	int64_t rm_c[] = {4};
	CHECK(nb_store_rm(s, rm_c, 1, err, sizeof(err)) == 0 && count(s, &all) == 3,
	      "the new one removed again");

	int64_t rm_bad[] = {2, 99};
	CHECK(nb_store_rm(s, rm_bad, 2, err, sizeof(err)) == -ENOENT && count(s, &all) == 3,
	      "rm with a missing ID removes nothing (%s)", err);
	int64_t rm_ok[] = {2};
	CHECK(nb_store_rm(s, rm_ok, 1, err, sizeof(err)) == 0 && count(s, &all) == 2,
	      "rm removes");
	nb_store_close(s);

	/* Two writers at once, each result its own transaction. */
	pid_t pid[2];
	for (int w = 0; w < 2; w++) {
		pid[w] = fork();
		if (pid[w] == 0) {
			struct nb_store *c;
			char e[256];
			if (nb_store_open(path, &c, e, sizeof(e)))
				_exit(2);
			for (int i = 0; i < 60; i++) {
				struct nb_store_add one = {.doc = doc_a, .label = w ? "w1" : "w0"};
				if (nb_store_add(c, &one, 1, NULL, e, sizeof(e))) {
					fprintf(stderr, "writer %d: %s\n", w, e);
					_exit(3);
				}
			}
			nb_store_close(c);
			_exit(0);
		}
	}
	int st0, st1;
	waitpid(pid[0], &st0, 0);
	waitpid(pid[1], &st1, 0);
	CHECK(WIFEXITED(st0) && WEXITSTATUS(st0) == 0 && WIFEXITED(st1) && WEXITSTATUS(st1) == 0,
	      "two concurrent writers both succeed");
	CHECK(nb_store_open(path, &s, err, sizeof(err)) == 0, "reopens");
	f = (struct nb_store_filter){.label = "w%"};
	CHECK(count(s, &f) == 120 && count(s, &all) == 122, "every concurrent write is there");
	nb_store_close(s);

	/* Schema version: a newer store is refused, not damaged. */
	sqlite3 *db;
	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA user_version = 7", NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK(nb_store_open(path, &s, err, sizeof(err)) == -EPROTO && strstr(err, "version 7"),
	      "a newer schema is refused (%s)", err);
	char other[256];
	snprintf(other, sizeof(other), "%s/other.db", dir);
	sqlite3_open(other, &db);
	sqlite3_exec(db, "CREATE TABLE x(a)", NULL, NULL, NULL);
	sqlite3_close(db);
	CHECK(nb_store_open(other, &s, err, sizeof(err)) == -EINVAL && strstr(err, "not a netbench"),
	      "another program's database is left alone (%s)", err);
	char junk[256];
	snprintf(junk, sizeof(junk), "%s/junk.db", dir);
	FILE *jf = fopen(junk, "w");
	fputs("this is not a database, just text that is long enough to have a header........"
	      "..............................................................................",
	      jf);
	fclose(jf);
	CHECK(nb_store_open(junk, &s, err, sizeof(err)) < 0 && strstr(err, "not a"),
	      "a text file is refused (%s)", err);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
#endif
	return tap_done();
}
