/* SPDX-License-Identifier: BSD-2-Clause */
/* Minimal TAP output for unit tests: one "ok"/"not ok" line per check, exit status 1 when any
 * check failed. tests/run.sh counts the lines. */
#ifndef NB_TAP_H
#define NB_TAP_H

#include <stdbool.h>

bool tap_check(bool cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tap_done(void);

#define CHECK(cond, ...) tap_check((cond), __FILE__, __LINE__, __VA_ARGS__)

#endif
