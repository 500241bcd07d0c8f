/* SPDX-License-Identifier: BSD-2-Clause */
/* Filter options, result loading and --fit for results, compare and report. */
#include "cmd/store_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cli.h"
#include "core/store/fit_out.h"

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
	case SC_OPT_WHERE: {
		struct store_where *w = &sc->where[sc->nwhere];
		const char *eq = strchr(optarg, '=');
		char key[NB_STORE_TAG_KEY_MAX] = "";
		if (sc->nwhere == STORE_CLI_MAX_WHERE)
			cli_usage_error("--where: at most %d filters", STORE_CLI_MAX_WHERE);
		if (eq && (size_t)(eq - optarg) < sizeof(key))
			memcpy(key, optarg, (size_t)(eq - optarg));
		if (!eq || nb_piv_axis_parse(key, &w->axis) || !eq[1] || strstr(eq + 1, ",,") ||
		    eq[1] == ',' || eq[strlen(eq) - 1] == ',')
			cli_usage_error("--where: '%s' is not KEY=VALUE[,VALUE...] (KEY: label, "
					"host, size or a tag's key)",
					optarg);
		w->values = eq + 1;
		w->text = optarg;
		if (w->axis.kind == NB_PIV_SIZE)
			for (const char *p = w->values; *p;) {
				char one[32] = "";
				size_t k = strcspn(p, ",");
				if (k < sizeof(one))
					memcpy(one, p, k);
				cli_bytes("--where size", one, 1, UINT64_MAX);
				p += k + (p[k] == ',');
			}
		sc->nwhere++;
		return true;
	}
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

static struct nb_store *open_store(const struct store_cli *sc, bool write)
{
	struct nb_store *st;
	char err[512] = "";
	const char *path = store_cli_path(sc);
	if (!nb_store_available())
		cli_fail(0, "this build has no SQLite: the results store needs it (rebuild with "
			    "libsqlite3-dev installed)");
	if (write ? nb_store_open(path, &st, err, sizeof(err))
		  : nb_store_open_read(path, &st, err, sizeof(err)))
		cli_fail(0, "%s", err);
	return st;
}

struct nb_store *store_cli_open(const struct store_cli *sc)
{
	return open_store(sc, true);
}

struct nb_store *store_cli_open_read(const struct store_cli *sc)
{
	return open_store(sc, false);
}

/* A result's tags, then its document's settings: what name_groups groups it by. */
static void settings_of(const struct nb_jdoc *d, struct loaded *l)
{
	const struct nb_store_row *r = l->row;
	memcpy(l->set, r->tags, r->ntags * sizeof(*l->set));
	l->nset = r->ntags;
	l->nset += nb_doc_settings(d, l->set + l->nset, NB_SETTINGS_MAX);
}

/* Every result's group (the label, and the tags or settings that differ within it; "#ID"
 * without a label): both loaders use it, so compare and report group runs alike and never
 * average runs that differ in a tag or in a setting that shapes the figures (-t 1 and -t 2, a
 * run interrupted and one that ran whole). */
static void name_groups(struct loaded *l, struct nb_store_row *rows, size_t n, bool quiet)
{
	struct nb_group_in *gin = calloc(n + 1, sizeof(*gin));
	char(*gname)[NB_GROUP_NAME_MAX] = calloc(n + 1, sizeof(*gname)), split[256];
	if (!gin || !gname)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		gin[i] = (struct nb_group_in){.id = rows[i].id,
					      .test = rows[i].test,
					      .label = rows[i].label,
					      .tags = l[i].set,
					      .ntags = l[i].nset};
	size_t nsplit = nb_group_names(gin, n, gname, split, sizeof(split));
	if (nsplit && !quiet)
		cli_warn("label %s%s: shown per tag or setting, not averaged", split,
			 nsplit > 1 ? " and others" : "");
	for (size_t i = 0; i < n; i++) {
		l[i].row = &rows[i];
		snprintf(l[i].group, sizeof(l[i].group), "%s", gname[i]);
	}
	free(gin);
	free(gname);
}

/* Is value one of the comma-separated list? */
static bool one_of(const char *list, const char *value)
{
	size_t n = strlen(value);
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");
		if (k == n && !strncmp(p, value, k))
			return true;
		p += k + (p[k] == ',');
	}
	return false;
}

static bool row_matches(const struct store_cli *sc, const struct nb_store_row *r)
{
	for (size_t i = 0; i < sc->nwhere; i++) {
		const struct store_where *w = &sc->where[i];
		struct nb_facts env = {.cpu_mhz = 0};
		struct nb_piv_entry e = {.id = (long long)r->id,
					 .label = r->label,
					 .host = r->host,
					 .tags = r->tags,
					 .ntags = r->ntags,
					 .env = &env};
		char v[NB_STORE_LABEL_MAX];
		if (w->axis.kind == NB_PIV_SIZE)
			continue;
		snprintf(env.kernel, sizeof(env.kernel), "%s", r->kernel);
		snprintf(env.arch, sizeof(env.arch), "%s", r->arch);
		nb_piv_value(&w->axis, &e, 0, v, sizeof(v));
		if (!one_of(w->values, v))
			return false;
	}
	return true;
}

void store_cli_query(struct nb_store *st, const struct store_cli *sc, bool want_doc, bool views,
		     struct nb_store_row **rows, size_t *n)
{
	char err[512] = "";
	if (nb_store_query(st, &sc->f, want_doc, rows, n, err, sizeof(err)))
		cli_fail(0, "%s", err);
	size_t kept = 0;
	for (size_t i = 0; i < sc->nwhere && !views; i++)
		if (sc->where[i].axis.kind == NB_PIV_SIZE)
			cli_usage_error("--where %s: a size narrows compare's and report's points, "
					"not a list of results",
					sc->where[i].text);
	for (size_t i = 0; i < *n; i++) {
		struct nb_store_row *r = &(*rows)[i];
		if (!row_matches(sc, r)) {
			free(r->doc);
			free(r->table_text);
			continue;
		}
		if (kept != i)
			(*rows)[kept] = *r;
		kept++;
	}
	*n = kept;
}

/* --where size=: only the points at those sizes (a rule sweep's series: of that frame size);
 * a view without a size axis is left out. */
static void where_sizes(const struct store_cli *sc, struct loaded *l)
{
	for (size_t i = 0; i < sc->nwhere; i++) {
		const struct store_where *w = &sc->where[i];
		uint64_t sz[64];
		size_t nsz = 0;
		if (w->axis.kind != NB_PIV_SIZE)
			continue;
		for (const char *p = w->values; *p && nsz < 64;) {
			char one[32] = "";
			size_t k = strcspn(p, ",");
			if (k < sizeof(one))
				memcpy(one, p, k);
			sz[nsz++] = cli_bytes("--where size", one, 1, UINT64_MAX);
			p += k + (p[k] == ',');
		}
		size_t nv = 0;
		for (size_t v = 0; v < l->nviews; v++) {
			struct nb_view *view = &l->views[v];
			bool keep = false;
			for (size_t s = 0; s < view->nseries; s++) {
				struct nb_series *se = &view->s[s];
				bool facet_ok = false;
				for (size_t q = 0; q < nsz; q++)
					facet_ok |= se->facet == (double)sz[q];
				if (se->facet > 0 && !facet_ok) {
					se->n = 0;
					continue;
				}
				size_t m = 0;
				for (size_t k = 0; k < se->n; k++) {
					bool ok = se->facet > 0;
					for (size_t q = 0; q < nsz && !ok; q++)
						ok = view->x_fmt == NB_XFMT_BYTES &&
						     se->x[k] == (double)sz[q];
					if (!ok)
						continue;
					se->x[m] = se->x[k];
					se->y[m] = se->y[k];
					se->polluted[m++] = se->polluted[k];
				}
				se->n = m;
				keep |= m > 0 && !se->model;
			}
			if (keep)
				l->views[nv++] = *view;
		}
		l->nviews = nv;
	}
}

struct loaded *store_cli_load(struct nb_store *st, const struct store_cli *sc,
			      const struct nb_view_opts *opts, struct nb_store_row **rows,
			      size_t *n)
{
	char err[512] = "";
	struct loaded *l;
	int ret;
	store_cli_query(st, sc, true, opts != NULL, rows, n);
	l = calloc(*n + 1, sizeof(*l));
	if (!l)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < *n; i++) {
		struct nb_store_row *r = &(*rows)[i];
		l[i].row = r;
		ret = nb_jdoc_parse(r->doc, strlen(r->doc), &l[i].doc, err, sizeof(err));
		if (ret)
			cli_fail(0, "result %lld: its document does not parse: %s",
				 (long long)r->id, err);
		settings_of(l[i].doc, &l[i]);
		l[i].views = calloc(NB_VIEW_MAX, sizeof(*l[i].views));
		if (!l[i].views)
			cli_fail(ENOMEM, "out of memory");
		nb_views_extract(l[i].doc, opts, l[i].views, NB_VIEW_MAX, &l[i].nviews);
		nb_facts_measured(l[i].doc, &l[i].env);
		where_sizes(sc, &l[i]);
	}
	name_groups(l, *rows, *n, sc->axes);
	return l;
}

/* The measured end's "virtualization": env.dut's (rate's DUT), else env.remote's when the
 * document has an env.remote (the agent), else env.local's; never the controller's in place of
 * an agent that did not say. */
static void virt_of(const struct nb_jdoc *d, struct loaded *l)
{
	const struct nb_jnode *env = nb_jget(d, nb_jdoc_root(d), "env");
	const struct nb_jnode *end = nb_jget(d, env, "dut");
	if (!end || end->type != NB_JOBJ)
		end = nb_jget(d, env, "remote");
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
	int ret;
	store_cli_query(st, sc, false, true, rows, n);
	l = calloc(*n + 1, sizeof(*l));
	if (!l || !tmp)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < *n; i++) {
		struct nb_store_row *r = &(*rows)[i], *one = NULL;
		l[i].row = r;
		struct nb_store_filter f = {.ids = &r->id, .nids = 1};
		struct nb_jdoc *d;
		size_t got = 0;
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
		nb_facts_measured(d, &l[i].env);
		settings_of(d, &l[i]);
		nb_jdoc_free(d);
		/* Only the views this result has are kept. */
		l[i].views = calloc(l[i].nviews + 1, sizeof(*l[i].views));
		if (!l[i].views)
			cli_fail(ENOMEM, "out of memory");
		memcpy(l[i].views, tmp, l[i].nviews * sizeof(*tmp));
		where_sizes(sc, &l[i]);
	}
	free(tmp);
	name_groups(l, *rows, *n, sc->axes);
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
	/* A label split by its tags names several groups: which one is the user's to say. */
	const char *found = NULL;
	char names[512] = "";
	size_t len = 0, nfound = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		if (strcmp(l[i].row->label, arg))
			continue;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(l[k].group, l[i].group);
		if (seen)
			continue;
		found = l[i].group;
		nfound++;
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s'%s'",
						len ? ", " : "", l[i].group);
	}
	if (nfound == 1)
		return found;
	if (nfound > 1)
		cli_usage_error("--baseline: the runs labelled '%s' differ in tags; give one of %s "
				"(or an ID)",
				arg, names);
	cli_usage_error("--baseline: no selected result has the ID or label '%s'", arg);
}

char *store_cli_read_doc(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f)
		cli_fail(errno, "cannot read %s", path);
	for (;;) {
		if (n + 65536 > cap) {
			cap = cap ? 2 * cap : 65536 * 2;
			if (cap > NB_JDOC_MAX_BYTES + 65536)
				cli_fail(EFBIG, "%s: larger than %u MiB", path,
					 NB_JDOC_MAX_BYTES >> 20);
			char *p = realloc(buf, cap + 1);
			if (!p)
				cli_fail(ENOMEM, "out of memory");
			buf = p;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (!r)
			break;
	}
	if (ferror(f))
		cli_fail(errno, "reading %s", path);
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

int store_cli_fit(const char *formula, bool linear, const struct loaded *l, size_t n, FILE *text,
		  FILE *svg)
{
	struct nb_fit_source *src = calloc(n + 1, sizeof(*src));
	struct nb_fit_who *who = calloc(n + 1, sizeof(*who));
	struct nb_fit_set s;
	char why[256];

	if (!src || !who)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		src[i] = (struct nb_fit_source){l[i].row, l[i].views, l[i].nviews};
		who[i] = (struct nb_fit_who){l[i].row->id, l[i].group};
	}
	int ret = nb_fit_set_make(formula, linear, src, n, &s, why, sizeof(why));
	free(src);
	if (ret == -EINVAL)
		cli_usage_error("--fit: %s", why);
	if (ret)
		cli_fail(ret == -ENOENT ? 0 : -ret, "--fit: %s", why);
	nb_fit_write_text(text, &s, who);
	free(who);
	if (svg && nb_fit_write_charts(svg, &s))
		cli_fail(ENOMEM, "out of memory");
	ret = s.fitted ? 0 : 1;
	nb_fit_set_free(&s);
	return ret;
}

void store_cli_trend(const char *text, struct nb_piv_axis *a)
{
	store_cli_axis("--trend", text, a);
	if (a->kind != NB_PIV_TAG)
		cli_usage_error("--trend: '%s' is not a tag's key (a trend runs across a tag's "
				"values, such as kernel)",
				text);
}

void store_cli_axis(const char *opt, const char *text, struct nb_piv_axis *a)
{
	if (nb_piv_axis_parse(text, a))
		cli_usage_error(
		    "%s: '%s' is not an axis: label, host, size or a tag's key (letters, "
		    "digits, _ - .)",
		    opt, text);
}

static struct nb_piv_entry piv_entry(const struct loaded *l, size_t v)
{
	return (struct nb_piv_entry){.id = (long long)l->row->id,
				     .label = l->row->label,
				     .host = l->row->host,
				     .tags = l->row->tags,
				     .ntags = l->row->ntags,
				     .env = &l->env,
				     .view = &l->views[v]};
}

void store_cli_pivot_baseline(const struct loaded *l, size_t n, const struct nb_piv_axis *ca,
			      const char *baseline)
{
	for (size_t i = 0; i < n && baseline; i++)
		for (size_t v = 0; v < l[i].nviews; v++) {
			struct nb_piv_entry one = piv_entry(&l[i], v);
			for (size_t s = 0; s < l[i].views[v].nseries; s++)
				for (size_t k = 0; k < l[i].views[v].s[s].n; k++) {
					char val[NB_STORE_LABEL_MAX];
					nb_piv_value(ca, &one, l[i].views[v].s[s].x[k], val,
						     sizeof(val));
					if (!strcmp(val, baseline))
						return;
				}
		}
	if (baseline)
		cli_usage_error("--baseline: no selected result has %s '%s' (with --rows, "
				"--columns or --trend the baseline is a column's value)",
				ca->key, baseline);
}

void store_cli_pivot(const struct loaded *l, size_t n, const struct nb_piv_axis *ra,
		     const struct nb_piv_axis *ca, const char *baseline,
		     void (*fn)(struct nb_cmp_table *t, void *ctx), void *ctx)
{
	struct nb_piv_entry *e = calloc(n + 1, sizeof(*e));
	if (!e)
		cli_fail(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		for (size_t v = 0; v < l[i].nviews; v++) {
			const char *id = l[i].views[v].id;
			bool done = false;
			size_t ne = 0;
			for (size_t k = 0; k < i && !done; k++)
				for (size_t w = 0; w < l[k].nviews; w++)
					done |= !strcmp(l[k].views[w].id, id);
			if (done)
				continue;
			for (size_t k = i; k < n; k++)
				for (size_t w = 0; w < l[k].nviews; w++)
					if (!strcmp(l[k].views[w].id, id))
						e[ne++] = piv_entry(&l[k], w);
			struct nb_cmp_table **t;
			size_t nt;
			int ret = nb_piv_build(e, ne, ra, ca, baseline, &t, &nt);
			if (ret == -ENOENT) /* this view has no such column; another has */
				ret = nb_piv_build(e, ne, ra, ca, NULL, &t, &nt);
			if (ret)
				cli_fail(ret, "building the %s tables", id);
			for (size_t k = 0; k < nt; k++)
				fn(t[k], ctx);
			nb_piv_free(t, nt);
		}
	free(e);
}
