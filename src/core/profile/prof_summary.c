/* SPDX-License-Identifier: BSD-2-Clause */
/* What a window's profile says over the DUT's CPUs: each category's share of the samples with a
 * 95 % interval, and its ns per frame; the one line under a table and the JSON object. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/profile/prof.h"

void nb_prof_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
	double d = 1 + z2 / nn, c = (p + z2 / (2 * nn)) / d;
	double h = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / d;
	*lo = c - h < 0 ? 0 : c - h;
	*hi = c + h > 1 ? 1 : c + h;
	if (k == 0)
		*lo = 0;
	if (k == n)
		*hi = 1;
}

static bool selected(uint64_t mask, uint32_t cpu)
{
	return !mask || (cpu < 64 && ((mask >> cpu) & 1));
}

void nb_prof_summarize(const struct nb_prof_result *r, uint64_t mask, double busy_cpu_s,
		       uint64_t frames, struct nb_prof_summary *s)
{
	uint64_t cat[NB_PC_N] = {0};
	memset(s, 0, sizeof(*s));
	if (!r || !r->available)
		return;
	s->available = true;
	for (uint32_t i = 0; i < r->ncpu && i < NB_PROF_CPUS; i++) {
		if (!selected(mask, r->cpu[i].cpu))
			continue;
		s->ncpu++;
		s->samples += r->cpu[i].samples;
		s->lost += r->cpu[i].lost;
		for (int c = 0; c < NB_PC_N; c++)
			cat[c] += r->cpu[i].cat[c];
	}
	s->busy = s->samples - (cat[NB_PC_IDLE] <= s->samples ? cat[NB_PC_IDLE] : s->samples);
	s->expected = (uint64_t)((double)r->hz * (double)r->window_ns / 1e9 * s->ncpu + 0.5);
	s->busy_share = s->samples ? (double)s->busy / (double)s->samples : 0;
	bool per_frame = frames && s->busy && busy_cpu_s > 0;
	/* Every category, those without a sample too: their interval's upper end bounds them. */
	for (int c = 0; c < NB_PC_N; c++) {
		struct nb_prof_share *q = &s->cat[s->n++];
		q->cat = (enum nb_prof_cat)c;
		q->n = cat[c];
		q->share = s->samples ? (double)cat[c] / (double)s->samples : 0;
		nb_prof_wilson(cat[c], s->samples, &q->lo, &q->hi);
		q->established = q->share > 0 && (q->hi - q->lo) / 2 <= q->share / 2;
		q->ns_per_frame = q->ns_lo = q->ns_hi = NAN;
		if (per_frame && c != NB_PC_IDLE) {
			double k = busy_cpu_s * 1e9 / (double)frames, lo, hi;
			nb_prof_wilson(cat[c], s->busy, &lo, &hi);
			q->ns_per_frame = (double)cat[c] / (double)s->busy * k;
			q->ns_lo = lo * k;
			q->ns_hi = hi * k;
		}
	}
	/* Largest first; insertion sort over at most NB_PC_N. */
	for (size_t i = 1; i < s->n; i++)
		for (size_t k = i; k > 0 && s->cat[k].n > s->cat[k - 1].n; k--) {
			struct nb_prof_share t = s->cat[k];
			s->cat[k] = s->cat[k - 1];
			s->cat[k - 1] = t;
		}
}

const struct nb_prof_share *nb_prof_top(const struct nb_prof_summary *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->cat[i].cat != NB_PC_IDLE && s->cat[i].n)
			return &s->cat[i];
	return NULL;
}

void nb_prof_line(const struct nb_prof_result *r, const struct nb_prof_summary *s, size_t max,
		  char *buf, size_t len)
{
	size_t o = 0, shown = 0;
	if (!r || !r->available) {
		snprintf(buf, len, "unavailable: %s", r && r->why[0] ? r->why : "not reported");
		return;
	}
	if (!s->samples) {
		snprintf(buf, len, "no samples on these CPUs");
		return;
	}
	buf[0] = '\0';
	for (size_t i = 0; i < s->n && shown < max && o < len; i++) {
		const struct nb_prof_share *q = &s->cat[i];
		if (q->cat == NB_PC_IDLE || !q->n)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s %.0f %%%s", shown ? ", " : "",
				      nb_prof_cat_name(q->cat), q->share * 100,
				      q->established ? "" : " (not established)");
		if (o < len && !isnan(q->ns_per_frame) && q->established)
			o +=
			    (size_t)snprintf(buf + o, len - o, " (%.0f ns/frame)", q->ns_per_frame);
		shown++;
	}
	if (!shown && o < len)
		snprintf(buf + o, len - o, "idle");
}

static void num(struct nb_json *j, const char *key, double v, int prec)
{
	if (isnan(v))
		nb_json_null(j, key);
	else
		nb_json_double(j, key, v, prec);
}

void nb_prof_json(struct nb_json *j, const char *key, const struct nb_prof_result *r,
		  const struct nb_prof_summary *s)
{
	if (!r) {
		nb_json_null(j, key);
		return;
	}
	nb_json_obj_begin(j, key);
	nb_json_bool(j, "available", r->available);
	if (!r->available) {
		nb_json_str(j, "unavailable", r->why[0] ? r->why : "not reported");
		nb_json_obj_end(j);
		return;
	}
	nb_json_str(j, "event", "cpu-clock");
	nb_json_u64(j, "hz", r->hz);
	nb_json_u64(j, "cpus", s->ncpu);
	nb_json_u64(j, "samples", s->samples);
	nb_json_u64(j, "samples_expected", s->expected);
	nb_json_double(j, "window_s", (double)r->window_ns / 1e9, 6);
	nb_json_u64(j, "lost", s->lost);
	nb_json_u64(j, "throttled", r->throttled);
	nb_json_double(j, "busy_share", s->busy_share, 4);
	double ws = (double)r->window_ns / 1e9;
	uint64_t all = 0;
	for (uint32_t i = 0; i < r->ncpu; i++)
		all += r->cpu[i].samples;
	/* The profiler's own cost: its reader thread's CPU time and the last drain (the kernel's
	 * cost of taking each sample, in the timer interrupt, is not in it). */
	nb_json_double(j, "profiler_cpu_pct", ws > 0 ? (double)r->cpu_ns / 1e9 / ws * 100 : 0, 3);
	num(j, "profiler_us_per_sample", all ? (double)r->cpu_ns / 1e3 / (double)all : NAN, 2);
	nb_json_arr_begin(j, "categories");
	for (size_t i = 0; i < s->n; i++) {
		const struct nb_prof_share *q = &s->cat[i];
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "name", nb_prof_cat_name(q->cat));
		nb_json_u64(j, "samples", q->n);
		nb_json_double(j, "share", q->share, 4);
		nb_json_arr_begin(j, "share_interval");
		nb_json_double(j, NULL, q->lo, 4);
		nb_json_double(j, NULL, q->hi, 4);
		nb_json_arr_end(j);
		nb_json_bool(j, "established", q->established);
		num(j, "ns_per_frame", q->ns_per_frame, 1);
		if (isnan(q->ns_per_frame)) {
			nb_json_null(j, "ns_per_frame_interval");
		} else {
			nb_json_arr_begin(j, "ns_per_frame_interval");
			nb_json_double(j, NULL, q->ns_lo, 1);
			nb_json_double(j, NULL, q->ns_hi, 1);
			nb_json_arr_end(j);
		}
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	/* The functions and stacks are over the CPUs the request named (the DUT's), else all. */
	nb_json_arr_begin(j, "functions_cpus");
	for (uint32_t i = 0; i < r->ncpu; i++)
		if (selected(r->func_mask, r->cpu[i].cpu))
			nb_json_u64(j, NULL, r->cpu[i].cpu);
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "functions");
	for (uint32_t i = 0; i < r->nfunc; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "name", r->func[i].name);
		if (r->func[i].module[0])
			nb_json_str(j, "module", r->func[i].module);
		else
			nb_json_null(j, "module");
		nb_json_u64(j, "samples", r->func[i].count);
		nb_json_double(
		    j, "share",
		    r->func_samples ? (double)r->func[i].count / (double)r->func_samples : 0, 4);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_obj_end(j);
}
