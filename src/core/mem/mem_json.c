/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem's result as JSON: the parameters, the latency sweep, the caches (inferred and
 * sysfs's) and bandwidth, and the whole document that -J, -o and --save take. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/result.h"
#include "core/mem/mem.h"

/* The latency sweep: each working set's loads, and memory's latency. */
static void latency_json(struct nb_json *j, const struct nb_mem_result *r)
{
	nb_json_obj_begin(j, "latency");
	nb_json_str(j, "pattern", nb_mem_pattern_name(r->opts.pattern));
	nb_json_u64(j, "trials", r->trials);
	nb_json_arr_begin(j, "points");
	for (size_t i = 0; i < r->n_lat; i++) {
		const struct nb_mem_lat_point *p = &r->lat[i];
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "set_bytes", p->set_bytes);
		nb_json_double(j, "ns_per_load", p->ns_per_load, 3);
		nb_json_double(j, "ns_per_load_median", p->ns_per_load_median, 3);
		nb_json_double(j, "cycles_per_load", p->cycles_per_load, 2);
		nb_json_u64(j, "loads_per_trial", p->loads_per_trial);
		nb_json_u64(j, "trials_preempted", p->trials_preempted);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_double(j, "memory_ns", r->mem_latency_ns, 2);
	nb_json_double(j, "memory_cycles", r->mem_latency_cycles, 1);
	nb_result_cpu(j, "cpu", &r->lat_cpu);
	nb_json_obj_end(j);
}

/* The caches: inferred from the latency steps, and as sysfs lists them. */
static void caches_json(struct nb_json *j, const struct nb_mem_result *r)
{
	nb_json_obj_begin(j, "caches");
	nb_json_arr_begin(j, "inferred");
	for (size_t i = 0; i < r->n_steps; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "size_bytes", r->steps[i].size_bytes);
		nb_json_double(j, "ns_below", r->steps[i].ns_below, 2);
		nb_json_double(j, "ns_above", r->steps[i].ns_above, 2);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "sysfs");
	for (size_t i = 0; i < r->n_sysfs; i++) {
		const struct nb_mem_cache *c = &r->sysfs[i];
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "level", c->level);
		nb_json_str(j, "type", c->type);
		nb_json_u64(j, "size_bytes", c->size_bytes);
		nb_json_u64(j, "line_bytes", c->line_bytes);
		nb_json_str(j, "shared_cpu_list", c->shared_cpus);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_obj_end(j);
}

static void bandwidth_json(struct nb_json *j, const struct nb_mem_result *r)
{
	nb_json_obj_begin(j, "bandwidth");
	nb_json_u64(j, "buffer_bytes", r->bw_bytes);
	nb_json_str(j, "buffer_bytes_from", r->bw_bytes_from ? r->bw_bytes_from : "");
	if (nb_mem_bw_llc_bytes(r) && r->bw_bytes)
		nb_json_bool(j, "buffer_beyond_llc", r->bw_bytes > nb_mem_bw_llc_bytes(r));
	else
		nb_json_null(j, "buffer_beyond_llc");
	nb_json_arr_begin(j, "results");
	for (size_t i = 0; i < r->n_bw; i++) {
		const struct nb_mem_bw_point *p = &r->bw[i];
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "threads", p->threads);
		nb_json_u64(j, "trials", p->trials);
		nb_json_u64(j, "trials_preempted", p->trials_preempted);
		nb_json_double(j, "read_mbyte_per_s", p->read_mbyte_per_s, 1);
		nb_json_double(j, "write_mbyte_per_s", p->write_mbyte_per_s, 1);
		nb_json_double(j, "copy_mbyte_per_s", p->copy_mbyte_per_s, 1);
		nb_json_double(j, "read_median_mbyte_per_s", p->read_median_mbyte_per_s, 1);
		nb_json_double(j, "write_median_mbyte_per_s", p->write_median_mbyte_per_s, 1);
		nb_json_double(j, "copy_median_mbyte_per_s", p->copy_median_mbyte_per_s, 1);
		nb_result_cpu(j, "cpu", &p->cpu);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_obj_end(j);
}

void nb_mem_result_json(struct nb_json *j, const struct nb_mem_result *r)
{
	nb_json_obj_begin(j, "parameters");
	nb_json_u64(j, "min_bytes", r->opts.min_bytes);
	nb_json_u64(j, "max_bytes", r->opts.max_bytes);
	nb_json_u64(j, "requested_max_bytes", r->requested_max_bytes);
	nb_json_str(j, "pattern", nb_mem_pattern_name(r->opts.pattern));
	nb_json_u64(j, "threads", r->opts.threads);
	nb_json_bool(j, "quick", r->opts.quick);
	nb_json_obj_end(j);
	nb_json_u64(j, "avail_bytes", r->avail_bytes);
	nb_json_bool(j, "capped_by_memory", r->capped);
	nb_json_bool(j, "interrupted", r->interrupted);
	nb_json_u64(j, "line_bytes", r->line_bytes);
	nb_json_bool(j, "hugepages", r->hugepages);
	if (r->opts.cpu_mhz)
		nb_json_u64(j, "cpu_mhz", r->opts.cpu_mhz);
	else
		nb_json_null(j, "cpu_mhz");

	latency_json(j, r);
	caches_json(j, r);
	bandwidth_json(j, r);
}

static void fill_result(struct nb_json *j, const void *r)
{
	nb_mem_result_json(j, r);
}

int nb_mem_result_json_text(const struct nb_mem_result *r, char **text, size_t *len)
{
	return nb_json_text(fill_result, r, text, len);
}

struct doc {
	const struct nb_mem_result *r;
	const struct nb_sysinfo *local;
	const struct nb_result_agent *agent;
};

static void fill_doc(struct nb_json *j, const void *arg)
{
	const struct doc *d = arg;
	nb_result_begin_run(j, "mem", d->local, d->agent);
	nb_mem_result_json(j, d->r);
	nb_json_obj_end(j);
}

int nb_mem_doc_text(const struct nb_mem_result *r, const struct nb_sysinfo *local,
		    const struct nb_result_agent *agent, char **text, size_t *len)
{
	const struct doc d = {r, local, agent};
	return nb_json_doc_text(fill_doc, &d, text, len);
}
