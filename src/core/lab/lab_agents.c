/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's agents: `netbench serve -D` in the sink, and the observer in the DUT, each started
 * in its namespace and waited for until it answers on its port. */
#include "core/lab/lab_agents.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/timeutil.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_proc.h"

/* Starts `netbench serve -D` in namespace ns bound to addr and waits until it answers. The
 * DUT's observer may set the clock and RPS for a test (--allow-tuning): the lab is the user's own
 * box, and the agent restores what it set. */
static int start_serve(struct nb_lab *lab, int ns, const char *addr, const char *pid_path,
		       const char *log_name, bool tuning)
{
	char port[8], log[192];
	/* With a VPN the sink's agent answers at the tunnel's end too. */
	const char *bind = ns == NB_LAB_SINK && lab->vpn[0] ? "0.0.0.0" : addr;
	char *argv[] = {"ip",
			"netns",
			"exec",
			lab->ns[ns],
			lab->netbench_path,
			"serve",
			"-D",
			"--pid-file",
			(char *)pid_path,
			"-B",
			(char *)bind,
			"-p",
			port,
			tuning ? "--allow-tuning" : NULL,
			NULL};
	uint64_t deadline;
	int ret, status = 0;

	snprintf(port, sizeof(port), "%u", lab->port);
	snprintf(log, sizeof(log), "%s/%s", lab->run_dir, log_name);
	unlink(pid_path);
	ret = nb_lab_exec_logged(argv, log, &status);
	if (ret || status) {
		char first[256] = "";
		FILE *f = fopen(log, "re");
		if (f) {
			if (!fgets(first, sizeof(first), f))
				first[0] = '\0';
			fclose(f);
		}
		nb_lab_set_err(lab, argv, ret ? strerror(-ret) : *first ? first : "failed");
		return ret ? ret : -EIO;
	}
	/* -D returns once the agent has forked; wait for it to listen. */
	deadline = nb_mono_ns() + 5 * NB_NS_PER_S;
	while (nb_mono_ns() < deadline && !nb_lab_stopped(lab)) {
		if (nb_lab_pid_alive(nb_lab_read_pid(pid_path)) &&
		    nb_lab_port_answers(lab->ns[ns], addr, lab->port, 200))
			return 0;
		nb_sleep_until_ns(nb_mono_ns() + 50 * NB_NS_PER_MS);
	}
	snprintf(lab->err, sizeof(lab->err),
		 "the agent in %s did not answer on %s port %u within 5 s (pid file %s)",
		 lab->ns[ns], addr, lab->port, pid_path);
	return nb_lab_stopped(lab) ? -EINTR : -ETIMEDOUT;
}

/* The agent in the sink and the observer in the DUT; a board runs its own (its init starts
 * it), without --allow-tuning. */
int nb_lab_agents_start(struct nb_lab *lab)
{
	int ret = 0;
	if (lab->board.role != NB_LAB_SINK && lab->board2.role != NB_LAB_SINK)
		ret = start_serve(lab, NB_LAB_SINK, NB_LAB_SINK_ADDR, lab->pid_path, "agent.log",
				  false);
	if (ret || lab->board.role == NB_LAB_DUT)
		return ret;
	return start_serve(lab, NB_LAB_DUT, NB_LAB_DUT_A_ADDR, lab->obs_pid_path, "observer.log",
			   true);
}
