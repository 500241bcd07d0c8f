/* SPDX-License-Identifier: BSD-2-Clause */
/* One extractor per test: the fields each test's JSON document carries (docs/schema.md and the
 * test's own page), turned into views. Only valid points are taken: an invalid trial has no
 * number to compare. */
#include "core/store/views.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/base/escape.h"
#include "core/base/tcpcc.h"

bool nb_series_add(struct nb_series *s, double x, double y)
{
	if (!isfinite(x) || !isfinite(y) || s->n >= NB_VIEW_MAX_POINTS)
		return false;
	s->x[s->n] = x;
	s->polluted[s->n] = false;
	s->y[s->n++] = y;
	return true;
}

bool nb_series_add_marked(struct nb_series *s, double x, double y, bool polluted)
{
	if (!nb_series_add(s, x, y))
		return false;
	s->polluted[s->n - 1] = polluted;
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

void nb_series_name(char out[NB_SERIES_NAME_MAX], const char *name)
{
	size_t len = strlen(name), keep = NB_SERIES_NAME_MAX - 10;
	uint32_t h = 2166136261u; /* FNV-1a */

	if (len < NB_SERIES_NAME_MAX) {
		memcpy(out, name, len + 1);
		return;
	}
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	while (keep && ((unsigned char)name[keep] & 0xc0) == 0x80)
		keep--;
	snprintf(out, NB_SERIES_NAME_MAX, "%.*s~%08x", (int)keep, name, (unsigned)h);
}

/* The series named name: found by its stored form, so a long name finds its own series. */
static struct nb_series *series(struct nb_view *v, const char *name, bool model)
{
	char stored[NB_SERIES_NAME_MAX];
	nb_series_name(stored, name);
	for (size_t i = 0; i < v->nseries; i++)
		if (!strcmp(v->s[i].name, stored) && v->s[i].model == model)
			return &v->s[i];
	if (v->nseries == NB_VIEW_MAX_SERIES)
		return NULL;
	struct nb_series *s = &v->s[v->nseries++];
	memset(s, 0, sizeof(*s));
	memcpy(s->name, stored, sizeof(stored));
	s->model = model;
	return s;
}

/* A measured point that has no room (its series full, or no series left) is counted, not
 * dropped silently: export says how many it could not give. Returns the point's series, or NULL. */
static struct nb_series *add(struct nb_view *v, const char *name, bool model, double x, double y)
{
	struct nb_series *s = series(v, name, model);
	if (!isfinite(x) || !isfinite(y))
		return NULL;
	if (s && nb_series_add(s, x, y))
		return s;
	if (!model)
		v->lost_points++;
	return NULL;
}

/* A CPU figure keeps its window's pollution mark. */
static void add_marked(struct nb_view *v, const char *name, double x, double y, bool polluted)
{
	struct nb_series *s = series(v, name, false);
	if (!isfinite(x) || !isfinite(y))
		return;
	if (!s || !nb_series_add_marked(s, x, y, polluted))
		v->lost_points++;
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

/* One direction's congestion control over a run's steps: the one name they all give, "mixed"
 * when they differ; steps without one (UDP, an older netbench) say nothing. */
static void cc_seen(char cc[NB_TCPCC_NAME_MAX], const char *name)
{
	if (!name || !nb_tcpcc_name_ok(name) || !strcmp(cc, "mixed"))
		return;
	if (!*cc)
		snprintf(cc, NB_TCPCC_NAME_MAX, "%s", name);
	else if (strcmp(cc, name))
		snprintf(cc, NB_TCPCC_NAME_MAX, "mixed");
}

static void profile_points(const struct nb_jdoc *d, const struct nb_jnode *prof, struct nb_view *v,
			   const char *prefix, double x);

/* The agent's kernel profile per block size (the board's end, as tput.cpu), ns per KByte by
 * subsystem, a series per direction and category ("Tx: socket"). */
static void tput_profile_view(const struct nb_jdoc *d, const struct nb_jnode *steps,
			      struct nb_view *views, size_t max, size_t *n)
{
	struct nb_view *v = NULL;
	EACH(d, steps, st)
	{
		const char *dir = nb_jstr(nb_jget(d, st, "direction"));
		const struct nb_jnode *prof = nb_jget(d, st, "profile_remote");
		if (!dir || !nb_jtrue(nb_jget(d, st, "valid")) || !prof ||
		    !nb_jtrue(nb_jget(d, prof, "available")))
			continue;
		if (!v) {
			if (!(v = view(views, max, n, "tput.profile")))
				return;
			axes(v, "tput: the agent's kernel CPU per KByte by subsystem", "block",
			     "bytes", "cost", "ns per KByte");
			v->x_fmt = NB_XFMT_BYTES;
			v->x_log = true;
			v->lower_is_better = true;
			v->stacked = true;
		}
		profile_points(d, prof, v,
			       !strcmp(dir, "tx")   ? "Tx"
			       : !strcmp(dir, "rx") ? "Rx"
						    : dir,
			       nb_jnum(nb_jget(d, st, "block_bytes")));
	}
}

static void tput_views(const struct nb_jdoc *d, struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *steps = nb_jget(d, nb_jdoc_root(d), "steps");
	char cc[2][NB_TCPCC_NAME_MAX] = {"", ""}; /* Tx, Rx */
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
		add_marked(cpu, name, b, nb_jnum(nb_jget(d, st, "demand_remote_us_per_kbyte")),
			   nb_jtrue(nb_jget(d, st, "cpu_polluted")));
		cc_seen(cc[!strcmp(dir, "rx")], nb_jstr(nb_jget(d, st, "congestion")));
	}
	tput_profile_view(d, steps, views, max, n);
	/* TCP moves what its congestion control lets it: a run's figures are compared with
	 * another's only knowing which algorithm sent each (a veth's 1k blocks moved 2.6x as much
	 * under cubic as under BBR). */
	if (*cc[0] || *cc[1]) {
		char note[96];
		if (!strcmp(cc[0], cc[1]))
			snprintf(note, sizeof(note), "TCP congestion control %s", cc[0]);
		else
			snprintf(note, sizeof(note), "TCP congestion control Tx %s, Rx %s",
				 *cc[0] ? cc[0] : "not known", *cc[1] ? cc[1] : "not known");
		for (size_t i = 0; i < 2; i++) {
			size_t len = strlen(i ? cpu->note : kb->note);
			note_add(i ? cpu : kb, &len, note);
		}
	}
}

/* Ethernet adds preamble, start delimiter and inter-frame gap: 20 bytes on the wire per frame. */
static double line_rate_fps(double bps, double frame_bytes)
{
	return bps / ((frame_bytes + 20) * 8);
}

/* A kernel profile's categories as series of ns per frame at x: the categories whose share is
 * established and whose ns per frame is known (docs/schema.md, "The kernel profile"); a share
 * the profile could not establish is no figure to compare. prefix names the receiver where a
 * run has several. */
static void profile_points(const struct nb_jdoc *d, const struct nb_jnode *prof, struct nb_view *v,
			   const char *prefix, double x)
{
	if (!prof || !nb_jtrue(nb_jget(d, prof, "available")))
		return;
	EACH(d, nb_jget(d, prof, "categories"), c)
	{
		const char *cat = nb_jstr(nb_jget(d, c, "name"));
		double ns = nb_jnum(nb_jget(d, c, "ns_per_frame"));
		char name[64];
		if (!cat || !isfinite(ns) || !nb_jtrue(nb_jget(d, c, "established")))
			continue;
		snprintf(name, sizeof(name), "%s%s%s", prefix ? prefix : "", prefix ? ": " : "",
			 cat);
		add(v, name, false, x, ns);
	}
}

/* The DUT's kernel profile per frame size: the first observer (the DUT's) of each size's judged
 * trial, the last trial where none was judged. */
static void rate_profile_view(const struct nb_jdoc *d, const struct nb_jnode *sizes,
			      struct nb_view *views, size_t max, size_t *n)
{
	struct nb_view *v = NULL;
	EACH(d, sizes, s)
	{
		const struct nb_jnode *trials = nb_jget(d, s, "trials"), *t = NULL, *prof;
		double judged = nb_jnum(nb_jget(d, s, "bottleneck_trial"));
		if (!nb_jtrue(nb_jget(d, s, "valid")) || !trials)
			continue;
		EACH(d, trials, tr)
		{
			if (t && nb_jnum(nb_jget(d, t, "id")) == judged)
				break;
			t = tr;
		}
		prof = t ? nb_jget(d, nb_jfirst(d, nb_jget(d, t, "observers")), "profile") : NULL;
		if (!prof || !nb_jtrue(nb_jget(d, prof, "available")))
			continue;
		if (!v) {
			if (!(v = view(views, max, n, "rate.profile")))
				return;
			axes(v, "rate: the DUT's kernel CPU per frame by subsystem", "frame",
			     "bytes", "cost", "ns per frame");
			v->x_log = true;
			v->x_fmt = NB_XFMT_BYTES;
			v->lower_is_better = true;
			v->stacked = true;
		}
		profile_points(d, prof, v, NULL, nb_jnum(nb_jget(d, s, "frame_bytes")));
	}
}

/* Frames/s by frame size, with the line rate; false when there is no room for the view. */
static bool rate_fps_view(const struct nb_jdoc *d, const struct nb_jnode *sizes,
			  struct nb_view *views, size_t max, size_t *n)
{
	double line_bps = nb_jnum(nb_jget(d, params(d), "line_rate_bps"));
	const char *verdict = nb_jstr(nb_jget(d, nb_jdoc_root(d), "verdict"));

	struct nb_view *v = view(views, max, n, "rate.fps");
	if (!v)
		return false;
	axes(v, "rate: frames/s by frame size", "frame", "bytes", "throughput", "fps");
	v->x_log = true;
	v->x_fmt = NB_XFMT_BYTES;
	EACH(d, sizes, s)
	{
		double fb = nb_jnum(nb_jget(d, s, "frame_bytes"));
		/* Through an emulated board whose host was busy with other work: the
		 * figure carries the mark, as a polluted CPU window does. */
		bool busy = nb_jtrue(nb_jget(d, nb_jget(d, s, "bottleneck"), "board_polluted"));
		if (nb_jtrue(nb_jget(d, s, "valid")))
			add_marked(v, "fps", fb, nb_jnum(nb_jget(d, s, "fps")), busy);
		if (line_bps > 0)
			add(v, "line rate", true, fb, line_rate_fps(line_bps, fb));
	}
	if (verdict)
		snprintf(v->note, sizeof(v->note), "%s", verdict);
	return true;
}

/* A rule sweep's frames/s by rule count, each kind and frame size a series, with each fit's
 * curve and its slope in the note. */
static void rate_rules_view(const struct nb_jdoc *d, const struct nb_jnode *sweep,
			    const struct nb_jnode *fits, struct nb_view *views, size_t max,
			    size_t *n)
{
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
			struct nb_series *se = base + per * r > 0
						   ? add(v, name, true, r, 1e9 / (base + per * r))
						   : NULL;
			if (se && isfinite(fb))
				se->facet = fb;
		}
		/* The slope's 95 % interval where the document has it. */
		double lo = nb_jnum(nb_jget(d, f, "per_rule_lo_ns"));
		double hi = nb_jnum(nb_jget(d, f, "per_rule_hi_ns"));
		char iv[80] = "", piece[200];
		if (isfinite(lo) && isfinite(hi))
			snprintf(iv, sizeof(iv), " (95 %% interval %.3f to %.3f%s)", lo, hi,
				 lo > 0 || hi < 0 ? "" : ": not established");
		else if (nb_jget(d, f, "dof") && nb_jnum(nb_jget(d, f, "dof")) == 0)
			snprintf(iv, sizeof(iv), " (no interval: 2 points)");
		snprintf(piece, sizeof(piece), "%s: %.1f ns/frame + %.3f ns per rule%s", name + 4,
			 base, per, iv);
		note_add(v, &len, piece);
	}
}

static void rate_views(const struct nb_jdoc *d, struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *root = nb_jdoc_root(d), *sizes = nb_jget(d, root, "sizes");
	const struct nb_jnode *sweep = nb_jget(d, root, "sweep"), *fits = nb_jget(d, root, "fits");

	if (sizes && !rate_fps_view(d, sizes, views, max, n))
		return;
	if (sizes)
		rate_profile_view(d, sizes, views, max, n);
	if (sweep)
		rate_rules_view(d, sweep, fits, views, max, n);
}

/* Each receiver's kernel profile per bitrate, ns per datagram received by subsystem. */
static void stream_profile_view(const struct nb_jdoc *d, const struct nb_jnode *recv,
				struct nb_view *views, size_t max, size_t *n)
{
	const struct nb_jnode *root = nb_jdoc_root(d);
	struct nb_view *v = NULL;
	size_t nrecv = recv ? recv->count : 0;
	for (const struct nb_jnode *r = recv ? nb_jfirst(d, recv) : root; r;
	     r = recv ? nb_jnext(d, r) : NULL) {
		const char *agent = nb_jstr(nb_jget(d, r, "agent"));
		EACH(d, nb_jget(d, r, "steps"), st)
		{
			const struct nb_jnode *prof = nb_jget(d, st, "profile");
			double bps = nb_jnum(nb_jget(d, st, "rate_bps_asked"));
			if (!nb_jtrue(nb_jget(d, st, "valid")) || !prof ||
			    !nb_jtrue(nb_jget(d, prof, "available")))
				continue;
			if (!isfinite(bps))
				bps = nb_jnum(nb_jget(d, st, "rate_bps"));
			if (!v) {
				if (!(v = view(views, max, n, "stream.profile")))
					return;
				axes(v,
				     "stream: the receiver's kernel CPU per datagram by subsystem",
				     "bitrate", "Mbit/s", "cost", "ns per datagram");
				v->lower_is_better = true;
				v->stacked = true;
			}
			profile_points(d, prof, v, nrecv > 1 ? agent : NULL, bps / 1e6);
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
		const char *name = nrecv > 1 && agent ? agent : NB_VIEW_ONE_RECEIVER;
		struct nb_series *s = series(v, name, false);
		const struct nb_jnode *env = nb_jget(d, r, "env");
		if (!s)
			break;
		/* Each receiver is measured on its own end: its env, not the controller's. */
		if (r != root && env && env->type == NB_JOBJ) {
			s->own_env = true;
			nb_facts_of_env(d, env, &s->env);
		}
		EACH(d, nb_jget(d, r, "steps"), st)
		{
			if (!nb_jtrue(nb_jget(d, st, "valid")))
				continue;
			double bps = nb_jnum(nb_jget(d, st, "rate_bps_asked"));
			if (!isfinite(bps))
				bps = nb_jnum(nb_jget(d, st, "rate_bps"));
			nb_series_add_marked(
			    s, bps / 1e6,
			    nb_jnum(nb_jget(d, nb_jget(d, st, "cpu"), field[o->stream_cpu])),
			    nb_jtrue(nb_jget(d, st, "cpu_polluted")));
		}
	}
	stream_profile_view(d, recv, views, max, n);
}

/* With --profile: each engine's kernel profile of the algorithm, ns per request by subsystem
 * and request size ("ENGINE: CATEGORY"). */
static void crypto_profile_view(const struct nb_jdoc *d, const struct nb_jnode *res,
				const char *algo, struct nb_view *views, size_t max, size_t *n)
{
	struct nb_view *v = NULL;
	EACH(d, res, r)
	{
		const char *a = nb_jstr(nb_jget(d, r, "algo")),
			   *e = nb_jstr(nb_jget(d, r, "engine"));
		if (!a || !e || strcmp(a, algo))
			continue;
		EACH(d, nb_jget(d, r, "points"), p)
		{
			const struct nb_jnode *prof = nb_jget(d, p, "profile");
			if (!nb_jtrue(nb_jget(d, p, "valid")) || !prof ||
			    !nb_jtrue(nb_jget(d, prof, "available")))
				continue;
			if (!v) {
				char title[96];
				if (!(v = view(views, max, n, "crypto.profile")))
					return;
				snprintf(title, sizeof(title),
					 "crypto: %s kernel CPU per request by subsystem", algo);
				axes(v, title, "request", "bytes", "cost", "ns per request");
				v->x_fmt = NB_XFMT_BYTES;
				v->x_log = true;
				v->lower_is_better = true;
			}
			profile_points(d, prof, v, e, nb_jnum(nb_jget(d, p, "size_bytes")));
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
		/* The engine the crossover was measured against, as the run recorded it. Documents
		 * written before crossover_vs existed compared with soft alone. */
		const struct nb_jnode *vsn = nb_jget(d, r, "crossover_vs");
		const char *vs = vsn ? nb_jstr(vsn) : "soft";
		if (isfinite(x) && vs) {
			char t[40], xs[16];
			nb_view_fmt_x(v, x, xs, sizeof(xs));
			snprintf(t, sizeof(t), "%s beats %s", e, vs);
			mark(v, x, t);
			if (len < sizeof(v->note))
				len += (size_t)snprintf(v->note + len, sizeof(v->note) - len,
							"%s%s is faster than %s from %s bytes",
							len ? "; " : "", e, vs, xs);
		}
	}
	crypto_profile_view(d, res, algo, views, max, n);
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
	/* Memory bandwidth by thread count: read, write and copy (the best trial, as printed). */
	const struct nb_jnode *bw = nb_jpath(d, root, "bandwidth.results");
	if (!bw || !bw->count)
		return;
	struct nb_view *b = view(views, max, n, "mem.bandwidth");
	if (!b)
		return;
	axes(b, "mem: memory bandwidth by thread count", "threads", "", "bandwidth", "MB/s");
	static const char *const kind[] = {"read", "write", "copy"};
	EACH(d, bw, p)
	for (size_t k = 0; k < 3; k++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_mbyte_per_s", kind[k]);
		double y = nb_jnum(nb_jget(d, p, key));
		if (y > 0)
			add(b, kind[k], false, nb_jnum(nb_jget(d, p, "threads")), y);
	}
}

/* Names and notes come from the document, which is foreign: no control character passes. */
static void escape_view(struct nb_view *v)
{
#define E(f) nb_esc_inplace(f, sizeof(f), NB_ESC_LINE)
	E(v->id);
	E(v->title);
	E(v->x_name);
	E(v->x_unit);
	E(v->y_name);
	E(v->y_unit);
	E(v->note);
	for (size_t i = 0; i < v->nseries; i++)
		E(v->s[i].name);
	for (size_t i = 0; i < v->nmarks; i++)
		E(v->marks[i].text);
#undef E
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
	for (size_t i = 0; i < *n; i++)
		escape_view(&views[i]);
	return 0;
}
