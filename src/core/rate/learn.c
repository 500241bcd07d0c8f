/* SPDX-License-Identifier: BSD-2-Clause */
/* The learning phase: rounds of a few frames on every flow, all with one trial id and one
 * sequence per flow (so a receiver counts every round as one stream, and the trials that follow,
 * with ids of their own, never count a learning frame), until learning frames have arrived on
 * every flow or the timeout passes. A local receiver is polled while a round waits; an agent's
 * receiver is one agent test per round. */
#include "core/rate/learn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "core/rate/rate_run.h"

#define POLL_NS (5 * NB_NS_PER_MS)

/* Learning frames counted so far: a local receiver's counters span every round (the id is
 * the same), an agent's receiver is new each round and its counts add up. */
static void take_counts(struct nb_rate_learn *L, const struct nb_rx_snap *snap, bool add)
{
	if (!add) {
		L->rx = 0;
		memset(L->rx_flow, 0, sizeof(L->rx_flow));
	}
	if (!snap->any || snap->trial != L->trial)
		return;
	L->rx += snap->rx;
	for (uint32_t f = 0; f < snap->flows && f < L->flows; f++)
		L->rx_flow[f] += snap->rx_flow[f];
}

/* True when learning frames arrived on every flow (of any round: on a long path a round's
 * frames arrive during a later one); else *missing is the first flow without. */
static bool all_arrived(const struct nb_rate_learn *L, uint32_t *missing)
{
	for (uint32_t f = 0; f < L->flows; f++)
		if (!L->rx_flow[f]) {
			*missing = f;
			return false;
		}
	return true;
}

static int fail_timeout(struct nb_rate_run *r, const struct nb_rate_learn *L, uint32_t missing,
			char *err, size_t errlen)
{
	char addr[INET6_ADDRSTRLEN + 8] = "?";
	double s = (double)nb_rate_learn_timeout_ns(r->p, r->dst.ss_family) / 1e9;

	nb_net_addr_str((const struct sockaddr *)&r->dst, false, addr, sizeof(addr));
	if (!L->rx)
		snprintf(err, errlen,
			 "no learning frames arrived in %g s: check the path (%llu frames sent to "
			 "%s port %u in %u rounds)",
			 s, (unsigned long long)L->tx, addr, r->p->rx.port, L->rounds);
	else
		snprintf(err, errlen,
			 "learning frames of flow %u did not arrive in %g s (%llu of %llu learning "
			 "frames arrived): check the path",
			 missing, s, (unsigned long long)L->rx, (unsigned long long)L->tx);
	return -ETIMEDOUT;
}

uint64_t nb_rate_learn_timeout_ns(const struct nb_rate_params *p, int family)
{
	if (p->learn_ns != NB_LEARN_AUTO)
		return p->learn_ns;
	return (family == AF_INET6 ? 4 : 2) * NB_NS_PER_S;
}

/* The learning frames' size (the run's smallest) and rate: slower than anything the run asks
 * for, since learning must not load the path. */
static void learn_plan(const struct nb_rate_params *p, uint32_t frames, uint32_t *size,
		       double *rate)
{
	*size = (uint32_t)p->sizes[0];
	*rate = frames * 1000.0 / NB_LEARN_ROUND_MS;
	for (size_t i = 1; i < p->nsizes; i++)
		*size = p->sizes[i] < *size ? (uint32_t)p->sizes[i] : *size;
	for (size_t i = 0; i < p->nsizes; i++) {
		double asked = nb_rate_asked_fps(p, (uint32_t)p->sizes[i]);
		if (asked > 0 && *rate > asked)
			*rate = asked;
	}
}

/* One round: a frame for every flow, then the wait for them. Returns 1 when nobody counts
 * (send only), 0 with *arrived, or -errno. */
static int learn_round(struct nb_rate_run *r, struct nb_rate_learn *L, const struct nb_gen_trial *t,
		       uint64_t wait_ns, bool *arrived, uint32_t *missing, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	const struct nb_rx_engine *rx = p->receiver;
	struct nb_cpu_load cpu;
	char why[256] = "";
	uint64_t until;
	int ret;

	*arrived = false;
	ret = rx->begin(r->rxs, L->trial, NB_LEARN_ROUND_MS * NB_NS_PER_MS + wait_ns + NB_NS_PER_S,
			(uint64_t)(L->rate_fps * L->size * 8), why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "agent: %s", why);
		return ret;
	}
	ret = nb_gen_pool_run(r->pool, t, r->gs);
	if (ret) {
		snprintf(err, errlen, "engine %s failed while sending learning frames: %s",
			 p->engine->name, strerror(-ret));
		return ret;
	}
	L->rounds++;
	L->tx += r->gs->tx_frames;
	for (uint32_t f = 0; f < L->flows; f++)
		L->tx_flow[f] += r->gs->tx_flow[f];
	until = nb_mono_ns() + wait_ns;
	if (!rx->counts) {
		/* Send only: nobody can say whether they arrived. */
		nb_sleep_until_ns(until);
		return 1;
	}
	/* A local receiver is read as the frames come; an agent's once per round. */
	while (!rx->remote && nb_mono_ns() < until && !(p->stop && *p->stop)) {
		nb_sleep_until_ns(nb_mono_ns() + POLL_NS);
		if ((ret = rx->end(r->rxs, r->snap, &cpu, why, sizeof(why))))
			break;
		take_counts(L, r->snap, false);
		if ((*arrived = all_arrived(L, missing)))
			break;
	}
	if (rx->remote) {
		nb_sleep_until_ns(until);
		ret = rx->end(r->rxs, r->snap, &cpu, why, sizeof(why));
		if (!ret) {
			take_counts(L, r->snap, true);
			*arrived = all_arrived(L, missing);
		}
	}
	if (ret) {
		snprintf(err, errlen, "agent: %s", why);
		return ret;
	}
	if (p->stop && *p->stop) {
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	return 0;
}

/* The phase's record, its wire id (counting down from 65534) and its plan. */
static void learn_init(struct nb_rate_run *r, struct nb_rate_learn *L, const char *when,
		       uint32_t flows, uint32_t frames)
{
	uint32_t size;
	double rate;

	memset(L, 0, sizeof(*L));
	snprintf(L->when, sizeof(L->when), "%s", when);
	learn_plan(r->p, frames, &size, &rate);
	L->counted = r->p->receiver->counts;
	L->trial = nb_rate_wire_id(r, 65534 - (uint32_t)(r->nlearn - 1));
	L->size = size;
	L->flows = flows;
	L->rate_fps = rate;
}

/* Learning frames still queued (a neighbour's queue) arrive within the drain; they count
 * here, never in a trial. */
static void learn_drain(struct nb_rate_run *r, struct nb_rate_learn *L)
{
	struct nb_cpu_load cpu;
	char why[256] = "";

	nb_sleep_until_ns(nb_mono_ns() + r->p->drain_ns);
	if (!r->p->receiver->end(r->rxs, r->snap, &cpu, why, sizeof(why)))
		take_counts(L, r->snap, false);
}

int nb_rate_learn(struct nb_rate_run *r, const char *when, char *err, size_t errlen)
{
	const struct nb_rate_params *p = r->p;
	const struct nb_rx_engine *rx = p->receiver;
	struct nb_rate_learn *L, *grown;
	uint64_t *base = NULL, start, deadline, wait_ns;
	uint64_t timeout_ns = nb_rate_learn_timeout_ns(p, r->dst.ss_family);
	struct nb_gen_trial t;
	uint32_t size, flows = p->flows ? p->flows : 1, missing = 0;
	uint32_t frames = flows > NB_LEARN_ROUND_FRAMES ? flows : NB_LEARN_ROUND_FRAMES;
	double rate;
	bool arrived;
	int ret = 0;

	if (!timeout_ns)
		return 0;
	if (r->nlearn == NB_LEARN_MAX) {
		snprintf(err, errlen, "more than %u learning phases in one run", NB_LEARN_MAX);
		return -E2BIG;
	}
	grown = realloc(r->learn, (r->nlearn + 1) * sizeof(*grown));
	base = calloc(flows, sizeof(*base));
	if (grown)
		r->learn = grown;
	if (!grown || !base) {
		free(base);
		snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	L = &r->learn[r->nlearn++];
	learn_init(r, L, when, flows, frames);
	size = L->size;
	rate = L->rate_fps;
	wait_ns = p->drain_ns > NB_LEARN_WAIT_MS * NB_NS_PER_MS ? p->drain_ns
								: NB_LEARN_WAIT_MS * NB_NS_PER_MS;
	ret = nb_gen_pool_prepare(r->pool, size, L->trial, 0);
	if (ret) {
		snprintf(err, errlen, "engine %s cannot send %u-byte learning frames: %s",
			 p->engine->name, size, strerror(-ret));
		goto out;
	}
	/* One frame per call: the generator turns to the next flow after each call, so every
	 * flow gets its frame in every round. */
	t = (struct nb_gen_trial){.rate_fps = (uint64_t)rate,
				  .frames = frames,
				  .pacing = NB_PACING_BURST,
				  .flows = flows,
				  .batch = 1,
				  .stop = p->stop,
				  .seq_base = base};
	start = nb_mono_ns();
	deadline = start + timeout_ns;
	for (;;) {
		ret = learn_round(r, L, &t, wait_ns, &arrived, &missing, err, errlen);
		if (ret < 0)
			goto out;
		if (ret > 0) {
			ret = 0;
			break;
		}
		for (uint32_t f = 0; f < flows; f++)
			base[f] += r->gs->tx_flow[f];
		if (arrived) {
			L->confirmed = true;
			L->took_s = (double)(nb_mono_ns() - start) / 1e9;
			break;
		}
		if (nb_mono_ns() >= deadline) {
			ret = fail_timeout(r, L, missing, err, errlen);
			goto out;
		}
	}
	if (rx->counts && !rx->remote)
		learn_drain(r, L);
	if (r->progress)
		r->progress(r->progress_arg,
			    &(struct nb_rate_event){.kind = NB_RATE_EV_LEARNED, .learn = L});
out:
	free(base);
	return ret;
}
