/* SPDX-License-Identifier: BSD-2-Clause */
/* Filter options and result loading for results, compare and report. */
#include "cmd/store_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"

bool store_cli_view_option(struct store_view_cli *v, int c)
{
	switch (c) {
	case SC_OPT_CPU:
		if (!strcmp(optarg, "total"))
			v->vo.stream_cpu = NB_STREAM_CPU_TOTAL;
		else if (!strcmp(optarg, "softirq"))
			v->vo.stream_cpu = NB_STREAM_CPU_SOFTIRQ;
		else if (!strcmp(optarg, "process"))
			v->vo.stream_cpu = NB_STREAM_CPU_PROCESS;
		else
			cli_usage_error("--cpu: '%s' is not one of total, softirq, process",
					optarg);
		return true;
	case SC_OPT_ALGO:
		v->vo.algo = optarg;
		return true;
	case SC_OPT_FIT:
		v->fit = optarg;
		return true;
	case SC_OPT_LINEAR:
		v->linear = true;
		return true;
	}
	return false;
}

void store_cli_view_check(const struct store_view_cli *v)
{
	if (v->linear && !v->fit)
		cli_usage_error("--linear is a form of --fit: add --fit 'METRIC ~ FACTOR'");
}

bool store_cli_option(struct store_cli *sc, int c)
{
	switch (c) {
	case SC_OPT_DB:
		if (!*optarg)
			cli_usage_error("--db: the file name is empty");
		sc->db = optarg;
		return true;
	case SC_OPT_TEST:
		sc->f.test = optarg;
		return true;
	case SC_OPT_LABEL:
		sc->f.label = optarg;
		return true;
	case SC_OPT_HOST:
		sc->f.host = optarg;
		return true;
	case SC_OPT_SINCE:
		sc->f.since_utc = optarg;
		return true;
	case SC_OPT_UNTIL:
		sc->f.until_utc = optarg;
		return true;
	case SC_OPT_TAG:
		if (sc->f.ntags == NB_STORE_MAX_TAGS)
			cli_usage_error("--tag: at most %d filters", NB_STORE_MAX_TAGS);
		if (nb_store_tag_parse(optarg, &sc->tags[sc->f.ntags]))
			cli_usage_error("--tag: '%s' is not KEY=VALUE", optarg);
		sc->f.ntags++;
		sc->f.tags = sc->tags;
		return true;
	}
	return false;
}

void store_cli_ids(struct store_cli *sc, int argc, char **argv)
{
	for (int i = optind; i < argc; i++) {
		if (sc->f.nids == sizeof(sc->ids) / sizeof(sc->ids[0]))
			cli_usage_error("at most %zu result IDs",
					sizeof(sc->ids) / sizeof(sc->ids[0]));
		sc->ids[sc->f.nids++] = (int64_t)cli_uint("ID", argv[i], 1, INT64_MAX);
	}
	sc->f.ids = sc->ids;
}

const char *store_cli_path(const struct store_cli *sc)
{
	const char *db = sc->db ? sc->db : getenv("NETBENCH_DB");
	return db && *db ? db : NB_STORE_DEFAULT_PATH;
}

struct nb_store *store_cli_open(const struct store_cli *sc)
{
	struct nb_store *st;
	char err[512] = "";
	if (!nb_store_available())
		cli_fail(0, "this build has no SQLite: the results store needs it (rebuild with "
			    "libsqlite3-dev installed)");
	if (nb_store_open(store_cli_path(sc), &st, err, sizeof(err)))
		cli_fail(0, "%s", err);
	return st;
}

/* A result's group (repeated runs share it: the label, else "#ID") and its facts line; both
 * loaders use it, so compare and report group alike. */
static void name_group(struct loaded *l, struct nb_store_row *r)
{
	l->row = r;
	if (*r->label)
		snprintf(l->group, sizeof(l->group), "%s", r->label);
	else
		snprintf(l->group, sizeof(l->group), "#%lld", (long long)r->id);
	snprintf(l->facts, sizeof(l->facts), "%s%s%s", r->kernel, *r->driver ? ", " : "",
		 r->driver);
}

struct loaded *store_cli_load(struct nb_store *st, const struct store_cli *sc,
			      const struct nb_view_opts *opts, struct nb_store_row **rows,
			      size_t *n)
{
	char err[512] = "";
	struct loaded *l;
	int ret = nb_store_query(st, &sc->f, true, rows, n, err, sizeof(err));
	if (ret)
		cli_fail(0, "%s", err);
	l = calloc(*n + 1, sizeof(*l));
	if (!l)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < *n; i++) {
		struct nb_store_row *r = &(*rows)[i];
		name_group(&l[i], r);
		ret = nb_jdoc_parse(r->doc, strlen(r->doc), &l[i].doc, err, sizeof(err));
		if (ret)
			cli_fail(0, "result %lld: its document does not parse: %s",
				 (long long)r->id, err);
		l[i].views = calloc(NB_VIEW_MAX, sizeof(*l[i].views));
		if (!l[i].views)
			cli_fail(ENOMEM, "out of memory");
		nb_views_extract(l[i].doc, opts, l[i].views, NB_VIEW_MAX, &l[i].nviews);
	}
	return l;
}

/* The measured end's "virtualization": env.remote's when the document has an env.remote (the
 * agent), else env.local's; never the controller's in place of an agent that did not say. */
static void virt_of(const struct nb_jdoc *d, struct loaded *l)
{
	const struct nb_jnode *env = nb_jget(d, nb_jdoc_root(d), "env");
	const struct nb_jnode *end = nb_jget(d, env, "remote");
	if (!end || end->type != NB_JOBJ)
		end = nb_jget(d, env, "local");
	const char *v = nb_jstr(nb_jget(d, end, "virtualization"));
	l->virt_known = v != NULL;
	snprintf(l->virt, sizeof(l->virt), "%s", v ? v : "");
}

struct loaded *store_cli_load_views(struct nb_store *st, const struct store_cli *sc,
				    const struct nb_view_opts *opts, struct nb_store_row **rows,
				    size_t *n)
{
	char err[512] = "";
	struct loaded *l;
	struct nb_view *tmp = calloc(NB_VIEW_MAX, sizeof(*tmp));
	int ret = nb_store_query(st, &sc->f, false, rows, n, err, sizeof(err));
	if (ret)
		cli_fail(0, "%s", err);
	l = calloc(*n + 1, sizeof(*l));
	if (!l || !tmp)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < *n; i++) {
		struct nb_store_row *r = &(*rows)[i], *one = NULL;
		struct nb_store_filter f = {.ids = &r->id, .nids = 1};
		struct nb_jdoc *d;
		size_t got = 0;
		name_group(&l[i], r);
		if ((ret = nb_store_query(st, &f, true, &one, &got, err, sizeof(err))))
			cli_fail(0, "%s", err);
		if (got != 1)
			cli_fail(0, "result %lld: removed while being read", (long long)r->id);
		ret = nb_jdoc_parse(one->doc, strlen(one->doc), &d, err, sizeof(err));
		nb_store_rows_free(one, got);
		if (ret == -E2BIG)
			cli_fail(
			    0,
			    "result %lld: its document is beyond what is read: %s (the limit "
			    "is %u MiB and %u JSON values a document); leave it out by choosing "
			    "results without it",
			    (long long)r->id, err, NB_JDOC_MAX_BYTES >> 20, NB_JDOC_MAX_VALUES);
		if (ret)
			cli_fail(0, "result %lld: its document does not parse: %s",
				 (long long)r->id, err);
		nb_views_extract(d, opts, tmp, NB_VIEW_MAX, &l[i].nviews);
		virt_of(d, &l[i]);
		nb_jdoc_free(d);
		/* Only the views this result has are kept. */
		l[i].views = calloc(l[i].nviews + 1, sizeof(*l[i].views));
		if (!l[i].views)
			cli_fail(ENOMEM, "out of memory");
		memcpy(l[i].views, tmp, l[i].nviews * sizeof(*tmp));
	}
	free(tmp);
	return l;
}

void store_cli_free(struct loaded *l, struct nb_store_row *rows, size_t n)
{
	for (size_t i = 0; l && i < n; i++) {
		nb_jdoc_free(l[i].doc);
		free(l[i].views);
	}
	free(l);
	nb_store_rows_free(rows, n);
}

const char *store_cli_baseline(const struct loaded *l, size_t n, const char *arg)
{
	char *end;
	long long id = strtoll(arg, &end, 10);
	for (size_t i = 0; i < n; i++)
		if (!*end && l[i].row->id == id)
			return l[i].group;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i].group, arg))
			return l[i].group;
	cli_usage_error("--baseline: no selected result has the ID or label '%s'", arg);
}
