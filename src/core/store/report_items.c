/* SPDX-License-Identifier: BSD-2-Clause */
/* What the report's files ask of its items (one stored result each): whether one is not a
 * board's silicon, whether it has a view, and how many runs its group holds. The page, the
 * sections and the lines all build on these. */
#include <stdbool.h>
#include <string.h>

#include "core/store/report.h"
#include "core/store/report_sect.h"

bool nb_report_not_a_board(const char *virt)
{
	return virt && *virt && strcmp(virt, "none") != 0;
}

bool nb_report_has_view(const struct nb_report_item *it, const char *view_id)
{
	for (size_t v = 0; v < it->nviews; v++)
		if (!strcmp(it->views[v].id, view_id))
			return true;
	return false;
}

/* Runs of item i's group (having the view; NULL: any); first: i is the group's first. */
size_t nb_report_group_runs(const struct nb_report_item *it, size_t n, size_t i,
			    const char *view_id, bool *first)
{
	size_t runs = 0;
	*first = true;
	for (size_t k = 0; k < n; k++)
		if ((!view_id || nb_report_has_view(&it[k], view_id)) &&
		    !strcmp(it[k].group, it[i].group)) {
			runs++;
			if (k < i)
				*first = false;
		}
	return runs;
}
