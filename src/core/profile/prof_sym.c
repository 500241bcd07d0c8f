/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's function symbols from /proc/kallsyms: text symbols sorted by address, with the
 * module of its [module] column. The addresses stay here: only names leave the agent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/profile/prof.h"

#define MODS_MAX 1024

struct sym {
	uint64_t addr;
	uint32_t name; /* offset in names */
	uint16_t mod;  /* index in mods, 0: built in */
};

struct nb_prof_syms {
	struct sym *v;
	size_t n, cap;
	char *names;
	size_t nlen, ncap;
	char *mods[MODS_MAX];
	size_t nmods;
	bool nonzero;
};

static int names_add(struct nb_prof_syms *s, const char *p, size_t k, uint32_t *off)
{
	if (s->nlen + k + 1 > s->ncap) {
		size_t c = s->ncap ? s->ncap * 2 : 1 << 16;
		while (c < s->nlen + k + 1)
			c *= 2;
		char *q = realloc(s->names, c);
		if (!q)
			return -ENOMEM;
		s->names = q;
		s->ncap = c;
	}
	if (s->nlen > UINT32_MAX - k - 1)
		return -E2BIG;
	*off = (uint32_t)s->nlen;
	memcpy(s->names + s->nlen, p, k);
	s->names[s->nlen + k] = '\0';
	s->nlen += k + 1;
	return 0;
}

static int mod_index(struct nb_prof_syms *s, const char *p, size_t k, uint16_t *idx)
{
	if (!k) {
		*idx = 0;
		return 0;
	}
	for (size_t i = 1; i < s->nmods; i++)
		if (strlen(s->mods[i]) == k && !memcmp(s->mods[i], p, k)) {
			*idx = (uint16_t)i;
			return 0;
		}
	if (!s->nmods)
		s->nmods = 1; /* 0 is "built in" */
	if (s->nmods == MODS_MAX) {
		*idx = 0; /* past the table: named as built in rather than wrongly */
		return 0;
	}
	if (!(s->mods[s->nmods] = strndup(p, k)))
		return -ENOMEM;
	*idx = (uint16_t)s->nmods++;
	return 0;
}

/* "ffffffff81000000 T _stext" or "ffffffffc0a01000 t veth_xmit\t[veth]". */
static int parse_line(struct nb_prof_syms *s, const char *l, size_t len)
{
	const char *e = l + len, *p = l;
	uint64_t a = 0;
	int digits = 0;
	while (p < e && digits < 17) {
		char c = *p;
		int v = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (v < 0)
			break;
		a = a << 4 | (uint64_t)v;
		digits++;
		p++;
	}
	if (!digits || digits > 16 || p + 3 > e || *p != ' ' || p[2] != ' ')
		return 0; /* not a symbol line: skipped */
	char t = p[1];
	if (t != 't' && t != 'T' && t != 'w' && t != 'W')
		return 0;
	p += 3;
	const char *n = p;
	while (p < e && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	size_t nk = (size_t)(p - n);
	/* ARM's mapping symbols ($a, $t, $d, $x, "$a.12"), which a module's symbols hold on a
	 * 32-bit ARM kernel: they mark where code or data begins inside a function, so that the
	 * function's own name would be lost to "$a" past its first one. Skipped: the address
	 * then belongs to the function around it. */
	if (!nk || *n == '$')
		return 0;
	const char *m = NULL;
	size_t mk = 0;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && *p == '[') {
		m = ++p;
		while (p < e && *p != ']' && *p != '\n')
			p++;
		mk = (size_t)(p - m);
	}
	if (a)
		s->nonzero = true;
	if (s->n == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 4096;
		struct sym *q = realloc(s->v, c * sizeof(*q));
		if (!q)
			return -ENOMEM;
		s->v = q;
		s->cap = c;
	}
	struct sym *y = &s->v[s->n];
	int ret;
	if (nk >= NB_PROF_NAME)
		nk = NB_PROF_NAME - 1;
	if (mk >= NB_PROF_MOD)
		mk = NB_PROF_MOD - 1;
	if ((ret = names_add(s, n, nk, &y->name)) || (ret = mod_index(s, m, mk, &y->mod)))
		return ret;
	y->addr = a;
	s->n++;
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int finish(struct nb_prof_syms *s)
{
	if (!s->n || !s->nonzero)
		return -ENOENT;
	qsort(s->v, s->n, sizeof(*s->v), cmp_sym);
	return 0;
}

static struct nb_prof_syms *syms_new(void)
{
	struct nb_prof_syms *s = calloc(1, sizeof(*s));
	if (s)
		s->nmods = 1;
	return s;
}

/* The table parsed without error (ret 0) finished into *out; else freed, and ret. Inlined in
 * both callers, as the code was before it had a name: the agent's size is budgeted. */
__attribute__((always_inline)) static inline int syms_done(struct nb_prof_syms *s, int ret,
							   struct nb_prof_syms **out)
{
	if (!ret)
		ret = finish(s);
	if (ret) {
		nb_prof_syms_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

int nb_prof_syms_parse(struct nb_prof_syms **out, const char *text, size_t len)
{
	struct nb_prof_syms *s = syms_new();
	const char *p = text, *e = text + len;
	int ret = 0;
	if (!s)
		return -ENOMEM;
	while (p < e && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t k = nl ? (size_t)(nl - p) : (size_t)(e - p);
		ret = parse_line(s, p, k);
		p += k + 1;
	}
	return syms_done(s, ret, out);
}

int nb_prof_syms_load(struct nb_prof_syms **out, const char *root)
{
	char path[512], line[512];
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root ? root : "");
	FILE *f = fopen(path, "re");
	struct nb_prof_syms *s;
	int ret = 0;
	if (!f)
		return -errno;
	if (!(s = syms_new())) {
		fclose(f);
		return -ENOMEM;
	}
	while (!ret && fgets(line, sizeof(line), f))
		ret = parse_line(s, line, strlen(line));
	fclose(f);
	return syms_done(s, ret, out);
}

void nb_prof_syms_free(struct nb_prof_syms *s)
{
	if (!s)
		return;
	for (size_t i = 1; i < s->nmods; i++)
		free(s->mods[i]);
	free(s->v);
	free(s->names);
	free(s);
}

size_t nb_prof_syms_count(const struct nb_prof_syms *s)
{
	return s ? s->n : 0;
}

long nb_prof_syms_find(const struct nb_prof_syms *s, uint64_t addr)
{
	size_t lo = 0, hi;
	if (!s || !s->n || addr < s->v[0].addr)
		return -1;
	hi = s->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

const char *nb_prof_syms_name(const struct nb_prof_syms *s, long i)
{
	if (!s || i < 0 || (size_t)i >= s->n)
		return "[unknown]";
	return s->names + s->v[i].name;
}

const char *nb_prof_syms_module(const struct nb_prof_syms *s, long i)
{
	if (!s || i < 0 || (size_t)i >= s->n || !s->v[i].mod)
		return "";
	return s->mods[s->v[i].mod];
}
