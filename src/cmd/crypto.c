/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto: cipher/MAC throughput, latency and CPU cost per request size and engine
 * (OpenSSL in process, /dev/crypto, AF_ALG), each engine checked before it is timed. Runs here,
 * or with -c inside an agent on the board, whose result comes back piecewise and is printed by
 * the same code as a local run's. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/progress.h"
#include "cmd/save.h"
#include "cmd/commands.h"
#include "cmd/virt_note.h"
#include "core/session/auth.h"
#include "core/crypto/crypto.h"
#include "core/crypto/crypto_wire.h"
#include "core/session/ctl.h"
#include "core/base/result.h"
#include "core/base/sysinfo.h"
#include "core/base/timeutil.h"

#define MARK_EVERY_NS (250 * NB_NS_PER_MS)
#define STOP_MS	      60000 /* an interrupted run still finishes its current check */
#define LATE_NS	      (15 * NB_NS_PER_S)

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
	    "                       /proc/crypto, e.g. afalg:cbc(aes-generic)); afalg:all times\n"
	    "                       every driver of the algorithms, hardware and software, and\n"
	    "                       gives each hardware driver's crossover with the fastest\n"
	    "                       software one (on this host: not with -c)\n"
	    "  -t, --time DUR       measurement window per size (default 0.5 s; 10ms..60s)\n"
	    "  -n, --inflight N     requests in flight, one thread each (default 1; at most 64)\n"
	    "      --aad BYTES      associated data per AEAD request (default 8, ESP; 0..64)\n"
	    "  -q, --quick          short windows (50 ms), for a demo in a few seconds\n"
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

static const char *hw_word(int hw)
{
	return hw == 1 ? "hardware" : hw == 0 ? "CPU" : "unknown";
}

static void print_algo(const struct nb_crypto_result *r, size_t ai)
{
	const struct nb_crypto_opts *o = &r->opts;
	const struct nb_crypto_algo *a = o->algos[ai];
	bool shown = false;
	int w = 10; /* the engine column: afalg:DRIVER names are long */

	for (size_t ei = 0; ei < o->nengines; ei++)
		if ((int)strlen(o->engines[ei]->name) > w)
			w = (int)strlen(o->engines[ei]->name);

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
		if (c->status == NB_CRYPTO_UNAVAILABLE || !nb_crypto_cell_reached(c))
			continue; /* said once, above the tables; or a stop came first */
		if (c->status == NB_CRYPTO_OK)
			printf("  %-*s checked: %s\n", w, c->engine->name, c->check);
		else
			printf("  %-*s %s: %s\n", w, c->engine->name,
			       nb_crypto_status_name(c->status), c->reason);
		if (c->have_driver) {
			printf("  %-*s kernel driver %s", w, "", c->driver.driver);
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
	printf("  %6s  %-*s %10s %11s %9s %9s  %14s %10s\n", "bytes", w, "engine", "MB/s", "ops/s",
	       "p50 us", "p99 us", "CPU us/KB proc", "sys");
	for (size_t si = 0; si < o->nsizes; si++)
		for (size_t ei = 0; ei < o->nengines; ei++) {
			const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
			const struct nb_crypto_point *p = &c->points[si];
			if (c->status != NB_CRYPTO_OK || !nb_crypto_point_whole(p))
				continue;
			if (!p->valid) {
				printf("  %6u  %-*s invalid: %s\n", p->size_bytes, w,
				       c->engine->name, p->invalid_reason);
				continue;
			}
			printf("  %6u  %-*s %10.1f %11.0f %9.2f %9.2f  %14.3f %10.3f\n",
			       p->size_bytes, w, c->engine->name, p->mbyte_per_s, p->ops_per_s,
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
	bool cut = false, others = false; /* others: engines a crossover would be stated for */
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		cut |= !nb_crypto_cell_reached(c);
		others |= r->engine_ok[ei] && c->engine != &nb_crypto_soft;
		for (size_t si = 0; c->status == NB_CRYPTO_OK && si < o->nsizes; si++)
			cut |= !nb_crypto_point_whole(&c->points[si]);
	}
	if (cut) { /* a crossover needs every size of both engines */
		if (others)
			printf("  crossover: not established, the run was interrupted before every "
			       "engine and size was measured\n");
		return;
	}
	for (size_t ei = 0; ei < o->nengines; ei++) {
		const struct nb_crypto_cell *c = nb_crypto_cell_at(r, ai, ei);
		if (c->status != NB_CRYPTO_OK || c->engine == &nb_crypto_soft)
			continue;
		const char *vs = c->crossover_ref ? c->crossover_ref->name : "soft";
		if (c->crossover_index >= 0)
			printf("  crossover: %s beats %s from %u bytes up\n", c->engine->name, vs,
			       o->sizes[c->crossover_index]);
		else if (c->crossover_index == -1)
			printf("  crossover: none, %s does not beat %s at the largest size\n",
			       c->engine->name, vs);
		else if (c->have_driver && c->driver.hw == 0)
			continue; /* a CPU driver: it is the reference, not the question */
		else
			printf("  crossover: unknown for %s, no software engine was measured\n",
			       c->engine->name);
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
	progress_clear();
	if (ai == 0)
		print_engines(r);
	print_algo(r, ai);
	fflush(stdout);
	if (ai + 1 < r->opts.nalgos)
		progress_step(ai + 1, "%s", r->opts.algos[ai + 1]->name);
}

/* With -J: the tables are in the document; only the progress line moves. */
static void on_step(void *arg, const struct nb_crypto_result *r, size_t ai)
{
	(void)arg;
	if (ai + 1 < r->opts.nalgos)
		progress_step(ai + 1, "%s", r->opts.algos[ai + 1]->name);
}

/* The agent's side of the session, for the header and the JSON document. */
struct remote {
	const char *host;
	uint16_t port;
	int family;
	uint8_t psk[NB_PSK_MAX];
	size_t psk_len;
	struct nb_ctl *ctl;
};

/* Takes the head and every algorithm out of a SNAP or FINAL; *got counts the algorithms so
 * far, which must arrive in order. Prints each as it comes, as a local run does. */
static int take_results(struct nb_crypto_result *r, const struct nb_msg *m, size_t *got, bool print,
			char *err, size_t errlen)
{
	const uint8_t *p;
	size_t n, off = 0, ai;
	uint16_t tag;

	if (!nb_msg_get_bytes(m, NB_T_CRYPTO_HEAD, &p, &n) && nb_crypto_head_decode(r, p, n)) {
		snprintf(err, errlen, "malformed engine list from the agent");
		return -EBADMSG;
	}
	while (nb_msg_next(m, &off, &tag, &p, &n)) {
		if (tag != NB_T_CRYPTO_RESULT)
			continue;
		if (nb_crypto_algo_decode(r, p, n, &ai) || ai != *got) {
			snprintf(err, errlen, "malformed result from the agent (algorithm %zu)",
				 *got + 1);
			return -EBADMSG;
		}
		(*got)++;
		(print ? on_progress : on_step)(NULL, r, ai);
	}
	return 0;
}

/* Runs the measurement on the agent: request, start, marks that collect each algorithm as the
 * agent completes it, stop. The result is r, built from the controller's own options. */
static int run_remote(struct remote *rm, const struct nb_crypto_opts *o, bool print,
		      struct nb_crypto_result **out, char *err, size_t errlen)
{
	struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ), *snap = nb_msg_new(0);
	struct nb_crypto_result *r = nb_crypto_result_new(o);
	uint64_t bound_ns = nb_crypto_bound_ns(o), start_ns;
	uint32_t mark = 0, done = 0, finished = 0, v = 0;
	size_t got = 0;
	int ret = -ENOMEM;

	if (!req || !snap || !r) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	ret = nb_ctl_open(&rm->ctl, rm->host, rm->port, rm->family, rm->psk, rm->psk_len, err,
			  errlen);
	if (ret)
		goto out;
	if (print) {
		progress_clear();
		printf("netbench crypto on the agent at %s port %u: %s (%s, Linux %s)\n", rm->host,
		       nb_ctl_port(rm->ctl), rm->ctl->remote.hostname, rm->ctl->remote.arch,
		       rm->ctl->remote.kernel);
		virt_note_print(stdout, "agent", &rm->ctl->remote);
		if (o->nalgos)
			progress_step(0, "%s", o->algos[0]->name);
	}
	nb_msg_put_u32(req, NB_T_TEST_TYPE, NB_TEST_CRYPTO);
	nb_msg_put_u64(req, NB_T_DURATION_NS, bound_ns);
	if ((ret = nb_crypto_put_request(req, o))) {
		snprintf(err, errlen, "cannot encode the request: %s", strerror(-ret));
		goto out;
	}
	if ((ret = nb_ctl_request(rm->ctl, req, snap, err, errlen)) ||
	    (ret = nb_ctl_start(rm->ctl, err, errlen)))
		goto out;
	start_ns = nb_mono_ns();
	while (!cli_stop) {
		if ((ret = nb_ctl_mark(rm->ctl, ++mark, snap, err, errlen)) ||
		    (ret = take_results(r, snap, &got, print, err, errlen)))
			goto out;
		if (nb_msg_get_u32(snap, NB_T_CRYPTO_DONE, &done) ||
		    nb_msg_get_u32(snap, NB_T_CRYPTO_FINISHED, &finished)) {
			snprintf(err, errlen, "malformed snapshot from the agent");
			ret = -EBADMSG;
			goto out;
		}
		if (finished && got >= done)
			break;
		if (got < done)
			continue; /* more complete than one message held: fetch the rest now */
		if (nb_mono_ns() > start_ns + bound_ns + LATE_NS) {
			snprintf(err, errlen, "the agent did not finish within %.0f s",
				 (double)(bound_ns + LATE_NS) / 1e9);
			ret = -ETIMEDOUT;
			goto out;
		}
		nb_sleep_until_ns(nb_mono_ns() + MARK_EVERY_NS);
	}
	if ((ret = nb_ctl_stop(rm->ctl, snap, STOP_MS, err, errlen)) ||
	    (ret = take_results(r, snap, &got, print, err, errlen)))
		goto out;
	if (!nb_msg_get_u32(snap, NB_T_CRYPTO_RUN_ERR, &v)) {
		snprintf(err, errlen, "the run failed on the agent: %s", strerror((int)v));
		ret = -EIO;
		goto out;
	}
	v = 0;
	nb_msg_get_u32(snap, NB_T_CRYPTO_INTERRUPTED, &v);
	r->interrupted = v || cli_stop;
	if (got < o->nalgos && !r->interrupted) {
		snprintf(err, errlen, "the agent sent %zu of %zu algorithms", got, o->nalgos);
		ret = -EBADMSG;
		goto out;
	}
	*out = r;
	r = NULL;
	ret = 0;
out:
	nb_crypto_result_free(r);
	nb_msg_free(req);
	nb_msg_free(snap);
	return ret;
}

int cmd_crypto(int argc, char **argv)
{
	enum { OPT_AAD = 256 };
	static const struct option opts[] = {
	    {"algo", required_argument, NULL, 'a'},
	    {"sizes", required_argument, NULL, 's'},
	    {"engine", required_argument, NULL, 'e'},
	    {"time", required_argument, NULL, 't'},
	    {"inflight", required_argument, NULL, 'n'},
	    {"aad", required_argument, NULL, OPT_AAD},
	    {"quick", no_argument, NULL, 'q'},
	    {"json", no_argument, NULL, 'J'},
	    {"client", required_argument, NULL, 'c'},
	    {"connect", required_argument, NULL, 'c'},
	    {"port", required_argument, NULL, 'p'},
	    {"psk", required_argument, NULL, 'k'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_VERSION_LONGOPT,
	    CLI_SAVE_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct cli_save sv = {0};
	struct remote rm = {.port = NB_DEFAULT_PORT, .family = AF_UNSPEC};
	const char *psk_file = NULL, *remote_only = NULL; /* an option that needs -c */
	const char *engines = NULL; /* applied after -a: afalg:all depends on the algorithms */
	struct nb_crypto_opts o;
	struct nb_crypto_result *r = NULL;
	bool json = false, quick = false, time_set = false;
	char bad[80];
	int c, li = -1, ret;

	nb_crypto_opts_default(&o);
	while ((c = getopt_long(argc, argv, ":a:s:l:e:t:n:qJc:p:k:46hVo:", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		switch (c) {
		case 'a': /* hidden: --algo's letter in older scripts; -a is stream's group */
			ret = nb_crypto_select_algos(&o, optarg, bad, sizeof(bad));
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
		case 'c':
			rm.host = optarg;
			break;
		case 'p':
			rm.port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			remote_only = "--port";
			break;
		case 'k':
			psk_file = optarg;
			remote_only = "--psk";
			break;
		case '4':
			rm.family = AF_INET;
			remote_only = "-4";
			break;
		case '6':
			rm.family = AF_INET6;
			remote_only = "-6";
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			cli_version();
		default:
			if (!cli_save_option(&sv, c, argc, argv))
				cli_bad_option(argv, c);
		}
	}
	if (rm.host)
		rm.host = cli_hostport("--client", rm.host, &rm.port);
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (engines && rm.host && strstr(engines, "afalg:all"))
		cli_usage_error("--engine afalg:all lists this host's drivers: run netbench crypto "
				"on the board itself, or name the drivers (afalg:DRIVER)");
	if (engines) {
		ret = nb_crypto_select_engines(&o, engines, bad, sizeof(bad));
		if (ret == -E2BIG)
			cli_usage_error("--engine: too many engines (at most %d)",
					NB_CRYPTO_MAX_ENGINES);
		if (ret)
			cli_usage_error("--engine: unknown engine '%s' (soft, devcrypto, afalg, "
					"afalg:DRIVER, afalg:all, all)",
					bad);
	}
	cli_save_start(&sv, "crypto", json);
	if (remote_only && !rm.host)
		cli_usage_error("%s applies to a run on an agent: give -c HOST too", remote_only);
	if (psk_file) {
		cli_psk(psk_file, rm.psk, &rm.psk_len);
	}
	if (quick && !time_set)
		o.time_ns = 50000000ull;
	/* Warm-up: a fifth of the window, at most 100 ms (caches, clocks, lazy setup). */
	o.warmup_ns = o.time_ns / 5 < 100000000ull ? o.time_ns / 5 : 100000000ull;
	o.stop = &cli_stop;
	cli_catch_signals();
	/* A step per algorithm: every engine at every size, each a warm-up and a window (the
	 * correctness checks and the engines that cannot run show in the pace). */
	progress_begin("crypto", o.nalgos,
		       (double)(o.nengines * o.nsizes) * (double)(o.time_ns + o.warmup_ns) / 1e9);
	if (o.nalgos)
		progress_step(0, "%s", o.algos[0]->name);

	if (rm.host) {
		char err[512] = "";
		ret = run_remote(&rm, &o, !json, &r, err, sizeof(err));
		if (ret) {
			nb_ctl_free(rm.ctl);
			cli_fail(0, "%s", err);
		}
	} else {
		ret = nb_crypto_run(&o, json ? on_step : on_progress, NULL, &r);
		if (ret)
			cli_fail(ret, "run failed");
	}

	progress_end();
	size_t ok = 0;
	for (size_t i = 0; i < r->ncells; i++)
		ok += r->cells[i].status == NB_CRYPTO_OK;
	if (cli_save_doc_begin(&sv) || json) {
		struct nb_json j;
		struct nb_sysinfo si;
		nb_sysinfo_get(&si, rm.ctl ? (const struct sockaddr *)&rm.ctl->local : NULL);
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "crypto", &si, rm.ctl ? &rm.ctl->remote : NULL);
		if (rm.ctl) {
			nb_json_obj_begin(&j, "agent");
			nb_json_str(&j, "host", rm.host);
			nb_json_u64(&j, "port", nb_ctl_port(rm.ctl));
			nb_json_obj_end(&j);
		}
		nb_crypto_result_json(&j, r);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
		cli_save_doc_end(&sv);
	}
	fflush(stdout);
	if (ok)
		cli_save_finish(&sv);
	bool interrupted = r->interrupted;
	size_t whole = 0, planned = 0;
	for (size_t i = 0; i < r->ncells; i++)
		for (size_t si = 0; r->cells[i].status == NB_CRYPTO_OK && si < r->opts.nsizes; si++)
			whole += nb_crypto_point_whole(&r->cells[i].points[si]);
	for (size_t ei = 0; ei < r->opts.nengines; ei++)
		planned += r->engine_ok[ei] ? r->opts.nalgos * r->opts.nsizes : 0;
	nb_crypto_result_free(r);
	nb_ctl_free(rm.ctl);
	if (interrupted) {
		/* Ctrl-C: what was measured whole is printed and kept, as in every test. */
		if (json)
			cli_warn("interrupted: %zu (algorithm, engine, size) points measured, of "
				 "at most %zu",
				 whole, planned);
		else
			printf("\ninterrupted: %zu (algorithm, engine, size) points measured, of "
			       "at most %zu\n",
			       whole, planned);
		return 130;
	}
	if (!ok)
		cli_fail(0, "no engine could run any selected algorithm %s (reasons above)",
			 rm.host ? "on the agent" : "here");
	return 0;
}
