/* SPDX-License-Identifier: BSD-2-Clause */
/* --profile-folded FILE's file, whole or absent (folded.h). */
#include "cmd/folded.h"

#include "cmd/cli.h"

void cli_folded_open(struct nb_atomic_file *a, const char *path)
{
	int ret = nb_atomic_open(a, path, 0644);

	if (ret)
		cli_fail(ret, "--profile-folded: cannot write %s", path);
}

void cli_folded_close(struct nb_atomic_file *a, const char *path, size_t lines, const char *why)
{
	int ret = nb_atomic_commit(a);

	if (ret)
		cli_fail(ret, "--profile-folded: cannot write %s", path);
	if (!lines)
		cli_warn("--profile-folded: %s holds no stacks (the profile: %s)", path, why);
}
