/* SPDX-License-Identifier: BSD-2-Clause */
/* Option parsing and user-facing error reporting for all subcommands. */
#include "cmd/cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd/progress.h"
#include "core/base/hostport.h"
#include "core/session/auth.h"
#include "core/base/units.h"

static const char *command = "";
nb_cancel_t cli_stop;

static void on_signal(int sig)
{
	(void)sig;
	cli_stop = 1;
}

void cli_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

void cli_catch_signals_hup(bool ignore)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ignore ? SIG_IGN : on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* cli_unlink_on_signal's file (a copy: the caller's may be freed by a commit that races the
 * signal; then the name is gone already), and the handlers it replaced. */
static char unlink_buf[4096];
static volatile sig_atomic_t unlink_armed;
static const int unlink_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define N_UNLINK_SIGS (sizeof(unlink_sigs) / sizeof(unlink_sigs[0]))
static struct sigaction unlink_old[N_UNLINK_SIGS];

static void on_signal_unlink(int sig)
{
	if (unlink_armed)
		unlink(unlink_buf);
	/* Then die of the signal, as without the handler (it is blocked until we return). */
	signal(sig, SIG_DFL);
	raise(sig);
}

void cli_unlink_on_signal(const char *path)
{
	struct sigaction sa;

	if (!path) {
		for (size_t i = 0; i < N_UNLINK_SIGS; i++)
			sigaction(unlink_sigs[i], &unlink_old[i], NULL);
		unlink_armed = 0;
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal_unlink;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_UNLINK_SIGS; i++)
		sigaddset(&sa.sa_mask, unlink_sigs[i]);
	unlink_armed = 0;
	snprintf(unlink_buf, sizeof(unlink_buf), "%s", path);
	unlink_armed = 1;
	for (size_t i = 0; i < N_UNLINK_SIGS; i++) {
		sigaction(unlink_sigs[i], &sa, &unlink_old[i]);
		/* A signal ignored (SIGINT of a background job) stays ignored. */
		if (unlink_old[i].sa_handler == SIG_IGN)
			sigaction(unlink_sigs[i], &unlink_old[i], NULL);
	}
}

void cli_psk(const char *path, uint8_t *key, size_t *len)
{
	int ret = nb_psk_load(path, key, len);
	if (ret == -EINVAL || ret == -EFBIG)
		cli_usage_error("--psk: %s is %s (1 to %d bytes)", path,
				ret == -EINVAL ? "empty" : "too long", NB_PSK_MAX);
	if (ret)
		cli_fail(ret, "--psk: cannot read %s", path);
}

void cli_set_command(const char *name)
{
	command = name;
}

const char *cli_command(void)
{
	return command;
}

static void vsay(const char *fmt, va_list ap)
{
	progress_clear(); /* a live progress line on the terminal goes first */
	fprintf(stderr, "netbench%s%s: ", *command ? " " : "", command);
	vfprintf(stderr, fmt, ap);
}

void cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'netbench %s%s--help' for more information.\n", command,
		*command ? " " : "");
	exit(2);
}

void cli_fail(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	fputc('\n', stderr);
	exit(1);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

typedef int (*parser_fn)(const char *, uint64_t *);

static uint64_t checked(const char *opt, const char *val, parser_fn parse, uint64_t min,
			uint64_t max, const char *minstr, const char *maxstr, const char *what)
{
	uint64_t v;
	int ret = parse(val, &v);

	if (ret == -EINVAL)
		cli_usage_error("%s: '%s' is not %s (accepted: %s to %s)", opt, val, what, minstr,
				maxstr);
	if (ret == -ERANGE || v > max)
		cli_usage_error("%s is too large: %s (at most %s)", opt, val, maxstr);
	if (v < min)
		cli_usage_error("%s is too small: %s (at least %s)", opt, val, minstr);
	return v;
}

static void fmt_u64(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void fmt_rate(char *buf, size_t len, uint64_t v)
{
	if (v >= 1000000000 && v % 1000000000 == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(v / 1000000000));
	else if (v >= 1000000 && v % 1000000 == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(v / 1000000));
	else if (v >= 1000 && v % 1000 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1000));
	else
		fmt_u64(buf, len, v);
}

static void fmt_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns % 1000000000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000));
	else if (ns % 1000000 == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
}

uint64_t cli_uint(const char *opt, const char *val, uint64_t min, uint64_t max)
{
	char a[32], b[32];
	fmt_u64(a, sizeof(a), min);
	fmt_u64(b, sizeof(b), max);
	return checked(opt, val, nb_parse_u64, min, max, a, b, "a whole number");
}

uint64_t cli_bytes(const char *opt, const char *val, uint64_t min, uint64_t max)
{
	char a[32], b[32];
	nb_format_bytes(min, a, sizeof(a));
	nb_format_bytes(max, b, sizeof(b));
	return checked(opt, val, nb_parse_bytes, min, max, a, b, "a size in bytes (k = 1024)");
}

void cli_version(void)
{
	printf("netbench %s (git %s)\n", NB_VERSION, NB_GITREV);
	exit(0);
}

int cli_size_looks_like_rate(const char *val, uint64_t max)
{
	const char *s = val + strspn(val, "0123456789.");
	uint64_t n;

	if (s != val && (*s == 'M' || *s == 'm' || *s == 'G' || *s == 'g') &&
	    (!s[1] || !strcmp(s + 1, "bit") || !strcmp(s + 1, "bps") || !strcmp(s + 1, "b/s")))
		return 1;
	return !nb_parse_bytes(val, &n) && n > max;
}

uint64_t cli_rate(const char *opt, const char *val, uint64_t min, uint64_t max)
{
	char a[32], b[32];
	fmt_rate(a, sizeof(a), min);
	fmt_rate(b, sizeof(b), max);
	return checked(opt, val, nb_parse_rate, min, max, a, b,
		       "a rate in bit/s (k/M/G = 10^3/6/9)");
}

uint64_t cli_duration_ns(const char *opt, const char *val, uint64_t min_ns, uint64_t max_ns)
{
	char a[32], b[32];
	fmt_duration(a, sizeof(a), min_ns);
	fmt_duration(b, sizeof(b), max_ns);
	return checked(opt, val, nb_parse_duration_ns, min_ns, max_ns, a, b,
		       "a duration (seconds, or with ms/us)");
}

static size_t list(const char *opt, const char *val, uint64_t *items, size_t max_items,
		   uint64_t min, uint64_t max,
		   uint64_t (*one)(const char *, const char *, uint64_t, uint64_t))
{
	char buf[512], *tok, *save = NULL;
	size_t n = 0;

	if (!*val || strlen(val) >= sizeof(buf) || val[0] == ',' || val[strlen(val) - 1] == ',' ||
	    strstr(val, ",,"))
		cli_usage_error("%s: '%s' is not a comma-separated list", opt, val);
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max_items)
			cli_usage_error("%s: too many items in '%s' (at most %zu)", opt, val,
					max_items);
		items[n++] = one(opt, tok, min, max);
	}
	return n;
}

size_t cli_bytes_list(const char *opt, const char *val, uint64_t *items, size_t max_items,
		      uint64_t min, uint64_t max)
{
	return list(opt, val, items, max_items, min, max, cli_bytes);
}

size_t cli_rate_list(const char *opt, const char *val, uint64_t *items, size_t max_items,
		     uint64_t min, uint64_t max)
{
	return list(opt, val, items, max_items, min, max, cli_rate);
}

const char *cli_optname(const struct option *opts, int c, int longindex)
{
	static char buf[64];
	if (longindex >= 0 && opts[longindex].name) {
		snprintf(buf, sizeof(buf), "--%s", opts[longindex].name);
		return buf;
	}
	/* A letter was typed: name it as typed, with the long name it stands for. */
	for (const struct option *o = opts; o->name; o++)
		if (o->val == c) {
			if (c > 0 && c < 128 && isalnum(c))
				snprintf(buf, sizeof(buf), "-%c/--%s", c, o->name);
			else
				snprintf(buf, sizeof(buf), "--%s", o->name);
			return buf;
		}
	snprintf(buf, sizeof(buf), "-%c", c);
	return buf;
}

void cli_last_option(char **argv, int c, const char *usage_text, void (*usage)(FILE *f))
{
	if (c == 'V')
		cli_version();
	if (c == 'h') {
		if (usage)
			usage(stdout);
		else
			fputs(usage_text, stdout);
		exit(0);
	}
	cli_bad_option(argv, c);
}

void cli_bad_option(char **argv, int c)
{
	const char *arg = argv[optind - 1];
	if (c == ':') {
		/* A value can only be missing at the end of argv; musl's getopt then leaves optind
		 * one past it (glibc's on it). In a group such as -Jt the option is optopt. */
		if (!arg)
			arg = argv[optind - 2];
		if (strncmp(arg, "--", 2) && optopt > 0 && optopt < 256)
			cli_usage_error("option '-%c' needs a value", optopt);
		cli_usage_error("option '%s' needs a value", arg);
	}
	if (optopt && strncmp(arg, "--", 2))
		cli_usage_error("unknown option '-%c'", optopt);
	cli_usage_error("unknown option '%s'", arg);
}

const char *cli_hostport(const char *opt, const char *val, uint16_t *port)
{
	const char *host, *end;
	size_t hlen;
	char *out;

	if (!*val)
		cli_usage_error("%s: empty host", opt);
	if (nb_hostport_split(val, &host, &hlen, &end))
		cli_usage_error("%s: '%s' is not HOST, HOST:PORT or [IPv6]:PORT", opt, val);
	if (end) {
		char pname[80];
		snprintf(pname, sizeof(pname), "%s port", opt);
		*port = (uint16_t)cli_uint(pname, end, 1, 65535);
	}
	out = malloc(hlen + 1);
	if (!out)
		cli_fail(ENOMEM, "%s", opt);
	memcpy(out, host, hlen);
	out[hlen] = '\0';
	return out;
}

bool cli_remote_option(struct cli_remote *r, int c, const char *name)
{
	switch (c) {
	case 'c':
		r->t->host = optarg;
		return true;
	case 'p':
		r->t->port = (uint16_t)cli_uint(name, optarg, 1, 65535);
		r->remote_only = "--port";
		return true;
	case 'k':
		r->psk_file = optarg;
		r->remote_only = "--psk";
		return true;
	case '4':
		r->t->family = AF_INET;
		r->remote_only = "-4";
		return true;
	case '6':
		r->t->family = AF_INET6;
		r->remote_only = "-6";
		return true;
	}
	return false;
}

void cli_remote_args(struct cli_remote *r, int argc, char **argv)
{
	if (r->t->host)
		r->t->host = cli_hostport("--client", r->t->host, &r->t->port);
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
}

void cli_remote_finish(struct cli_remote *r)
{
	if (r->remote_only && !r->t->host)
		cli_usage_error("%s applies to a run on an agent: give -c HOST too",
				r->remote_only);
	if (r->psk_file)
		cli_psk(r->psk_file, r->t->psk, &r->t->psk_len);
}
