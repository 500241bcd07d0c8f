/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit parsing: sizes binary, rates decimal, durations, lists, and every rejection. */
#include <errno.h>
#include <string.h>
#include <stdio.h>

#include "core/base/units.h"
#include "tap.h"

int main(void)
{
	uint64_t v = 0, items[8];

	CHECK(nb_parse_bytes("1k", &v) == 0 && v == 1024, "1k = 1024 bytes");
	CHECK(nb_parse_bytes("32K", &v) == 0 && v == 32768, "32K = 32768 bytes");
	CHECK(nb_parse_bytes("1.5k", &v) == 0 && v == 1536, "1.5k = 1536 bytes");
	CHECK(nb_parse_bytes("2M", &v) == 0 && v == 2097152, "2M = 2 MiB");
	CHECK(nb_parse_bytes("100", &v) == 0 && v == 100, "plain bytes");
	CHECK(nb_parse_rate("12M", &v) == 0 && v == 12000000, "12M = 12e6 bit/s");
	CHECK(nb_parse_rate("1.5G", &v) == 0 && v == 1500000000, "1.5G = 1.5e9 bit/s");
	CHECK(nb_parse_rate("64k", &v) == 0 && v == 64000, "64k = 64000 bit/s");
	CHECK(nb_parse_rate("12X", &v) == -EINVAL, "unknown suffix rejected");
	CHECK(nb_parse_rate("-5", &v) == -EINVAL, "sign rejected");
	CHECK(nb_parse_rate("", &v) == -EINVAL, "empty rejected");
	CHECK(nb_parse_rate("1e400", &v) != 0, "overflow rejected");
	CHECK(nb_parse_rate("nan", &v) == -EINVAL, "nan rejected");
	CHECK(nb_parse_rate("99999999999999999999G", &v) == -ERANGE, "too large is -ERANGE");
	CHECK(nb_parse_u64("18446744073709551616", &v) == -ERANGE, "u64 overflow");
	CHECK(nb_parse_u64("12k", &v) == -EINVAL, "plain number takes no suffix");
	CHECK(nb_parse_duration_ns("3", &v) == 0 && v == 3000000000ULL, "3 = 3 s");
	CHECK(nb_parse_duration_ns("250ms", &v) == 0 && v == 250000000ULL, "250ms");
	CHECK(nb_parse_duration_ns("0.5", &v) == 0 && v == 500000000ULL, "0.5 s");
	CHECK(nb_parse_duration_ns("5min", &v) == -EINVAL, "unknown duration suffix");
	CHECK(nb_parse_list("1k,2k,32k", nb_parse_bytes, items, 8) == 3 && items[2] == 32768,
	      "size list");
	CHECK(nb_parse_list("1k,,2k", nb_parse_bytes, items, 8) == -EINVAL, "empty list item");
	CHECK(nb_parse_list("1,2,3", nb_parse_u64, items, 2) == -E2BIG, "too many items");

	char buf[16];
	nb_format_bytes(1024, buf, sizeof(buf));
	CHECK(buf[0] == '1' && buf[1] == 'k' && !buf[2], "format 1k");
	nb_format_bytes(1500, buf, sizeof(buf));
	CHECK(buf[0] == '1' && buf[3] == '0' && !buf[4], "format 1500");
	/* Counts as the observer and the verdicts quote them: three digits and a prefix. */
	const double counts[] = {0, 9999, 12345, 2.5e6, 1.234e9};
	const char *want[] = {"0", "9999", "12.3k", "2.5M", "1.23G"};
	for (int i = 0; i < 5; i++)
		CHECK(!strcmp(nb_format_count(counts[i], buf, sizeof(buf)), want[i]),
		      "count %.0f is %s (%s)", counts[i], want[i], buf);
	return tap_done();
}
