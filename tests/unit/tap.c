/* SPDX-License-Identifier: BSD-2-Clause */
/* TAP line writer shared by all unit tests. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>

static int checks, failures;

bool tap_check(bool cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	checks++;
	if (!cond)
		failures++;
	printf("%s %d - ", cond ? "ok" : "not ok", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!cond)
		printf(" (%s:%d)", file, line);
	putchar('\n');
	fflush(stdout);
	return cond;
}

void tap_skip(const char *fmt, ...)
{
	va_list ap;
	checks++;
	printf("ok %d # SKIP ", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int tap_done(void)
{
	printf("1..%d\n", checks);
	return failures ? 1 : 0;
}
