/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's names (namespaces, run directory, pid files from a prefix) and how it runs its tools:
 * argv arrays through lab_exec, with the failing command and its first line of error output kept
 * in lab->err. */
#include "core/lab/lab_base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lab/lab_exec.h"

#define MAX_ARGS 40 /* the longest command the lab runs (ip xfrm), with room */

const char *const nb_lab_links[4] = {"gen0", "dut0", "dut1", "sink0"};

bool nb_lab_link_in_board(int board_role, int i)
{
	return ((board_role == NB_LAB_DUT || board_role == NB_LAB_BOTH) && (i == 1 || i == 2)) ||
	       ((board_role == NB_LAB_SINK || board_role == NB_LAB_BOTH) && i == 3);
}

int nb_lab_board_roles(const struct nb_lab *lab)
{
	return lab->board2.role >= 0 ? NB_LAB_BOTH : lab->board.role;
}

struct nb_lab *nb_lab_new(void)
{
	struct nb_lab *lab = calloc(1, sizeof(*lab));

	if (!lab)
		return NULL;
	lab->agent = true;
	lab->port = NB_LAB_PORT;
	lab->board.role = -1;
	lab->board2.role = -1;
	nb_lab_set_prefix(lab, NULL);
	return lab;
}

void nb_lab_free(struct nb_lab *lab)
{
	free(lab);
}

int nb_lab_set_prefix(struct nb_lab *lab, const char *prefix)
{
	static const char *const role[3] = {"gen", "dut", "sink"};

	if (!prefix || !*prefix) {
		lab->prefix[0] = '\0';
		for (int i = 0; i < 3; i++)
			snprintf(lab->ns[i], sizeof(lab->ns[i]), "nb%s", role[i]);
		snprintf(lab->run_dir, sizeof(lab->run_dir), "%s", NB_LAB_RUN_DIR);
	} else {
		size_t len = strlen(prefix);
		if (len > NB_LAB_PREFIX_MAX || !((prefix[0] >= 'a' && prefix[0] <= 'z') ||
						 (prefix[0] >= 'A' && prefix[0] <= 'Z')))
			return -EINVAL;
		for (size_t i = 0; i < len; i++)
			if (!strchr(
				"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
				prefix[i]))
				return -EINVAL;
		snprintf(lab->prefix, sizeof(lab->prefix), "%s", prefix);
		for (int i = 0; i < 3; i++)
			snprintf(lab->ns[i], sizeof(lab->ns[i]), "%s-%s", prefix, role[i]);
		snprintf(lab->run_dir, sizeof(lab->run_dir), "%s/%s", NB_LAB_RUN_DIR, prefix);
	}
	snprintf(lab->state_path, sizeof(lab->state_path), "%s/state", lab->run_dir);
	snprintf(lab->pid_path, sizeof(lab->pid_path), "%s/agent.pid", lab->run_dir);
	snprintf(lab->obs_pid_path, sizeof(lab->obs_pid_path), "%s/observer.pid", lab->run_dir);
	return 0;
}

void nb_lab_note(struct nb_lab *lab, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!lab->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lab->note(lab->note_arg, msg);
}

/* Records "cmd args: first line of its error output" in lab->err. */
void nb_lab_set_err(struct nb_lab *lab, char *const argv[], const char *why)
{
	size_t o = 0;
	const char *nl;
	int w;

	lab->err[0] = '\0';
	for (int i = 0; argv[i] && o < sizeof(lab->err); i++) {
		w = snprintf(lab->err + o, sizeof(lab->err) - o, "%s%s", i ? " " : "", argv[i]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
	if (o >= sizeof(lab->err) || !why || !*why)
		return;
	nl = strchr(why, '\n');
	snprintf(lab->err + o, sizeof(lab->err) - o, ": %.*s", nl ? (int)(nl - why) : 200, why);
}

/* Runs argv; with r, leaves the output there. Nonzero exit is -EIO with lab->err set. */
static int runv(struct nb_lab *lab, char *const argv[], const char *input, struct nb_lab_run *r)
{
	struct nb_lab_run *own = r ? NULL : nb_lab_run_new();
	struct nb_lab_run *use = r ? r : own;
	int ret = -ENOMEM;

	if (!use)
		goto out;
	ret = nb_lab_exec(argv, input, use);
	if (ret == -ENOENT) {
		nb_lab_set_err(lab, argv, "not found (install iproute2 and nftables)");
		goto out;
	}
	if (ret) {
		nb_lab_set_err(lab, argv, strerror(-ret));
		goto out;
	}
	if (use->status) {
		nb_lab_set_err(lab, argv, *use->err ? use->err : "failed");
		ret = -EIO;
	}
out:
	nb_lab_run_free(own);
	return ret;
}

int nb_lab_cmd(struct nb_lab *lab, char *const argv[], const char *input, struct nb_lab_run *r)
{
	return runv(lab, argv, input, r);
}

/* nb_lab_runl(lab, input, r, "ip", "-n", ns, ..., NULL) */
int nb_lab_runl(struct nb_lab *lab, const char *input, struct nb_lab_run *r, ...)
{
	char *argv[MAX_ARGS];
	int n = 0;
	va_list ap;

	va_start(ap, r);
	/* exec takes char *const[]: the strings are not written to. */
	while (n < MAX_ARGS - 1 && (argv[n] = (char *)va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	return runv(lab, argv, input, r);
}

bool nb_lab_stopped(struct nb_lab *lab)
{
	return lab->stop && *lab->stop;
}
