/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the path a stored document takes into the report: the JSON reader, the
 * views extracted from it, and the page drawn from them (twice under one label, so that repeated
 * runs and their intervals are drawn, and once under another). A value that made the axes loop
 * shows as a libFuzzer timeout. With -DFUZZ_SEED it prints a rate document with a rule sweep. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/store/jdoc.h"
#include "core/store/report.h"
#include "core/store/views.h"

#ifdef FUZZ_SEED
int main(void)
{
	fputs("{\"schema\":\"netbench/1\",\"test\":\"rate\",\"time_utc\":\"2026-01-01T00:00:00Z\","
	      "\"env\":{\"local\":{\"hostname\":\"h\",\"virtualization\":\"vm tcg\"}},"
	      "\"parameters\":{\"line_rate_bps\":1e9},"
	      "\"sizes\":[{\"frame_bytes\":64,\"valid\":true,\"fps\":140000}],"
	      "\"sweep\":[{\"kind\":\"linear\",\"rules\":0,\"sizes\":[{\"frame_bytes\":64,"
	      "\"valid\":true,\"fps\":1000}]},{\"kind\":\"linear\",\"rules\":100,\"sizes\":"
	      "[{\"frame_bytes\":64,\"valid\":true,\"fps\":900}]}],"
	      "\"fits\":[{\"kind\":\"linear\",\"frame_bytes\":64,\"base_ns\":1e6,"
	      "\"per_rule_ns\":1100}]}\n",
	      stdout);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_view views[NB_VIEW_MAX];
	static FILE *null;
	struct nb_jdoc *d;
	size_t n = 0;
	char err[256];

	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	if (nb_jdoc_parse((const char *)data, size, &d, err, sizeof(err)))
		return 0;
	if (nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n) == 0) {
		struct nb_report_item it[3];
		for (size_t i = 0; i < 3; i++)
			it[i] = (struct nb_report_item){.id = (int64_t)i + 1,
							.group = i < 2 ? "a" : "b",
							.test = "rate",
							.cpu_mhz = 0,
							.virt = i ? "none" : "vm tcg",
							.views = views,
							.nviews = n};
		nb_report_html_err(null, it, 3, "fuzz", "now", NULL, err, sizeof(err));
	}
	nb_jdoc_free(d);
	return 0;
}
#endif
