/* SPDX-License-Identifier: BSD-2-Clause */
/* Number parsing with unit suffixes. Strict: the whole string must be consumed, no sign, no
 * overflow; fractions are allowed where a suffix gives them meaning ("1.5G"). */
#include "core/base/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nb_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "<decimal>[suffix]" as a number times the suffix's multiplier from the table (none: without
 * a suffix) into *v. Returns 0, -EINVAL, or -ERANGE when the number itself overflows. */
static int scan(const char *s, const char *const suffixes[], const double mult[], double none,
		double *v)
{
	char *end;
	size_t i;

	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno == ERANGE || end == s || isnan(*v) || isinf(*v))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (!*end) {
		*v *= none;
		return 0;
	}
	for (i = 0; suffixes[i]; i++)
		if (!strcmp(end, suffixes[i]))
			break;
	if (!suffixes[i])
		return -EINVAL;
	*v *= mult[i];
	return 0;
}

/* Parses "<decimal>[suffix]" where suffix selects a multiplier from the table. */
static int parse_scaled(const char *s, const char *const suffixes[], const double mult[],
			uint64_t *out)
{
	double v;
	int ret = scan(s, suffixes, mult, 1.0, &v);

	if (ret)
		return ret;
	if (v >= 18446744073709551615.0)
		return -ERANGE;
	/* A fraction that does not come out whole in the base unit is rounded to nearest. */
	*out = (uint64_t)(v + 0.5);
	return 0;
}

int nb_parse_bytes(const char *s, uint64_t *out)
{
	static const char *const suf[] = {"k", "K", "m", "M", "g", "G", NULL};
	static const double mul[] = {1024.0,	1024.0,	      1048576.0,
				     1048576.0, 1073741824.0, 1073741824.0};
	return parse_scaled(s, suf, mul, out);
}

int nb_parse_rate(const char *s, uint64_t *out)
{
	static const char *const suf[] = {"k", "K", "m", "M", "g", "G", NULL};
	static const double mul[] = {1e3, 1e3, 1e6, 1e6, 1e9, 1e9};
	return parse_scaled(s, suf, mul, out);
}

int nb_parse_duration_ns(const char *s, uint64_t *out)
{
	static const char *const suf[] = {"s", "ms", "us", NULL};
	static const double mul[] = {1e9, 1e6, 1e3};
	double v;

	/* Without a suffix a duration is in seconds. */
	if (scan(s, suf, mul, 1e9, &v))
		return -EINVAL;
	if (v >= 9.2e18)
		return -ERANGE;
	*out = (uint64_t)(v + 0.5);
	return 0;
}

int nb_parse_list(const char *s, int (*parse)(const char *, uint64_t *), uint64_t *items,
		  size_t max)
{
	char buf[512], *tok, *save = NULL;
	size_t n = 0;
	int ret;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,"))
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max)
			return -E2BIG;
		ret = parse(tok, &items[n]);
		if (ret)
			return ret;
		n++;
	}
	return (int)n;
}

void nb_format_bytes(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1048576 && bytes % 1048576 == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(bytes / 1048576));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(bytes / 1024));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

const char *nb_format_count(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.3gG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}
