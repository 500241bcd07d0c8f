/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem's options: the help text, the parsing, and every impossible combination refused
 * with exit 2 (mem.c drives the run through core and prints). */
#include "cmd/mem_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "core/session/proto.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: netbench mem [options]\n"
	    "       netbench mem -c HOST [-p PORT] [-k FILE] [options]\n"
	    "\n"
	    "Memory latency by working-set size (dependent loads, ns and core cycles per load),\n"
	    "cache sizes inferred from the latency curve beside what sysfs says, and read/write/\n"
	    "copy bandwidth for a buffer at least 4x the last-level cache (about 10 s).\n"
	    "\n"
	    "Options:\n"
	    "  -l, --sizes MIN,MAX  the two below in one option\n"
	    "  --min SIZE         smallest working set (default 1k; k/M/G = 1024-based)\n"
	    "  --max SIZE         largest working set (default 256M; capped at half of the\n"
	    "                     available memory)\n"
	    "  --pattern P        random: one random cycle through the lines, defeats\n"
	    "                     prefetchers (default); seq: line after line, shows what the\n"
	    "                     prefetcher hides\n"
	    "  --threads N        bandwidth with 1 and with N threads (default: online CPUs)\n"
	    "  --bw-size SIZE     bandwidth buffer (default 4x the last-level cache)\n"
	    "  -q, --quick        fewer points, shorter trials, bandwidth buffer at most 64M:\n"
	    "                     seconds (with a last-level cache over 16M the bandwidth is\n"
	    "                     then partly cache bandwidth; --bw-size overrides the cap)\n"
	    "  -J, --json         print the result as JSON (schema netbench/1)\n" CLI_SAVE_HELP
	    "  -h, --help         this help\n" CLI_VERSION_HELP "\n"
	    "On a board ('netbench serve' running there), from this host:\n"
	    "  -c, --client HOST[:PORT]  (alias --connect; [IPv6]:PORT)\n"
	    "                     run the probe on the agent at HOST; the options above apply\n"
	    "                     there (sizes capped by the board's memory)\n"
	    "  -p, --port PORT    the agent's control port (default 5301)\n"
	    "  -k, --psk FILE     pre-shared key the agent requires\n"
	    "  -4, -6             use IPv4 / IPv6 only\n"
	    "\n"
	    "MB/s = 10^6 bytes per second; copy counts each byte copied once.\n");
}

int mem_parse_opts(int argc, char **argv, struct mem_opts *o)
{
	static const struct option longopts[] = {
	    {"min", required_argument, NULL, 'm'},
	    {"max", required_argument, NULL, 'M'},
	    {"pattern", required_argument, NULL, 'a'},
	    {"threads", required_argument, NULL, 't'},
	    {"bw-size", required_argument, NULL, 'b'},
	    {"quick", no_argument, NULL, 'q'},
	    {"sizes", required_argument, NULL, 'l'},
	    CLI_COMMON_LONGOPTS,
	    CLI_REMOTE_LONGOPTS,
	    CLI_SAVE_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct nb_mem_params *p = &o->p;
	struct nb_ctl_target *rm = &o->remote;
	struct cli_remote remote = {.t = rm};
	const struct cli_common cc = {&o->json, &remote, &o->save, NULL, usage};
	const char *min_s = NULL, *max_s = NULL;
	char sizes_opt[16] = "";
	int c, li;

	memset(o, 0, sizeof(*o));
	rm->port = NB_DEFAULT_PORT;
	rm->family = AF_UNSPEC;

	opterr = 0;
	while ((li = -1, c = getopt_long(argc, argv, ":c:p:k:l:qJhV46o:", longopts, &li)) != -1) {
		const char *name = cli_optname(longopts, c, li);
		switch (c) {
		case 'm':
			p->min_bytes = cli_bytes(name, optarg, NB_MEM_MIN_SET_BYTES, 1ULL << 36);
			min_s = optarg;
			break;
		case 'M':
			p->max_bytes = cli_bytes(name, optarg, NB_MEM_MIN_SET_BYTES, 1ULL << 36);
			max_s = optarg;
			break;
		case 'a':
			if (nb_mem_pattern_parse(optarg, &p->pattern))
				cli_usage_error(
				    "--pattern: '%s' is not a pattern (accepted: random, "
				    "seq)",
				    optarg);
			break;
		case 't':
			p->threads = (uint32_t)cli_uint(name, optarg, 1, NB_MEM_MAX_THREADS);
			break;
		case 'b':
			p->bw_bytes = cli_bytes(name, optarg, 1ULL << 20, 1ULL << 36);
			break;
		case 'l': {
			uint64_t mm[2];
			if (cli_bytes_list(name, optarg, mm, 2, NB_MEM_MIN_SET_BYTES, 1ULL << 36) !=
			    2)
				cli_usage_error("%s: '%s' is not MIN,MAX", name, optarg);
			p->min_bytes = mm[0];
			p->max_bytes = mm[1];
			min_s = max_s = optarg;
			/* name is the parser's buffer: the message needs it after the loop */
			snprintf(sizes_opt, sizeof(sizes_opt), "%s", name);
			break;
		}
		case 'q':
			p->quick = true;
			break;
		default:
			cli_common_option(&cc, c, name, argc, argv);
		}
	}
	cli_remote_args(&remote, argc, argv);
	cli_save_start(&o->save, "mem", o->json);
	if (p->min_bytes && p->max_bytes && p->min_bytes > p->max_bytes && min_s == max_s)
		cli_usage_error("%s %s: MIN is larger than MAX (give the smaller size first)",
				sizes_opt, min_s);
	if (p->min_bytes && p->max_bytes && p->min_bytes > p->max_bytes)
		cli_usage_error("--min (%s) is larger than --max (%s)", min_s, max_s);
	if (p->min_bytes && !p->max_bytes && p->min_bytes > NB_MEM_DEFAULT_MAX_BYTES)
		cli_usage_error("--min is larger than the default --max (256M): give --max too");
	if (p->max_bytes && !p->min_bytes && p->max_bytes < NB_MEM_MIN_SET_BYTES)
		cli_usage_error("--max is smaller than the default --min (1k)");
	cli_remote_finish(&remote);
	return 0;
}
