/* SPDX-License-Identifier: BSD-2-Clause */
/* One extractor per test: the fields each test's JSON document carries (docs/schema.md and the
 * test's own page), turned into views. Only valid points are taken: an invalid trial has no
 * number to compare. */
#include "core/store/views.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

bool nb_series_add(struct nb_series *s, double x, double y)
{
	if (!isfinite(x) || !isfinite(y) || s->n >= NB_VIEW_MAX_POINTS)
		return false;
	s->x[s->n] = x;
	s->y[s->n++] = y;
	return true;
}

void nb_view_fmt_x(const struct nb_view *v, double x, char *buf, size_t len)
{
	if (v->x_fmt == NB_XFMT_BYTES && x >= 1024 && fmod(x, 1024) == 0) {
		if (x >= 1048576 && fmod(x, 1048576) == 0)
			snprintf(buf, len, "%gM", x / 1048576);
		else
			snprintf(buf, len, "%gk", x / 1024);
	} else {
		snprintf(buf, len, "%g", x);
	}
}

static struct nb_series *series(struct nb_view *v, const char *name, bool model)
{
	for (size_t i = 0; i < v->nseries; i++)
		if (!strcmp(v->s[i].name, name) && v->s[i].model == model)
			return &v->s[i];
	if (v->nseries == NB_VIEW_MAX_SERIES)
		return NULL;
	struct nb_series *s = &v->s[v->nseries++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->model = model;
	return s;
}

static struct nb_series *add(struct nb_view *v, const char *name, bool model, double x, double y)
{
	struct nb_series *s = series(v, name, model);
	return s && nb_series_add(s, x, y) ? s : NULL;
}

/* A CPU figure keeps its window's pollution mark. */
static void add_cpu(struct nb_view *v, const char *name, double x, double y, bool polluted)
{
	struct nb_series *s = add(v, name, false, x, y);
	if (s)
		s->polluted[s->n - 1] = polluted;
}

static void mark(struct nb_view *v, double x, const char *text)
{
	if (v->nmarks < NB_VIEW_MAX_MARKS && isfinite(x)) {
		v->marks[v->nmarks].x = x;
		snprintf(v->marks[v->nmarks++].text, sizeof(v->marks[0].text), "%s", text);
	}
}

/* Appends "; piece" to the view's note only whole: a sentence cut in the middle would say
 * something else; what does not fit is marked "; ..." once. */
static void note_add(struct nb_view *v, size_t *len, const char *piece)
{
	size_t need = strlen(piece) + (*len ? 2 : 0);
	if (*len + need + 5 < sizeof(v->note))
		*len += (size_t)snprintf(v->note + *len, sizeof(v->note) - *len, "%s%s",
					 *len ? "; " : "", piece);
	else if (!strstr(v->note, "; ...") && *len + 5 < sizeof(v->note))
		*len += (size_t)snprintf(v->note + *len, sizeof(v->note) - *len, "; ...");
}

static struct nb_view *view(struct nb_view *views, size_t max, size_t *n, const char *id)
{
	if (*n == max)
		return NULL;
	struct nb_view *v = &views[(*n)++];
	memset(v, 0, sizeof(*v));
	snprintf(v->id, sizeof(v->id), "%s", id);
	return v;
}

static void axes(struct nb_view *v, const char *title, const char *xn, const char *xu,
		 const char *yn, const char *yu)
{
	snprintf(v->title, sizeof(v->title), "%s", title);
	snprintf(v->x_name, sizeof(v->x_name), "%s", xn);
	snprintf(v->x_unit, sizeof(v->x_unit), "%s", xu);
	snprintf(v->y_name, sizeof(v->y_name), "%s", yn);
	snprintf(v->y_unit, sizeof(v->y_unit), "%s", yu);
}

/* The shape of "parameters" is being made uniform; older documents call it "params". */
static const struct nb_jnode *params(const struct nb_jdoc *d)
{
	const struct nb_jnode *r = nb_jdoc_root(d), *p = nb_jget(d, r, "parameters");
	return p ? p : nb_jget(d, r, "params");
}

#define EACH(d, arr, it)                                                                           \
	for (const struct nb_jnode *it = nb_jfirst(d, arr); it; it = nb_jnext(d, it))

static void tput_views(const struct nb_jdoc *d, struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *steps = nb_jget(d, nb_jdoc_root(d), "steps");
	struct nb_view *kb = view(views, max, n, "tput.kbyte"),
		       *cpu = view(views, max, n, "tput.cpu");
	if (!kb || !cpu)
		return;
	axes(kb, "tput: throughput by block size", "block", "bytes", "throughput", "KByte/s");
	axes(cpu, "tput: the agent's CPU time per KByte", "block", "bytes", "system CPU",
	     "us/KByte");
	kb->x_fmt = cpu->x_fmt = NB_XFMT_BYTES;
	kb->x_log = cpu->x_log = true;
	cpu->lower_is_better = true;
	EACH(d, steps, st)
	{
		const char *dir = nb_jstr(nb_jget(d, st, "direction"));
		double b = nb_jnum(nb_jget(d, st, "block_bytes"));
		if (!dir || !nb_jtrue(nb_jget(d, st, "valid")))
			continue;
		const char *name = !strcmp(dir, "tx") ? "Tx" : !strcmp(dir, "rx") ? "Rx" : dir;
		add(kb, name, false, b, nb_jnum(nb_jget(d, st, "kbyte_per_s")));
		add_cpu(cpu, name, b, nb_jnum(nb_jget(d, st, "demand_remote_us_per_kbyte")),
			nb_jtrue(nb_jget(d, st, "cpu_polluted")));
	}
}

/* Ethernet adds preamble, start delimiter and inter-frame gap: 20 bytes on the wire per frame. */
static double line_rate_fps(double bps, double frame_bytes)
{
	return bps / ((frame_bytes + 20) * 8);
}

static void rate_views(const struct nb_jdoc *d, struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *root = nb_jdoc_root(d), *sizes = nb_jget(d, root, "sizes");
	const struct nb_jnode *sweep = nb_jget(d, root, "sweep"), *fits = nb_jget(d, root, "fits");
	double line_bps = nb_jnum(nb_jget(d, params(d), "line_rate_bps"));
	const char *verdict = nb_jstr(nb_jget(d, root, "verdict"));

	if (sizes) {
		struct nb_view *v = view(views, max, n, "rate.fps");
		if (!v)
			return;
		axes(v, "rate: frames/s by frame size", "frame", "bytes", "throughput", "fps");
		v->x_log = true;
		v->x_fmt = NB_XFMT_BYTES;
		EACH(d, sizes, s)
		{
			double fb = nb_jnum(nb_jget(d, s, "frame_bytes"));
			if (nb_jtrue(nb_jget(d, s, "valid")))
				add(v, "fps", false, fb, nb_jnum(nb_jget(d, s, "fps")));
			if (line_bps > 0)
				add(v, "line rate", true, fb, line_rate_fps(line_bps, fb));
		}
		if (verdict)
			snprintf(v->note, sizeof(v->note), "%s", verdict);
	}
	if (sweep) {
		struct nb_view *v = view(views, max, n, "rate.rules");
		size_t len = 0;
		double top = 0;
		if (!v)
			return;
		axes(v, "rate: frames/s by firewall rule count", "rules", "", "throughput", "fps");
		EACH(d, sweep, p)
		{
			const char *kind = nb_jstr(nb_jget(d, p, "kind"));
			double rules = nb_jnum(nb_jget(d, p, "rules"));
			if (rules > top)
				top = rules;
			EACH(d, nb_jget(d, p, "sizes"), s)
			{
				char name[48];
				double fb = nb_jnum(nb_jget(d, s, "frame_bytes"));
				snprintf(name, sizeof(name), "%s, %g B", kind ? kind : "?", fb);
				struct nb_series *se =
				    nb_jtrue(nb_jget(d, s, "valid"))
					? add(v, name, false, rules, nb_jnum(nb_jget(d, s, "fps")))
					: NULL;
				if (se && isfinite(fb))
					se->facet = fb;
			}
		}
		EACH(d, fits, f)
		{
			char name[48];
			const char *kind = nb_jstr(nb_jget(d, f, "kind"));
			double base = nb_jnum(nb_jget(d, f, "base_ns"));
			double per = nb_jnum(nb_jget(d, f, "per_rule_ns"));
			snprintf(name, sizeof(name), "fit %s, %g B", kind ? kind : "?",
				 nb_jnum(nb_jget(d, f, "frame_bytes")));
			if (!(base > 0) || !isfinite(per))
				continue;
			for (int k = 0; k <= 16; k++) {
				double r = top * k / 16, fb = nb_jnum(nb_jget(d, f, "frame_bytes"));
				struct nb_series *se =
				    base + per * r > 0
					? add(v, name, true, r, 1e9 / (base + per * r))
					: NULL;
				if (se && isfinite(fb))
					se->facet = fb;
			}
			char piece[120];
			snprintf(piece, sizeof(piece), "%s: %.1f ns/frame + %.3f ns per rule",
				 name + 4, base, per);
			note_add(v, &len, piece);
		}
	}
}

static void stream_views(const struct nb_jdoc *d, const struct nb_view_opts *o,
			 struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *root = nb_jdoc_root(d), *recv = nb_jget(d, root, "receivers");
	static const char *field[] = {"sys_busy_pct", "sys_softirq_pct", "proc_cpu_pct"};
	static const char *what[] = {"total", "softirq", "process"};
	struct nb_view *v = view(views, max, n, "stream.cpu");
	char title[96], yn[48];
	if (!v)
		return;
	snprintf(title, sizeof(title), "stream: receiver CPU (%s) by bitrate", what[o->stream_cpu]);
	snprintf(yn, sizeof(yn), "receiver CPU %s", what[o->stream_cpu]);
	axes(v, title, "bitrate", "Mbit/s", yn,
	     o->stream_cpu == NB_STREAM_CPU_PROCESS ? "% of one CPU" : "% of all CPUs");
	v->by_result = true;
	v->lower_is_better = true;
	size_t nrecv = recv ? recv->count : 0;
	/* A receive-only run (stream --recv) has its steps at the top level. */
	const struct nb_jnode *one = recv ? NULL : root;
	for (const struct nb_jnode *r = recv ? nb_jfirst(d, recv) : one; r;
	     r = recv ? nb_jnext(d, r) : NULL) {
		const char *agent = nb_jstr(nb_jget(d, r, "agent"));
		const char *name = nrecv > 1 && agent ? agent : "receiver";
		EACH(d, nb_jget(d, r, "steps"), st)
		{
			if (!nb_jtrue(nb_jget(d, st, "valid")))
				continue;
			double bps = nb_jnum(nb_jget(d, st, "rate_bps_asked"));
			if (!isfinite(bps))
				bps = nb_jnum(nb_jget(d, st, "rate_bps"));
			add_cpu(v, name, bps / 1e6,
				nb_jnum(nb_jget(d, nb_jget(d, st, "cpu"), field[o->stream_cpu])),
				nb_jtrue(nb_jget(d, st, "cpu_polluted")));
		}
	}
}

static void crypto_views(const struct nb_jdoc *d, const struct nb_view_opts *o,
			 struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *res = nb_jget(d, nb_jdoc_root(d), "results");
	const char *algo = o->algo;
	size_t best = 0, len = 0;

	if (!algo) /* the algorithm the most engines ran */
		EACH(d, res, r)
		{
			const char *a = nb_jstr(nb_jget(d, r, "algo"));
			size_t k = 0;
			if (!a)
				continue;
			EACH(d, res, q)
			{
				const char *b = nb_jstr(nb_jget(d, q, "algo"));
				const char *st = nb_jstr(nb_jget(d, q, "status"));
				k += b && st && !strcmp(a, b) && !strcmp(st, "ok");
			}
			if (k > best) {
				best = k;
				algo = a;
			}
		}
	if (!algo)
		return;
	struct nb_view *v = view(views, max, n, "crypto.mbyte");
	if (!v)
		return;
	char title[96];
	snprintf(title, sizeof(title), "crypto: %s MB/s by request size per engine", algo);
	axes(v, title, "request", "bytes", "throughput", "MB/s");
	v->x_fmt = NB_XFMT_BYTES;
	v->x_log = true;
	v->y_log = true;
	EACH(d, res, r)
	{
		const char *a = nb_jstr(nb_jget(d, r, "algo")),
			   *e = nb_jstr(nb_jget(d, r, "engine"));
		const char *st = nb_jstr(nb_jget(d, r, "status"));
		if (!a || !e || strcmp(a, algo) || !st || strcmp(st, "ok"))
			continue;
		EACH(d, nb_jget(d, r, "points"), p)
		if (nb_jtrue(nb_jget(d, p, "valid")))
			add(v, e, false, nb_jnum(nb_jget(d, p, "size_bytes")),
			    nb_jnum(nb_jget(d, p, "mbyte_per_s")));
		double x = nb_jnum(nb_jget(d, r, "crossover_bytes"));
		if (isfinite(x)) {
			char t[40], xs[16];
			nb_view_fmt_x(v, x, xs, sizeof(xs));
			snprintf(t, sizeof(t), "%s beats soft", e);
			mark(v, x, t);
			if (len < sizeof(v->note))
				len += (size_t)snprintf(v->note + len, sizeof(v->note) - len,
							"%s%s is faster than soft from %s bytes",
							len ? "; " : "", e, xs);
		}
	}
}

static void mem_views(const struct nb_jdoc *d, struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *root = nb_jdoc_root(d);
	struct nb_view *v = view(views, max, n, "mem.latency");
	if (!v)
		return;
	axes(v, "mem: load latency by working set", "working set", "bytes", "latency", "ns");
	v->x_fmt = NB_XFMT_BYTES;
	v->x_log = v->y_log = true;
	v->lower_is_better = true;
	EACH(d, nb_jpath(d, root, "latency.points"), p)
	add(v, "ns per load", false, nb_jnum(nb_jget(d, p, "set_bytes")),
	    nb_jnum(nb_jget(d, p, "ns_per_load")));
	EACH(d, nb_jpath(d, root, "caches.inferred"), c)
	{
		char t[40], xs[16];
		double x = nb_jnum(nb_jget(d, c, "size_bytes"));
		nb_view_fmt_x(v, x, xs, sizeof(xs));
		snprintf(t, sizeof(t), "step at %s", xs);
		mark(v, x, t);
	}
}

int nb_views_extract(const struct nb_jdoc *d, const struct nb_view_opts *o, struct nb_view *views,
		     size_t max, size_t *n)
{
	static const struct nb_view_opts none;
	const char *test = nb_jstr(nb_jget(d, nb_jdoc_root(d), "test"));
	*n = 0;
	if (!o)
		o = &none;
	if (!test)
		return -EINVAL;
	if (!strcmp(test, "tput"))
		tput_views(d, views, max, n);
	else if (!strcmp(test, "rate"))
		rate_views(d, views, max, n);
	else if (!strcmp(test, "stream"))
		stream_views(d, o, views, max, n);
	else if (!strcmp(test, "crypto"))
		crypto_views(d, o, views, max, n);
	else if (!strcmp(test, "mem"))
		mem_views(d, views, max, n);
	return 0;
}
