/* SPDX-License-Identifier: BSD-2-Clause */
/* The option table's engine: getopt_long's arguments built from the rows, each value parsed and
 * range-checked by cli.h's parsers and stored where its row says; the help list printed. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/opt_table.h"

/* Codes of long-only rows: above any letter, below the shared options' codes (0x4f00...). */
#define OPT_CODE_BASE 0x1000

static int row_code(const struct opt_row *r, size_t i)
{
	if (r->letter)
		return r->letter;
	if (r->kind == OPT_PASS)
		return r->code;
	return OPT_CODE_BASE + (int)i;
}

static int row_has_arg(const struct opt_row *r)
{
	switch (r->kind) {
	case OPT_FLAG:
		return no_argument;
	case OPT_SET:
	case OPT_PASS:
		return r->has_arg;
	default:
		return required_argument;
	}
}

static void store_uint(void *at, size_t size, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;
	switch (size) {
	case 1:
		memcpy(at, &u8, 1);
		break;
	case 2:
		memcpy(at, &u16, 2);
		break;
	case 4:
		memcpy(at, &u32, 4);
		break;
	default: /* 8 */
		memcpy(at, &v, sizeof(v));
	}
}

static void apply(const struct opt_row *r, void *dst, const char *name, const char *arg)
{
	char *at = (char *)dst + r->off;
	uint64_t v;
	size_t n;
	bool yes = true;
	if (r->seen)
		memcpy((char *)dst + r->seen, &yes, sizeof(yes));
	switch (r->kind) {
	case OPT_FLAG:
		memcpy(at, &yes, sizeof(yes));
		return;
	case OPT_UINT:
		v = cli_uint(name, arg, r->min, r->max);
		break;
	case OPT_BYTES:
		v = cli_bytes(name, arg, r->min, r->max);
		break;
	case OPT_BITRATE:
		v = cli_rate(name, arg, r->min, r->max);
		break;
	case OPT_DURATION:
		v = cli_duration_ns(name, arg, r->min, r->max);
		break;
	case OPT_STRING:
		memcpy(at, &arg, sizeof(arg));
		return;
	case OPT_BYTES_LIST:
		n = cli_bytes_list(name, arg, (uint64_t *)(void *)at, r->nmax, r->min, r->max);
		memcpy((char *)dst + r->cnt, &n, sizeof(n));
		return;
	case OPT_SET:
		r->set(dst, name, arg);
		return;
	default:
		return;
	}
	store_uint(at, r->size, v);
}

int opt_parse(const struct opt_table *t, int argc, char **argv, void *dst,
	      void (*other)(void *ctx, int code, const char *name, int argc, char **argv),
	      void *ctx)
{
	static struct option lo[OPT_ROWS_MAX + 1];
	static size_t lo_row[OPT_ROWS_MAX];
	char optstring[3 * OPT_ROWS_MAX + 2] = ":";
	size_t nlo = 0, ns = 1;
	int c, li;

	if (t->n > OPT_ROWS_MAX) /* a table this engine was not sized for: refuse it whole */
		cli_fail(E2BIG, "an option table of %zu rows (at most %d)", t->n, OPT_ROWS_MAX);
	for (size_t i = 0; i < t->n; i++) {
		const struct opt_row *r = &t->rows[i];
		int has = row_has_arg(r);
		if (r->kind == OPT_TEXT)
			continue;
		if (r->name) {
			lo[nlo] = (struct option){r->name, has, NULL, row_code(r, i)};
			lo_row[nlo++] = i;
		}
		if (r->letter && !strchr(optstring, r->letter)) {
			optstring[ns++] = (char)r->letter;
			if (has != no_argument)
				optstring[ns++] = ':';
			if (has == optional_argument)
				optstring[ns++] = ':';
		}
	}
	optstring[ns] = '\0';
	lo[nlo] = (struct option){NULL, 0, NULL, 0};

	while ((li = -1, c = getopt_long(argc, argv, optstring, lo, &li)) != -1) {
		const char *name = cli_optname(lo, c, li);
		const struct opt_row *r = NULL;
		if (li >= 0)
			r = &t->rows[lo_row[li]];
		for (size_t i = 0; !r && i < t->n; i++)
			if (t->rows[i].kind != OPT_TEXT && row_code(&t->rows[i], i) == c)
				r = &t->rows[i];
		if (!r || r->kind == OPT_PASS)
			other(ctx, c, name, argc, argv);
		else
			apply(r, dst, name, optarg);
	}
	return optind;
}

/* "  -l, --sizes LIST", "      --pacing MODE", "      --profile[=HZ]" or "  -b N": the row's left
 * column. */
static int print_left(const struct opt_row *r, FILE *f)
{
	int n = fprintf(f, "  ");
	if (r->letter)
		n += fprintf(f, r->name ? "-%c, " : "-%c", r->letter);
	else
		n += fprintf(f, "    ");
	if (r->name)
		n += fprintf(f, "--%s", r->name);
	if (r->arg) /* an optional value, "[=HZ]", is typed right after the name */
		n += fprintf(f, strncmp(r->arg, "[=", 2) ? " %s" : "%s", r->arg);
	return n;
}

void opt_help(const struct opt_table *t, FILE *f)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct opt_row *r = &t->rows[i];
		const char *p;
		int col;
		if (!r->help)
			continue;
		if (r->kind == OPT_TEXT) {
			fputs(r->help, f);
			continue;
		}
		col = print_left(r, f);
		fprintf(f, "%*s", col < t->help_col ? t->help_col - col : 2, "");
		for (p = r->help; *p;) {
			size_t len = strcspn(p, "\n");
			fprintf(f, "%.*s\n", (int)len, p);
			p += len;
			if (*p == '\n' && *++p)
				fprintf(f, "%*s", t->help_col, "");
		}
	}
}
