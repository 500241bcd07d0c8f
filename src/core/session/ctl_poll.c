/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's job-polling loop, one for every test whose agent side is a job: mark, let
 * the test take the snapshot, and sleep in slices so that an interrupt is seen at once. */
#include "core/session/ctl_poll.h"

#include <errno.h>
#include <stdio.h>

#include "core/base/timeutil.h"

#define SLICE_NS (50 * NB_NS_PER_MS)

int nb_ctl_poll(struct nb_ctl *ctl, const struct nb_ctl_poll *p, struct nb_msg *snap, char *err,
		size_t errlen)
{
	uint64_t deadline_ns = nb_mono_ns() + p->bound_ns + p->late_ns;
	uint32_t mark = 0;
	int ret;

	for (;;) {
		if (nb_cancelled(p->stop))
			return -EINTR;
		if ((ret = nb_ctl_mark(ctl, ++mark, snap, err, errlen)))
			return ret;
		ret = p->snap(p->arg, snap, err, errlen);
		if (ret < 0)
			return ret;
		if (ret == NB_POLL_DONE)
			return 0;
		if (ret == NB_POLL_MORE)
			continue;
		if (nb_mono_ns() > deadline_ns) {
			snprintf(err, errlen, "%s did not end within %.0f s", p->what,
				 (double)(p->bound_ns + p->late_ns) / 1e9);
			return -ETIMEDOUT;
		}
		for (uint64_t t = 0; t < p->every_ns && !nb_cancelled(p->stop); t += SLICE_NS)
			nb_sleep_until_ns(nb_mono_ns() + SLICE_NS);
	}
}
