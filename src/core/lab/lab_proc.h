/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's processes and namespaces: whether a namespace exists, which processes it holds,
 * stopping them, and telling the lab's own agent or qemu from a pid reused since. */
#ifndef NB_LAB_PROC_H
#define NB_LAB_PROC_H

#include <stdbool.h>

#include "core/lab/lab_base.h"

bool nb_lab_ns_exists(const char *name);
bool nb_lab_pid_alive(long pid);
/* The pid in a pid file, 0 when there is none. */
long nb_lab_read_pid(const char *path);
/* Whether pid is still the agent that wrote pid_path (a netbench running `serve`, started no
 * later than the file was written). */
bool nb_lab_is_our_agent(long pid, const char *pid_path);
/* Whether pid is a qemu system emulator (the lab's board), not a pid reused since. */
bool nb_lab_is_qemu(long pid);
/* Processes in namespace ns (ip netns pids), at most max, into pids. */
unsigned nb_lab_ns_pids(struct nb_lab *lab, const char *ns, long *pids, unsigned max);
/* Signals every process in ns, gives them a moment, then kills the rest; returns how many. */
unsigned nb_lab_kill_ns_pids(struct nb_lab *lab, const char *ns);

#endif
