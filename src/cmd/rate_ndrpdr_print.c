/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate --test ndrpdr: below the table, each size's loss ratios as the sentences the
 * core made (the JSON carries the same text). */
#include <stdio.h>

#include "cmd/rate_print.h"
#include "core/rate/rate_run.h"

void rate_print_ratios(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n)
{
	char text[320];

	if (r->p->test != NB_RATE_NDRPDR)
		return;
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < s[i].nratios; k++)
			printf("%u B %s\n", s[i].size,
			       nb_rate_ratio_wording(r->p, &s[i], k, text, sizeof(text)));
}
