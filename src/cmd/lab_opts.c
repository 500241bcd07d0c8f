/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench lab's options: the help text, the parsing and the checks of what goes together. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/opt_table.h"
#include "cmd/lab_opts.h"
#include "core/base/lab_rules.h"
#include "core/lab/lab.h"
#include "core/lab/lab_board_arch.h"

/* The help's head (the verbs) and tail; the option list between them is the table's. */
static const char usage_head[] =
    "Usage: netbench lab up [--prefix P] [-6] [--mtu BYTES] [--dut-cpus N]\n"
    "                       [-p PORT] [--no-agent]\n"
    "                       [--vpn esp[:ALGO]|wireguard [--crypto-driver NAME]] [-J]\n"
    "       netbench lab up --dut vm:ARCH|--sink vm:ARCH [--board-dir DIR]\n"
    "                       [--prefix P] [-p PORT]\n"
    "       netbench lab up --dut vm:ARCH --sink vm:ARCH [--vpn esp[:ALGO]\n"
    "                       [--crypto-driver NAME]] [--board-dir DIR] [--prefix P]\n"
    "       netbench lab down [--prefix P] [-J]\n"
    "       netbench lab status [--prefix P] [-J]\n"
    "       netbench lab ruleset --rules N --kind linear|set|conntrack [-6]\n"
    "                            [--netlink] [--prefix P] [-J]\n"
    "       netbench lab ruleset --kind file:PATH [--prefix P] [-J]\n"
    "       netbench lab ruleset --flush [--netlink] [--prefix P]\n"
    "       netbench lab fit RULES:FPS RULES:FPS... [-J]\n"
    "       netbench lab nft-load FILE | nft-list\n"
    "       netbench lab crypto-driver DRIVER [ALGO...]\n"
    "\n"
    "A lab of network namespaces on this host (root only):\n"
    "  nbgen 198.18.0.1/24 --veth-- 198.18.0.254 nbdut 198.19.0.254 --veth--\n"
    "        198.19.0.1/24 nbsink\n"
    "The DUT forwards with the kernel and filters with nftables; an agent\n"
    "(netbench serve) listens in nbsink on 198.19.0.1 port 5301.\n"
    "\n"
    "  up        create the namespaces, veths, addresses, routes, forwarding, agent;\n"
    "            leftovers of an earlier, dead lab are removed first (and reported);\n"
    "            a lab alive under the prefix (agent or observer answers, a process\n"
    "            in its namespaces) is refused, exit 1\n"
    "  down      remove all of it (idempotent); reports what it found\n"
    "  status    what exists and whether it is healthy (exit 0 healthy, 1 not)\n"
    "  ruleset   replace the DUT's nftables ruleset; the rule count is read back\n"
    "  fit       least-squares fit of ns per frame = base + per-rule cost x rules\n"
    "  nft-load  load FILE, a ruleset script `lab ruleset` generated (linear, set,\n"
    "            conntrack; or \"flush ruleset\"), into this namespace's nf_tables\n"
    "            through netlink, without nft: what a board without nft runs\n"
    "  nft-list  this namespace's rules and set elements, as `nft -j list ruleset`\n"
    "            shapes them (for counting), through netlink\n"
    "  crypto-driver  raise DRIVER above the other drivers of its algorithm in this\n"
    "            kernel, refusing one whose algorithm is none of the ALGOs: what a\n"
    "            board runs for up --crypto-driver\n"
    "\n"
    "Options:\n";
static const char usage_tail[] =
    "\n"
    "Uses ip (iproute2) and nft (nftables). State: " NB_LAB_RUN_DIR "[/P]/state.\n";

/* "RULES:FPS", e.g. 1000:412345.6 */
static void parse_point(struct lab_opts *o, const char *arg)
{
	char *end;
	double fps;
	uint64_t rules;
	char buf[64];
	const char *colon = strchr(arg, ':');

	if (!colon || (size_t)(colon - arg) >= sizeof(buf))
		cli_usage_error("fit: '%s' is not RULES:FPS (e.g. 100:812000)", arg);
	memcpy(buf, arg, (size_t)(colon - arg));
	buf[colon - arg] = '\0';
	rules = cli_uint("fit RULES", buf, 0, 10000000);
	errno = 0;
	fps = strtod(colon + 1, &end);
	if (errno || end == colon + 1 || *end || !isfinite(fps) || fps <= 0 || fps > 1e12)
		cli_usage_error("fit: '%s' is not a rate in frames/s (accepted: above 0 to 1e12)",
				colon + 1);
	if (o->fit_n == FIT_POINTS_MAX)
		cli_usage_error("fit: too many points (at most %d)", FIT_POINTS_MAX);
	o->fit_rules[o->fit_n] = (double)rules;
	o->fit_fps[o->fit_n++] = fps;
}

static void set_dut_cpus(void *dst, const char *name, const char *arg)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	((struct lab_opts *)dst)->dut_cpus =
	    (unsigned)cli_uint(name, arg, 1, (uint64_t)(ncpu > 0 ? ncpu : 1));
}

static void set_vpn(void *dst, const char *name, const char *arg)
{
	struct nb_lab_vpn_spec v;
	if (nb_lab_vpn_parse(arg, &v))
		cli_usage_error("%s: unknown VPN '%s' (esp, esp:aes-cbc-hmac-sha1, "
				"esp:aes-gcm, esp:chacha20-poly1305, wireguard)",
				name, arg);
	((struct lab_opts *)dst)->vpn = arg;
}

static void set_crypto_driver(void *dst, const char *name, const char *arg)
{
	if (!*arg || strlen(arg) >= 64 || strchr(arg, ' '))
		cli_usage_error("%s: a driver name of /proc/crypto, 1 to 63 "
				"characters without blanks: '%s'",
				name, arg);
	((struct lab_opts *)dst)->crypto_driver = arg;
}

/* --dut vm:ARCH, --sink vm:ARCH: both given, the DUT's board first, the sink's the second. */
static void set_board(struct lab_opts *o, int role, const char *name, const char *arg)
{
	char arch[16], nic[16];
	int ret;
	if ((role == NB_LAB_DUT && o->board_role == NB_LAB_DUT) ||
	    (role == NB_LAB_SINK && (o->board_role == NB_LAB_SINK || o->board2_arch[0])))
		cli_usage_error("%s given twice", name);
	ret = nb_lab_board_spec(arg, arch, sizeof(arch), nic, sizeof(nic));
	if (ret == -ENOTSUP)
		cli_usage_error("%s: '%s': the only NIC option is vm:x86_64,nic=e1000e "
				"(the other boards have one NIC model each)",
				name, arg);
	if (ret) {
		char list[128];
		nb_lab_board_arch_list("vm:", list, sizeof(list));
		cli_usage_error("%s: '%s' is not %s (vm:x86_64 also takes ,nic=e1000e)", name, arg,
				list);
	}
	if (o->board_role >= 0 && role == NB_LAB_DUT) {
		snprintf(o->board2_arch, sizeof(o->board2_arch), "%s", o->board_arch);
		snprintf(o->board2_nic, sizeof(o->board2_nic), "%s", o->board_nic);
	}
	if (o->board_role >= 0 && role == NB_LAB_SINK) {
		snprintf(o->board2_arch, sizeof(o->board2_arch), "%s", arch);
		snprintf(o->board2_nic, sizeof(o->board2_nic), "%s", nic);
	} else {
		snprintf(o->board_arch, sizeof(o->board_arch), "%s", arch);
		snprintf(o->board_nic, sizeof(o->board_nic), "%s", nic);
	}
	o->board_role = o->board_role >= 0 ? NB_LAB_DUT : role;
}

static void set_dut(void *dst, const char *name, const char *arg)
{
	set_board(dst, NB_LAB_DUT, name, arg);
}

static void set_sink(void *dst, const char *name, const char *arg)
{
	set_board(dst, NB_LAB_SINK, name, arg);
}

static void set_board_dir(void *dst, const char *name, const char *arg)
{
	if (!*arg || strlen(arg) >= 256)
		cli_usage_error("%s: a directory path of 1 to 255 characters", name);
	((struct lab_opts *)dst)->board_dir = arg;
}

static void set_kind(void *dst, const char *name, const char *arg)
{
	enum nb_lab_rules_kind kind;
	const char *path;
	(void)name;
	if (nb_lab_rules_kind_parse(arg, &kind, &path))
		cli_usage_error("--kind: '%s' is not linear, set, conntrack or file:PATH", arg);
	((struct lab_opts *)dst)->kind = arg;
}

#define AT(member) OPT_AT(struct lab_opts, member)
#define SET(fn)	   OPT_SET, .set = (fn), .has_arg = required_argument
/* A number's macro (a plain literal) as help text. */
#define STR(n)	STR_(n)
#define STR_(n) #n

/* lab's options, in the order of its help; --prefix, --rules and --kind have no letter (-P is
 * tput's, -k is --psk). */
static const struct opt_row rows[] = {
    {"prefix", 0, OPT_STRING, AT(prefix), .arg = "P",
     .help = "name the namespaces P-gen, P-dut, P-sink (default: nbgen,\nnbdut, nbsink; also "
	     "from $NB_LAB_PREFIX); letters, digits,\n_ and -, "
	     "at most " STR(NB_LAB_PREFIX_MAX) " characters"},
    {"ipv6", '6', OPT_FLAG, AT(ipv6),
     .help = "up: also IPv6 (2001:2:0:1::1/64 --\n2001:2:0:2::1/64, RFC 5180)\nruleset: match IPv6 "
	     "source addresses"},
    {"mtu", 0, OPT_UINT, 68, 65535, AT(mtu), .arg = "BYTES",
     .help = "up: MTU of the four veths (68 to 65535; 1280 with -6)"},
    {"dut-cpus", 0, SET(set_dut_cpus), .arg = "N",
     .help = "up: steer the DUT's receive processing\n(RPS) to the last N CPUs"},
    {"port", 'p', OPT_UINT, 1, 65535, AT(port), .seen = offsetof(struct lab_opts, have_port),
     .arg = "PORT", .help = "up: the agent's port (default " STR(NB_LAB_PORT) ")"},
    {"vpn", 0, SET(set_vpn), .arg = "V",
     .help = "up: a tunnel from the DUT to the sink, random keys: esp\n(kernel IPsec, ESP tunnel "
	     "mode; esp:aes-cbc-hmac-sha1, the\ndefault, esp:aes-gcm, esp:chacha20-poly1305) or "
	     "wireguard;\ntraffic to " NB_LAB_VPN_ADDR " goes through it"},
    {"crypto-driver", 0, SET(set_crypto_driver), .arg = "NAME",
     .help = "up, with --vpn: make the kernel crypto driver NAME\n(/proc/crypto) the tunnel's, by "
	     "raising its priority\n(crypto_user netlink); lab down restores it; a board's\nend "
	     "is raised in the board; refused (exit 1) where the\nkernel lacks NAME or it is no "
	     "part of the SA's transform"},
    {"no-agent", 0, OPT_FLAG, AT(no_agent),
     .help = "up: start no agent in the sink and no observer in the DUT"},
    {"force", 0, OPT_FLAG, AT(force), .help = "up: replace a lab that is alive under the prefix"},
    {"dut", 0, SET(set_dut), .arg = "vm:ARCH",
     .help = "up: the DUT is an emulated board (ARCH armhf, x86_64 or\nppc) with its own kernel, "
	     "forwarding between two NICs\n(virtio; ppc: eTSEC, gianfar) whose host ends are gen0 "
	     "and\nsink0; its agent is the observer; vm:x86_64,nic=e1000e:\nIntel 82574L NICs "
	     "(e1000e driver) instead of virtio"},
    {"sink", 0, SET(set_sink), .arg = "vm:ARCH",
     .help = "up: the sink is an emulated board; its agent is the lab's\n(with --dut vm:ARCH too: "
	     "two boards, an ESP tunnel between\nthem with --vpn esp, set through their control "
	     "ports)"},
    {"board-dir", 0, SET(set_board_dir), .arg = "DIR",
     .help = "up: the board image (kernel, initrd.gz; default\n" NB_LAB_BOARD_CACHE
	     "/board-ARCH or\n$NB_BOARD_CACHE/board-ARCH, which up builds when it\n"
	     "is missing: tests/board/build.sh ARCH\n" NB_LAB_BOARD_CACHE
	     "), owned by root or you and\n"
	     "writable by no one else; netbench chooses the emulator\nand its arguments for ARCH"},
    {"rules", 0, OPT_UINT, 0, NB_LAB_RULES_MAX, AT(rules_n),
     .seen = offsetof(struct lab_opts, have_rules), .arg = "N",
     .help =
	 "ruleset: non-matching rules before the final accept\n(0 to " STR(NB_LAB_RULES_MAX) ")"},
    {"kind", 0, SET(set_kind), .arg = "K",
     .help = "ruleset: linear (N rules on source address, protocol\nand destination port), set "
	     "(the N matches as one set\nlookup), conntrack (established,related accepted\nfirst, "
	     "then N rules), file:PATH (your nft file,\nloaded as one transaction)"},
    {"flush", 0, OPT_FLAG, AT(flush), .help = "ruleset: remove every rule from the DUT"},
    {"netlink", 0, OPT_FLAG, AT(netlink),
     .help = "ruleset: load and count through nf_tables' netlink API\n(netbench lab nft-load, "
	     "nft-list in the DUT), not nft, as\na board without nft does; generated kinds only"},
    {"json", 'J', OPT_FLAG, AT(json), .help = "print a JSON document (schema netbench/1)"},
    CLI_HELP_ROWS,
};
static const struct opt_table table = {rows, sizeof(rows) / sizeof(rows[0]), 22};

static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_help(&table, f);
	fputs(usage_tail, f);
}

/* -h, -V or an unknown option. */
static void other_option(void *ctx, int c, const char *name, int argc, char **argv)
{
	(void)ctx, (void)name, (void)argc;
	cli_last_option(argv, c, NULL, usage);
}

/* The verb and its arguments: "fit" takes points, "nft-load" a file, the others nothing. */
static void parse_verb(int argc, char **argv, struct lab_opts *o)
{
	if (optind >= argc)
		cli_usage_error("which one: up, down, status, ruleset or fit?");
	o->verb = argv[optind++];
	if (!strcmp(o->verb, "nft-load")) {
		if (optind >= argc)
			cli_usage_error("nft-load needs the FILE of a generated ruleset");
		o->nft_file = argv[optind++];
	}
	if (!strcmp(o->verb, "fit")) {
		if (optind >= argc)
			cli_usage_error("fit needs RULES:FPS points");
		while (optind < argc)
			parse_point(o, argv[optind++]);
		return;
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (strcmp(o->verb, "up") && strcmp(o->verb, "down") && strcmp(o->verb, "status") &&
	    strcmp(o->verb, "ruleset") && strcmp(o->verb, "nft-load") &&
	    strcmp(o->verb, "nft-list"))
		cli_usage_error("'%s' is not up, down, status, ruleset, fit, nft-load or nft-list",
				o->verb);
}

/* What lab up takes: the options of up only, the boards' limits. */
static void check_up(const struct lab_opts *o)
{
	bool up_opts = o->mtu || o->dut_cpus || o->have_port || o->no_agent || o->force || o->vpn ||
		       o->crypto_driver || o->board_role >= 0 || o->board_dir;
	if (!strncmp(o->verb, "nft-", 4) && (o->json || o->ipv6))
		cli_usage_error("%s takes no -J or -6 (its output is JSON; the file says the "
				"family)",
				o->verb);
	if (up_opts && strcmp(o->verb, "up"))
		cli_usage_error("--mtu, --dut-cpus, --port, --no-agent, --vpn, --crypto-driver, "
				"--force, --dut, --sink and --board-dir are options of `lab up`");
	if (o->board_dir && o->board_role < 0)
		cli_usage_error("--board-dir names the image of --dut vm:ARCH or --sink vm:ARCH");
	if (o->board_role >= 0 && o->vpn && !strncmp(o->vpn, "wireguard", 9))
		cli_usage_error("--vpn wireguard with an emulated board (--%s vm:%s) is not built: "
				"the board's image has no wg; --vpn esp[:ALGO] is (docs/lab.md, "
				"\"Boards\")",
				o->board_role == NB_LAB_DUT ? "dut" : "sink", o->board_arch);
	if (o->board2_arch[0] && o->board_dir && strcmp(o->board_arch, o->board2_arch))
		cli_usage_error("--board-dir names one image: with --dut vm:%s and --sink vm:%s, "
				"give boards of one architecture or no --board-dir",
				o->board_arch, o->board2_arch);
	if (o->board_role >= 0 && (o->dut_cpus || o->mtu || o->ipv6))
		cli_usage_error("an emulated board (--%s vm:%s) takes no --dut-cpus, --mtu or -6 "
				"(not built yet)",
				o->board_role == NB_LAB_DUT ? "dut" : "sink", o->board_arch);
	if (o->crypto_driver && !o->vpn)
		cli_usage_error("--crypto-driver chooses the tunnel's driver: give --vpn too");
	if (o->mtu && o->ipv6 && o->mtu < 1280)
		cli_usage_error("--mtu is too small for IPv6: %u (at least 1280)", o->mtu);
}

/* What lab ruleset takes. */
static void check_ruleset(const struct lab_opts *o)
{
	if ((o->have_rules || o->kind || o->flush || o->netlink) && strcmp(o->verb, "ruleset"))
		cli_usage_error(
		    "--rules, --kind, --flush and --netlink are options of `lab ruleset`");
	if (o->netlink && o->kind && !strncmp(o->kind, "file:", 5))
		cli_usage_error("--netlink loads the generated kinds (linear, set, conntrack): "
				"--kind file:PATH needs nft");
	if (o->ipv6 && strcmp(o->verb, "up") && strcmp(o->verb, "ruleset"))
		cli_usage_error("--ipv6 is an option of `lab up` and `lab ruleset`");
	if (strcmp(o->verb, "ruleset"))
		return;
	if (o->flush && (o->kind || o->have_rules))
		cli_usage_error("--flush takes no --kind or --rules");
	if (!o->flush && !o->kind)
		cli_usage_error("ruleset needs --kind linear|set|conntrack|file:PATH");
	if (o->kind && !strncmp(o->kind, "file:", 5) && (o->have_rules || o->ipv6))
		cli_usage_error("--kind file:PATH takes no --rules or --ipv6");
	if (o->kind && strncmp(o->kind, "file:", 5) && !o->have_rules)
		cli_usage_error("--kind %s needs --rules N", o->kind);
}

int lab_parse_opts(int argc, char **argv, struct lab_opts *o)
{
	o->prefix = getenv("NB_LAB_PREFIX");
	o->board_role = -1;
	opt_parse(&table, argc, argv, o, other_option, NULL);
	parse_verb(argc, argv, o);
	if (!strcmp(o->verb, "fit"))
		return 0;
	/* Impossible combinations, all in one place. */
	check_up(o);
	check_ruleset(o);
	return 0;
}
