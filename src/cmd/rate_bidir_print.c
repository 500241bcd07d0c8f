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
	for (size_t i = 0; i < n; i++) {
		printf("%u B both directions: %s\n", s[i].size, s[i].bidir_text);
		if (r->p->test != NB_RATE_LATENCY)
			continue;
		if (s[i].rev_lat_valid)
			printf(
			    "%u B reverse one-way latency: min %.1f us, p50 %.1f us, p99 %.1f us, "
			    "max %.1f us\n",
			    s[i].size, (double)s[i].rev_lat_ns[5] / 1e3,
			    (double)s[i].rev_lat_ns[0] / 1e3, (double)s[i].rev_lat_ns[2] / 1e3,
			    (double)s[i].rev_lat_ns[4] / 1e3);
		else
			printf("%u B reverse latency: %s\n", s[i].size,
			       s[i].rev_lat_why[0] ? s[i].rev_lat_why
						   : "not measured: no latency trial ran");
	}
}
