/* SPDX-License-Identifier: BSD-2-Clause */
/* Parsing of numbers with unit suffixes, bounded. Sizes are binary (1k = 1024 bytes, as netio
 * and iperf3 -l count), rates are decimal (12M = 12 000 000 bit/s), durations are seconds with an
 * optional ms/us suffix. Every parser returns 0, -EINVAL for bad syntax or -ERANGE. */
#ifndef NB_UNITS_H
#define NB_UNITS_H

#include <stdint.h>
#include <stddef.h>

int nb_parse_u64(const char *s, uint64_t *out);
int nb_parse_bytes(const char *s, uint64_t *out);
int nb_parse_rate(const char *s, uint64_t *out);
int nb_parse_duration_ns(const char *s, uint64_t *out);

/* Splits a comma-separated list and parses each element with parse; at most max items. Returns
 * the number of items or a negative errno (-E2BIG for too many). */
int nb_parse_list(const char *s, int (*parse)(const char *, uint64_t *), uint64_t *items,
		  size_t max);

/* Formats bytes as netio labels them: 1024 -> "1k", 1536 -> "1536". */
void nb_format_bytes(uint64_t bytes, char *buf, size_t len);

/* Formats a count in three digits as the observer's lines and verdicts quote it: 12345 ->
 * "12.3k", 2.5e6 -> "2.5M", 9999 -> "9999". Returns buf. */
const char *nb_format_count(double v, char *buf, size_t len);

#endif
