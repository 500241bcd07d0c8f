/* SPDX-License-Identifier: BSD-2-Clause */
/* Lab rulesets: the exact generated text for N = 0, 1, 3 of each kind, the expected read-back
 * counts, kind parsing, the counter of rules and set elements in nft -j output, and the reading
 * back of a generated script (what a machine without nft loads through netlink). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/lab_rules.h"
#include "tap.h"

static char *gen(enum nb_lab_rules_kind kind, size_t n, int ipv6, const char *path, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct nb_lab_rules r = {.kind = kind, .rules_n = n, .ipv6 = ipv6, .path = path};

	*ret = nb_lab_rules_write(f, &r);
	fclose(f);
	return buf;
}

static void expect_text(enum nb_lab_rules_kind kind, size_t n, int ipv6, const char *want)
{
	int ret;
	char *got = gen(kind, n, ipv6, NULL, &ret);
	int same = ret == 0 && !strcmp(got, want);

	CHECK(same, "%s N=%zu %s text", nb_lab_rules_kind_name(kind), n, ipv6 ? "IPv6" : "IPv4");
	if (!same)
		fprintf(stderr, "# got:\n%s# want:\n%s", got, want);
	free(got);
}

#define HEAD  "flush ruleset\ntable inet netbench {\n"
#define CHAIN "\tchain forward {\n\t\ttype filter hook forward priority filter; policy drop;\n"
#define TAIL  "\t\taccept\n\t}\n}\n"

int main(void)
{
	enum nb_lab_rules_kind k;
	const char *path;
	size_t rules, elems;
	int ret;
	char *t;

	expect_text(
	    NB_LAB_RULES_LINEAR, 0, 0,
	    "# netbench lab ruleset: kind linear, 0 non-matching rules, IPv4\n" HEAD CHAIN TAIL);
	expect_text(NB_LAB_RULES_LINEAR, 1, 0,
		    "# netbench lab ruleset: kind linear, 1 non-matching rules, IPv4\n" HEAD CHAIN
		    "\t\tip saddr 10.0.0.1 udp dport 1024 drop\n" TAIL);
	expect_text(NB_LAB_RULES_LINEAR, 3, 0,
		    "# netbench lab ruleset: kind linear, 3 non-matching rules, IPv4\n" HEAD CHAIN
		    "\t\tip saddr 10.0.0.1 udp dport 1024 drop\n"
		    "\t\tip saddr 10.0.0.2 udp dport 1025 drop\n"
		    "\t\tip saddr 10.0.0.3 udp dport 1026 drop\n" TAIL);
	expect_text(
	    NB_LAB_RULES_SET, 0, 0,
	    "# netbench lab ruleset: kind set, 0 non-matching rules, IPv4\n" HEAD CHAIN TAIL);
	expect_text(NB_LAB_RULES_SET, 1, 0,
		    "# netbench lab ruleset: kind set, 1 non-matching rules, IPv4\n" HEAD
		    "\tset nbmatch {\n\t\ttype ipv4_addr . inet_proto . inet_service\n"
		    "\t\telements = {\n\t\t\t10.0.0.1 . udp . 1024\n\t\t}\n\t}\n" CHAIN
		    "\t\tip saddr . meta l4proto . th dport @nbmatch drop\n" TAIL);
	expect_text(NB_LAB_RULES_SET, 3, 0,
		    "# netbench lab ruleset: kind set, 3 non-matching rules, IPv4\n" HEAD
		    "\tset nbmatch {\n\t\ttype ipv4_addr . inet_proto . inet_service\n"
		    "\t\telements = {\n\t\t\t10.0.0.1 . udp . 1024,\n\t\t\t10.0.0.2 . udp . 1025,\n"
		    "\t\t\t10.0.0.3 . udp . 1026\n\t\t}\n\t}\n" CHAIN
		    "\t\tip saddr . meta l4proto . th dport @nbmatch drop\n" TAIL);
	expect_text(
	    NB_LAB_RULES_CONNTRACK, 0, 0,
	    "# netbench lab ruleset: kind conntrack, 0 non-matching rules, IPv4\n" HEAD CHAIN
	    "\t\tct state established,related accept\n" TAIL);
	expect_text(
	    NB_LAB_RULES_CONNTRACK, 1, 0,
	    "# netbench lab ruleset: kind conntrack, 1 non-matching rules, IPv4\n" HEAD CHAIN
	    "\t\tct state established,related accept\n"
	    "\t\tip saddr 10.0.0.1 udp dport 1024 drop\n" TAIL);
	expect_text(
	    NB_LAB_RULES_CONNTRACK, 3, 0,
	    "# netbench lab ruleset: kind conntrack, 3 non-matching rules, IPv4\n" HEAD CHAIN
	    "\t\tct state established,related accept\n"
	    "\t\tip saddr 10.0.0.1 udp dport 1024 drop\n"
	    "\t\tip saddr 10.0.0.2 udp dport 1025 drop\n"
	    "\t\tip saddr 10.0.0.3 udp dport 1026 drop\n" TAIL);
	expect_text(NB_LAB_RULES_LINEAR, 1, 1,
		    "# netbench lab ruleset: kind linear, 1 non-matching rules, IPv6\n" HEAD CHAIN
		    "\t\tip6 saddr 2001:2:ff::0:1 udp dport 1024 drop\n" TAIL);
	expect_text(NB_LAB_RULES_SET, 1, 1,
		    "# netbench lab ruleset: kind set, 1 non-matching rules, IPv6\n" HEAD
		    "\tset nbmatch {\n\t\ttype ipv6_addr . inet_proto . inet_service\n"
		    "\t\telements = {\n\t\t\t2001:2:ff::0:1 . udp . 1024\n\t\t}\n\t}\n" CHAIN
		    "\t\tip6 saddr . meta l4proto . th dport @nbmatch drop\n" TAIL);

	/* Addresses stay distinct and valid past 255 and 65535 rules. */
	t = gen(NB_LAB_RULES_LINEAR, 70000, 0, NULL, &ret);
	CHECK(ret == 0 && strstr(t, "ip saddr 10.1.17.112 udp dport 7023 drop\n") &&
		  strstr(t, "ip saddr 10.0.1.0 udp dport 1279 drop\n"),
	      "rule 70000 and 256 addresses and ports");
	free(t);
	t = gen(NB_LAB_RULES_LINEAR, NB_LAB_RULES_MAX + 1, 0, NULL, &ret);
	CHECK(ret == -EINVAL, "more than %d rules rejected", NB_LAB_RULES_MAX);
	free(t);

	t = gen(NB_LAB_RULES_FILE, 0, 0, "/etc/fw.nft", &ret);
	CHECK(ret == 0 && !strcmp(t, "# netbench lab ruleset: the user's file\nflush ruleset\n"
				     "include \"/etc/fw.nft\"\n"),
	      "file kind includes the path");
	free(t);
	t = gen(NB_LAB_RULES_FILE, 0, 0, "rel.nft", &ret);
	CHECK(ret == -EINVAL, "relative path rejected");
	free(t);
	t = gen(NB_LAB_RULES_FILE, 0, 0, "/a\"b", &ret);
	CHECK(ret == -EINVAL, "quote in path rejected");
	free(t);

	CHECK(nb_lab_rules_kind_parse("set", &k, &path) == 0 && k == NB_LAB_RULES_SET && !path,
	      "parse set");
	CHECK(nb_lab_rules_kind_parse("file:/x.nft", &k, &path) == 0 && k == NB_LAB_RULES_FILE &&
		  !strcmp(path, "/x.nft"),
	      "parse file:PATH");
	CHECK(nb_lab_rules_kind_parse("file:", &k, &path) == -EINVAL, "file: without path");
	CHECK(nb_lab_rules_kind_parse("hash", &k, &path) == -EINVAL, "unknown kind");

	{
		struct nb_lab_rules r = {.kind = NB_LAB_RULES_LINEAR, .rules_n = 3};
		CHECK(nb_lab_rules_expect(&r, &rules, &elems) == 0 && rules == 4 && elems == 0,
		      "linear 3: 4 rules");
		r.kind = NB_LAB_RULES_SET;
		CHECK(nb_lab_rules_expect(&r, &rules, &elems) == 0 && rules == 2 && elems == 3,
		      "set 3: 2 rules, 3 elements");
		r.rules_n = 0;
		CHECK(nb_lab_rules_expect(&r, &rules, &elems) == 0 && rules == 1 && elems == 0,
		      "set 0: 1 rule");
		r.kind = NB_LAB_RULES_CONNTRACK;
		r.rules_n = 3;
		CHECK(nb_lab_rules_expect(&r, &rules, &elems) == 0 && rules == 5 && elems == 0,
		      "conntrack 3: 5 rules");
	}

	/* As nft 1.0.6 prints it (shortened). */
	CHECK(nb_lab_nft_json_count(
		  "{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\"}}, {\"table\": "
		  "{\"family\": \"inet\", \"name\": \"netbench\"}}, {\"set\": {\"name\": "
		  "\"nbmatch\", \"elem\": [{\"concat\": [\"10.0.0.1\", \"udp\", 1024]}, "
		  "{\"concat\": [\"10.0.0.2\", \"udp\", 1025]}]}}, {\"chain\": {\"name\": "
		  "\"forward\"}}, {\"rule\": {\"comment\": \"{\\\"rule\\\": x\", \"expr\": "
		  "[{\"accept\": null}]}}, {\"rule\": {\"expr\": [{\"match\": {\"right\": "
		  "\"@nbmatch\"}}, {\"drop\": null}]}}]}",
		  &rules, &elems) == 0 &&
		  rules == 2 && elems == 2,
	      "nft -j: 2 rules, 2 elements, a comment is not a rule");
	CHECK(nb_lab_nft_json_count("{\"nftables\": [{\"set\": {\"elem\": [\"a\", \"b\", \"c\"]}},"
				    " {\"set\": {\"elem\": []}}]}",
				    &rules, &elems) == 0 &&
		  rules == 0 && elems == 3,
	      "plain and empty element lists");
	CHECK(nb_lab_nft_json_count("{\"nftables\": [{\"rule\": {}}", &rules, &elems) == -EINVAL,
	      "truncated JSON rejected");
	{
		/* Every truncation and a byte flipped anywhere: never a crash or an overread
		 * (run under ASan by make check), and a truncation never passes as complete. */
		const char *full =
		    "{\"nftables\": [{\"set\": {\"elem\": [{\"concat\": [\"a\", 1]}]}},"
		    " {\"rule\": {\"expr\": [{\"accept\": null}]}}]}";
		char buf[256];
		size_t len = strlen(full);
		int truncated_ok = 0;
		for (size_t i = 0; i < len; i++) {
			memcpy(buf, full, i);
			buf[i] = '\0';
			truncated_ok += nb_lab_nft_json_count(buf, &rules, &elems) == 0 && i > 0;
			strcpy(buf, full);
			buf[i] = (char)(buf[i] ^ 0x5b);
			nb_lab_nft_json_count(buf, &rules, &elems);
		}
		CHECK(truncated_ok == 0, "no truncation of nft -j output counts as complete");
		CHECK(nb_lab_nft_json_count(full, &rules, &elems) == 0 && rules == 1 && elems == 1,
		      "the untruncated document counts");
	}
	{
		/* A generated script reads back as what generated it; any edit, a user's file
		 * or a truncation is refused. */
		static const struct {
			enum nb_lab_rules_kind kind;
			size_t n;
			int ipv6;
		} cases[] = {{NB_LAB_RULES_LINEAR, 0, 0},    {NB_LAB_RULES_LINEAR, 3, 1},
			     {NB_LAB_RULES_SET, 5, 0},	     {NB_LAB_RULES_SET, 0, 1},
			     {NB_LAB_RULES_CONNTRACK, 2, 0}, {NB_LAB_RULES_CONNTRACK, 1000, 1}};
		struct nb_lab_rules r;
		int back = 0, edits = 0, cuts = 0;
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			char *s = gen(cases[c].kind, cases[c].n, cases[c].ipv6, NULL, &ret);
			size_t len = strlen(s);
			back += nb_lab_rules_parse_script(s, &r) == 0 && r.kind == cases[c].kind &&
				r.rules_n == cases[c].n && r.ipv6 == cases[c].ipv6;
			s[len - 3] = s[len - 3] == '}' ? ']' : '}';
			edits += nb_lab_rules_parse_script(s, &r) == -EINVAL;
			s[len / 2] = '\0';
			cuts += nb_lab_rules_parse_script(s, &r) == -EINVAL;
			free(s);
		}
		CHECK(back == 6, "each generated script reads back as its kind, count and family");
		CHECK(edits == 6 && cuts == 6, "an edited or truncated script is refused");
		char *f = gen(NB_LAB_RULES_FILE, 0, 0, "/x.nft", &ret);
		CHECK(nb_lab_rules_parse_script(f, &r) == -EINVAL, "a user's file is refused");
		free(f);
		CHECK(nb_lab_rules_parse_script("flush ruleset\n", &r) == 1,
		      "\"flush ruleset\" alone reads as a flush");
		CHECK(nb_lab_rules_parse_script("# netbench lab ruleset: kind linear, 100001 "
						"non-matching rules, IPv4\n",
						&r) == -EINVAL,
		      "a count past the most rules is refused");
		char a[48];
		nb_lab_rules_addr(a, sizeof(a), 0, false);
		CHECK(!strcmp(a, "10.0.0.1") && nb_lab_rules_port(0) == 1024 &&
			  nb_lab_rules_port(64000) == 1024,
		      "the first match is 10.0.0.1 port 1024; ports repeat after 64000");
	}
	return tap_done();
}
