/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem: the memory system behind the frame rate. Parses the options, runs the probe
 * (core/mem/mem.h) here or, with -c, on an agent (core/mem/mem_agent.h), and prints the latency
 * curve, the inferred caches beside sysfs, and bandwidth the same way for both. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/cli.h"
#include "cmd/progress.h"
#include "cmd/save.h"
#include "cmd/commands.h"
#include "cmd/virt_note.h"
#include "core/session/auth.h"
#include "core/session/ctl.h"
#include "core/mem/mem.h"
#include "core/mem/mem_agent.h"
#include "core/base/result.h"
#include "core/base/sysinfo.h"

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

static void fmt_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ULL << 30) && b % (1ULL << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(b >> 30));
	else if (b >= (1ULL << 20) && b % (1ULL << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= (1ULL << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1 << 20));
	else if (b % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%.1f KiB", (double)b / 1024);
}

static void print_cycles(double c)
{
	if (isnan(c))
		printf("  %11s", "-");
	else
		printf("  %11.1f", c);
}

static void print_human(const struct nb_mem_result *r)
{
	char a[32], b[32];
	const struct nb_mem_cache *dc[NB_MEM_MAX_CACHES];
	size_t ndc = 0, rows, all_preempted = 0;

	printf("netbench mem: %s dependent loads, %u-byte stride; ",
	       nb_mem_pattern_name(r->opts.pattern), r->line_bytes);
	if (r->opts.cpu_mhz)
		printf("core clock %u MHz (as the kernel reports it)\n", r->opts.cpu_mhz);
	else
		printf("core clock unknown (no cycles)\n");
	if (r->capped) {
		fmt_size(r->avail_bytes, a, sizeof(a));
		printf("  sizes capped at half of the available memory (%s)\n", a);
	}
	printf("\n  %12s  %9s  %11s   (best of %u trials, preempted ones set aside)\n",
	       "working set", "ns/load", "cycles/load", r->trials);
	for (size_t i = 0; i < r->n_lat; i++) {
		fmt_size(r->lat[i].set_bytes, a, sizeof(a));
		printf("  %12s  %9.2f", a, r->lat[i].ns_per_load);
		print_cycles(r->lat[i].cycles_per_load);
		printf("\n");
	}
	for (size_t i = 0; i < r->n_lat; i++)
		all_preempted += r->lat[i].trials_preempted >= r->trials;
	if (r->interrupted && isnan(r->mem_latency_ns)) {
		printf("\ninterrupted: %zu latency point%s measured; no memory latency, caches or "
		       "bandwidth\n",
		       r->n_lat, r->n_lat == 1 ? "" : "s");
		return;
	}
	fmt_size(r->lat[r->n_lat - 1].set_bytes, a, sizeof(a));
	printf("\n  memory latency: %.1f ns", r->mem_latency_ns);
	if (!isnan(r->mem_latency_cycles))
		printf(" = %.0f cycles", r->mem_latency_cycles);
	if (r->opts.pattern == NB_MEM_SEQ)
		printf(" (at %s, seq: what the prefetcher leaves)\n", a);
	else
		printf(" (at %s)\n", a);
	if (r->lat_cpu.valid && r->lat_cpu.window_s > 0) {
		double other = nb_cpu_other_pct(&r->lat_cpu, 0) / 100.0;
		printf(
		    "  CPU over the sweep: system %.0f %% busy, this process %.0f %% of one CPU\n",
		    r->lat_cpu.busy_pct, r->lat_cpu.proc_pct);
		if (all_preempted)
			printf("  note: at %zu of %zu sizes every trial was preempted by other "
			       "work\n",
			       all_preempted, r->n_lat);
		if (isfinite(other) && other > 0.2)
			printf("  note: other work used %.0f %% of a CPU meanwhile; figures may be "
			       "noisy\n",
			       other * 100);
	}

	for (size_t i = 0; i < r->n_sysfs; i++)
		if (strcmp(r->sysfs[i].type, "Instruction"))
			dc[ndc++] = &r->sysfs[i];
	rows = ndc > r->n_steps ? ndc : r->n_steps;
	printf("\nCaches: inferred from the latency steps, beside "
	       "/sys/devices/system/cpu/cpu0/cache\n");
	if (!rows)
		printf("  none found (flat curve, and sysfs lists no caches)\n");
	else
		printf("  %-6s  %-10s  %-12s  %s\n", "level", "sysfs", "inferred",
		       "ns/load below -> above");
	for (size_t i = 0; i < rows; i++) {
		char lvl[16] = "-";
		if (i < ndc) {
			snprintf(lvl, sizeof(lvl), "L%u%s", dc[i]->level,
				 !strcmp(dc[i]->type, "Data") ? "d" : "");
			fmt_size(dc[i]->size_bytes, a, sizeof(a));
		} else {
			snprintf(a, sizeof(a), "-");
		}
		if (i < r->n_steps)
			fmt_size(r->steps[i].size_bytes, b, sizeof(b));
		else
			snprintf(b, sizeof(b), "-");
		if (i < r->n_steps)
			printf("  %-6s  %-10s  %-12s  %.1f -> %.1f\n", lvl, a, b,
			       r->steps[i].ns_below, r->steps[i].ns_above);
		else
			printf("  %-6s  %-10s  %s\n", lvl, a, b);
	}
	if (!r->n_steps && r->opts.pattern == NB_MEM_SEQ)
		printf("  (seq: the prefetcher hides the steps; --pattern random shows them)\n");
	if (r->n_steps && r->opts.quick)
		printf("  (quick: sizes double, so an inferred size is within 2x)\n");

	if (r->interrupted && !r->n_bw) {
		printf("\ninterrupted: no bandwidth measured\n");
		return;
	}
	fmt_size(r->bw_bytes, a, sizeof(a));
	printf("\nBandwidth: buffer %s (%s), MB/s = 10^6 bytes/s, best of %u trials\n", a,
	       r->bw_bytes_from, r->n_bw ? r->bw[0].trials : 0);
	if (r->bw_bytes_from && !strcmp(r->bw_bytes_from, "quick cap")) {
		char llc[32];
		fmt_size(nb_mem_bw_llc_bytes(r), llc, sizeof(llc));
		printf("  note: --quick caps the buffer at %s, %s the %s last-level cache: the "
		       "figures are\n  partly cache bandwidth (run without --quick for memory "
		       "bandwidth)\n",
		       a, r->bw_bytes > nb_mem_bw_llc_bytes(r) ? "less than 4x" : "within", llc);
	}
	printf("  %7s  %11s  %11s  %11s  %12s  %13s\n", "threads", "read MB/s", "write MB/s",
	       "copy MB/s", "system busy", "this process");
	for (size_t i = 0; i < r->n_bw; i++) {
		const struct nb_mem_bw_point *p = &r->bw[i];
		printf("  %7u  %11.0f  %11.0f  %11.0f", p->threads, p->read_mbyte_per_s,
		       p->write_mbyte_per_s, p->copy_mbyte_per_s);
		if (p->cpu.valid)
			printf("  %10.0f %%  %11.0f %%\n", p->cpu.busy_pct, p->cpu.proc_pct);
		else
			printf("  %12s  %13s\n", "-", "-");
	}
	for (size_t i = 0; i < r->n_bw; i++) {
		const struct nb_mem_bw_point *p = &r->bw[i];
		if (p->trials_preempted >= 3 * p->trials)
			printf("  %u thread%s: every trial was preempted by other work (kept: "
			       "figures may be low)\n",
			       p->threads, p->threads > 1 ? "s" : "");
		else if (p->trials_preempted)
			printf(
			    "  %u thread%s: %u of %u trials preempted by other work, set aside\n",
			    p->threads, p->threads > 1 ? "s" : "", p->trials_preempted,
			    3 * p->trials);
	}
}

/* The progress line (on a terminal) of a local run. Latency points take from milliseconds to
 * seconds as the set grows, and a bandwidth round longer still: no time left is shown. */
static void on_progress(void *arg, const struct nb_mem_progress *ev)
{
	char set[32];
	(void)arg;

	if (!ev->step)
		progress_begin("mem", ev->nsteps, -1);
	fmt_size(ev->set_bytes, set, sizeof(set));
	if (ev->bandwidth)
		progress_step(ev->step, "bandwidth, %u thread%s, buffer %s", ev->threads,
			      ev->threads == 1 ? "" : "s", set);
	else
		progress_step(ev->step, "latency, set %s", set);
	if (ev->bandwidth && !isnan(ev->last_read_mbyte_per_s))
		progress_result("last round read %.0f MB/s", ev->last_read_mbyte_per_s);
	else if (!isnan(ev->last_ns_per_load))
		progress_result("last point %.2f ns/load", ev->last_ns_per_load);
}

/* Ctrl-C in a local run: the probe ends at its next point and keeps what it measured. */
static atomic_bool mem_cancel;

static void on_interrupt(int sig)
{
	(void)sig;
	atomic_store(&mem_cancel, true);
}

int cmd_mem(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"min", required_argument, NULL, 'm'},
	    {"max", required_argument, NULL, 'M'},
	    {"pattern", required_argument, NULL, 'a'},
	    {"threads", required_argument, NULL, 't'},
	    {"bw-size", required_argument, NULL, 'b'},
	    {"quick", no_argument, NULL, 'q'},
	    {"client", required_argument, NULL, 'c'},
	    {"connect", required_argument, NULL, 'c'},
	    {"sizes", required_argument, NULL, 'l'},
	    {"port", required_argument, NULL, 'p'},
	    {"psk", required_argument, NULL, 'k'},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_VERSION_LONGOPT,
	    CLI_SAVE_LONGOPTS,
	    {NULL, 0, NULL, 0},
	};
	struct cli_save sv = {0};
	struct nb_mem_opts o = {0};
	struct nb_mem_result *r = NULL;
	const char *min_s = NULL, *max_s = NULL, *host = NULL, *psk_file = NULL;
	const char *remote_only = NULL; /* an option that means nothing without -c */
	struct nb_ctl *ctl = NULL;
	uint8_t psk[NB_PSK_MAX];
	size_t psk_len = 0;
	uint16_t port = NB_DEFAULT_PORT;
	bool json = false;
	int family = AF_UNSPEC, c, li, ret;
	char err[512];

	opterr = 0;
	while ((li = -1, c = getopt_long(argc, argv, ":c:p:k:l:qJhV46o:", longopts, &li)) != -1) {
		const char *name = cli_optname(longopts, c, li);
		switch (c) {
		case 'm':
			o.min_bytes = cli_bytes(name, optarg, NB_MEM_MIN_SET_BYTES, 1ULL << 36);
			min_s = optarg;
			break;
		case 'M':
			o.max_bytes = cli_bytes(name, optarg, NB_MEM_MIN_SET_BYTES, 1ULL << 36);
			max_s = optarg;
			break;
		case 'a':
			if (nb_mem_pattern_parse(optarg, &o.pattern))
				cli_usage_error(
				    "--pattern: '%s' is not a pattern (accepted: random, "
				    "seq)",
				    optarg);
			break;
		case 't':
			o.threads = (uint32_t)cli_uint(name, optarg, 1, NB_MEM_MAX_THREADS);
			break;
		case 'b':
			o.bw_bytes = cli_bytes(name, optarg, 1ULL << 20, 1ULL << 36);
			break;
		case 'l': {
			uint64_t mm[2];
			if (cli_bytes_list(name, optarg, mm, 2, NB_MEM_MIN_SET_BYTES, 1ULL << 36) !=
			    2)
				cli_usage_error("%s: '%s' is not MIN,MAX", name, optarg);
			o.min_bytes = mm[0];
			o.max_bytes = mm[1];
			min_s = max_s = optarg;
			break;
		}
		case 'q':
			o.quick = true;
			break;
		case 'c':
			host = optarg;
			break;
		case 'p':
			port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			remote_only = "--port";
			break;
		case 'k':
			psk_file = optarg;
			remote_only = "--psk";
			break;
		case '4':
			family = AF_INET;
			remote_only = "-4";
			break;
		case '6':
			family = AF_INET6;
			remote_only = "-6";
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			cli_version();
		default:
			if (cli_save_option(&sv, c, argc, argv))
				break;
			cli_bad_option(argv, c);
		}
	}
	if (host)
		host = cli_hostport("--client", host, &port);
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	cli_save_start(&sv, "mem", json);
	if (o.min_bytes && o.max_bytes && o.min_bytes > o.max_bytes)
		cli_usage_error("--min (%s) is larger than --max (%s)", min_s, max_s);
	if (o.min_bytes && !o.max_bytes && o.min_bytes > NB_MEM_DEFAULT_MAX_BYTES)
		cli_usage_error("--min is larger than the default --max (256M): give --max too");
	if (o.max_bytes && !o.min_bytes && o.max_bytes < NB_MEM_MIN_SET_BYTES)
		cli_usage_error("--max is smaller than the default --min (1k)");
	if (remote_only && !host)
		cli_usage_error("%s applies to a run on an agent: give -c HOST too", remote_only);

	if (host) {
		if (psk_file) {
			cli_psk(psk_file, psk, &psk_len);
		}
		/* Ctrl-C ends the session cleanly: the agent then cancels the run. */
		cli_catch_signals();
		ret = nb_ctl_open(&ctl, host, port, family, psk, psk_len, err, sizeof(err));
		if (ret)
			cli_fail(0, "%s", err);
		ret = nb_mem_run_remote(ctl, &o, &cli_stop, &r, err, sizeof(err));
		if (ret && cli_stop) {
			/* The agent keeps no partial result: nothing measured comes back. */
			nb_ctl_free(ctl);
			cli_warn("%s", err);
			return 130;
		}
		if (ret) {
			nb_ctl_free(ctl);
			cli_fail(0, "%s", err);
		}
	} else {
		struct sigaction sa = {.sa_handler = on_interrupt};
		atomic_init(&mem_cancel, false);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		o.cancel = &mem_cancel;
		o.progress = on_progress;
		ret = nb_mem_run(&o, &r);
		progress_end();
		if (ret)
			cli_fail(ret, "the memory probe failed");
	}
	if (r->capped)
		cli_warn("sizes capped at half of the %savailable memory", ctl ? "agent's " : "");
	if (cli_save_doc_begin(&sv) || json) {
		struct nb_json j;
		struct nb_sysinfo si;
		nb_sysinfo_get(&si, ctl ? (const struct sockaddr *)&ctl->local : NULL);
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "mem", &si, ctl ? &ctl->remote : NULL);
		if (ctl) {
			nb_json_obj_begin(&j, "agent");
			nb_json_str(&j, "host", host);
			nb_json_u64(&j, "port", nb_ctl_port(ctl));
			nb_json_obj_end(&j);
		}
		nb_mem_result_json(&j, r);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
		cli_save_doc_end(&sv);
	}
	if (!json) {
		if (ctl)
			printf("netbench mem on the agent at %s port %u: %s (%s, Linux %s)\n", host,
			       nb_ctl_port(ctl), ctl->remote.hostname, ctl->remote.arch,
			       ctl->remote.kernel);
		if (ctl)
			virt_note_print(stdout, "agent", &ctl->remote);
		print_human(r);
		if (r->interrupted && r->n_bw)
			printf("interrupted: %zu bandwidth round%s measured\n", r->n_bw,
			       r->n_bw == 1 ? "" : "s");
	}
	cli_save_finish(&sv);
	nb_ctl_free(ctl);
	ret = r->interrupted ? 130 : 0;
	nb_mem_result_free(r);
	return ret;
}
