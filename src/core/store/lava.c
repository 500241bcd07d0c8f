/* SPDX-License-Identifier: BSD-2-Clause */
/* LAVA test-case lines from a result's views (lava.h). The measurement is printed fixed-point
 * (LAVA stores it as a decimal), never in exponent form. */
#include "core/store/lava.h"

#include <math.h>
#include <string.h>

static void keep(const char *in, char *out, size_t len, const char *extra)
{
	size_t o = 0;

	if (!len)
		return;
	for (const char *p = in; *p && o + 1 < len; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '-' || (c && strchr(extra, c));
		if (!ok)
			c = '_';
		if (c == '_' && o && out[o - 1] == '_')
			continue;
		out[o++] = c;
	}
	while (o && (out[o - 1] == '_' || out[o - 1] == '.'))
		o--;
	out[o] = '\0';
}

void nb_lava_name(const char *name, char *out, size_t len)
{
	keep(name, out, len, "_");
}

size_t nb_lava_cases(FILE *out, const char *prefix, const char *test, const struct nb_view *views,
		     size_t n)
{
	size_t lines = 0;

	for (size_t v = 0; v < n; v++) {
		const struct nb_view *vw = &views[v];
		char units[32], x[32], raw[256], name[128];
		keep(vw->y_unit[0] ? vw->y_unit : "none", units, sizeof(units), "_/%");
		if (!units[0])
			snprintf(units, sizeof(units), "none");
		for (size_t s = 0; s < vw->nseries; s++) {
			const struct nb_series *se = &vw->s[s];
			if (se->model)
				continue;
			for (size_t k = 0; k < se->n; k++) {
				if (!isfinite(se->y[k]) || !isfinite(se->x[k]))
					continue;
				nb_view_fmt_x(vw, se->x[k], x, sizeof(x));
				char xu[48];
				snprintf(xu, sizeof(xu), "%s%s", x,
					 x[0] && vw->x_fmt != NB_XFMT_BYTES ? vw->x_unit : "");
				/* The view id usually starts with the test ("tput.kbyte"). */
				const char *parts[] = {prefix ? prefix : "",
						       strncmp(vw->id, test, strlen(test)) ? test
											   : "",
						       vw->id, se->name, xu};
				size_t l = 0;
				raw[0] = '\0';
				for (size_t q = 0; q < 5 && l + 1 < sizeof(raw); q++)
					if (parts[q][0])
						l += (size_t)snprintf(raw + l, sizeof(raw) - l,
								      "%s%s", l ? "." : "",
								      parts[q]);
				nb_lava_name(raw, name, sizeof(name));
				fprintf(out,
					"lava-test-case %s --result pass --measurement %.3f "
					"--units %s\n",
					name, se->y[k], units);
				lines++;
			}
		}
	}
	return lines;
}
