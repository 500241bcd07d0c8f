/* SPDX-License-Identifier: BSD-2-Clause */
/* Streaming JSON writer. It tracks only whether a comma is due at each depth; the caller is
 * trusted to nest correctly (the unit test checks the output parses). */
#include "core/base/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

void nb_json_init(struct nb_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates,
 * at most U+10FFFF), or 0 when the bytes there are not one. */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Any bytes give a valid JSON string: a byte that is not part of well-formed UTF-8 (an argv
 * from a Latin-1 terminal, say) is written as the code point of the same value, \u00XX. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (c < 0x20) {
				fprintf(f, "\\u%04x", c);
			} else if (c < 0x80) {
				fputc(c, f);
			} else {
				int n = utf8_len((const unsigned char *)s);
				if (!n) {
					fprintf(f, "\\u%04x", c);
				} else {
					fwrite(s, 1, (size_t)n, f);
					s += n - 1;
				}
			}
		}
	}
	fputc('"', f);
}

static void member(struct nb_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	if (j->depth > 0) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	j->need_comma[j->depth] = true;
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_scope(struct nb_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth < NB_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_scope(struct nb_json *j, char c)
{
	bool had = j->need_comma[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void nb_json_obj_begin(struct nb_json *j, const char *key)
{
	open_scope(j, key, '{');
}

void nb_json_obj_end(struct nb_json *j)
{
	close_scope(j, '}');
}

void nb_json_arr_begin(struct nb_json *j, const char *key)
{
	open_scope(j, key, '[');
}

void nb_json_arr_end(struct nb_json *j)
{
	close_scope(j, ']');
}

void nb_json_str(struct nb_json *j, const char *key, const char *v)
{
	member(j, key);
	if (v)
		put_string(j->f, v);
	else
		fputs("null", j->f);
}

void nb_json_u64(struct nb_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void nb_json_i64(struct nb_json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void nb_json_double(struct nb_json *j, const char *key, double v, int decimals)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void nb_json_bool(struct nb_json *j, const char *key, bool v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void nb_json_null(struct nb_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

static int to_text(nb_json_fill_fn fill, const void *arg, bool doc, char **text, size_t *len)
{
	struct nb_json j;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return -ENOMEM;
	nb_json_init(&j, f);
	if (!doc)
		nb_json_obj_begin(&j, NULL);
	fill(&j, arg);
	if (!doc)
		nb_json_obj_end(&j);
	else
		fputc('\n', f);
	if (fclose(f) || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*text = buf;
	*len = n;
	return 0;
}

int nb_json_text(nb_json_fill_fn fill, const void *arg, char **text, size_t *len)
{
	return to_text(fill, arg, false, text, len);
}

int nb_json_doc_text(nb_json_fill_fn fill, const void *arg, char **text, size_t *len)
{
	return to_text(fill, arg, true, text, len);
}

int nb_json_write_text(nb_json_write_fn write, const void *arg, char **text, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return -ENOMEM;
	write(f, arg);
	if (fclose(f) || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*text = buf;
	*len = n;
	return 0;
}
