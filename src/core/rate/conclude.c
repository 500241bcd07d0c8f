/* SPDX-License-Identifier: BSD-2-Clause */
/* The verdict across frame sizes (docs/rate.md): the shape of the results (line rate, frames/s
 * or bits/s nearly constant) and, from the same windows, what each size's bottleneck was. It
 * never claims the generator's maximum without naming a DUT CPU that was at its limit. And the
 * clock experiment's fits. Pure: decided once, stored, rendered by every view. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/rate/rate_run.h"

/* The name a size's bottleneck goes by in the verdict across sizes. */
static const char *bneck_label(const struct nb_verdict *v)
{
	switch (v->kind) {
	case NB_V_GENERATOR:
		return "generator bound";
	case NB_V_DUT_CPU:
		return v->lost ? "DUT CPU bound" : "DUT CPU at its limit";
	case NB_V_DUT_INGRESS:
		return "DUT ingress bound";
	case NB_V_EGRESS:
		return "egress bound";
	case NB_V_RECEIVER:
		return "receiver bound";
	case NB_V_CONNTRACK:
		return "conntrack bound";
	case NB_V_UNEXPLAINED:
		return "loss unexplained";
	case NB_V_MISALIGNED:
		return "window misaligned";
	case NB_V_EMULATOR:
		return "emulator not scheduled";
	default:
		return NULL;
	}
}

static bool counted(const struct nb_rate_size *s)
{
	return !s->failed && s->fps > 0;
}

/* "; per size: DUT CPU bound at 64, 512 B; egress bound at 1518 B" (labels in the order the
 * sizes first show them), or "" when no size has a bottleneck worth naming. Every size with a
 * bottleneck counts, also one with no result (0 fps at every rate). */
static void per_size(const struct nb_rate_size *s, size_t n, char *b, size_t len)
{
	const char *seen[NB_RATE_MAX_SIZES];
	size_t nseen = 0, at;

	b[0] = 0;
	for (size_t i = 0; i < n && nseen < NB_RATE_MAX_SIZES; i++) {
		const char *l = s[i].have_bneck ? bneck_label(&s[i].bneck) : NULL;
		bool dup = false;
		for (size_t k = 0; l && k < nseen; k++)
			dup |= !strcmp(seen[k], l);
		if (l && !dup)
			seen[nseen++] = l;
	}
	for (size_t k = 0; k < nseen; k++) {
		at = strlen(b);
		snprintf(b + at, len - at, "%s%s at ", k ? "; " : "; per size: ", seen[k]);
		bool first = true;
		for (size_t i = 0; i < n; i++) {
			const char *l = s[i].have_bneck ? bneck_label(&s[i].bneck) : NULL;
			if (!l || strcmp(l, seen[k]))
				continue;
			at = strlen(b);
			snprintf(b + at, len - at, "%s%u", first ? "" : ", ", s[i].size);
			first = false;
		}
		at = strlen(b);
		snprintf(b + at, len - at, " B");
	}
}

/* The size whose DUT CPU was busiest among those at their limit; NULL when none was. */
static const struct nb_rate_size *cpu_limited(const struct nb_rate_size *s, size_t n)
{
	const struct nb_rate_size *best = NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i].have_bneck && s[i].bneck.cpu_at_limit &&
		    (!best || s[i].bneck.busiest_pct > best->bneck.busiest_pct))
			best = &s[i];
	return best;
}

/* The busiest DUT CPU share over the sizes' windows; -1 when none was observed. */
static double busiest_seen(const struct nb_rate_size *s, size_t n)
{
	double b = -1;
	for (size_t i = 0; i < n; i++)
		if (s[i].have_bneck && s[i].bneck.busiest_cpu >= 0 && s[i].bneck.busiest_pct > b)
			b = s[i].bneck.busiest_pct;
	return b;
}

void nb_rate_conclude(const struct nb_rate_params *p, const struct nb_rate_size *s, size_t n,
		      struct nb_rate_overall *v)
{
	double fmin = INFINITY, fmax = 0, bmin = INFINITY, bmax = 0;
	size_t ok = 0, atmax = 0, asked = 0, line = 0, len = sizeof(v->text), at;
	const struct nb_rate_size *lim = cpu_limited(s, n);
	char sizes[300];

	memset(v, 0, sizeof(*v));
	v->have = nb_rate_has_verdict(p->test);
	if (!v->have)
		return;
	for (size_t i = 0; i < n; i++) {
		double bps = s[i].fps * s[i].size * 8;
		if (!counted(&s[i]))
			continue;
		ok++;
		atmax += s[i].at_max;
		asked += s[i].at_max && nb_rate_max_is_asked(p, s[i].size);
		if (p->line_bps && s[i].fps * (s[i].size + NB_RATE_ETH_OVERHEAD_B) * 8 >=
				       0.98 * (double)p->line_bps)
			line++;
		fmin = fmin < s[i].fps ? fmin : s[i].fps;
		fmax = fmax > s[i].fps ? fmax : s[i].fps;
		bmin = bmin < bps ? bmin : bps;
		bmax = bmax > bps ? bmax : bps;
	}
	per_size(s, n, sizes, sizeof(sizes));
	if (!ok) {
		snprintf(v->text, len, "no verdict: no frame size has a result%s", sizes);
		return;
	}
	if (line == ok) {
		snprintf(v->text, len, "line-rate bound: every size reached the line rate");
	} else if (atmax == ok && lim) {
		/* The generator's maximum passed, but a DUT CPU was at its limit on the way: the
		 * DUT, not only the generator, is at its limit near this rate. */
		snprintf(v->text, len,
			 "%s reached at every size; DUT cpu%d %.0f %% busy at %u "
			 "B: the DUT is at its limit near this rate",
			 asked == ok ? "the asked maximum (--rate)"
			 : asked     ? "the asked (--rate) or the generator's maximum"
				     : "generator's maximum",
			 lim->bneck.busiest_cpu, lim->bneck.busiest_pct, lim->size);
	} else if (atmax == ok && asked) {
		/* The user's cap passed: nothing is known about the rates above it. */
		snprintf(v->text, len,
			 "not established: the DUT passed the asked maximum (--rate) at %s; "
			 "its limit lies above it (raise --rate or leave it out to find it)",
			 asked == ok ? "every size" : "some sizes, the generator's at the others");
	} else if (atmax == ok) {
		double b = busiest_seen(s, n);
		if (b >= 0)
			snprintf(v->text, len,
				 "generator bound: the DUT passed the generator's maximum at every "
				 "size (busiest DUT CPU %.0f %%, below %.0f %%)",
				 b, NB_VERDICT_AT_LIMIT_PCT);
		else
			snprintf(
			    v->text, len,
			    "generator bound: the DUT passed the generator's maximum at every "
			    "size (its CPUs not observed: whether it was near its limit is not "
			    "known)");
	} else if (ok < 2) {
		snprintf(v->text, len,
			 "no verdict across sizes: it needs results at two or more frame sizes");
	} else if ((fmax - fmin) / fmax <= 0.2) {
		snprintf(v->text, len,
			 "frame-rate bound: frames/s nearly constant across sizes (spread %.0f %%)",
			 100 * (fmax - fmin) / fmax);
	} else if ((bmax - bmin) / bmax <= 0.2) {
		snprintf(v->text, len,
			 "bandwidth bound: bits/s nearly constant across sizes (spread %.0f %%)",
			 100 * (bmax - bmin) / bmax);
	} else {
		snprintf(v->text, len,
			 "mixed: frames/s falls %.0f %% and bits/s varies %.0f %% across sizes",
			 100 * (fmax - fmin) / fmax, 100 * (bmax - bmin) / bmax);
	}
	at = strlen(v->text);
	snprintf(v->text + at, len - at, "%s", sizes);
}

void nb_rate_clock_conclude(const struct nb_rate_params *p, const struct nb_rate_clock_point *pt,
			    size_t np, struct nb_rate_clock_fits *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < p->nsizes && k < NB_RATE_MAX_SIZES; k++) {
		double mhz[NB_RATE_MAX_SWEEP], fps[NB_RATE_MAX_SWEEP];
		size_t n = 0;
		for (size_t c = 0; c < np && n < NB_RATE_MAX_SWEEP; c++)
			if (pt[c].res[k].fps > 0 && !pt[c].res[k].failed) {
				mhz[n] = pt[c].mhz;
				fps[n++] = pt[c].res[k].fps;
			}
		out->f[k].frame_bytes = (uint32_t)p->sizes[k];
		out->f[k].have = nb_clock_fit(mhz, fps, n, &out->f[k].fit) == 0;
		out->n = k + 1;
	}
}

void nb_rate_bidir_conclude(const struct nb_rate_params *p, const struct nb_rate_trial *trials,
			    struct nb_rate_size *s)
{
	const struct nb_rate_trial *first = NULL;
	size_t nfail = 0, nfwd = 0, nrev = 0;

	s->bidir_failed = NB_BIDIR_NONE;
	s->bidir_text[0] = 0;
	if (!p->bidir)
		return;
	for (size_t k = s->first_trial; k < s->first_trial + s->ntrials; k++) {
		const struct nb_rate_trial *t = &trials[k];
		enum nb_bidir_failed f = t->rev.on ? t->rev.j.failed : NB_BIDIR_INVALID;
		if (f == NB_BIDIR_NONE || f == NB_BIDIR_INVALID)
			continue;
		nfail++;
		nfwd += f == NB_BIDIR_FWD || f == NB_BIDIR_BOTH;
		nrev += f == NB_BIDIR_REV || f == NB_BIDIR_BOTH;
		/* The failure nearest above the result is what stopped the search there; a loss
		 * curve's is its lowest step that lost, back-to-back's its shortest burst. */
		if (!first)
			first = t;
		else if (p->test == NB_RATE_LOSS)
			first = t->offered_fps < first->offered_fps ? t : first;
		else if (p->test == NB_RATE_B2B)
			first = t->asked_frames < first->asked_frames ? t : first;
		else if (t->offered_fps > s->fps &&
			 (first->offered_fps <= s->fps || t->offered_fps < first->offered_fps))
			first = t;
	}
	if (!first) {
		snprintf(s->bidir_text, sizeof(s->bidir_text),
			 "both directions passed every trial (%zu)", s->ntrials);
		return;
	}
	s->bidir_failed = first->rev.j.failed;
	if (p->test == NB_RATE_LOSS || p->test == NB_RATE_B2B) {
		const char *dir = s->bidir_failed == NB_BIDIR_BOTH  ? "both directions"
				  : s->bidir_failed == NB_BIDIR_FWD ? "forward direction"
								    : "reverse direction";
		if (p->test == NB_RATE_LOSS)
			snprintf(
			    s->bidir_text, sizeof(s->bidir_text),
			    "%s lost: trial %u at %.0f fps, the lowest step that lost, %s (%zu "
			    "of %zu trials lost: forward in %zu, reverse in %zu)",
			    dir, first->id, first->offered_fps, first->rev.j.text, nfail,
			    s->ntrials, nfwd, nrev);
		else
			snprintf(
			    s->bidir_text, sizeof(s->bidir_text),
			    "%s limited: trial %u, a burst of %llu frames, the shortest that "
			    "lost, %s (%zu of %zu trials lost: forward in %zu, reverse in %zu)",
			    dir, first->id, (unsigned long long)first->asked_frames,
			    first->rev.j.text, nfail, s->ntrials, nfwd, nrev);
		return;
	}
	snprintf(s->bidir_text, sizeof(s->bidir_text),
		 "%s direction%s %s: trial %u at %.0f fps, %s (%zu of %zu trials failed: "
		 "forward in %zu, reverse in %zu)",
		 s->bidir_failed == NB_BIDIR_BOTH ? "both" : nb_bidir_failed_names[s->bidir_failed],
		 s->bidir_failed == NB_BIDIR_BOTH ? "s" : "",
		 p->test == NB_RATE_TRIAL ? "failed" : "limited", first->id, first->offered_fps,
		 first->rev.j.text, nfail, s->ntrials, nfwd, nrev);
}
