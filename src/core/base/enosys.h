/* SPDX-License-Identifier: BSD-2-Clause */
/* Simulating an old kernel: a seccomp filter that answers chosen system calls with ENOSYS, as a
 * kernel without them would, so that run-time fallbacks can be tested on a new kernel. */
#ifndef NB_ENOSYS_H
#define NB_ENOSYS_H

/* names: comma-separated, from sendmmsg and recvmmsg. Applies to this thread and the threads it
 * creates afterwards. Returns 0, -EINVAL for an unknown name, or the prctl error. */
int nb_simulate_enosys(const char *names);

#endif
