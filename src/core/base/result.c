/* SPDX-License-Identifier: BSD-2-Clause */
/* Result document framing shared by every subcommand's --json output. */
#include "core/base/result.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void nb_result_cmdline(char *buf, size_t len)
{
	char raw[4096];
	ssize_t n = 0;
	size_t o = 0;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd >= 0) {
		n = read(fd, raw, sizeof(raw) - 1);
		close(fd);
	}
	if (n <= 0)
		return;
	raw[n] = '\0';
	for (ssize_t i = 0; i < n && o + 1 < len;) {
		const char *arg = raw + i;
		size_t alen = strlen(arg);
		bool quote = !alen || strpbrk(arg, " \t\"'$\\*?") != NULL;
		int w = snprintf(buf + o, len - o, "%s%s%s%s", o ? " " : "", quote ? "'" : "", arg,
				 quote ? "'" : "");
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
		i += (ssize_t)alen + 1;
	}
}

void nb_result_begin(struct nb_json *j, const char *test, const struct nb_sysinfo *local,
		     const struct nb_sysinfo *remote)
{
	nb_result_begin_dut(j, test, local, remote, NULL);
}

void nb_result_begin_dut(struct nb_json *j, const char *test, const struct nb_sysinfo *local,
			 const struct nb_sysinfo *remote, const struct nb_sysinfo *dut)
{
	char cmd[4096], when[32];
	time_t now = time(NULL);
	struct tm tm;

	nb_result_cmdline(cmd, sizeof(cmd));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	nb_json_obj_begin(j, NULL);
	nb_json_str(j, "schema", NB_SCHEMA);
	nb_json_str(j, "test", test);
	nb_json_str(j, "netbench_version", NB_VERSION);
	nb_json_str(j, "command_line", cmd);
	nb_json_str(j, "time_utc", when);
	nb_json_obj_begin(j, "env");
	nb_sysinfo_json(j, "local", local);
	if (remote)
		nb_sysinfo_json(j, "remote", remote);
	else
		nb_json_null(j, "remote");
	if (dut)
		nb_sysinfo_json(j, "dut", dut);
	nb_json_obj_end(j);
}

void nb_result_begin_run(struct nb_json *j, const char *test, const struct nb_sysinfo *local,
			 const struct nb_result_agent *agent)
{
	nb_result_begin(j, test, local, agent ? agent->env : NULL);
	if (!agent)
		return;
	nb_json_obj_begin(j, "agent");
	nb_json_str(j, "host", agent->host);
	nb_json_u64(j, "port", agent->port);
	nb_json_obj_end(j);
}

bool nb_result_baseline_begin(struct nb_json *j, const struct nb_cpu_idle *local)
{
	if (!local->known) {
		nb_json_null(j, "cpu_baseline");
		return false;
	}
	nb_json_obj_begin(j, "cpu_baseline");
	nb_json_double(j, "polluted_above_pct", NB_CPU_POLLUTED_PCT, 1);
	nb_json_double(j, "other_local_pct", local->other_pct, 2);
	nb_result_cpu(j, "local", &local->cpu);
	return true;
}

void nb_result_cpu_idle(struct nb_json *j, const char *pct_key, const char *cpu_key,
			const struct nb_cpu_idle *b)
{
	if (b->known) {
		nb_json_double(j, pct_key, b->other_pct, 2);
		nb_result_cpu(j, cpu_key, &b->cpu);
	} else {
		nb_json_null(j, pct_key);
		nb_json_null(j, cpu_key);
	}
}

void nb_result_cpu(struct nb_json *j, const char *key, const struct nb_cpu_load *l)
{
	nb_json_obj_begin(j, key);
	nb_json_bool(j, "valid", l->valid);
	nb_json_double(j, "window_s", l->window_s, 6);
	nb_json_u64(j, "cpu_count", l->ncpu);
	nb_json_double(j, "proc_user_pct", l->proc_user_pct, 2);
	nb_json_double(j, "proc_sys_pct", l->proc_sys_pct, 2);
	nb_json_double(j, "proc_cpu_pct", l->proc_pct, 2);
	nb_json_double(j, "sys_user_pct", l->user_pct, 2);
	nb_json_double(j, "sys_nice_pct", l->nice_pct, 2);
	nb_json_double(j, "sys_system_pct", l->system_pct, 2);
	nb_json_double(j, "sys_irq_pct", l->irq_pct, 2);
	nb_json_double(j, "sys_softirq_pct", l->softirq_pct, 2);
	nb_json_double(j, "sys_iowait_pct", l->iowait_pct, 2);
	nb_json_double(j, "sys_steal_pct", l->steal_pct, 2);
	nb_json_double(j, "sys_idle_pct", l->idle_pct, 2);
	nb_json_double(j, "sys_busy_pct", l->busy_pct, 2);
	if (l->busiest_cpu >= 0)
		nb_json_i64(j, "busiest_cpu", l->busiest_cpu);
	else
		nb_json_null(j, "busiest_cpu");
	nb_json_double(j, "busiest_cpu_pct", l->busiest_cpu_pct, 2);
	nb_json_double(j, "sys_busy_cpu_s", l->busy_cpu_s, 6);
	nb_json_double(j, "proc_cpu_s", l->proc_cpu_s, 6);
	nb_json_bool(j, "consistent", nb_cpu_consistent(l));
	nb_json_obj_end(j);
}
