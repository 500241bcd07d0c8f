/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench: network-performance evaluation for embedded Linux platforms. The subcommand table
 * below drives the program; usage is generated from it so that help cannot drift. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cli.h"
#include "cmd/commands.h"

/* An agent-only build (make AGENT=1, NB_AGENT_ONLY) keeps what a board runs alone: the agent,
 * stream's receiver, crypto and mem; the controller's subcommands are left out, and with them
 * (the linker's gc-sections) the code only they reach. */
static const struct nb_command commands[] = {
    {"serve", cmd_serve, "run the agent: the far end of every test, CPU load where it runs"},
#ifndef NB_AGENT_ONLY
    {"tput", cmd_tput, "netio-style throughput per block size, Tx and Rx, CPU at both ends"},
    {"rate", cmd_rate, "frames/s through a DUT: RFC 2544 throughput, loss, back-to-back,\nlatency"},
#endif
    {"stream", cmd_stream, "constant-bitrate multicast stream: loss, jitter, receiver CPU load"},
    {"crypto", cmd_crypto, "cipher/MAC throughput, latency and CPU cost per size and engine"},
    {"mem", cmd_mem, "memory latency by working set, cache sizes, bandwidth: the bus\nbehind it"},
#ifndef NB_AGENT_ONLY
    {"lab", cmd_lab, "a gen -> DUT -> sink lab of network namespaces, nftables rulesets"},
    {"results", cmd_results, "the results store: import, list, show, export --csv, rm"},
    {"compare", cmd_compare, "stored results side by side, as ratios to a baseline"},
    {"report", cmd_report, "one HTML file with a chart per test from stored results"},
#endif
};

/* A subcommand's line of the list: its summary's lines ('\n') under one another, within 80
 * columns. */
static void print_summary(FILE *f, const struct nb_command *c)
{
	const char *p = c->summary;
	size_t len = strcspn(p, "\n");
	fprintf(f, "  %-10s %.*s\n", c->name, (int)len, p);
	for (p += len; *p == '\n'; p += len) {
		len = strcspn(++p, "\n");
		fprintf(f, "%13s%.*s\n", "", (int)len, p);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: netbench <subcommand> [options]\n"
		   "       netbench <subcommand> --help\n"
		   "       netbench help <subcommand>\n"
		   "       netbench --version\n\nSubcommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		print_summary(f, &commands[i]);
	fprintf(f, "\nUnits: KByte = 1024 bytes, Mbit/s = 10^6 bit/s, fps = frames per second.\n"
		   "See netbench(1).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* netbench help SUBCMD: that subcommand's help, as SUBCMD --help prints it */
		char *args[] = {argv[2], "--help", NULL};
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				cli_set_command(commands[i].name);
				opterr = 0;
				return commands[i].fn(2, args);
			}
		fprintf(stderr, "netbench: unknown subcommand '%s'\n\n", argv[2]);
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		cli_version();
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			cli_set_command(commands[i].name);
			opterr = 0; /* cli_bad_option says it once, naming the option */
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "netbench: unknown subcommand '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
