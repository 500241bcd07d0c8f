/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench lab: a gen -> DUT -> sink lab of network namespaces on this host, rulesets for the
 * DUT's firewall, and the rule-cost fit of a sweep. Runs the verbs (calls core/lab*.c) and
 * prints; the options are parsed in lab_opts.c. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/lab_crypto_driver.h"
#include "cmd/lab_opts.h"
#include "cmd/lab_pick.h"
#include "core/base/lab_fit.h"
#include "core/base/lab_rules.h"
#include "core/lab/lab.h"
#include "core/lab/lab_json.h"
#include "core/lab/lab_nftnl.h"

/* Where netbench's package installs the board builder (Makefile: DATADIR). */
#ifndef NB_DATADIR
#define NB_DATADIR "/usr/local/share"
#endif
#define NB_BOARD_BUILDER NB_DATADIR "/netbench/board/build.sh"

static void note_stderr(void *arg, const char *msg)
{
	(void)arg;
	cli_warn("%s", msg);
}

static void require_root(void)
{
	if (geteuid() != 0)
		cli_fail(0, "needs root (it creates network namespaces and loads nftables rules):"
			    " run it as root");
}

/* -J: the document core built for the verb (core/lab/lab_json.c), on stdout. */
static void print_doc(int ret, char *doc, size_t len)
{
	if (ret)
		cli_fail(ret, "building the JSON document");
	fwrite(doc, 1, len, stdout);
	free(doc);
}

static void print_board(const struct nb_lab *lab, const struct nb_lab_board *b, long pid)
{
	char log[200];

	nb_lab_board_path(lab, "console.log", log, sizeof(log));
	printf("  board: %s %s, kernel %s, qemu pid %ld (emulated, TCG), console %s\n",
	       b->role == NB_LAB_DUT ? "DUT" : "sink", b->arch, b->kernel, pid, log);
}

/* The board builder `up` runs when an image is missing: a source tree's (this binary in
 * BUILD/, the builder in tests/board/), else the one netbench's package installs. */
static void find_builder(struct nb_lab *lab)
{
	char dir[512], path[600], real[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", lab->netbench_path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/../tests/board/build.sh", dir);
	if (access(path, R_OK) && access(NB_BOARD_BUILDER, R_OK))
		return;
	if (!realpath(access(path, R_OK) ? NB_BOARD_BUILDER : path, real) ||
	    strlen(real) >= sizeof(lab->board_builder))
		return;
	snprintf(lab->board_builder, sizeof(lab->board_builder), "%s", real);
}

/* What up builds, from the options. */
static void lab_from_opts(struct nb_lab *lab, const struct lab_opts *o)
{
	lab->ipv6 = o->ipv6;
	lab->mtu = o->mtu;
	lab->dut_cpus = o->dut_cpus;
	lab->agent = !o->no_agent;
	if (o->have_port)
		lab->port = o->port;
	if (o->vpn)
		snprintf(lab->vpn, sizeof(lab->vpn), "%s", o->vpn);
	if (o->crypto_driver)
		snprintf(lab->crypto_driver, sizeof(lab->crypto_driver), "%s", o->crypto_driver);
	lab->board.role = o->board_role;
	snprintf(lab->board.arch, sizeof(lab->board.arch), "%s", o->board_arch);
	snprintf(lab->board.nic, sizeof(lab->board.nic), "%s", o->board_nic);
	if (o->board_dir)
		snprintf(lab->board.dir, sizeof(lab->board.dir), "%s", o->board_dir);
	if (o->board2_arch[0]) {
		lab->board2.role = NB_LAB_SINK;
		snprintf(lab->board2.arch, sizeof(lab->board2.arch), "%s", o->board2_arch);
		snprintf(lab->board2.nic, sizeof(lab->board2.nic), "%s", o->board2_nic);
		if (o->board_dir)
			snprintf(lab->board2.dir, sizeof(lab->board2.dir), "%s", o->board_dir);
	}
}

/* Exits with what stopped `lab up` (ret, not 0), after it removed what it had created. */
noreturn static void up_fail(const struct nb_lab *lab, int ret)
{
	if (ret == -EBUSY)
		cli_fail(0,
			 "a lab is alive as %s, %s, %s (%s%s): %s. Left as it is: give another "
			 "--prefix, take it down first with `netbench lab down%s%s`, or replace it "
			 "with `lab up --force`",
			 lab->ns[NB_LAB_GEN], lab->ns[NB_LAB_DUT], lab->ns[NB_LAB_SINK],
			 lab->prefix[0] ? "prefix " : "the default prefix", lab->prefix, lab->err,
			 lab->prefix[0] ? " --prefix " : "", lab->prefix);
	if (ret == -EINTR)
		cli_fail(0, "interrupted: removed what `lab up` had created");
	cli_fail(0, "lab up failed, removed what it had created: %s",
		 *lab->err ? lab->err : strerror(-ret));
}

/* The lab with one or two boards, as `lab up` made it. */
static void print_up_boards(struct nb_lab *lab)
{
	print_board(lab, &lab->board, nb_lab_board_pid(lab));
	if (lab->board2.role >= 0) {
		nb_lab_board_swap(lab);
		print_board(lab, &lab->board, nb_lab_board_pid(lab));
		nb_lab_board_swap(lab);
		printf("lab up: %s %s/24 -- board %s (forwarding) -- board %s %s/24\n",
		       lab->ns[NB_LAB_GEN], NB_LAB_GEN_ADDR, lab->board.arch, lab->board2.arch,
		       NB_LAB_SINK_ADDR);
	} else if (lab->board.role == NB_LAB_DUT)
		printf("lab up: %s %s/24 -- board %s (%s, forwarding) -- %s %s/24\n",
		       lab->ns[NB_LAB_GEN], NB_LAB_GEN_ADDR, lab->board.arch, lab->ns[NB_LAB_DUT],
		       lab->ns[NB_LAB_SINK], NB_LAB_SINK_ADDR);
	else
		printf("lab up: %s %s/24 -- %s (forwarding) -- board %s %s/24\n",
		       lab->ns[NB_LAB_GEN], NB_LAB_GEN_ADDR, lab->ns[NB_LAB_DUT], lab->board.arch,
		       NB_LAB_SINK_ADDR);
	if (lab->agent && lab->board2.role >= 0)
		printf("        agent: netbench serve in the sink board on %s port %u\n"
		       "        observer: netbench serve in the DUT board on %s port %u\n",
		       NB_LAB_SINK_ADDR, lab->port, NB_LAB_DUT_A_ADDR, lab->port);
	else if (lab->agent && lab->board.role == NB_LAB_DUT)
		printf("        agent: netbench serve in %s on %s port %u\n"
		       "        observer: netbench serve in the board on %s port %u\n",
		       lab->ns[NB_LAB_SINK], NB_LAB_SINK_ADDR, lab->port, NB_LAB_DUT_A_ADDR,
		       lab->port);
	else if (lab->agent)
		printf("        agent: netbench serve in the board on %s port %u\n"
		       "        observer: netbench serve --allow-tuning in %s on %s port %u\n",
		       NB_LAB_SINK_ADDR, lab->port, lab->ns[NB_LAB_DUT], NB_LAB_DUT_A_ADDR,
		       lab->port);
	/* The tunnel's address is what the user must aim at: said, as without boards. */
	if (lab->vpn[0])
		printf("        vpn: %s from the %s to the %s; traffic to %s goes through "
		       "it%s%s\n",
		       lab->vpn, lab->board.role == NB_LAB_DUT ? "DUT board" : lab->ns[NB_LAB_DUT],
		       lab->board2.role >= 0 || lab->board.role != NB_LAB_DUT
			   ? "sink board"
			   : lab->ns[NB_LAB_SINK],
		       NB_LAB_VPN_ADDR, lab->crypto_driver[0] ? ", crypto driver " : "",
		       lab->crypto_driver);
	for (int r = NB_LAB_DUT; r <= NB_LAB_SINK; r++)
		if (lab->board_crypto[r][0])
			printf("        crypto driver in the %s board: %s\n",
			       r == NB_LAB_DUT ? "DUT" : "sink", lab->board_crypto[r]);
	printf("        run tests from the generator: ip netns exec %s netbench ...\n",
	       lab->ns[NB_LAB_GEN]);
}

/* The lab of namespaces and veths, as `lab up` made it. */
static void print_up_veths(const struct nb_lab *lab)
{
	printf("lab up: %s %s/24 -- %s (forwarding) -- %s %s/24\n", lab->ns[NB_LAB_GEN],
	       NB_LAB_GEN_ADDR, lab->ns[NB_LAB_DUT], lab->ns[NB_LAB_SINK], NB_LAB_SINK_ADDR);
	if (lab->ipv6)
		printf("        IPv6 %s/64 -- %s/64\n", NB_LAB_GEN_ADDR6, NB_LAB_SINK_ADDR6);
	if (lab->agent) {
		printf("        agent: netbench serve in %s on %s port %u\n", lab->ns[NB_LAB_SINK],
		       NB_LAB_SINK_ADDR, lab->port);
		printf("        observer: netbench serve --allow-tuning in %s on %s port %u\n",
		       lab->ns[NB_LAB_DUT], NB_LAB_DUT_A_ADDR, lab->port);
	}
	if (lab->vpn[0])
		printf("        vpn: %s from %s to %s; traffic to %s goes through it%s%s\n",
		       lab->vpn, lab->ns[NB_LAB_DUT], lab->ns[NB_LAB_SINK], NB_LAB_VPN_ADDR,
		       lab->crypto_driver[0] ? ", crypto driver " : "", lab->crypto_driver);
	printf("        run tests from the generator: ip netns exec %s netbench ...\n",
	       lab->ns[NB_LAB_GEN]);
}

static int do_up(struct nb_lab *lab, const struct lab_opts *o)
{
	ssize_t n;
	int ret;

	lab_from_opts(lab, o);
	if (lab->board.role >= 0 && !o->json)
		printf("lab up: booting the %s board (qemu, no KVM: about 5 to 30 s)\n",
		       lab->board.arch);
	n = readlink("/proc/self/exe", lab->netbench_path, sizeof(lab->netbench_path) - 1);
	if (n <= 0)
		cli_fail(errno, "cannot find its own binary (/proc/self/exe)");
	lab->netbench_path[n] = '\0';
	find_builder(lab);
	lab->force = o->force;
	ret = nb_lab_up(lab);
	if (ret)
		up_fail(lab, ret);
	if (o->json) {
		char *doc = NULL;
		size_t len = 0;
		int built = nb_lab_up_doc_text(lab, &doc, &len);
		print_doc(built, doc, len);
		return 0;
	}
	if (lab->board.role >= 0)
		print_up_boards(lab);
	else
		print_up_veths(lab);
	return 0;
}

static int do_down(struct nb_lab *lab, const struct lab_opts *o)
{
	unsigned found = 0;
	int ret = nb_lab_down(lab, &found);

	if (ret)
		cli_fail(0, "lab down could not remove everything: %s",
			 *lab->err ? lab->err : strerror(-ret));
	if (o->json) {
		char *doc = NULL;
		size_t len = 0;
		int built = nb_lab_down_doc_text(lab, found, &doc, &len);
		print_doc(built, doc, len);
	} else if (found)
		printf("lab down: removed %s, %s, %s\n", lab->ns[0], lab->ns[1], lab->ns[2]);
	else
		printf("lab down: nothing to remove\n");
	return 0;
}

static const char *yes(bool b, const char *y, const char *n)
{
	return b ? y : n;
}

/* The tunnel's SAs, drops and transforms in the boards; the agent and the observer. */
static void print_status_peers(const struct nb_lab_status *st)
{
	for (unsigned i = 0; st->vpn_read && i < st->vpn.n_sa; i++) {
		const struct nb_lab_sa *a = &st->vpn.sa[i];
		printf("  vpn sa in the %s board: %s -> %s spi %s: %" PRIu64 " bytes, %" PRIu64
		       " packets\n",
		       a->board == NB_LAB_DUT ? "DUT" : "sink", a->src, a->dst, a->spi, a->bytes,
		       a->packets);
	}
	for (unsigned i = 0; st->vpn_read && i < st->vpn.n_err; i++)
		printf("  vpn drops in the %s board: %s %" PRIu64 "\n",
		       st->vpn.err[i].board == NB_LAB_DUT ? "DUT" : "sink", st->vpn.err[i].name,
		       st->vpn.err[i].count);
	for (unsigned i = 0; st->vpn_read && i < st->vpn.n_tf; i++)
		printf("  vpn transform in the %s board: %s on %s, %" PRIu64 " references\n",
		       st->vpn.tf[i].board == NB_LAB_DUT ? "DUT" : "sink", st->vpn.tf[i].name,
		       st->vpn.tf[i].driver, st->vpn.tf[i].refcnt);
	if (st->agent_expected || st->agent_pid)
		printf("  agent: %spid %ld %s, %s port %u %s\n",
		       st->board.role == NB_LAB_SINK || st->board2.role >= 0 ? "in the board, qemu "
									     : "",
		       st->agent_pid, yes(st->agent_alive, "alive", "NOT running"),
		       NB_LAB_SINK_ADDR, st->port,
		       yes(st->agent_answers, "answers", "does NOT answer"));
	else
		printf("  agent: none (started with --no-agent)\n");
	if (st->agent_expected || st->observer_pid)
		printf("  observer: %spid %ld %s, %s port %u %s\n",
		       st->board.role == NB_LAB_DUT ? "in the board, qemu " : "", st->observer_pid,
		       yes(st->observer_alive, "alive", "NOT running"), NB_LAB_DUT_A_ADDR, st->port,
		       yes(st->observer_answers, "answers", "does NOT answer"));
}

static int do_status(struct nb_lab *lab, const struct lab_opts *o)
{
	static const int link_ns[4] = {NB_LAB_GEN, NB_LAB_DUT, NB_LAB_DUT, NB_LAB_SINK};
	struct nb_lab_status st;
	bool any;

	nb_lab_status(lab, &st);
	any = st.ns[0] || st.ns[1] || st.ns[2] || st.state_found;
	if (o->json) {
		char *doc = NULL;
		size_t len = 0;
		int built = nb_lab_status_doc_text(lab, &st, &doc, &len);
		print_doc(built, doc, len);
		return st.healthy ? 0 : 1;
	}
	if (!any) {
		printf("lab %s/%s/%s: down (nothing exists)\n", lab->ns[0], lab->ns[1], lab->ns[2]);
		return 1;
	}
	printf("lab %s/%s/%s: %s\n", lab->ns[0], lab->ns[1], lab->ns[2],
	       st.healthy ? "healthy" : "NOT healthy");
	if (st.state_found && !st.state_complete)
		printf("  state: an interrupted `lab up` (run `netbench lab down`)\n");
	else if (!st.state_found)
		printf("  state: no state file (not made by `lab up`, or removed)\n");
	if (st.board.role >= 0) {
		print_board(lab, &st.board, st.board_pid);
		printf("  board: qemu %s, control port %s\n",
		       yes(st.board_alive, "running", "NOT running"),
		       yes(st.board_ctl, "answers", "does NOT answer"));
	}
	if (st.board2.role >= 0) {
		nb_lab_board_swap(lab);
		print_board(lab, &st.board2, st.board2_pid);
		nb_lab_board_swap(lab);
		printf("  board: qemu %s, control port %s\n",
		       yes(st.board2_alive, "running", "NOT running"),
		       yes(st.board2_ctl, "answers", "does NOT answer"));
	}
	for (int i = 0; i < 3; i++)
		printf("  namespace %-20s %s\n", lab->ns[i], yes(st.ns[i], "present", "MISSING"));
	for (int i = 0; i < 4; i++)
		printf("  link %-6s in %-20s %s\n", nb_lab_links[i],
		       nb_lab_link_in_board(st.board2.role >= 0 ? NB_LAB_BOTH : st.board.role, i)
			   ? (i == 3 && st.board2.role >= 0 ? "the sink board" : "the board")
			   : lab->ns[link_ns[i]],
		       yes(st.links_up[i], "up", "DOWN or missing"));
	printf("  mtu %u, IPv6 %s\n", st.mtu, yes(st.ipv6, "on", "off"));
	printf("  forwarding in %s: IPv4 %s, IPv6 %s\n",
	       st.board.role == NB_LAB_DUT ? "the board" : lab->ns[NB_LAB_DUT],
	       yes(st.fwd_v4, "on", "OFF"), yes(st.fwd_v6, "on", "off"));
	if (st.dut_cpus)
		printf("  dut cpus: %u (rps_cpus %s)\n", st.dut_cpus, st.rps_mask);
	if (st.rules >= 0)
		printf("  ruleset: %s%s%zu rules in the DUT, %ld set elements\n",
		       st.ruleset_known ? st.ruleset_kind : "", st.ruleset_known ? ", " : "",
		       (size_t)st.rules, st.elems);
	print_status_peers(&st);
	return st.healthy ? 0 : 1;
}

static int do_ruleset(struct nb_lab *lab, const struct lab_opts *o)
{
	struct nb_lab_rules r = {.rules_n = o->rules_n, .ipv6 = o->ipv6};
	char abs_path[4096];
	size_t rules = 0, elems = 0;
	ssize_t n;
	int ret;

	if (o->netlink) {
		n = readlink("/proc/self/exe", lab->netbench_path, sizeof(lab->netbench_path) - 1);
		if (n <= 0)
			cli_fail(errno, "cannot find its own binary (/proc/self/exe)");
		lab->netbench_path[n] = '\0';
		lab->nft_netlink = true;
	}
	if (o->flush) {
		ret = nb_lab_ruleset_flush(lab);
		if (ret)
			cli_fail(0, "%s", *lab->err ? lab->err : strerror(-ret));
		if (!o->json)
			printf("lab ruleset: %s has no rules\n", lab->ns[NB_LAB_DUT]);
		else {
			char *doc = NULL;
			size_t len = 0;
			int built = nb_lab_ruleset_doc_text(lab, NULL, 0, 0, &doc, &len);
			print_doc(built, doc, len);
		}
		return 0;
	}
	nb_lab_rules_kind_parse(o->kind, &r.kind, &r.path);
	if (r.kind == NB_LAB_RULES_FILE) {
		if (!realpath(r.path, abs_path))
			cli_fail(errno, "--kind file:%s", r.path);
		if (strpbrk(abs_path, "\"\n\r\\"))
			cli_usage_error(
			    "--kind file:%s: the path may not hold a quote, backslash or"
			    " newline",
			    r.path);
		r.path = abs_path;
	}
	ret = nb_lab_ruleset(lab, &r, &rules, &elems);
	if (ret == -EPROTO) {
		fprintf(stderr, "netbench lab: %s rejected the %s ruleset:\n%s",
			o->netlink			? "nft-load (netlink)"
			: lab->board.role == NB_LAB_DUT ? "the board"
							: "nft",
			nb_lab_rules_kind_name(r.kind), lab->err);
		if (!*lab->err || lab->err[strlen(lab->err) - 1] != '\n')
			fputc('\n', stderr);
		exit(1);
	}
	if (ret)
		cli_fail(0, "%s", *lab->err ? lab->err : strerror(-ret));
	if (o->json) {
		char *doc = NULL;
		size_t len = 0;
		int built = nb_lab_ruleset_doc_text(lab, &r, rules, elems, &doc, &len);
		print_doc(built, doc, len);
		return 0;
	}
	if (r.kind == NB_LAB_RULES_FILE)
		printf("lab ruleset: %s loaded into %s: %zu rules, %zu set elements\n", r.path,
		       lab->ns[NB_LAB_DUT], rules, elems);
	else
		printf("lab ruleset: %s, %zu non-matching rules before the accept, loaded into %s:"
		       " %zu rules, %zu set elements (as expected)\n",
		       nb_lab_rules_kind_name(r.kind), r.rules_n, lab->ns[NB_LAB_DUT], rules,
		       elems);
	return 0;
}

static int do_fit(const struct lab_opts *o)
{
	struct nb_lab_fit fit;
	int ret = nb_lab_fit_cost(o->fit_rules, o->fit_fps, o->fit_n, &fit);

	if (ret)
		cli_usage_error("fit needs points at two or more different rule counts");
	if (o->json) {
		char *doc = NULL;
		size_t len = 0;
		int built =
		    nb_lab_fit_doc_text(o->fit_rules, o->fit_fps, o->fit_n, &fit, &doc, &len);
		print_doc(built, doc, len);
		return 0;
	}
	printf("%10s %14s %14s %14s\n", "rules", "fps", "ns/frame", "fitted ns");
	for (size_t i = 0; i < o->fit_n; i++)
		printf("%10.0f %14.0f %14.1f %14.1f\n", o->fit_rules[i], o->fit_fps[i],
		       1e9 / o->fit_fps[i], fit.base_ns + fit.per_rule_ns * o->fit_rules[i]);
	char line[300];
	nb_lab_fit_text(&fit, line, sizeof(line));
	printf("%s\n", line);
	return 0;
}

/* nft-load FILE: a generated ruleset through netlink (core/lab/lab_nftnl.c), for a machine
 * without nft; nft-list: the rules and elements for counting. */
static int do_nft(const struct lab_opts *o)
{
	struct nb_lab_rules r;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (!strcmp(o->verb, "nft-list")) {
		ret = nb_lab_nftnl_list(stdout, err, sizeof(err));
		if (ret)
			cli_fail(0, "nft-list: %s", err);
		return 0;
	}
	f = fopen(o->nft_file, "re");
	if (!f)
		cli_fail(errno, "nft-load: cannot read %s", o->nft_file);
	text = malloc(NB_LAB_NFT_LOAD_MAX + 1);
	if (!text)
		cli_fail(ENOMEM, "nft-load");
	len = fread(text, 1, NB_LAB_NFT_LOAD_MAX + 1, f);
	fclose(f);
	if (len > NB_LAB_NFT_LOAD_MAX)
		cli_fail(0, "nft-load: %s is larger than %d bytes", o->nft_file,
			 NB_LAB_NFT_LOAD_MAX);
	text[len] = '\0';
	ret = nb_lab_rules_parse_script(text, &r);
	free(text);
	if (ret < 0)
		cli_fail(0,
			 "nft-load: %s is not a ruleset `netbench lab ruleset` generated (kind "
			 "linear, set or conntrack, unedited) nor \"flush ruleset\": without nft "
			 "only those load",
			 o->nft_file);
	ret = nb_lab_nftnl_load(ret == 1 ? NULL : &r, err, sizeof(err));
	if (ret)
		cli_fail(0, "nft-load: %s", err);
	return 0;
}

int cmd_lab(int argc, char **argv)
{
	struct lab_opts o = {0};
	const char *delay = getenv("NB_LAB_STEP_DELAY_MS");
	struct nb_lab *lab;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "crypto-driver"))
		return lab_crypto_driver(argc - 1, argv + 1);
	if (lab_parse_opts(argc, argv, &o))
		return 0;
	if (!strcmp(o.verb, "fit"))
		return do_fit(&o);
	if (!strncmp(o.verb, "nft-", 4)) {
		if (geteuid() != 0)
			cli_fail(0, "%s needs root (nf_tables' netlink API needs CAP_NET_ADMIN)",
				 o.verb);
		return do_nft(&o);
	}
	lab = nb_lab_new();
	if (!lab)
		cli_fail(ENOMEM, "lab");
	if (nb_lab_set_prefix(lab, o.prefix))
		cli_usage_error(
		    "--prefix: '%s' is not 1 to %d letters, digits, _ or -, starting with"
		    " a letter",
		    o.prefix, NB_LAB_PREFIX_MAX);
	/* status, down, ruleset with no prefix named: the one lab up, never a guess among
	 * several (up makes the lab it is told to). */
	if (strcmp(o.verb, "up")) {
		bool picked;
		const char *pfx = lab_pick(o.prefix, "--prefix", &picked);
		char name[96];
		nb_lab_set_prefix(lab, pfx);
		if (picked && pfx) {
			lab_pick_name(pfx, name, sizeof(name));
			cli_warn("no --prefix: acting on %s, the one lab up", name);
		}
	}
	require_root();
	lab->note = note_stderr;
	lab->stop = &cli_stop;
	if (delay)
		lab->step_delay_ms = (unsigned)cli_uint("NB_LAB_STEP_DELAY_MS", delay, 0, 10000);
	/* down must finish once begun: ignored signals stay ignored in the ip it runs. */
	cli_catch_signals_hup(!strcmp(o.verb, "down"));
	if (!strcmp(o.verb, "up"))
		ret = do_up(lab, &o);
	else if (!strcmp(o.verb, "down"))
		ret = do_down(lab, &o);
	else if (!strcmp(o.verb, "status"))
		ret = do_status(lab, &o);
	else
		ret = do_ruleset(lab, &o);
	nb_lab_free(lab);
	return ret;
}
