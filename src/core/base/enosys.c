/* SPDX-License-Identifier: BSD-2-Clause */
/* seccomp-BPF filter returning ENOSYS for the named system calls. It does not check the audit
 * architecture: it is a test aid for one binary on one architecture, not a security boundary. */
#include "core/base/enosys.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

int nb_simulate_enosys(const char *names)
{
	struct sock_filter f[16];
	struct sock_fprog prog;
	char buf[128], *tok, *save = NULL;
	unsigned n = 0;

	if (strlen(names) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, names);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long nr;
		if (!strcmp(tok, "sendmmsg"))
			nr = SYS_sendmmsg;
		else if (!strcmp(tok, "recvmmsg"))
			nr = SYS_recvmmsg;
		else
			return -EINVAL;
		if (n + 3 > sizeof(f) / sizeof(f[0]))
			return -E2BIG;
		f[n++] =
		    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		return -errno;
	return 0;
}
