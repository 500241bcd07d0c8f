/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for what `results import` lets into a store and every reader then draws:
 * the bytes are a JSON document, parsed as a stored document is (nb_jdoc_parse), turned into
 * views (each option of the views), compared (text and CSV, with itself as the baseline) and
 * rendered as the HTML report, all into memory. Escaping holds: no view name keeps a control
 * character. Built with -DFUZZ_SEED it writes a valid rate document to stdout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/escape.h"
#include "core/store/compare.h"
#include "core/store/jdoc.h"
#include "core/store/report.h"
#include "core/store/views.h"

#ifdef FUZZ_SEED
int main(void)
{
	fputs("{\"schema\":\"netbench/1\",\"test\":\"rate\",\"time_utc\":\"2026-01-01T00:00:00Z\","
	      "\"env\":{\"local\":{\"hostname\":\"h\"}},\"parameters\":{\"line_rate_bps\":1e9},"
	      "\"verdict\":\"DUT CPU bound\",\"sizes\":[{\"frame_bytes\":64,\"valid\":true,"
	      "\"fps\":100000},{\"frame_bytes\":1518,\"valid\":true,\"fps\":80000}],"
	      "\"sweep\":[{\"kind\":\"linear\",\"rules\":0,\"sizes\":[{\"frame_bytes\":128,"
	      "\"valid\":true,\"fps\":200000}]},{\"kind\":\"linear\",\"rules\":1000,"
	      "\"sizes\":[{\"frame_bytes\":128,\"valid\":true,\"fps\":40000}]}],"
	      "\"fits\":[{\"kind\":\"linear\",\"frame_bytes\":128,\"base_ns\":5000,"
	      "\"per_rule_ns\":18}]}\n",
	      stdout);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_clean(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);
	if (n == cap || nb_esc_needed(s, n, NB_ESC_LINE))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_view views[NB_VIEW_MAX];
	static const struct nb_view_opts opts[] = {
	    {NB_STREAM_CPU_TOTAL, NULL},
	    {NB_STREAM_CPU_SOFTIRQ, "aes-128-cbc"},
	    {NB_STREAM_CPU_PROCESS, "sha256"},
	};
	struct nb_jdoc *d = NULL;
	char err[256], *buf = NULL;
	size_t nviews = 0, len = 0;

	if (size > 1 << 20 || nb_jdoc_parse((const char *)data, size, &d, err, sizeof(err)))
		return 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t o = 0; f && o < sizeof(opts) / sizeof(opts[0]); o++) {
		if (nb_views_extract(d, &opts[o], views, NB_VIEW_MAX, &nviews))
			break;
		for (size_t v = 0; v < nviews; v++) {
			const struct nb_view *w = &views[v];
			check_clean(w->title, sizeof(w->title));
			check_clean(w->note, sizeof(w->note));
			for (size_t s = 0; s < w->nseries; s++)
				check_clean(w->s[s].name, sizeof(w->s[s].name));
			/* One entry with its measured end's facts, one without (unknown). */
			static const struct nb_facts facts = {.known = true, .kernel = "k", .cpu_mhz = 400};
			struct nb_cmp_entry e[2] = {{"A", &facts, w}, {"B", NULL, w}};
			struct nb_cmp_table *t;
			if (nb_cmp_build(e, 2, "A", &t) == 0) {
				nb_cmp_write_text(f, t);
				nb_cmp_write_csv(f, t, true);
				nb_cmp_table_free(t);
			}
		}
		struct nb_report_item it = {.id = 1,
					    .group = "A",
					    .test = "t",
					    .time_utc = "",
					    .host = "",
					    .kernel = "",
					    .arch = "",
					    .cpu_model = "",
					    .driver = "",
					    .cpu_mhz = 1000,
					    .views = views,
					    .nviews = nviews};
		(void)nb_report_html(f, &it, 1, "fuzz", "", NULL);
	}
	if (f)
		fclose(f);
	free(buf);
	nb_jdoc_free(d);
	return 0;
}
#endif
