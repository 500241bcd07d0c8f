/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the paced senders' front ends: --pacing/--burst parsing and the pacing figures. */
#include "cmd/pacing.h"

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

void pacing_describe(char *buf, size_t len, uint32_t mode, uint32_t burst)
{
	if (mode == NB_PACING_SPIN)
		snprintf(buf, len, "spin");
	else
		snprintf(buf, len, "%s:%u", nb_pacing_name((enum nb_pacing_mode)mode), burst);
}
