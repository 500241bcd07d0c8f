/* SPDX-License-Identifier: BSD-2-Clause */
/* The gate's output: a summary line, the deciding rows, JUnit XML written whole or not at all. */
#include "cmd/compare_gate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli.h"

static void write_junit(const char *path, const struct nb_gate_row *rows, size_t n,
			const struct nb_gate_opts *o, const char *baseline)
{
	size_t len = strlen(path) + 16;
	char *tmp = malloc(len);
	if (!tmp)
		cli_fail(ENOMEM, "out of memory");
	/* A fresh name beside the target (never an existing file or link), renamed over it: the
	 * file is whole or absent. */
	snprintf(tmp, len, "%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		cli_fail(errno, "--junit: cannot create a file beside %s", path);
	fchmod(fd, 0644);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		cli_fail(e, "--junit: writing %s", path);
	}
	nb_gate_write_junit(f, rows, n, o, baseline);
	if (fflush(f) || ferror(f) || fsync(fileno(f))) {
		int e = errno;
		fclose(f);
		unlink(tmp);
		cli_fail(e, "--junit: writing %s", path);
	}
	if (fclose(f) || rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		cli_fail(e, "--junit: writing %s", path);
	}
	free(tmp);
}

int compare_gate_report(FILE *out, struct nb_json *j, const struct nb_gate_row *rows, size_t n,
			const struct nb_gate_opts *o, const char *baseline, const char *junit)
{
	size_t fails = 0, unjudged = 0, unseen = 0, metrics;
	for (size_t i = 0; i < n; i++) {
		fails += nb_gate_fails(rows[i].verdict);
		unjudged += rows[i].verdict == NB_GATE_NOT_JUDGED;
		unseen += rows[i].verdict == NB_GATE_UNSEEN;
	}
	metrics = n - unseen;
	if (junit)
		write_junit(junit, rows, n, o, baseline);
	if (j) {
		nb_json_obj_begin(j, "gate");
		nb_json_double(j, "worse_pct", o->worse_pct, 3);
		nb_json_bool(j, "gate_point", o->gate_point);
		nb_json_u64(j, "metrics", metrics);
		nb_json_u64(j, "failed", fails);
		nb_json_u64(j, "not_judged", unjudged);
		nb_json_u64(j, "refused", unseen);
		nb_json_arr_begin(j, "verdicts");
		for (size_t i = 0; i < n; i++) {
			const struct nb_gate_row *g = &rows[i];
			nb_json_obj_begin(j, NULL);
			nb_json_str(j, "view", g->view);
			nb_json_str(j, "metric", g->metric);
			nb_json_str(j, "group", g->group);
			nb_json_str(j, "verdict", nb_gate_verdict_name(g->verdict));
			nb_json_double(j, "value", g->value, 6);
			nb_json_double(j, "baseline", g->base, 6);
			nb_json_str(j, "unit", g->unit);
			nb_json_double(j, "ratio", g->ratio, 4);
			nb_json_double(j, "ratio_lo", g->lo, 4);
			nb_json_double(j, "ratio_hi", g->hi, 4);
			nb_json_u64(j, "runs", g->runs);
			nb_json_u64(j, "baseline_runs", g->base_runs);
			nb_json_str(j, "sentence", g->sentence);
			nb_json_obj_end(j);
		}
		nb_json_arr_end(j);
		nb_json_obj_end(j);
	}
	if (out) {
		fprintf(
		    out,
		    "\ngate: worse than %s by more than %g %%: %zu metric%s, %zu fail%s, %zu not "
		    "judged%s\n",
		    baseline, o->worse_pct, metrics, metrics == 1 ? "" : "s", fails,
		    fails == 1 ? "s" : "", unjudged,
		    unseen ? ", and points it could not see: refused" : "");
		for (size_t i = 0; i < n; i++)
			if (rows[i].verdict != NB_GATE_PASS || rows[i].uncertain)
				fprintf(out, "  %s: %s, %s: %s\n",
					nb_gate_verdict_name(rows[i].verdict), rows[i].metric,
					rows[i].group, rows[i].sentence);
		if (!metrics)
			fprintf(out,
				"  no compared metric has a value of %s beside it: nothing was "
				"gated (check --only and the filters)\n",
				baseline);
		else if (!fails && !unseen)
			fprintf(out,
				"  passes: no metric is established worse by more than %g %%\n",
				o->worse_pct);
	}
	return fails || unseen || !metrics ? 1 : 0;
}
