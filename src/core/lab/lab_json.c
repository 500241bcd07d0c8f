/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench lab's documents: the frame every document has (platform, parameters, the lab's
 * namespaces), then what each verb did or found. */
#include "core/lab/lab_json.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/base/json.h"
#include "core/base/result.h"
#include "core/base/sysinfo.h"
#include "core/lab/lab_board.h"

enum verb { UP, DOWN, STATUS, RULESET, FIT };

struct doc {
	enum verb verb;
	const struct nb_lab *lab; /* NULL for fit */
	unsigned found;
	const struct nb_lab_status *st;
	const struct nb_lab_rules *rules; /* NULL: flushed */
	size_t nrules, elems;
	const double *fit_rules, *fit_fps;
	size_t fit_n;
	const struct nb_lab_fit *fit;
};

static const char *const verb_name[] = {"up", "down", "status", "ruleset", "fit"};

static void head(struct nb_json *j, const struct doc *d)
{
	const char *action = verb_name[d->verb];
	struct nb_sysinfo si;

	nb_sysinfo_get(&si, NULL);
	nb_result_begin(j, "lab", &si, NULL);
	nb_json_obj_begin(j, "parameters");
	nb_json_str(j, "action", action);
	if (d->lab && d->lab->prefix[0])
		nb_json_str(j, "prefix", d->lab->prefix);
	else
		nb_json_null(j, "prefix");
	nb_json_obj_end(j);
	nb_json_str(j, "action", action);
	if (!d->lab)
		return;
	nb_json_obj_begin(j, "namespaces");
	nb_json_str(j, "gen", d->lab->ns[NB_LAB_GEN]);
	nb_json_str(j, "dut", d->lab->ns[NB_LAB_DUT]);
	nb_json_str(j, "sink", d->lab->ns[NB_LAB_SINK]);
	nb_json_obj_end(j);
}

/* "board": {"role", "arch", "kernel", "qemu_pid", "console_log", "image"}, or null. */
static void board_json(struct nb_json *j, const char *key, const struct nb_lab *lab,
		       const struct nb_lab_board *b, long pid)
{
	char log[200];

	if (b->role < 0) {
		nb_json_null(j, key);
		return;
	}
	nb_lab_board_path(lab, "console.log", log, sizeof(log));
	nb_json_obj_begin(j, key);
	nb_json_str(j, "role", b->role == NB_LAB_DUT ? "dut" : "sink");
	nb_json_str(j, "arch", b->arch);
	nb_json_str(j, "kernel", b->kernel);
	nb_json_i64(j, "qemu_pid", pid);
	nb_json_str(j, "console_log", log);
	nb_json_str(j, "image", b->dir);
	nb_json_str(j, "virtualization", "vm tcg");
	nb_json_obj_end(j);
}

/* The sink's board beside a board DUT: "board2", as "board" (its paths are the second board's,
 * which nb_lab_board_swap puts in place on a copy of the lab). */
static void board2_json(struct nb_json *j, const struct nb_lab *lab, const struct nb_lab_board *b,
			long pid)
{
	struct nb_lab *c = malloc(sizeof(*c));

	if (!c) {
		nb_json_null(j, "board2");
		return;
	}
	*c = *lab;
	nb_lab_board_swap(c);
	board_json(j, "board2", c, b, pid < 0 ? nb_lab_board_pid(c) : pid);
	free(c);
}

/* "vpn_sa": [{"board", "src", "dst", "spi", "bytes", "packets"}], "xfrm_errors": [{"board",
 * "name", "count"}], "vpn_transforms": [{"board", "name", "driver", "refcnt"}]: each board's
 * tunnel counters and the drivers its SAs run on. */
static void sa_json(struct nb_json *j, const struct nb_lab_sa_list *l)
{
	nb_json_arr_begin(j, "vpn_sa");
	for (unsigned i = 0; i < l->n_sa; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "board", l->sa[i].board == NB_LAB_DUT ? "dut" : "sink");
		nb_json_str(j, "src", l->sa[i].src);
		nb_json_str(j, "dst", l->sa[i].dst);
		nb_json_str(j, "spi", l->sa[i].spi);
		nb_json_u64(j, "bytes", l->sa[i].bytes);
		nb_json_u64(j, "packets", l->sa[i].packets);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "xfrm_errors");
	for (unsigned i = 0; i < l->n_err; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "board", l->err[i].board == NB_LAB_DUT ? "dut" : "sink");
		nb_json_str(j, "name", l->err[i].name);
		nb_json_u64(j, "count", l->err[i].count);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "vpn_transforms");
	for (unsigned i = 0; i < l->n_tf; i++) {
		nb_json_obj_begin(j, NULL);
		nb_json_str(j, "board", l->tf[i].board == NB_LAB_DUT ? "dut" : "sink");
		nb_json_str(j, "name", l->tf[i].name);
		nb_json_str(j, "driver", l->tf[i].driver);
		nb_json_u64(j, "refcnt", l->tf[i].refcnt);
		nb_json_obj_end(j);
	}
	nb_json_arr_end(j);
}

static void up(struct nb_json *j, const struct nb_lab *lab)
{
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
		if (lab->board.role >= 0 && lab->crypto_driver[0]) {
			nb_json_obj_begin(j, "board_crypto");
			for (int r = NB_LAB_DUT; r <= NB_LAB_SINK; r++)
				if (lab->board_crypto[r][0])
					nb_json_str(j, r == NB_LAB_DUT ? "dut" : "sink",
						    lab->board_crypto[r]);
			nb_json_obj_end(j);
		}
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
	board_json(j, "board", lab, &lab->board, nb_lab_board_pid(lab));
	if (lab->board2.role >= 0)
		board2_json(j, lab, &lab->board2, -1);
}

static void status(struct nb_json *j, const struct nb_lab *lab, const struct nb_lab_status *st)
{
	static const int link_ns[4] = {NB_LAB_GEN, NB_LAB_DUT, NB_LAB_DUT, NB_LAB_SINK};

	nb_json_bool(j, "healthy", st->healthy);
	nb_json_bool(j, "exists", st->ns[0] || st->ns[1] || st->ns[2] || st->state_found);
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
	board_json(j, "board", lab, &st->board, st->board_pid);
	if (st->board.role >= 0) {
		nb_json_bool(j, "board_alive", st->board_alive);
		nb_json_bool(j, "board_control_port", st->board_ctl);
	}
	if (st->vpn_read)
		sa_json(j, &st->vpn);
	if (st->board2.role >= 0) {
		board2_json(j, lab, &st->board2, st->board2_pid);
		nb_json_bool(j, "board2_alive", st->board2_alive);
		nb_json_bool(j, "board2_control_port", st->board2_ctl);
	}
}

static void ruleset(struct nb_json *j, const struct doc *d)
{
	const struct nb_lab_rules *r = d->rules;

	if (!r) {
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
	nb_json_u64(j, "rules", d->nrules);
	nb_json_u64(j, "set_elements", d->elems);
}

static void fit(struct nb_json *j, const struct doc *d)
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

static void write_doc(FILE *f, const void *arg)
{
	const struct doc *d = arg;
	struct nb_json j;

	nb_json_init(&j, f);
	head(&j, d);
	switch (d->verb) {
	case UP:
		up(&j, d->lab);
		break;
	case DOWN:
		nb_json_u64(&j, "objects_found", d->found);
		break;
	case STATUS:
		status(&j, d->lab, d->st);
		break;
	case RULESET:
		ruleset(&j, d);
		break;
	case FIT:
		fit(&j, d);
		break;
	}
	nb_json_obj_end(&j);
	fputc('\n', f);
}

int nb_lab_up_doc_text(const struct nb_lab *lab, char **text, size_t *len)
{
	const struct doc d = {.verb = UP, .lab = lab};
	return nb_json_write_text(write_doc, &d, text, len);
}

int nb_lab_down_doc_text(const struct nb_lab *lab, unsigned found, char **text, size_t *len)
{
	const struct doc d = {.verb = DOWN, .lab = lab, .found = found};
	return nb_json_write_text(write_doc, &d, text, len);
}

int nb_lab_status_doc_text(const struct nb_lab *lab, const struct nb_lab_status *st, char **text,
			   size_t *len)
{
	const struct doc d = {.verb = STATUS, .lab = lab, .st = st};
	return nb_json_write_text(write_doc, &d, text, len);
}

int nb_lab_ruleset_doc_text(const struct nb_lab *lab, const struct nb_lab_rules *r, size_t rules,
			    size_t elems, char **text, size_t *len)
{
	const struct doc d = {
	    .verb = RULESET, .lab = lab, .rules = r, .nrules = rules, .elems = elems};
	return nb_json_write_text(write_doc, &d, text, len);
}

int nb_lab_fit_doc_text(const double *rules, const double *fps, size_t n,
			const struct nb_lab_fit *fit, char **text, size_t *len)
{
	const struct doc d = {
	    .verb = FIT, .fit_rules = rules, .fit_fps = fps, .fit_n = n, .fit = fit};
	return nb_json_write_text(write_doc, &d, text, len);
}
