/* SPDX-License-Identifier: BSD-2-Clause */
/* The one place netbench enters a network namespace: by its /run/netns name, with setns(2). */
#include "core/base/netns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int nb_netns_enter(const char *name, int *back, char *err, size_t errlen)
{
	char path[300];
	int nsfd, self = -1, ret = 0;

	if (back)
		*back = -1;
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "network namespace '%s': %s", name, strerror(errno));
		return ret;
	}
	if (back) {
		self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (self < 0)
			self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	}
	if ((back && self < 0) || setns(nsfd, CLONE_NEWNET) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot enter network namespace '%s': %s%s", name,
			 strerror(errno), errno == EPERM ? " (needs CAP_SYS_ADMIN)" : "");
		if (self >= 0)
			close(self);
		self = -1;
	}
	close(nsfd);
	if (back)
		*back = self;
	return ret;
}

int nb_netns_leave(int back, char *err, size_t errlen)
{
	int ret = 0;

	if (back < 0)
		return 0;
	if (setns(back, CLONE_NEWNET) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot return to our network namespace: %s",
			 strerror(errno));
	}
	close(back);
	return ret;
}
