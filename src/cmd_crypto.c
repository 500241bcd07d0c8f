/* netbench crypto: cipher/MAC throughput, latency and CPU cost per request size and engine
 * (OpenSSL in process, /dev/crypto, AF_ALG), each engine checked before it is timed. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/crypto.h"
#include "core/result.h"
#include "core/sysinfo.h"

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "Usage: netbench crypto [options]\n"
	    "Cipher and MAC throughput (MB/s, 10^6), operations/s, per-request latency and CPU\n"
	    "time per KByte, by request size and engine. Every engine's output is compared with\n"
	    "a known answer and with soft before it is timed; a wrong engine is never timed.\n\n"
	    "  -a, --algo LIST      algorithms (default all): aes-128-cbc, aes-256-cbc,\n"
	    "                       aes-128-gcm, aes-256-gcm, chacha20-poly1305, hmac-sha1,\n"
	    "                       hmac-sha256, aes-128-cbc-hmac-sha1 (ESP-style), all\n"
	    "  -s, --sizes LIST     request sizes in bytes, 1..64k (default\n"
	    "                       16,64,256,1024,1420,8192,16384); CBC pads to 16 as ESP does\n"
	    "  -e, --engine LIST    soft, devcrypto, afalg, all (default all)\n"
	    "  -t, --time DUR       measurement window per size (default 0.5 s; 10ms..60s)\n"
	    "  -n, --inflight N     requests in flight, one thread each (default 1; at most 64)\n"
	    "      --aad BYTES      associated data per AEAD request (default 8, ESP; 0..64)\n"
	    "  -q, --quick          short windows (50 ms), for a demo in a few seconds\n"
	    "  -J, --json           one JSON document (schema netbench/1) on stdout\n"
	    "  -h, --help           this help\n\n"
	    "Units: MB/s = 10^6 bytes/s of request payload; CPU us/KByte = CPU microseconds\n"
	    "per 1024 bytes, of this process (proc) and of the whole system (sys).\n");
}

static const char *hw_word(int hw)
{
	return hw == 1 ? "hardware" : hw == 0 ? "CPU" : "unknown";
}

static void print_algo(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_opts *o = &r->opts;
	const struct nb_crypto_algo *a = o->algos[ai];
	bool shown = false;

	for (size_t ei = 0; ei < o->nengines; ei++)
		shown |= nb_crypto_cell_at(r, ai, ei)->status != NB_CRYPTO_UNAVAILABLE;
	if (!shown)
		return; /* every engine unavailable: said once, above */
	printf("\n%s: %s", a->name, a->kind == NB_CRYPTO_MAC ? "MAC" : "encrypt");
	if (a->kind == NB_CRYPTO_AEAD)
		printf(", %u bytes AAD", o->aad_len);
	printf(", %u in flight, %.2f s per size\n", o->inflight, (double)o->time_ns / 1e9);
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status == NB_CRYPTO_UNAVAILABLE)
			continue; /* said once, above the tables */
		if (c->status == NB_CRYPTO_OK)
			printf("  %-10s checked: %s\n", c->engine->name, c->check);
		else
			printf("  %-10s %s: %s\n", c->engine->name,
			       nb_crypto_status_name(c->status), c->reason);
		if (c->have_driver) {
			printf("  %-10s kernel driver %s", "", c->driver.driver);
			if (c->driver.mac_driver[0])
				printf(" + %s", c->driver.mac_driver);
			if (c->driver.priority >= 0)
				printf(", priority %d", c->driver.priority);
			if (c->driver.module[0])
				printf(", module %s", c->driver.module);
			printf(" (%s)\n", hw_word(c->driver.hw));
		}
	}
	bool any = false;
	for (size_t ei = 0; ei < o->nengines; ei++)
		any |= nb_crypto_cell_at(r, ai, ei)->status == NB_CRYPTO_OK;
	if (!any)
		return;
	printf("  %6s  %-10s %10s %11s %9s %9s  %14s %10s\n", "bytes", "engine", "MB/s", "ops/s",
	       "p50 us", "p99 us", "CPU us/KB proc", "sys");
	for (size_t si = 0; si < o->nsizes; si++)
		for (size_t ei = 0; ei < o->nengines; ei++) {
			const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
			const struct nb_crypto_point *p = &c->points[si];
			if (c->status != NB_CRYPTO_OK)
				continue;
			if (!p->valid) {
				printf("  %6u  %-10s invalid: %s\n", p->size_bytes, c->engine->name,
				       p->invalid_reason);
				continue;
			}
			printf("  %6u  %-10s %10.1f %11.0f %9.2f %9.2f  %14.3f %10.3f\n",
			       p->size_bytes, c->engine->name, p->mbyte_per_s, p->ops_per_s,
			       p->lat_p50_us, p->lat_p99_us, p->proc_us_per_kbyte,
			       p->sys_us_per_kbyte);
		}
	/* Soft computes in this process: if it got much less than the CPUs it asked for, other
	 * load ate into the window and MB/s understates it (CPU us/KB does not). Kernel engines
	 * may rightly leave the process idle, so only soft is judged. */
	double least = INFINITY;
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || c->engine != &nb_crypto_soft)
			continue;
		for (size_t si = 0; si < o->nsizes; si++)
			if (c->points[si].valid && isfinite(c->points[si].cpu.proc_pct))
				least = fmin(least, c->points[si].cpu.proc_pct / o->inflight);
	}
	if (least < 80.0)
		printf("  note: soft got as little as %.0f %% of a CPU per thread at some sizes "
		       "(other "
		       "load); its MB/s is low there, its CPU us/KB is not\n",
		       least);
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || c->engine == &nb_crypto_soft)
			continue;
		if (c->crossover_index >= 0)
			printf("  crossover: %s beats soft from %u bytes up\n", c->engine->name,
			       o->sizes[c->crossover_index]);
		else if (c->crossover_index == -1)
			printf("  crossover: none, %s does not beat soft at the largest size\n",
			       c->engine->name);
		else
			printf("  crossover: unknown, soft was not measured\n");
	}
}

static void print_engines(const struct nb_crypto_result *r)
{
	const struct nb_crypto_opts *o = &r->opts;
	printf("netbench crypto: engines");
	for (size_t ei = 0; ei < o->nengines; ei++)
		printf(" %s (%s)", o->engines[ei]->name,
		       r->engine_ok[ei] ? "available" : "unavailable");
	printf("\n");
	for (size_t ei = 0; ei < o->nengines; ei++)
		if (!r->engine_ok[ei])
			printf("  %s: %s\n", o->engines[ei]->name, r->engine_reason[ei]);
}

/* Human output as the run goes: one algorithm's table as soon as it is complete. */
static void on_progress(void *arg, const struct nb_crypto_result *r, size_t ai)
{
	(void)arg;
	if (ai == 0)
		print_engines(r);
	print_algo(r, ai);
	fflush(stdout);
}

int cmd_crypto(int argc, char **argv)
{
	enum { OPT_AAD = 256 };
	static const struct option opts[] = {
	    {"algo", required_argument, NULL, 'a'},	{"sizes", required_argument, NULL, 's'},
	    {"engine", required_argument, NULL, 'e'},	{"time", required_argument, NULL, 't'},
	    {"inflight", required_argument, NULL, 'n'}, {"aad", required_argument, NULL, OPT_AAD},
	    {"quick", no_argument, NULL, 'q'},		{"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},		{NULL, 0, NULL, 0},
	};
	struct nb_crypto_opts o;
	struct nb_crypto_result *r = NULL;
	bool json = false, quick = false, time_set = false;
	char bad[80];
	int c, li = -1, ret;

	nb_crypto_opts_default(&o);
	while ((c = getopt_long(argc, argv, ":a:s:e:t:n:qJh", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		switch (c) {
		case 'a':
			ret = nb_crypto_select_algos(&o, optarg, bad, sizeof(bad));
			if (ret == -E2BIG)
				cli_usage_error("%s: too many algorithms (at most %d)", name,
						NB_CRYPTO_MAX_ALGOS);
			if (ret)
				cli_usage_error("%s: unknown algorithm '%s' (see --help)", name,
						bad);
			break;
		case 'e':
			ret = nb_crypto_select_engines(&o, optarg, bad, sizeof(bad));
			if (ret)
				cli_usage_error(
				    "%s: unknown engine '%s' (soft, devcrypto, afalg, all)", name,
				    bad);
			break;
		case 's': {
			uint64_t sz[NB_CRYPTO_MAX_SIZES];
			o.nsizes = cli_bytes_list(name, optarg, sz, NB_CRYPTO_MAX_SIZES, 1,
						  NB_CRYPTO_MAX_SIZE);
			for (size_t i = 0; i < o.nsizes; i++)
				o.sizes[i] = (uint32_t)sz[i];
			break;
		}
		case 't':
			o.time_ns = cli_duration_ns(name, optarg, 10000000ull, 60000000000ull);
			time_set = true;
			break;
		case 'n':
			o.inflight = (uint32_t)cli_uint(name, optarg, 1, NB_CRYPTO_MAX_INFLIGHT);
			break;
		case OPT_AAD:
			o.aad_len = (uint32_t)cli_uint(name, optarg, 0, NB_CRYPTO_MAX_AAD);
			break;
		case 'q':
			quick = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			cli_bad_option(argv, c);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (quick && !time_set)
		o.time_ns = 50000000ull;
	/* Warm-up: a fifth of the window, at most 100 ms (caches, clocks, lazy setup). */
	o.warmup_ns = o.time_ns / 5 < 100000000ull ? o.time_ns / 5 : 100000000ull;
	o.stop = &stop_flag;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	ret = nb_crypto_run(&o, json ? NULL : on_progress, NULL, &r);
	if (ret)
		cli_fail(ret, "run failed");

	size_t ok = 0;
	for (size_t i = 0; i < r->ncells; i++)
		ok += r->cells[i].status == NB_CRYPTO_OK;
	if (json) {
		struct nb_json j;
		struct nb_sysinfo si;
		nb_sysinfo_get(&si, NULL);
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "crypto", &si, NULL);
		nb_crypto_result_json(&j, r);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	}
	fflush(stdout);
	bool interrupted = r->interrupted;
	nb_crypto_result_free(r);
	if (interrupted)
		cli_fail(0, "interrupted");
	if (!ok)
		cli_fail(0, "no engine could run any selected algorithm here (reasons above)");
	return 0;
}
