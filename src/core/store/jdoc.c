/* SPDX-License-Identifier: BSD-2-Clause */
/* A recursive-descent JSON reader with a depth bound. Decoded strings never outgrow their
 * source text (escapes shrink, the two quotes become one NUL), so one buffer of the input's size
 * holds them all and pointers into it stay valid while nodes are added. */
#include "core/store/jdoc.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *p, *end, *start;
	struct nb_jdoc *d;
	char *err;
	size_t errlen;
	int depth;
};

static int fail(struct parser *ps, const char *what)
{
	if (ps->err && ps->errlen)
		snprintf(ps->err, ps->errlen, "%s at byte %zu", what, (size_t)(ps->p - ps->start));
	return -EINVAL;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static long new_node(struct parser *ps, enum nb_jtype t)
{
	struct nb_jdoc *d = ps->d;
	if (d->nn == NB_JDOC_MAX_VALUES) {
		if (ps->err && ps->errlen)
			snprintf(ps->err, ps->errlen, "more than %u JSON values (at byte %zu)",
				 NB_JDOC_MAX_VALUES, (size_t)(ps->p - ps->start));
		return -E2BIG;
	}
	if (d->nn == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct nb_jnode *n = realloc(d->n, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		d->n = n;
		d->cap = cap;
	}
	memset(&d->n[d->nn], 0, sizeof(d->n[0]));
	d->n[d->nn].type = t;
	return (long)d->nn++;
}

static int hex4(struct parser *ps, unsigned *v)
{
	*v = 0;
	if (ps->end - ps->p < 4)
		return fail(ps, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *ps->p++;
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return fail(ps, "bad \\u escape");
	}
	return 0;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* At the opening quote; decodes into the string buffer. A \u escape (6 bytes) decodes to at
 * most 3 bytes, a surrogate pair (12 bytes) to 4: never more than the source. */
static int parse_string(struct parser *ps, const char **out)
{
	struct nb_jdoc *d = ps->d;
	char *o = d->strings + d->slen, *s = o;
	ps->p++;
	for (;;) {
		if (ps->p >= ps->end)
			return fail(ps, "unterminated string");
		unsigned char c = (unsigned char)*ps->p++;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(ps, "control character in string");
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		if (ps->p >= ps->end)
			return fail(ps, "unterminated string");
		c = (unsigned char)*ps->p++;
		unsigned cp;
		switch (c) {
		case '"':
		case '\\':
		case '/':
			*o++ = (char)c;
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u':
			if (hex4(ps, &cp))
				return -EINVAL;
			if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 &&
			    ps->p[0] == '\\' && ps->p[1] == 'u') {
				unsigned lo;
				ps->p += 2;
				if (hex4(ps, &lo))
					return -EINVAL;
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					cp = 0xfffd;
			} else if (cp >= 0xd800 && cp < 0xe000) {
				cp = 0xfffd;
			}
			if (!cp)
				cp = 0xfffd; /* no NUL inside C strings */
			o = put_utf8(o, cp);
			break;
		default:
			return fail(ps, "bad escape");
		}
	}
	*o++ = '\0';
	d->slen = (size_t)(o - d->strings);
	*out = s;
	return 0;
}

static int parse_value(struct parser *ps, long *idx);

static int parse_container(struct parser *ps, long self, bool obj)
{
	struct nb_jdoc *d = ps->d;
	size_t last = 0;
	char close = obj ? '}' : ']';
	ps->p++;
	if (++ps->depth > NB_JDOC_MAX_DEPTH)
		return fail(ps, "nesting too deep");
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		long child;
		int ret;
		skip_ws(ps);
		if (obj) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a member name");
			if ((ret = parse_string(ps, &key)))
				return ret;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':'");
			ps->p++;
		}
		if ((ret = parse_value(ps, &child)))
			return ret;
		d->n[child].key = key;
		if (!d->n[self].count)
			d->n[self].first = (size_t)child;
		else
			d->n[last].next = (size_t)child;
		last = (size_t)child;
		d->n[self].count++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			ps->depth--;
			return 0;
		}
		return fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int parse_number(struct parser *ps, long idx)
{
	char buf[64];
	const char *s = ps->p;
	size_t n = 0;
	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		return fail(ps, "bad number");
	while (ps->p < ps->end && strchr("0123456789.eE+-", *ps->p))
		ps->p++;
	n = (size_t)(ps->p - s);
	if (n >= sizeof(buf))
		return fail(ps, "number too long");
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *e;
	double v = strtod(buf, &e);
	if (*e)
		return fail(ps, "bad number");
	/* A subnormal (nonzero, below 2.2e-308 in magnitude) is 0 to every figure drawn or
	 * compared; kept, a chart's range of two of them underflows its tick step to 0. */
	if (fpclassify(v) == FP_SUBNORMAL)
		v = copysign(0.0, v);
	ps->d->n[idx].num = v;
	return 0;
}

static int parse_value(struct parser *ps, long *idx)
{
	long i;
	int ret = 0;
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end");
	char c = *ps->p;
	if (c == '{' || c == '[') {
		if ((i = new_node(ps, c == '{' ? NB_JOBJ : NB_JARR)) < 0)
			return (int)i;
		ret = parse_container(ps, i, c == '{');
	} else if (c == '"') {
		const char *s;
		if ((i = new_node(ps, NB_JSTR)) < 0)
			return (int)i;
		ret = parse_string(ps, &s);
		ps->d->n[i].str = s;
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		if ((i = new_node(ps, NB_JNUM)) < 0)
			return (int)i;
		ret = parse_number(ps, i);
	} else {
		static const struct {
			const char *word;
			enum nb_jtype t;
			double v;
		} lit[] = {{"true", NB_JBOOL, 1}, {"false", NB_JBOOL, 0}, {"null", NB_JNULL, 0}};
		size_t k;
		for (k = 0; k < 3; k++) {
			size_t l = strlen(lit[k].word);
			if ((size_t)(ps->end - ps->p) >= l && !memcmp(ps->p, lit[k].word, l))
				break;
		}
		if (k == 3)
			return fail(ps, "unexpected character");
		if ((i = new_node(ps, lit[k].t)) < 0)
			return (int)i;
		ps->d->n[i].num = lit[k].v;
		ps->p += strlen(lit[k].word);
	}
	*idx = i;
	return ret;
}

int nb_jdoc_parse(const char *text, size_t len, struct nb_jdoc **out, char *err, size_t errlen)
{
	struct nb_jdoc *d;
	struct parser ps = {
	    .p = text, .end = text + len, .start = text, .err = err, .errlen = errlen};
	long root;
	int ret;

	*out = NULL;
	if (len > NB_JDOC_MAX_BYTES) {
		if (err && errlen)
			snprintf(err, errlen, "document larger than %u MiB",
				 NB_JDOC_MAX_BYTES >> 20);
		return -E2BIG;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->scap = len + 1;
	d->strings = malloc(d->scap);
	if (!d->strings) {
		ret = -ENOMEM;
		goto out;
	}
	ps.d = d;
	ret = parse_value(&ps, &root);
	if (ret)
		goto out;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		ret = fail(&ps, "trailing bytes after the document");
		goto out;
	}
	*out = d;
	return 0;
out:
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "out of memory");
	nb_jdoc_free(d);
	return ret;
}

void nb_jdoc_free(struct nb_jdoc *d)
{
	if (!d)
		return;
	free(d->n);
	free(d->strings);
	free(d);
}

const struct nb_jnode *nb_jdoc_root(const struct nb_jdoc *d)
{
	return d && d->nn ? &d->n[0] : NULL;
}

const struct nb_jnode *nb_jfirst(const struct nb_jdoc *d, const struct nb_jnode *v)
{
	if (!v || (v->type != NB_JARR && v->type != NB_JOBJ) || !v->count)
		return NULL;
	return &d->n[v->first];
}

const struct nb_jnode *nb_jnext(const struct nb_jdoc *d, const struct nb_jnode *v)
{
	return v && v->next ? &d->n[v->next] : NULL;
}

const struct nb_jnode *nb_jget(const struct nb_jdoc *d, const struct nb_jnode *v, const char *key)
{
	if (!v || v->type != NB_JOBJ)
		return NULL;
	for (const struct nb_jnode *c = nb_jfirst(d, v); c; c = nb_jnext(d, c))
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

const struct nb_jnode *nb_jpath(const struct nb_jdoc *d, const struct nb_jnode *v, const char *path)
{
	char part[64];
	while (v && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		v = nb_jget(d, v, part);
		path += n;
		if (*path == '.')
			path++;
	}
	return v;
}

double nb_jnum(const struct nb_jnode *v)
{
	return v && v->type == NB_JNUM ? v->num : NAN;
}

const char *nb_jstr(const struct nb_jnode *v)
{
	return v && v->type == NB_JSTR ? v->str : NULL;
}

bool nb_jtrue(const struct nb_jnode *v)
{
	return v && v->type == NB_JBOOL && v->num != 0;
}
