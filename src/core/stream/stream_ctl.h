/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's side of `netbench stream -c AGENT[,AGENT...]`: the agents receive (several
 * may join one group) and this host sends, or with reverse the one agent sends and this host
 * receives. Parameters in, result out, progress through a callback, -errno plus text; nothing
 * here prints or exits. Also the parameters every stream mode shares, and its JSON encoders. */
#ifndef NB_STREAM_CTL_H
#define NB_STREAM_CTL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/base/cancel.h"
#include "core/base/cpu.h"
#include "core/base/json.h"
#include "core/base/sysinfo.h"
#include "core/observe/obs_set.h"
#include "core/session/ctl.h"
#include "core/stream/stream.h"
#include "core/stream/stream_iv.h"
#include "core/stream/stream_pacing.h"
#include "core/stream/stream_run.h"
#include "core/stream/stream_sock.h"

#define NB_STREAM_MAX_AGENTS 16

struct nb_stream_params {
	struct nb_stream_sock_opts sock;
	size_t block;
	uint64_t rates[NB_STREAM_MAX_STEPS];
	size_t nrates;
	uint64_t time_ns;      /* per step: the measurement window */
	uint64_t omit_ns;      /* per step: warm-up before the window, not counted */
	uint64_t recv_time_ns; /* --recv: overall limit, 0 none */
	uint64_t idle_ns;
	bool send, recv, reverse, multicast;
	bool to_controller; /* reverse without an address: the agent sends to us */
	int family;
	/* Controller mode: the agents (their family aside: the session takes the group's). */
	struct nb_ctl_target agents[NB_STREAM_MAX_AGENTS];
	size_t nagents;
	const nb_cancel_t *stop; /* may be NULL */
	/* Forward mode: called after each step this host sent (progress), may be NULL. */
	nb_stream_step_fn on_step;
	void *step_arg;
	/* The sender's pacing: asked (auto by default) and burst_asked (0: about 1 ms worth). */
	struct nb_stream_pacing pacing;
	/* Observers of a box in the path (agents receive, this host sends): their window opens
	 * and closes at each step's window edges on the sender. NULL or empty: none. */
	struct nb_obs_set *observe;
	/* --profile: the kernel profile of each receiver's steps at this rate per CPU; 0 none. */
	uint32_t profile_hz;
	/* -i: each step's window cut into intervals of interval_ns (0: none), reported as they
	 * end through on_interval (stream_iv.h) by the receiver on this host (--reverse). */
	uint64_t interval_ns;
	nb_stream_interval_fn on_interval;
	void *interval_arg;
};

/* One agent of a controller run. */
struct nb_stream_ctl_agent {
	const char *host;
	struct nb_ctl *ctl; /* ctl->remote: the agent's platform */
	struct nb_msg *msg;
	struct nb_stream_rx *rx; /* what it received (forward) */
	enum nb_stream_end end;
	struct nb_cpu_sample *mark0, *mark1;
	struct nb_cpu_load run_cpu; /* its CPU over the whole sweep (forward) */
	/* Its idle baseline, between the acknowledgements of the request and of START (an older
	 * agent sends no CPU sample there: base.known false); same_host: it runs on this host. */
	struct nb_cpu_sample *base0;
	bool same_host;
	struct nb_cpu_idle base;
	struct nb_prof_result *prof[NB_STREAM_MAX_STEPS]; /* per received step, NULL: none */
};

/* How long this host's idle baseline (base/cpu.h) samples it before the traffic. */
#define NB_STREAM_BASELINE_NS (250 * 1000 * 1000ULL)

struct nb_stream_ctl_result {
	struct nb_sysinfo local;
	struct nb_stream_send_step *sent; /* the sender's steps */
	size_t nsent;
	struct nb_stream_ctl_agent agents[NB_STREAM_MAX_AGENTS];
	size_t nagents;
	struct nb_stream_rx *rx;			  /* reverse: what this host received */
	struct nb_prof_result *prof[NB_STREAM_MAX_STEPS]; /* reverse: its steps' profiles */
	bool interrupted;
	bool bad_input; /* the failure lies in the user's input (a usage error), not the system */
	struct nb_stream_pacing pacing; /* the sender's decision (this host's, or the agent's) */
	struct nb_cpu_idle baseline;
	struct nb_obs_trial *obs; /* per step, with observers; NULL without */
	size_t nobs;
	uint64_t *obs_lag_ns; /* per step: how long after the sender's open and close edges the
				 observers answered (their counters were read within that) */
};

struct nb_stream_ctl_cb {
	/* Called once the traffic is about to start (after the agents answered). May be NULL. */
	void (*started)(void *arg, const struct nb_stream_params *p,
			const struct nb_stream_ctl_result *r);
	void *arg;
};

/* Runs p (its agents: p->agents), with cb's callbacks (may be NULL); p->stop ends it early
 * (r->interrupted). Returns 0 with *out, or a negative errno with the reason in err (and *out,
 * for what was opened: (*out)->bad_input says whether the user's input is at fault; NULL only
 * when out of memory); free *out with nb_stream_ctl_result_free in either case. Each agent's
 * session is kept in its entry of the result (agents[i].ctl). */
int nb_stream_ctl_run(const struct nb_stream_params *p, const struct nb_stream_ctl_cb *cb,
		      struct nb_stream_ctl_result **out, char *err, size_t errlen);
void nb_stream_ctl_result_free(struct nb_stream_ctl_result *r);

/* A stream id that differs between runs and hosts. */
uint32_t nb_stream_random_id(void);
/* This host's platform, with the interface towards sock's address. */
void nb_stream_local_sysinfo(const struct nb_stream_sock_opts *sock, struct nb_sysinfo *si);
const char *nb_stream_end_name(enum nb_stream_end e);

/* JSON (docs/schema.md): the parameters, a receiver's steps, a sender's steps, and the whole
 * document of a controller run. */
void nb_stream_json_params(struct nb_json *j, const struct nb_stream_params *p, const char *mode);
/* prof: each step's kernel profile (NULL, or NULL entries: none asked for). */
void nb_stream_json_rx(struct nb_json *j, const struct nb_stream_rx *rx,
		       struct nb_prof_result *const *prof);
/* A received step's profile over every CPU of the receiver: ns per datagram from the step's
 * busy CPU-seconds and its distinct datagrams. */
void nb_stream_prof_summary(const struct nb_stream_step *s, const struct nb_prof_result *r,
			    struct nb_prof_summary *sum);
void nb_stream_json_send(struct nb_json *j, const char *key,
			 const struct nb_stream_send_step *steps, size_t n, size_t block);
/* "cpu_baseline": null when not measured, else this host's and each agent's idle baseline. */
void nb_stream_json_baseline(struct nb_json *j, const struct nb_cpu_idle *b,
			     const struct nb_stream_ctl_agent *agents, size_t nagents);
/* The sender's pacing decision: "pacing": {asked, mode, burst_asked, iface, qdisc, ...}. */
void nb_stream_json_pacing(struct nb_json *j, const struct nb_stream_pacing *pc);
void nb_stream_ctl_json(FILE *f, const struct nb_stream_params *p,
			const struct nb_stream_ctl_result *r);
/* The whole documents as text, malloc'd (free it): the bytes -J prints, -o writes and --save
 * stores. A controller run; a standalone receiver (recv mode: how it ended, whether it fell back
 * to recvmsg); a standalone sender (send mode: its steps, p->nrates of them). 0 or -ENOMEM. */
int nb_stream_ctl_doc_text(const struct nb_stream_params *p, const struct nb_stream_ctl_result *r,
			   char **text, size_t *len);
int nb_stream_recv_doc_text(const struct nb_stream_params *p, const struct nb_sysinfo *si,
			    enum nb_stream_end end, bool recvmmsg_fallback,
			    const struct nb_cpu_idle *base, const struct nb_stream_rx *rx,
			    struct nb_prof_result *const *prof, char **text, size_t *len);
int nb_stream_send_doc_text(const struct nb_stream_params *p, const struct nb_sysinfo *si,
			    bool interrupted, const struct nb_cpu_idle *base,
			    const struct nb_stream_send_step *steps, char **text, size_t *len);

#endif
