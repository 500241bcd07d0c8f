/* SPDX-License-Identifier: BSD-2-Clause */
/* A subcommand's options as one table: each row names the option (long name, letter), the kind
 * of value and its accepted range, where the value goes in the options struct (or a setter for
 * the odd ones) and its help text. One engine builds getopt_long's option string and long
 * options from the table, parses, range-checks through cli.h (the message names the option as
 * typed and the accepted range; exit 2) and prints the option list for --help. */
#ifndef NB_OPT_TABLE_H
#define NB_OPT_TABLE_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_TEXT,	/* no option: help text printed as it stands */
	OPT_FLAG,	/* bool set to true */
	OPT_UINT,	/* an unsigned number, min to max */
	OPT_BYTES,	/* bytes, k/M/G = 1024^n, min to max */
	OPT_BITRATE,	/* bit/s, k/M/G = 10^3/6/9, min to max */
	OPT_DURATION,	/* seconds or ms/us, stored in ns, min to max */
	OPT_STRING,	/* the value as typed (const char *) */
	OPT_BYTES_LIST, /* comma-separated byte sizes (uint64_t[nmax], count in size_t at cnt) */
	OPT_SET,	/* the row's setter takes the value (or NULL for an option without one) */
	OPT_PASS,	/* a shared option (cli.h, save.h, observe_cli.h): handed to the table's
			   other() with its code, has_arg as getopt_long's */
};

struct opt_row {
	const char *name; /* long name; NULL: a letter-only option, or OPT_TEXT */
	int letter;	  /* 0: long only */
	enum opt_kind kind;
	uint64_t min, max;
	size_t off;  /* where the value goes: offsetof into the options struct (OPT_AT) */
	size_t size; /* its sizeof: numbers are stored in 1, 2, 4 or 8 bytes */
	size_t seen; /* offsetof a bool set when the option is given; 0: none */
	size_t cnt;  /* OPT_BYTES_LIST: offsetof the size_t count */
	size_t nmax; /* OPT_BYTES_LIST: at most this many items */
	/* OPT_SET: dst is the options struct, name the option as typed. */
	void (*set)(void *dst, const char *name, const char *arg);
	int has_arg;	  /* OPT_SET and OPT_PASS: no_argument, required_argument, ... */
	int code;	  /* OPT_PASS without a letter: the code other() knows */
	const char *arg;  /* the value's name in the help ("LIST"), NULL for none */
	const char *help; /* the help text, lines split at '\n'; NULL: a hidden option */
};

#define OPT_ROWS_MAX 96

struct opt_table {
	const struct opt_row *rows;
	size_t n;
	int help_col; /* column where the help text starts */
};

/* Parses argv into dst by the table. An option that is no row of the table (and getopt_long's
 * '?' and ':') goes to other(ctx, code, name), which ends with cli_last_option. Returns optind. */
int opt_parse(const struct opt_table *t, int argc, char **argv, void *dst,
	      void (*other)(void *ctx, int code, const char *name, int argc, char **argv),
	      void *ctx);
/* The option list for --help, one row after another. */
void opt_help(const struct opt_table *t, FILE *f);

/* Where a row's value goes: .off and .size of a member of the options struct. */
#define OPT_AT(type, member) .off = offsetof(type, member), .size = sizeof(((type *)0)->member)

/* Rows for the options shared through cli.h, save.h and observe_cli.h. Without help: a hidden
 * alias, or one whose help is an OPT_ROW_TEXT beside it. */
#define OPT_ROW_PASS(n, l, a, c)                                                                   \
	{                                                                                          \
		.name = (n), .letter = (l), .kind = OPT_PASS, .has_arg = (a), .code = (c)          \
	}
/* A shared option with a letter (its code), its value's name (NULL: none) and its help. */
#define OPT_ROW_PASS_HELP(n, l, a, v, h)                                                           \
	{                                                                                          \
		.name = (n), .letter = (l), .kind = OPT_PASS, .has_arg = (a), .arg = (v),          \
		.help = (h)                                                                        \
	}
/* The same for a shared option without a letter: code is what other() knows it by. */
#define OPT_ROW_PASS_LONG(n, a, c, v, h)                                                           \
	{                                                                                          \
		.name = (n), .kind = OPT_PASS, .has_arg = (a), .code = (c), .arg = (v),            \
		.help = (h)                                                                        \
	}
#define OPT_ROW_TEXT(text)                                                                         \
	{                                                                                          \
		.kind = OPT_TEXT, .help = (text)                                                   \
	}

#endif
