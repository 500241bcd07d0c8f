/* SPDX-License-Identifier: BSD-2-Clause */
/* Rulesets in the DUT: nft -f in its namespace, or the board's control port (never the
 * network), then the rule count read back and checked; the lab's record of the loaded ruleset. */
#include "core/lab/lab_ruleset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lab/lab_board.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_proc.h"
#include "core/lab/lab_state.h"

int nb_lab_count_rules(struct nb_lab *lab, size_t *rules, size_t *elems)
{
	struct nb_lab_run *r = nb_lab_run_new();
	int ret = -ENOMEM;

	if (!r)
		goto out;
	if (lab->board.role == NB_LAB_DUT) {
		char *out = NULL;
		int rc = 0;
		ret = nb_lab_board_ctl(lab, "list", NULL, &out, &rc);
		if (!ret && rc) {
			snprintf(lab->err, sizeof(lab->err),
				 "nft -j list ruleset in the board: %.200s", out);
			ret = -EIO;
		}
		if (!ret)
			ret = nb_lab_nft_json_count(out, rules, elems);
		free(out);
		if (ret && !*lab->err)
			snprintf(lab->err, sizeof(lab->err),
				 "cannot read `nft -j list ruleset` output");
		goto out;
	}
	if (lab->nft_netlink)
		ret = nb_lab_runl(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT],
				  lab->netbench_path, "lab", "nft-list", NULL);
	else
		ret = nb_lab_runl(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "nft",
				  "-j", "list", "ruleset", NULL);
	if (ret)
		goto out;
	ret = nb_lab_nft_json_count(r->out, rules, elems);
	if (ret)
		snprintf(lab->err, sizeof(lab->err), "cannot read `nft -j list ruleset` output");
out:
	nb_lab_run_free(r);
	return ret;
}

/* A board DUT loads the script through its control port, never from the network. */
static int load_board(struct nb_lab *lab, const char *script)
{
	char *out = NULL;
	int rc = 0, ret = nb_lab_board_ctl(lab, "ruleset", script, &out, &rc);

	if (!ret && rc) {
		snprintf(lab->err, sizeof(lab->err), "%s", out);
		ret = -EPROTO;
	}
	free(out);
	return ret;
}

static int load_file(struct nb_lab *lab, const char *script)
{
	char path[] = "/tmp/netbench-lab-XXXXXX";
	struct nb_lab_run *r = nb_lab_run_new();
	int fd = -1, ret = -ENOMEM;
	size_t len = strlen(script), off = 0;

	if (lab->board.role == NB_LAB_DUT) {
		nb_lab_run_free(r);
		return load_board(lab, script);
	}
	if (!r)
		goto out;
	fd = mkstemp(path);
	if (fd < 0) {
		ret = -errno;
		snprintf(lab->err, sizeof(lab->err), "cannot create a temporary file in /tmp");
		goto out;
	}
	while (off < len) {
		ssize_t n = write(fd, script + off, len - off);
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		off += (size_t)n;
	}
	if (lab->nft_netlink)
		ret = nb_lab_runl(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT],
				  lab->netbench_path, "lab", "nft-load", path, NULL);
	else
		ret = nb_lab_runl(lab, NULL, r, "ip", "netns", "exec", lab->ns[NB_LAB_DUT], "nft",
				  "-f", path, NULL);
	if (ret == -EIO) {
		/* nft names the file and line and marks the column: hand it over whole. */
		snprintf(lab->err, sizeof(lab->err), "%s", r->err);
		ret = -EPROTO;
	}
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	nb_lab_run_free(r);
	return ret;
}

/* A board cannot read the host's file: its text goes over, behind "flush ruleset;" on the same
 * line, so that nft's messages keep the file's line numbers. */
static int board_file(struct nb_lab *lab, FILE *out, const char *path)
{
	char buf[8192];
	size_t n, total = 0;
	FILE *in = fopen(path, "re");
	int ret = 0;

	if (!in) {
		ret = -errno;
		snprintf(lab->err, sizeof(lab->err), "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	fputs("flush ruleset; ", out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0 && !ret) {
		total += n;
		if (total > NB_LAB_BOARD_RULESET_MAX) {
			snprintf(lab->err, sizeof(lab->err), "%s: larger than %d bytes", path,
				 NB_LAB_BOARD_RULESET_MAX);
			ret = -EFBIG;
		} else if (fwrite(buf, 1, n, out) != n)
			ret = -EIO;
	}
	fclose(in);
	return ret;
}

int nb_lab_ruleset(struct nb_lab *lab, const struct nb_lab_rules *r, size_t *rules, size_t *elems)
{
	size_t want_rules = 0, want_elems = 0, len = 0;
	char *script = NULL;
	struct nb_lab_state s;
	FILE *f = NULL;
	int ret = -ENOMEM;

	lab->err[0] = '\0';
	if (!nb_lab_ns_exists(lab->ns[NB_LAB_DUT])) {
		snprintf(lab->err, sizeof(lab->err), "namespace %s does not exist (run `lab up`)",
			 lab->ns[NB_LAB_DUT]);
		ret = -ENOENT;
		goto out;
	}
	nb_lab_board_from_state(lab);
	f = open_memstream(&script, &len);
	if (!f)
		goto out;
	if (lab->board.role == NB_LAB_DUT && r->kind == NB_LAB_RULES_FILE)
		ret = board_file(lab, f, r->path);
	else
		ret = nb_lab_rules_write(f, r);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	f = NULL;
	if (ret)
		goto out;
	ret = load_file(lab, script);
	if (ret)
		goto out;
	ret = nb_lab_count_rules(lab, rules, elems);
	if (ret)
		goto out;
	if (!nb_lab_rules_expect(r, &want_rules, &want_elems) &&
	    (*rules != want_rules || *elems != want_elems)) {
		snprintf(lab->err, sizeof(lab->err),
			 "nft reads back %zu rules and %zu set elements, expected %zu and %zu",
			 *rules, *elems, want_rules, want_elems);
		ret = -EIO;
		goto out;
	}
	nb_lab_state_read(lab, &s);
	if (s.found) {
		s.ruleset = true;
		snprintf(s.kind, sizeof(s.kind), "%s", nb_lab_rules_kind_name(r->kind));
		s.rules_n = r->kind == NB_LAB_RULES_FILE ? *rules : r->rules_n;
		s.rules_ipv6 = r->kind != NB_LAB_RULES_FILE && r->ipv6;
		nb_lab_state_write(lab, &s);
	}
out:
	free(script);
	return ret;
}

int nb_lab_ruleset_recorded(struct nb_lab *lab, char *kind, size_t kind_len, size_t *rules_n,
			    bool *ipv6)
{
	struct nb_lab_state s;
	nb_lab_state_read(lab, &s);
	if (!s.found || !s.ruleset)
		return 0;
	snprintf(kind, kind_len, "%s", s.kind);
	*rules_n = s.rules_n;
	*ipv6 = s.rules_ipv6;
	return 1;
}

int nb_lab_ruleset_record(struct nb_lab *lab, const char *kind, size_t rules_n, bool ipv6)
{
	struct nb_lab_state s;
	nb_lab_state_read(lab, &s);
	if (!s.found)
		return 0;
	s.ruleset = kind != NULL;
	snprintf(s.kind, sizeof(s.kind), "%s", kind ? kind : "");
	s.rules_n = kind ? rules_n : 0;
	s.rules_ipv6 = kind && ipv6;
	return nb_lab_state_write(lab, &s);
}

int nb_lab_ruleset_flush(struct nb_lab *lab)
{
	struct nb_lab_state s;
	int ret;

	lab->err[0] = '\0';
	if (!nb_lab_ns_exists(lab->ns[NB_LAB_DUT])) {
		snprintf(lab->err, sizeof(lab->err), "namespace %s does not exist (run `lab up`)",
			 lab->ns[NB_LAB_DUT]);
		return -ENOENT;
	}
	nb_lab_board_from_state(lab);
	if (lab->board.role == NB_LAB_DUT)
		ret = load_board(lab, "flush ruleset\n");
	else if (lab->nft_netlink)
		ret = load_file(lab, "flush ruleset\n");
	else
		ret = nb_lab_runl(lab, NULL, NULL, "ip", "netns", "exec", lab->ns[NB_LAB_DUT],
				  "nft", "flush", "ruleset", NULL);
	if (ret)
		return ret;
	nb_lab_state_read(lab, &s);
	if (s.found && s.ruleset) {
		s.ruleset = false;
		nb_lab_state_write(lab, &s);
	}
	return 0;
}
