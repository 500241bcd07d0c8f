/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab a command acts on when none is named (see lab_pick.h). */
#include "cmd/lab_pick.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/lab/lab_list.h"

void lab_pick_name(const char *prefix, char *buf, size_t len)
{
	if (!prefix || !*prefix)
		snprintf(buf, len, "the default lab (nbgen, nbdut, nbsink)");
	else
		snprintf(buf, len, "lab '%s' (%s-gen, %s-dut, %s-sink)", prefix, prefix, prefix,
			 prefix);
}

const char *lab_pick(const char *given, const char *opt, bool *picked)
{
	static char up[NB_LAB_LIST_MAX][NB_LAB_PREFIX_MAX + 1];
	char list[1024] = "", name[96];
	size_t n = 0, used = 0;

	*picked = false;
	if (given)
		return given;
	if (nb_lab_list(NB_LAB_RUN_DIR, up, NB_LAB_LIST_MAX, &n) || n == 0)
		return NULL;
	if (n == 1) {
		*picked = true;
		return up[0][0] ? up[0] : NULL;
	}
	for (size_t i = 0; i < n && i < NB_LAB_LIST_MAX; i++) {
		int w;
		lab_pick_name(up[i], name, sizeof(name));
		w = snprintf(list + used, sizeof(list) - used, "%s%s", i ? "; " : "", name);
		if (w < 0 || (size_t)w >= sizeof(list) - used)
			break;
		used += (size_t)w;
	}
	cli_usage_error("%zu labs are up (%s%s): say which one with %s P (or $NB_LAB_PREFIX; "
			"the default lab has no prefix: %s '')",
			n, list, n > NB_LAB_LIST_MAX ? "; ..." : "", opt, opt);
}
