/* SPDX-License-Identifier: BSD-2-Clause */
/* The JSON reader: what the tests write parses, escapes decode, and malformed or hostile input
 * is refused with the byte offset instead of crashing. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/jdoc.h"
#include "tap.h"

static int parse(const char *s, struct nb_jdoc **d)
{
	char err[128];
	return nb_jdoc_parse(s, strlen(s), d, err, sizeof(err));
}

int main(void)
{
	struct nb_jdoc *d;
	char err[128] = "";
	const char *doc =
	    "{\"schema\": \"netbench/1\", \"test\": \"tput\", \"n\": -1.5e3,"
	    " \"ok\": true, \"no\": false, \"nil\": null, \"env\": {\"local\": "
	    "{\"kernel\": \"6.1\"}}, \"steps\": [1, 2, {\"a\": \"x\\\"y\\u00e9\\n\"}], "
	    "\"empty\": [], \"o\": {}}";

	CHECK(parse(doc, &d) == 0, "a result-like document parses");
	const struct nb_jnode *r = nb_jdoc_root(d);
	CHECK(!strcmp(nb_jstr(nb_jget(d, r, "test")), "tput"), "string member");
	CHECK(nb_jnum(nb_jget(d, r, "n")) == -1500, "number with exponent");
	CHECK(nb_jtrue(nb_jget(d, r, "ok")) && !nb_jtrue(nb_jget(d, r, "no")), "booleans");
	CHECK(isnan(nb_jnum(nb_jget(d, r, "nil"))) && nb_jget(d, r, "nil")->type == NB_JNULL,
	      "null reads as NAN");
	CHECK(!strcmp(nb_jstr(nb_jpath(d, r, "env.local.kernel")), "6.1"), "dotted path");
	CHECK(!nb_jpath(d, r, "env.remote.kernel"), "absent path is NULL");
	const struct nb_jnode *steps = nb_jget(d, r, "steps");
	CHECK(steps && steps->count == 3, "array of 3");
	const struct nb_jnode *third = nb_jnext(d, nb_jnext(d, nb_jfirst(d, steps)));
	CHECK(third && !strcmp(nb_jstr(nb_jget(d, third, "a")), "x\"y\xc3\xa9\n"),
	      "escapes decode (quote, \\u00e9 to UTF-8, newline)");
	CHECK(!nb_jfirst(d, nb_jget(d, r, "empty")) && !nb_jfirst(d, nb_jget(d, r, "o")),
	      "empty containers have no children");
	CHECK(!nb_jget(d, steps, "a"), "member lookup on an array is NULL");
	nb_jdoc_free(d);
	/* Subnormals are 0 where values enter (a chart of two of them once never ended). */
	CHECK(parse("[5e-324, -1e-323, 2.2250738585072014e-308, 1e-320]", &d) == 0, "subnormals");
	{
		const struct nb_jnode *v = nb_jfirst(d, nb_jdoc_root(d)), *w = nb_jnext(d, v);
		const struct nb_jnode *x = nb_jnext(d, w), *y = nb_jnext(d, x);
		CHECK(nb_jnum(v) == 0 && nb_jnum(w) == 0 && signbit(nb_jnum(w)) &&
			  nb_jnum(x) == 2.2250738585072014e-308 && nb_jnum(y) == 0,
		      "... are read as 0 (sign kept); the smallest normal is kept");
	}
	nb_jdoc_free(d);

	CHECK(parse("\"\\ud83d\\ude00\"", &d) == 0 &&
		  !strcmp(nb_jstr(nb_jdoc_root(d)), "\xf0\x9f\x98\x80"),
	      "surrogate pair decodes to 4 bytes");
	nb_jdoc_free(d);
	CHECK(parse("\"a\\u0000b\"", &d) == 0 && strlen(nb_jstr(nb_jdoc_root(d))) == 5,
	      "\\u0000 becomes U+FFFD, not a NUL inside the string");
	nb_jdoc_free(d);

	static const char *bad[] = {"",		  "{",	     "{\"a\" 1}", "[1,]",    "[1 2]",
				    "{\"a\":1,}", "tru",     "\"abc",	  "\"\\x\"", "01x",
				    "-",	  "[1] [2]", "\"\\u12\"", "{1:2}",   "\"a\tb\""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d = NULL;
		int ret = nb_jdoc_parse(bad[i], strlen(bad[i]), &d, err, sizeof(err));
		CHECK(ret == -EINVAL && !d && strstr(err, "at byte"), "refused: '%s' (%s)", bad[i],
		      err);
	}
	/* Nesting past the bound is refused, not a stack overflow. */
	size_t deep = 100000;
	char *s = malloc(2 * deep + 1);
	memset(s, '[', deep);
	memset(s + deep, ']', deep);
	s[2 * deep] = '\0';
	CHECK(nb_jdoc_parse(s, 2 * deep, &d, err, sizeof(err)) == -EINVAL && strstr(err, "deep"),
	      "100000 nested arrays refused (%s)", err);
	s[NB_JDOC_MAX_DEPTH] = '\0';
	memset(s + NB_JDOC_MAX_DEPTH / 2, ']', NB_JDOC_MAX_DEPTH / 2);
	CHECK(nb_jdoc_parse(s, NB_JDOC_MAX_DEPTH, &d, err, sizeof(err)) == 0, "depth %d/2 parses",
	      NB_JDOC_MAX_DEPTH);
	nb_jdoc_free(d);
	free(s);

	/* Values: an array of NB_JDOC_MAX_VALUES - 1 zeros is the most a document holds (with the
	 * array itself); one more is refused naming the limit. */
	size_t nv = NB_JDOC_MAX_VALUES - 1, len = 2 * nv + 1;
	s = malloc(len + 3);
	s[0] = '[';
	for (size_t i = 0; i < nv; i++)
		memcpy(s + 1 + 2 * i, i + 1 < nv ? "0," : "0]", 2);
	CHECK(nb_jdoc_parse(s, len, &d, err, sizeof(err)) == 0 && d->nn == NB_JDOC_MAX_VALUES,
	      "%u values parse", NB_JDOC_MAX_VALUES);
	nb_jdoc_free(d);
	memcpy(s + len - 1, ",0]", 3);
	CHECK(nb_jdoc_parse(s, len + 2, &d, err, sizeof(err)) == -E2BIG &&
		  strstr(err, "more than 1048576 JSON values"),
	      "one more is refused (%s)", err);
	free(s);
	nb_jdoc_free(NULL);
	return tap_done();
}
