/* SPDX-License-Identifier: BSD-2-Clause */
/* crypto's JSON: the result's members (config, engines, results), the parts the agent sends one
 * algorithm at a time, and the whole document (schema netbench/1) that -J, -o and --save take. */
#include "core/crypto/crypto_json.h"

#include <math.h>

#include "core/base/result.h"

#ifndef NB_AGENT_ONLY
/* The point's kernel profile: ns per frame is ns per request; per byte and the crypto category
 * by driver beside it. */
static void json_prof(struct nb_json *j, const struct nb_crypto_point *p,
		      const struct nb_prof_result *pr)
{
	struct nb_prof_summary sum;
	struct nb_crypto_prof_driver d[8];

	if (!pr) {
		nb_json_null(j, "profile");
		return;
	}
	nb_crypto_prof_summary(p, pr, &sum);
	nb_prof_json(j, "profile", pr, &sum);
	if (!pr->available)
		return;
	nb_json_obj_begin(j, "profile_ns_per_byte");
	for (size_t i = 0; i < sum.n; i++)
		if (isfinite(sum.cat[i].ns_per_frame) && p->size_bytes)
			nb_json_double(j, nb_prof_cat_name(sum.cat[i].cat),
				       sum.cat[i].ns_per_frame / p->size_bytes, 3);
	nb_json_obj_end(j);
	size_t n = nb_crypto_prof_drivers(pr, d, 8);
	nb_json_arr_begin(j, "profile_crypto_drivers");
	for (size_t i = 0; i < n; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "module", d[i].module);
		nb_json_u64(j, "samples", d[i].samples);
		nb_json_double(j, "share", d[i].share, 4);
		nb_json_arr_begin(j, "share_interval");
		nb_json_double(j, NULL, d[i].lo, 4);
		nb_json_double(j, NULL, d[i].hi, 4);
		nb_json_arr_end(j);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}
#endif

static void json_point(struct nb_json *j, const struct nb_crypto_result *r,
		       const struct nb_crypto_cell *c, size_t si)
{
	const struct nb_crypto_point *p = &c->points[si];
	nb_json_obj_begin(j, NULL);
	nb_json_u64(j, "size_bytes", p->size_bytes);
	nb_json_u64(j, "padded_bytes", p->padded_bytes);
	nb_json_bool(j, "valid", p->valid);
	if (!p->valid) {
		nb_json_str(j, "invalid_reason", p->invalid_reason);
		nb_json_obj_end(j);
		return;
	}
	nb_json_u64(j, "ops", p->ops);
	nb_json_double(j, "window_s", p->window_s, 6);
	nb_json_double(j, "mbyte_per_s", p->mbyte_per_s, 3);
	/* The 95 % interval from the window's parts; null with one part or an older agent. */
	nb_json_u64(j, "windows", p->windows);
	nb_json_double(j, "mbyte_per_s_ci95", p->mbyte_ci95, 3);
	nb_json_double(j, "ops_per_s", p->ops_per_s, 1);
	nb_json_double(j, "latency_p50_us", p->lat_p50_us, 3);
	nb_json_double(j, "latency_p99_us", p->lat_p99_us, 3);
	nb_json_u64(j, "latency_samples", p->lat_samples);
	nb_json_double(j, "proc_cpu_us_per_kbyte", p->proc_us_per_kbyte, 4);
	/* Not given where the system counted less busy time than the process used. */
	nb_json_double(j, "sys_cpu_us_per_kbyte",
		       nb_cpu_consistent(&p->cpu) ? p->sys_us_per_kbyte : NAN, 4);
	nb_result_cpu(j, "cpu", &p->cpu);
#ifndef NB_AGENT_ONLY /* which profiles for a controller only (crypto_opts.c) */
	if (r->opts.profile_hz)
		json_prof(j, p, nb_crypto_point_prof(r, c, si));
#endif
	nb_json_obj_end(j);
}

static void json_cell(struct nb_json *j, const struct nb_crypto_result *r,
		      const struct nb_crypto_cell *c)
{
	const struct nb_crypto_params *o = &r->opts;
	nb_json_obj_begin(j, NULL);
	nb_json_str(j, "algo", c->algo->name);
	nb_json_str(j, "engine", c->engine->name);
	nb_json_str(j, "status", nb_crypto_status_name(c->status));
	if (c->status != NB_CRYPTO_OK)
		nb_json_str(j, "reason", c->reason);
	else
		nb_json_str(j, "check", c->check);
	if (c->have_driver) {
		nb_json_obj_begin(j, "kernel_driver");
		nb_json_str(j, "name", c->driver.name);
		nb_json_str(j, "driver", c->driver.driver);
		if (c->driver.mac_driver[0])
			nb_json_str(j, "mac_driver", c->driver.mac_driver);
		nb_json_str(j, "module", c->driver.module);
		if (c->driver.priority >= 0)
			nb_json_i64(j, "priority", c->driver.priority);
		else
			nb_json_null(j, "priority");
		if (c->driver.hw >= 0)
			nb_json_bool(j, "hardware", c->driver.hw == 1);
		else
			nb_json_null(j, "hardware");
		nb_json_obj_end(j);
	}
	if (c->engine != &nb_crypto_soft && c->status == NB_CRYPTO_OK) {
		if (c->crossover_index >= 0)
			nb_json_u64(j, "crossover_bytes", o->sizes[c->crossover_index]);
		else
			nb_json_null(j, "crossover_bytes");
		if (c->crossover_ref)
			nb_json_str(j, "crossover_vs", c->crossover_ref->name);
		else
			nb_json_null(j, "crossover_vs");
	}
	if (c->status == NB_CRYPTO_OK) {
		nb_json_arr_begin(j, "points");
		for (size_t si = 0; si < o->nsizes; si++)
			if (nb_crypto_point_whole(&c->points[si]))
				json_point(j, r, c, si);
		nb_json_arr_end(j);
	}
	nb_json_obj_end(j);
}

void nb_crypto_algo_json(struct nb_json *j, const struct nb_crypto_result *r, size_t algo)
{
	for (size_t ei = 0; ei < r->opts.nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, algo, ei);
		bool any = c->status != NB_CRYPTO_OK;
		for (size_t si = 0; !any && si < r->opts.nsizes; si++)
			any = nb_crypto_point_whole(&c->points[si]);
		/* A stopped run documents what it reached and measured whole, nothing else. */
		if (nb_crypto_cell_reached(c) && any)
			json_cell(j, r, c);
	}
}

static void result_json(struct nb_json *j, const struct nb_crypto_result *r, bool head_only)
{
	const struct nb_crypto_params *o = &r->opts;

	nb_json_obj_begin(j, "parameters");
	nb_json_double(j, "time_s", (double)o->time_ns / 1e9, 3);
	nb_json_double(j, "warmup_s", (double)o->warmup_ns / 1e9, 3);
	nb_json_u64(j, "inflight", o->inflight);
	nb_json_u64(j, "repeat", o->repeat);
	nb_json_u64(j, "aad_bytes", o->aad_len);
	nb_json_str(j, "direction", "encrypt");
	if (o->profile_hz) /* absent without --profile */
		nb_json_u64(j, "profile_hz", o->profile_hz);
	nb_json_arr_begin(j, "sizes_bytes");
	for (size_t i = 0; i < o->nsizes; i++)
		nb_json_u64(j, NULL, o->sizes[i]);
	nb_json_arr_end(j);
	nb_json_obj_end(j);
	nb_json_bool(j, "interrupted", r->interrupted);

	nb_json_arr_begin(j, "engines");
	for (size_t ei = 0; ei < o->nengines; ei++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "name", o->engines[ei]->name);
		nb_json_str(j, "summary", o->engines[ei]->summary);
		nb_json_bool(j, "available", r->engine_ok[ei]);
		if (!r->engine_ok[ei])
			nb_json_str(j, "reason", r->engine_reason[ei]);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);

	if (!head_only) {
		nb_json_arr_begin(j, "results");
		for (size_t ai = 0; ai < o->nalgos; ai++)
			nb_crypto_algo_json(j, r, ai);
		nb_json_arr_end(j);
	}
}

void nb_crypto_result_json(struct nb_json *j, const struct nb_crypto_result *r)
{
	result_json(j, r, false);
}

struct part {
	const struct nb_crypto_result *r;
	int algo;
};

static void fill_part(struct nb_json *j, const void *arg)
{
	const struct part *p = arg;
	if (p->algo < 0) {
		result_json(j, p->r, p->algo == NB_CRYPTO_JSON_HEAD);
		return;
	}
	nb_json_str(j, "algo", p->r->opts.algos[p->algo]->name);
	nb_json_arr_begin(j, "results");
	nb_crypto_algo_json(j, p->r, (size_t)p->algo);
	nb_json_arr_end(j);
}

int nb_crypto_result_json_text(const struct nb_crypto_result *r, int algo, char **text, size_t *len)
{
	const struct part p = {r, algo};
	return nb_json_text(fill_part, &p, text, len);
}

struct doc {
	const struct nb_crypto_result *r;
	const struct nb_sysinfo *local;
	const struct nb_result_agent *agent;
};

static void fill_doc(struct nb_json *j, const void *arg)
{
	const struct doc *d = arg;
	nb_result_begin_run(j, "crypto", d->local, d->agent);
	nb_crypto_result_json(j, d->r);
	nb_json_obj_end(j);
}

int nb_crypto_doc_text(const struct nb_crypto_result *r, const struct nb_sysinfo *local,
		       const struct nb_result_agent *agent, char **text, size_t *len)
{
	const struct doc d = {r, local, agent};
	return nb_json_doc_text(fill_doc, &d, text, len);
}
