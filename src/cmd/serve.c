/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench serve: the agent. Parses options, binds the control port, optionally daemonizes
 * with a pid file, and serves controllers until signalled. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/base/atomicfile.h"
#include "core/base/daemon.h"
#include "cmd/commands.h"
#include "core/session/agent.h"
#include "core/session/auth.h"
#include "core/base/timeutil.h"

static const char usage_text[] =
    "Usage: netbench serve [options]\n"
    "Run the agent: the far end of every test a controller\n"
    "asks for, one test at a time.\n"
    "\n"
    "  -p, --port PORT        control port (default 5301)\n"
    "  -B, --bind ADDR        listen on this address only\n"
    "                         (default: all, IPv6 and IPv4)\n"
    "  -D, --daemon           detach and run in the background\n"
    "      --pid-file FILE    write the agent's pid here (removed on exit)\n"
    "      --log FILE         append one line per test here\n"
    "                         (default: stderr; syslog with -D)\n"
    "      --once             exit after one controller's tests (for scripts)\n"
    "      --max-time SEC     refuse tests longer than this (default 600 s)\n"
    "      --quiet-time SEC   end a running test, and free its ports, when its\n"
    "                         controller sends nothing for this long (default 30 s;\n"
    "                         controllers send a keepalive every third of it)\n"
    "      --max-rate RATE    refuse to send faster than this on the wire (headers\n"
    "                         and framing counted), bit/s with k/M/G (default: none)\n"
    "      --max-pps N        refuse to send more packets per\n"
    "                         second than this (default: none)\n"
    "      --allow-mcast-any  send to any multicast group (default:\n"
    "                         239.0.0.0/8, ff01-ff05 only)\n"
    "      --mcast-ttl N      highest multicast TTL / hop limit allowed (default 1)\n"
    "      --mcast-iface LIST interfaces (comma-separated) multicast may also leave\n"
    "                         by (default: only the control connection's interface)\n"
    "  -k, --psk FILE         require controllers to prove this pre-shared key\n"
    "      --allow-target-any send test traffic to addresses\n"
    "                         other than the controller's\n"
    "      --allow-tuning     let an observing controller set this box's CPU clock\n"
    "                         (cpufreq) and receive steering (RPS) for its test; both\n"
    "                         are restored when the test ends; and let tput -C use a\n"
    "                         loaded TCP congestion control outside\n"
    "                         tcp_allowed_congestion_control on its connections\n"
    "      --no-profile       refuse any controller's kernel profile (observe, tput,\n"
    "                         stream: perf events, kernel symbols); asked-for rates\n"
    "                         are capped at 4999 Hz and 1 MiB of buffer per CPU in\n"
    "                         any case\n"
    "  -h, --help             this help\n" CLI_VERSION_HELP "\n"
    "The agent sends test traffic only to the controller's own address unless\n"
    "--allow-target-any is given, and multicast only to administratively scoped\n"
    "groups with TTL 1 out of the control connection's interface unless widened. A\n"
    "second controller gets a 'busy' error at once.\n";

/* --mcast-iface: 1 to 8 interface names of 1 to 15 characters, comma-separated. */
static void check_iface_list(const char *name, const char *list)
{
	size_t count = 0;
	for (const char *p = list;; count++) {
		size_t len = strcspn(p, ",");
		if (len < 1 || len > 15 || strcspn(p, " \t/") < len || count >= 8)
			cli_usage_error("%s '%s': 1 to 8 interface names of 1 to 15 characters, "
					"comma-separated",
					name, list);
		if (!p[len])
			break;
		p += len + 1;
	}
}

struct log_sink {
	FILE *f;
	bool syslog;
};

static void log_line(void *arg, const char *line)
{
	struct log_sink *s = arg;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (s->syslog) {
		syslog(LOG_INFO, "%s", line);
		return;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(s->f, "%s netbench serve: %s\n", when, line);
	fflush(s->f);
}

static int write_pid_file(const char *path)
{
	struct nb_atomic_file a;
	int ret = nb_atomic_open(&a, path, 0644);
	if (ret)
		return ret;
	fprintf(a.f, "%ld\n", (long)getpid());
	return nb_atomic_commit(&a);
}

/* The options that set the agent's policy (its caps and rules); false for another. */
static bool policy_option(struct nb_agent_policy *pol, int c, const char *name, const char *arg)
{
	switch (c) {
	case 'T':
		pol->max_time_ns = cli_duration_ns(name, arg, NB_NS_PER_S, 86400 * NB_NS_PER_S);
		break;
	case 'Q':
		pol->quiet_ns = cli_duration_ns(name, arg, NB_NS_PER_S, 3600 * NB_NS_PER_S);
		break;
	case 'R':
		pol->max_rate_bps = cli_rate(name, arg, 1000, 400000000000ULL);
		break;
	case 'A':
		pol->allow_any_target = true;
		break;
	case 'U':
		pol->allow_tuning = true;
		break;
	case 'N':
		pol->no_profile = true;
		break;
	case 'P':
		pol->max_pps = cli_uint(name, arg, 1, 1000000000);
		break;
	case 'M':
		pol->mcast_any_group = true;
		break;
	case 'Y':
		pol->mcast_max_ttl = (uint32_t)cli_uint(name, arg, 1, 255);
		break;
	case 'I':
		check_iface_list(name, arg);
		pol->mcast_ifaces = arg;
		break;
	default:
		return false;
	}
	return true;
}

/* What serve's options give besides the agent's: where its pid, its log and its key are,
 * and whether it runs as a daemon. */
struct serve_cli {
	const char *pid_file, *log_file, *psk_file;
	bool daemon_mode;
};

static void serve_parse_opts(int argc, char **argv, struct nb_agent_opts *o, struct serve_cli *sc)
{
	static const struct option opts[] = {
	    {"port", required_argument, NULL, 'p'},
	    {"bind", required_argument, NULL, 'B'},
	    {"daemon", no_argument, NULL, 'D'},
	    {"pid-file", required_argument, NULL, 'f'},
	    {"log", required_argument, NULL, 'L'},
	    {"once", no_argument, NULL, '1'},
	    {"max-time", required_argument, NULL, 'T'},
	    {"quiet-time", required_argument, NULL, 'Q'},
	    {"max-rate", required_argument, NULL, 'R'},
	    {"psk", required_argument, NULL, 'k'},
	    {"allow-target-any", no_argument, NULL, 'A'},
	    {"allow-tuning", no_argument, NULL, 'U'},
	    {"no-profile", no_argument, NULL, 'N'},
	    {"max-pps", required_argument, NULL, 'P'},
	    {"allow-mcast-any", no_argument, NULL, 'M'},
	    {"mcast-ttl", required_argument, NULL, 'Y'},
	    {"mcast-iface", required_argument, NULL, 'I'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_VERSION_LONGOPT,
	    {NULL, 0, NULL, 0},
	};
	int c, li = -1;

	while ((c = getopt_long(argc, argv, ":p:B:Dk:hV", opts, &li)) != -1) {
		const char *name = cli_optname(opts, c, li);
		li = -1;
		switch (c) {
		case 'p':
			o->port = (uint16_t)cli_uint(name, optarg, 1, 65535);
			break;
		case 'B':
			o->bind_addr = optarg;
			break;
		case 'D':
			sc->daemon_mode = true;
			break;
		case 'f':
			sc->pid_file = optarg;
			break;
		case 'L':
			sc->log_file = optarg;
			break;
		case '1':
			o->once = true;
			break;
		case 'k':
			sc->psk_file = optarg;
			break;
		default:
			if (!policy_option(&o->policy, c, name, optarg))
				cli_last_option(argv, c, usage_text, NULL);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (sc->psk_file) {
		cli_psk(sc->psk_file, o->policy.psk, &o->policy.psk_len);
	}
}

/* Listening, and as a daemon detached: the parent exits only when the child reports ready
 * (after its pid file is written), so that a script finds the pid file and a listening agent
 * when the command returns. Returns the listening socket. */
static int serve_listen(const struct nb_agent_opts *o, const struct serve_cli *sc)
{
	int fd, ret, ready_fd = -1;

	fd = nb_agent_listen(o->bind_addr, o->port);
	if (fd < 0)
		cli_fail(fd, "cannot listen on %s port %u", o->bind_addr ? o->bind_addr : "*",
			 o->port);
	if (sc->daemon_mode) {
		bool child_ready = false;
		ret = nb_daemon_start(&ready_fd, &child_ready);
		if (ret < 0)
			cli_fail(ret, "cannot daemonize");
		if (ret > 0)
			_exit(child_ready ? 0 : 1);
	}
	if (sc->pid_file && (ret = write_pid_file(sc->pid_file)) < 0)
		cli_fail(ret, "--pid-file: cannot write %s", sc->pid_file);
	if (ready_fd >= 0 && nb_daemon_ready(ready_fd) < 0)
		_exit(1);
	return fd;
}

int cmd_serve(int argc, char **argv)
{
	struct nb_agent_opts o = {.port = 5301, .stop = &cli_stop};
	struct log_sink sink = {.f = stderr};
	struct serve_cli sc = {0};
	int fd, ret;

	o.policy.max_time_ns = 600 * NB_NS_PER_S;
	o.policy.quiet_ns = 30 * NB_NS_PER_S;
	o.policy.mcast_max_ttl = 1;
	serve_parse_opts(argc, argv, &o, &sc);
	if (sc.log_file) {
		sink.f = fopen(sc.log_file, "ae");
		if (!sink.f)
			cli_fail(errno, "--log: cannot open %s", sc.log_file);
	} else if (sc.daemon_mode) {
		sink.syslog = true;
		openlog("netbench", LOG_PID, LOG_DAEMON);
	}
	o.log = log_line;
	o.log_arg = &sink;
	fd = serve_listen(&o, &sc);
	cli_catch_signals();

	{
		char line[128];
		snprintf(line, sizeof(line), "netbench %s listening on %s port %u%s", NB_VERSION,
			 o.bind_addr ? o.bind_addr : "*", o.port,
			 o.policy.psk_len ? " (pre-shared key required)" : "");
		log_line(&sink, line);
	}
	ret = nb_agent_run(fd, &o);
	close(fd);
	if (sc.pid_file)
		unlink(sc.pid_file);
	if (sc.log_file)
		fclose(sink.f);
	return ret ? 1 : 0;
}
