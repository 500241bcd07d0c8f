/* SPDX-License-Identifier: BSD-2-Clause */
/* Generated nftables rulesets for the lab's DUT and the check of what nft read back. The
 * non-matching rules take their source addresses from ranges the lab never routes (10.0.0.0/8,
 * 2001:2:ff::/64), so that test traffic walks every rule and matches none. */
#include "core/base/lab_rules.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int nb_lab_rules_kind_parse(const char *s, enum nb_lab_rules_kind *kind, const char **path)
{
	*path = NULL;
	if (!strcmp(s, "linear"))
		*kind = NB_LAB_RULES_LINEAR;
	else if (!strcmp(s, "set"))
		*kind = NB_LAB_RULES_SET;
	else if (!strcmp(s, "conntrack"))
		*kind = NB_LAB_RULES_CONNTRACK;
	else if (!strncmp(s, "file:", 5) && s[5]) {
		*kind = NB_LAB_RULES_FILE;
		*path = s + 5;
	} else
		return -EINVAL;
	return 0;
}

const char *nb_lab_rules_kind_name(enum nb_lab_rules_kind kind)
{
	switch (kind) {
	case NB_LAB_RULES_LINEAR:
		return "linear";
	case NB_LAB_RULES_SET:
		return "set";
	case NB_LAB_RULES_CONNTRACK:
		return "conntrack";
	case NB_LAB_RULES_FILE:
		return "file";
	}
	return "?";
}

/* The i-th non-matching source address; i counts from 0 and never yields a network address. */
void nb_lab_rules_addr(char *buf, size_t len, size_t i, bool ipv6)
{
	unsigned long v = (unsigned long)i + 1;

	if (ipv6)
		snprintf(buf, len, "2001:2:ff::%lx:%lx", (v >> 16) & 0xffff, v & 0xffff);
	else
		snprintf(buf, len, "10.%lu.%lu.%lu", (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
}

/* Destination ports 1024..65023: all distinct up to 64000 rules, none the lab's agent uses
 * for its matches to matter (the source address never matches anyway). */
unsigned nb_lab_rules_port(size_t i)
{
	return 1024 + (unsigned)(i % 64000);
}

static bool path_ok(const char *p)
{
	return p && p[0] == '/' && !strpbrk(p, "\"\n\r\\");
}

int nb_lab_rules_write(FILE *f, const struct nb_lab_rules *r)
{
	char addr[48];
	const char *ip = r->ipv6 ? "ip6" : "ip";
	size_t i;

	if (r->kind == NB_LAB_RULES_FILE) {
		if (!path_ok(r->path))
			return -EINVAL;
		fprintf(f,
			"# netbench lab ruleset: the user's file\nflush ruleset\ninclude \"%s\"\n",
			r->path);
		return ferror(f) ? -EIO : 0;
	}
	if (r->kind > NB_LAB_RULES_FILE || r->rules_n > NB_LAB_RULES_MAX)
		return -EINVAL;
	fprintf(f, "# netbench lab ruleset: kind %s, %zu non-matching rules, %s\n",
		nb_lab_rules_kind_name(r->kind), r->rules_n, r->ipv6 ? "IPv6" : "IPv4");
	fprintf(f, "flush ruleset\ntable inet %s {\n", NB_LAB_TABLE);
	if (r->kind == NB_LAB_RULES_SET && r->rules_n > 0) {
		fprintf(f, "\tset %s {\n\t\ttype %s . inet_proto . inet_service\n\t\telements = {",
			NB_LAB_SET, r->ipv6 ? "ipv6_addr" : "ipv4_addr");
		for (i = 0; i < r->rules_n; i++) {
			nb_lab_rules_addr(addr, sizeof(addr), i, r->ipv6);
			fprintf(f, "%s\n\t\t\t%s . udp . %u", i ? "," : "", addr,
				nb_lab_rules_port(i));
		}
		fprintf(f, "\n\t\t}\n\t}\n");
	}
	/* Policy drop: what passes is what the final rule accepts, as in a real firewall. */
	fprintf(f, "\tchain %s {\n\t\ttype filter hook forward priority filter; policy drop;\n",
		NB_LAB_CHAIN);
	if (r->kind == NB_LAB_RULES_CONNTRACK)
		fprintf(f, "\t\tct state established,related accept\n");
	if (r->kind == NB_LAB_RULES_SET) {
		if (r->rules_n > 0)
			fprintf(f, "\t\t%s saddr . meta l4proto . th dport @%s drop\n", ip,
				NB_LAB_SET);
	} else {
		for (i = 0; i < r->rules_n; i++) {
			nb_lab_rules_addr(addr, sizeof(addr), i, r->ipv6);
			fprintf(f, "\t\t%s saddr %s udp dport %u drop\n", ip, addr,
				nb_lab_rules_port(i));
		}
	}
	fprintf(f, "\t\taccept\n\t}\n}\n");
	return ferror(f) ? -EIO : 0;
}

int nb_lab_rules_parse_script(const char *text, struct nb_lab_rules *r)
{
	char kind[16], fam[8], *again = NULL;
	size_t len = 0;
	FILE *f;
	int ret = -EINVAL;

	memset(r, 0, sizeof(*r));
	if (!strcmp(text, "flush ruleset\n") || !strcmp(text, "flush ruleset"))
		return 1;
	if (sscanf(text,
		   "# netbench lab ruleset: kind %15[a-z], %zu non-matching rules, %7[IPv46]\n",
		   kind, &r->rules_n, fam) != 3 ||
	    nb_lab_rules_kind_parse(kind, &r->kind, &r->path) || r->kind == NB_LAB_RULES_FILE ||
	    (strcmp(fam, "IPv4") && strcmp(fam, "IPv6")) || r->rules_n > NB_LAB_RULES_MAX)
		return -EINVAL;
	r->ipv6 = !strcmp(fam, "IPv6");
	/* The whole text must be what the header says, byte for byte. */
	f = open_memstream(&again, &len);
	if (!f)
		return -ENOMEM;
	if (nb_lab_rules_write(f, r))
		ret = -EIO;
	if (fclose(f) && ret != -EIO)
		ret = -ENOMEM;
	else if (ret != -EIO)
		ret = strcmp(again, text) ? -EINVAL : 0;
	free(again);
	return ret;
}

int nb_lab_rules_expect(const struct nb_lab_rules *r, size_t *rules, size_t *elems)
{
	switch (r->kind) {
	case NB_LAB_RULES_LINEAR:
		*rules = r->rules_n + 1;
		*elems = 0;
		return 0;
	case NB_LAB_RULES_SET:
		*rules = (r->rules_n > 0) + 1;
		*elems = r->rules_n;
		return 0;
	case NB_LAB_RULES_CONNTRACK:
		*rules = r->rules_n + 2;
		*elems = 0;
		return 0;
	case NB_LAB_RULES_FILE:
		break;
	}
	return -EINVAL;
}

/* nft -j output is {"nftables": [{"rule": {...}}, {"set": {..., "elem": [...]}}, ...]}: a
 * rule is a "rule" key at depth 3 (inside one array item), a set element one item of an
 * "elem" array at depth 4. The scanner tracks strings and nesting only; that is enough. */
int nb_lab_nft_json_count(const char *json, size_t *rules, size_t *elems)
{
	int depth = 0, elem_depth = 0, ret = -EINVAL;
	bool in_str = false, esc = false, elem_nonempty = false;
	size_t elem_commas = 0, key_len = 0;
	const char *key = NULL, *last_str = NULL;
	size_t last_len = 0;

	*rules = 0;
	*elems = 0;
	for (const char *p = json; *p; p++) {
		char c = *p;
		if (in_str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"') {
				in_str = false;
				last_len = (size_t)(p - last_str);
			}
			continue;
		}
		if (elem_depth && depth == elem_depth && c != ']' && c != ' ' && c != '\n' &&
		    c != '\t' && c != '\r') {
			elem_nonempty = true;
			if (c == ',')
				elem_commas++;
		}
		switch (c) {
		case '"':
			in_str = true;
			last_str = p + 1;
			break;
		case ':':
			key = last_str;
			key_len = last_len;
			if (key && depth == 3 && key_len == 4 && !strncmp(key, "rule", 4))
				(*rules)++;
			break;
		case '{':
		case '[':
			if (++depth >= 64)
				goto out;
			if (c == '[' && depth == 5 && key && key_len == 4 &&
			    !strncmp(key, "elem", 4)) {
				elem_depth = depth;
				elem_commas = 0;
				elem_nonempty = false;
			}
			key = NULL;
			break;
		case '}':
		case ']':
			if (c == ']' && elem_depth && depth == elem_depth) {
				*elems += elem_nonempty ? elem_commas + 1 : 0;
				elem_depth = 0;
			}
			if (--depth < 0)
				goto out;
			break;
		default:
			break;
		}
	}
	if (depth == 0 && !in_str)
		ret = 0;
out:
	return ret;
}
