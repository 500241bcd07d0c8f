/* Shared by the paced senders' front ends: --pacing/--burst parsing and the pacing figures. */
#include "cmd/pacing.h"

#include <math.h>
#include <stdio.h>

#include "cmd/cli.h"

enum nb_pacing_mode cli_pacing(const char *opt, const char *val)
{
	enum nb_pacing_mode m;

	if (nb_pacing_parse(val, &m) < 0)
		cli_usage_error("%s: '%s' is not auto, burst, txtime or spin", opt, val);
	return m;
}

void cli_pacing_check(enum nb_pacing_mode mode, uint32_t burst)
{
	if (burst && mode == NB_PACING_SPIN)
		cli_usage_error("--burst is for --pacing auto, burst or txtime, not spin");
	if (burst > NB_PACER_TXTIME_MAX_BURST && mode == NB_PACING_TXTIME)
		cli_usage_error("--burst is too large for --pacing txtime: %u (at most %u: fq "
				"holds 100 datagrams per flow)",
				burst, NB_PACER_TXTIME_MAX_BURST);
}

double pacing_cpu_pct(uint64_t cpu_ns, double window_s)
{
	return window_s > 0 ? (double)cpu_ns / 1e9 / window_s * 100.0 : NAN;
}

void pacing_describe(char *buf, size_t len, uint32_t mode, uint32_t burst)
{
	if (mode == NB_PACING_SPIN)
		snprintf(buf, len, "spin");
	else
		snprintf(buf, len, "%s %u", nb_pacing_name((enum nb_pacing_mode)mode), burst);
}

void pacing_json_step(struct nb_json *j, uint32_t mode, uint32_t burst, uint64_t wakeups,
		      uint64_t cpu_ns, double window_s)
{
	nb_json_obj_begin(j, "pacing");
	nb_json_str(j, "mode", nb_pacing_name((enum nb_pacing_mode)mode));
	nb_json_u64(j, "burst", burst);
	nb_json_u64(j, "wakeups", wakeups);
	nb_json_double(j, "cpu_s", (double)cpu_ns / 1e9, 6);
	nb_json_double(j, "cpu_pct", pacing_cpu_pct(cpu_ns, window_s), 2);
	nb_json_obj_end(j);
}
