/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's documents, one per action: the result frame, the action and the namespaces, then
 * what the action made (up), removed (down), found (status), loaded (ruleset) or fitted (fit).
 * Member names: docs/lab.md. */
#include "core/lab/lab_json.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/base/json.h"
#include "core/base/result.h"
#include "core/lab/lab_board.h"

/* The frame every document has; a fit uses no lab, so no prefix and no namespaces. */
static void frame(struct nb_json *j, const struct nb_lab_doc *d)
{
	const struct nb_lab *lab = d->lab;

	nb_result_begin(j, "lab", d->local, NULL);
	nb_json_obj_begin(j, "parameters");
	nb_json_str(j, "action", d->action);
	if (lab && lab->prefix[0])
		nb_json_str(j, "prefix", lab->prefix);
	else
		nb_json_null(j, "prefix");
	nb_json_obj_end(j);
	nb_json_str(j, "action", d->action);
	if (!lab)
		return;
	nb_json_obj_begin(j, "namespaces");
	nb_json_str(j, "gen", lab->ns[NB_LAB_GEN]);
	nb_json_str(j, "dut", lab->ns[NB_LAB_DUT]);
	nb_json_str(j, "sink", lab->ns[NB_LAB_SINK]);
	nb_json_obj_end(j);
}

/* "board": {"role", "arch", "kernel", "qemu_pid", "console_log", "image"}, or null. */
static void board_json(struct nb_json *j, const struct nb_lab *lab, const struct nb_lab_board *b,
		       long pid)
{
	char log[200];

	if (b->role < 0) {
		nb_json_null(j, "board");
		return;
	}
	nb_lab_board_path(lab, "console.log", log, sizeof(log));
	nb_json_obj_begin(j, "board");
	nb_json_str(j, "role", b->role == NB_LAB_DUT ? "dut" : "sink");
	nb_json_str(j, "arch", b->arch);
	nb_json_str(j, "kernel", b->kernel);
	nb_json_i64(j, "qemu_pid", pid);
	nb_json_str(j, "console_log", log);
	nb_json_str(j, "image", b->dir);
	nb_json_str(j, "virtualization", "vm tcg");
	nb_json_obj_end(j);
}

static void up(struct nb_json *j, const struct nb_lab_doc *d)
{
	const struct nb_lab *lab = d->lab;

	nb_json_bool(j, "ipv6", lab->ipv6);
	nb_json_u64(j, "mtu", lab->mtu);
	nb_json_u64(j, "dut_cpus", lab->dut_cpus);
	nb_json_str(j, "sink_addr", NB_LAB_SINK_ADDR);
	if (lab->vpn[0]) {
		struct nb_lab_vpn_spec v;
		nb_lab_vpn_parse(lab->vpn, &v);
		nb_json_obj_begin(j, "vpn");
		nb_json_str(j, "kind", v.kind);
		if (v.algo[0])
			nb_json_str(j, "algo", v.algo);
		else
			nb_json_null(j, "algo");
		nb_json_str(j, "tunnel_addr", NB_LAB_VPN_ADDR);
		if (lab->crypto_driver[0])
			nb_json_str(j, "crypto_driver", lab->crypto_driver);
		else
			nb_json_null(j, "crypto_driver");
		nb_json_obj_end(j);
	} else {
		nb_json_null(j, "vpn");
	}
	if (lab->agent)
		nb_json_u64(j, "agent_port", lab->port);
	else
		nb_json_null(j, "agent_port");
	if (lab->agent)
		nb_json_str(j, "observer_addr", NB_LAB_DUT_A_ADDR);
	else
		nb_json_null(j, "observer_addr");
	board_json(j, lab, &lab->board, d->board_pid);
}

static void status(struct nb_json *j, const struct nb_lab_doc *d)
{
	static const int link_ns[4] = {NB_LAB_GEN, NB_LAB_DUT, NB_LAB_DUT, NB_LAB_SINK};
	const struct nb_lab *lab = d->lab;
	const struct nb_lab_status *st = d->st;

	nb_json_bool(j, "healthy", st->healthy);
	nb_json_bool(j, "exists", d->exists);
	nb_json_bool(j, "up_completed", st->state_complete);
	nb_json_arr_begin(j, "links");
	for (int i = 0; i < 4; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "namespace", lab->ns[link_ns[i]]);
		nb_json_str(j, "name", nb_lab_links[i]);
		nb_json_bool(j, "exists_ns", st->ns[link_ns[i]]);
		nb_json_bool(j, "up", st->links_up[i]);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_u64(j, "mtu", st->mtu);
	nb_json_bool(j, "ipv6", st->ipv6);
	nb_json_bool(j, "forwarding_ipv4", st->fwd_v4);
	nb_json_bool(j, "forwarding_ipv6", st->fwd_v6);
	nb_json_u64(j, "dut_cpus", st->dut_cpus);
	nb_json_str(j, "rps_cpus_mask", st->rps_mask);
	nb_json_obj_begin(j, "ruleset");
	if (st->ruleset_known) {
		nb_json_str(j, "kind", st->ruleset_kind);
		nb_json_u64(j, "rules_requested", st->ruleset_n);
	}
	if (st->rules >= 0) {
		nb_json_u64(j, "rules", (uint64_t)st->rules);
		nb_json_u64(j, "set_elements", (uint64_t)st->elems);
	}
	nb_json_obj_end(j);
	nb_json_obj_begin(j, "agent");
	nb_json_bool(j, "expected", st->agent_expected);
	nb_json_i64(j, "pid", st->agent_pid);
	nb_json_bool(j, "alive", st->agent_alive);
	nb_json_str(j, "addr", NB_LAB_SINK_ADDR);
	nb_json_u64(j, "port", st->port);
	nb_json_bool(j, "answers", st->agent_answers);
	nb_json_obj_end(j);
	nb_json_obj_begin(j, "observer");
	nb_json_i64(j, "pid", st->observer_pid);
	nb_json_bool(j, "alive", st->observer_alive);
	nb_json_str(j, "addr", NB_LAB_DUT_A_ADDR);
	nb_json_u64(j, "port", st->port);
	nb_json_bool(j, "answers", st->observer_answers);
	nb_json_obj_end(j);
	board_json(j, lab, &st->board, st->board_pid);
	if (st->board.role >= 0) {
		nb_json_bool(j, "board_alive", st->board_alive);
		nb_json_bool(j, "board_control_port", st->board_ctl);
	}
}

static void ruleset(struct nb_json *j, const struct nb_lab_doc *d)
{
	const struct nb_lab_rules *r = d->rules;

	if (!r) { /* flushed */
		nb_json_str(j, "kind", "none");
		nb_json_u64(j, "rules", 0);
		return;
	}
	nb_json_str(j, "kind", nb_lab_rules_kind_name(r->kind));
	if (r->kind == NB_LAB_RULES_FILE)
		nb_json_str(j, "file", r->path);
	else
		nb_json_u64(j, "rules_requested", r->rules_n);
	nb_json_bool(j, "ipv6", r->ipv6);
	nb_json_u64(j, "rules", d->rules_loaded);
	nb_json_u64(j, "set_elements", d->elems);
}

static void fit(struct nb_json *j, const struct nb_lab_doc *d)
{
	nb_json_arr_begin(j, "points");
	for (size_t i = 0; i < d->fit_n; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_u64(j, "rules", (uint64_t)d->fit_rules[i]);
		nb_json_double(j, "fps", d->fit_fps[i], 1);
		nb_json_double(j, "ns_per_frame", 1e9 / d->fit_fps[i], 2);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_double(j, "base_ns_per_frame", d->fit->base_ns, 3);
	nb_json_double(j, "per_rule_ns", d->fit->per_rule_ns, 4);
	nb_json_double(j, "residual_ns", d->fit->residual_ns, 3);
	nb_lab_fit_json(j, d->fit);
}

static void fill(struct nb_json *j, const void *arg)
{
	const struct nb_lab_doc *d = arg;

	frame(j, d);
	if (!strcmp(d->action, "up"))
		up(j, d);
	else if (!strcmp(d->action, "down"))
		nb_json_u64(j, "objects_found", d->found);
	else if (!strcmp(d->action, "status"))
		status(j, d);
	else if (!strcmp(d->action, "ruleset"))
		ruleset(j, d);
	else if (!strcmp(d->action, "fit"))
		fit(j, d);
	nb_json_obj_end(j);
}

int nb_lab_doc_text(const struct nb_lab_doc *d, char **text, size_t *len)
{
	return nb_json_doc_text(fill, d, text, len);
}
