/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's options: the help text, the parsing, the defaults that depend on other
 * options, and every impossible combination refused with exit 2 (crypto.c prints the run). */
#include "cmd/crypto_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "core/session/proto.h"

/* The agent-only build (NB_AGENT_ONLY) profiles for a controller (-c), not for itself: its
 * small flash keeps the agent's side of the profile, not the printing and the stacks' file. */
#ifndef NB_AGENT_ONLY
#define CRYPTO_PROFILE_HELP                                                                        \
	"      --profile[=HZ]   the kernel profile over each point's window (perf events,\n"       \
	"                       software cpu-clock, HZ per CPU, default 49, at most 4999):\n"      \
	"                       where the CPU went by subsystem (crypto by driver, the\n"          \
	"                       scheduler, interrupts, ...), ns per request and per byte,\n"       \
	"                       the top functions with their module\n"                             \
	"      --profile-folded FILE  each point's kernel stacks as folded stacks for a\n"         \
	"                       flame graph (flamegraph.pl, inferno, speedscope)\n"
#else
#define CRYPTO_PROFILE_HELP ""
#endif

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: netbench crypto [options] [-c HOST [-p PORT] [-k FILE]]\n"
	    "Cipher and MAC throughput (MB/s, 10^6), operations/s, per-request latency and CPU\n"
	    "time per KByte, by request size and engine. Every engine's output is compared with\n"
	    "a known answer and with soft before it is timed; a wrong engine is never timed.\n\n"
	    "      --algo LIST      algorithms (default all): aes-128-cbc, aes-256-cbc,\n"
	    "                       aes-128-gcm, aes-256-gcm, chacha20-poly1305, hmac-sha1,\n"
	    "                       hmac-sha256, aes-128-cbc-hmac-sha1 (ESP-style), all\n"
	    "  -l, -s, --sizes LIST     request sizes in bytes, 1..64k (default\n"
	    "                       16,64,256,1024,1420,8192,16384); CBC pads to 16 as ESP does\n"
	    "  -e, --engine LIST    soft, devcrypto, afalg, all (default all);\n"
	    "                       afalg:DRIVER binds that kernel driver (a driver name of\n"
	    "                       /proc/crypto, e.g. afalg:cbc(aes-generic), or ESP's\n"
	    "                       afalg:authenc(hmac(sha1-generic),cbc(aes-generic)) with\n"
	    "                       --algo aes-128-cbc-hmac-sha1; commas inside parentheses\n"
	    "                       belong to the name); afalg:all times\n"
	    "                       every driver of the algorithms, hardware and software, and\n"
	    "                       gives each hardware driver's crossover with the fastest\n"
	    "                       software one (on this host: not with -c)\n"
	    "  -t, --time DUR       measurement window per size (default 0.5 s; 10ms..60s)\n"
	    "      --repeat N       the window as N consecutive equal parts (default 3; 1..20):\n"
	    "                       their rates give each MB/s its 95 %% interval, and a\n"
	    "                       difference inside the intervals is not one\n"
	    "  -n, --inflight N     requests in flight, one thread each (default 1; at most 64)\n"
	    "      --aad BYTES      associated data per AEAD request (default 8, ESP; 0..64)\n"
	    "  -q, --quick          short windows (50 ms), for a demo in a few "
	    "seconds\n" CRYPTO_PROFILE_HELP
	    "  -c, --client HOST[:PORT]  (alias --connect; [IPv6]:PORT)\n"
	    "                       run on the agent (netbench serve) at HOST, e.g. the board\n"
	    "  -p, --port PORT      the agent's control port (default 5301)\n"
	    "  -k, --psk FILE       pre-shared key the agent requires\n"
	    "  -4, -6               IPv4 or IPv6 only, for -c\n"
	    "  -J, --json           one JSON document (schema netbench/1) on stdout\n" CLI_SAVE_HELP
	    "  -h, --help           this help\n" CLI_VERSION_HELP "\n"
	    "Units: MB/s = 10^6 bytes/s of request payload; CPU us/KByte = CPU microseconds\n"
	    "per 1024 bytes, of this process (proc) and of the whole system (sys).\n");
}

int crypto_parse_opts(int argc, char **argv, struct crypto_opts *o)
{
	enum { OPT_AAD = 256, OPT_REPEAT, OPT_PROFILE, OPT_FOLDED };
	static const struct option opts[] = {
	    {"algo", required_argument, NULL, 'a'},
	    {"sizes", required_argument, NULL, 's'},
	    {"engine", required_argument, NULL, 'e'},
	    {"time", required_argument, NULL, 't'},
	    {"inflight", required_argument, NULL, 'n'},
	    {"aad", required_argument, NULL, OPT_AAD},
	    {"repeat", required_argument, NULL, OPT_REPEAT},
	    {"quick", no_argument, NULL, 'q'},
#ifndef NB_AGENT_ONLY /* an agent-only build has no crypto profile (crypto_params.h) */
	    {"profile", optional_argument, NULL, OPT_PROFILE},
	    {"profile-folded", required_argument, NULL, OPT_FOLDED},
#endif
	    CLI_COMMON_LONGOPTS,
	    CLI_REMOTE_LONGOPTS,
	    CLI_SAVE_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct nb_crypto_params *p = &o->p;
	struct nb_ctl_target *rm = &o->remote;
	struct cli_remote remote = {.t = rm};
	const struct cli_common cc = {&o->json, &remote, &o->save, NULL, usage};
	const char *engines = NULL; /* applied after -a: afalg:all depends on the algorithms */
	bool quick = false, time_set = false;
	char bad[80];
	int c, li = -1, ret;

	memset(o, 0, sizeof(*o));
	rm->port = NB_DEFAULT_PORT;
	rm->family = AF_UNSPEC;
	nb_crypto_params_default(p);
	while ((c = getopt_long(argc, argv, ":a:s:l:e:t:n:qJc:p:k:46hVo:", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		switch (c) {
		case 'a': /* hidden: --algo's letter in older scripts; -a is stream's group */
			ret = nb_crypto_select_algos(p, optarg, bad, sizeof(bad));
			if (ret == -E2BIG)
				cli_usage_error("%s: too many algorithms (at most %d)", name,
						NB_CRYPTO_MAX_ALGOS);
			if (ret)
				cli_usage_error("%s: unknown algorithm '%s' (see --help)", name,
						bad);
			break;
		case 'e':
			engines = optarg;
			break;
		case 's':
		case 'l': {
			uint64_t sz[NB_CRYPTO_MAX_SIZES];
			p->nsizes = cli_bytes_list(name, optarg, sz, NB_CRYPTO_MAX_SIZES, 1,
						   NB_CRYPTO_MAX_SIZE);
			for (size_t i = 0; i < p->nsizes; i++)
				p->sizes[i] = (uint32_t)sz[i];
			break;
		}
		case 't':
			p->time_ns = cli_duration_ns(name, optarg, 10000000ull, 60000000000ull);
			time_set = true;
			break;
		case 'n':
			p->inflight = (uint32_t)cli_uint(name, optarg, 1, NB_CRYPTO_MAX_INFLIGHT);
			break;
		case OPT_AAD:
			p->aad_len = (uint32_t)cli_uint(name, optarg, 0, NB_CRYPTO_MAX_AAD);
			break;
		case OPT_REPEAT:
			p->repeat = (uint32_t)cli_uint(name, optarg, 1, NB_CRYPTO_MAX_REPEAT);
			break;
		case 'q':
			quick = true;
			break;
#ifndef NB_AGENT_ONLY
		case OPT_PROFILE:
			p->profile_hz = optarg ? (uint32_t)cli_uint(name, optarg, 1, NB_PROF_HZ_MAX)
					       : NB_PROF_HZ_DEFAULT;
			break;
		case OPT_FOLDED:
			if (!*optarg)
				cli_usage_error("--profile-folded: an empty file name");
			o->profile_folded = optarg;
			cli_check_writable("--profile-folded", optarg);
			break;
#endif
		default:
			cli_common_option(&cc, c, name, argc, argv);
		}
	}
	cli_remote_args(&remote, argc, argv);
	if (engines && rm->host && strstr(engines, "afalg:all"))
		cli_usage_error("--engine afalg:all lists this host's drivers: run netbench crypto "
				"on the board itself, or name the drivers (afalg:DRIVER)");
	if (engines) {
		ret = nb_crypto_select_engines(p, engines, bad, sizeof(bad));
		if (ret == -E2BIG)
			cli_usage_error("--engine: too many engines (at most %d)",
					NB_CRYPTO_MAX_ENGINES);
		if (ret == -EINVAL)
			cli_usage_error("--engine: parentheses do not match in '%s'", bad);
		if (ret)
			cli_usage_error("--engine: unknown engine '%s' (soft, devcrypto, afalg, "
					"afalg:DRIVER, afalg:all, all)",
					bad);
	}
	cli_save_start(&o->save, "crypto", o->json);
	cli_remote_finish(&remote);
	/* The stacks come from the profile: --profile-folded asks for it at the default rate. */
	if (o->profile_folded && !p->profile_hz)
		p->profile_hz = NB_PROF_HZ_DEFAULT;
	p->profile_folded = o->profile_folded != NULL;
	if (quick && !time_set)
		p->time_ns = 50000000ull;
	/* Warm-up: a fifth of the window, at most 100 ms (caches, clocks, lazy setup). */
	p->warmup_ns = p->time_ns / 5 < 100000000ull ? p->time_ns / 5 : 100000000ull;
	return 0;
}
