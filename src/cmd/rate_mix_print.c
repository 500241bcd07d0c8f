/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate --imix: the line under the table that says what its one size row is. */
#include <stdio.h>

#include "cmd/rate_print.h"
#include "core/rate/rate_run.h"

void rate_print_mix(const struct nb_rate_run *r)
{
	const struct nb_mix *m = r->p->mix;

	if (!m)
		return;
	printf("imix %s:", m->spec);
	for (uint32_t i = 0; i < m->n; i++)
		printf(" %u B x %u%s", m->bytes[i], m->weight[i], i + 1 < m->n ? "," : "");
	printf("; the row is the mix: its size the mean frame, %.1f B (Mbit/s and line %% from "
	       "the exact mean)\n",
	       m->mean_bytes);
}
