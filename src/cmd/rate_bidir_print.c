/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench rate --bidir: each trial's reverse direction as it ends (standard error), and below
 * the table each size's limiting direction, as the sentences the core stored (the JSON carries
 * the same text). */
#include <stdio.h>

#include "cmd/rate_print.h"
#include "core/rate/rate_run.h"

void rate_print_bidir_trial(FILE *f, const struct nb_rate_trial *t)
{
	const struct nb_rate_rev_trial *v = &t->rev;

	if (!v->on)
		return;
	fprintf(f,
		"  trial %u reverse: %.0f fps offered, %llu sent (%llu slipped), %llu lost%s%s; "
		"%s\n",
		t->id, v->offered_fps, (unsigned long long)v->c.tx,
		(unsigned long long)v->slipped_frames, (unsigned long long)v->c.lost,
		v->c.valid ? "" : ", INVALID: ", v->c.valid ? "" : v->c.why, v->j.text);
}

void rate_print_bidir(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n)
{
	if (!r->p->bidir)
		return;
	for (size_t i = 0; i < n; i++)
		printf("%u B both directions: %s\n", s[i].size, s[i].bidir_text);
}
