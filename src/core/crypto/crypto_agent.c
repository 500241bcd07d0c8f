/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's end of a crypto test: the measurement runs on the board, in a thread of its own so
 * that the control loop keeps answering. Each algorithm is encoded as soon as the run reports it
 * complete, and every SNAP carries the ones not yet sent (a whole run does not fit one message). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/session/agent.h"
#include "core/session/job.h"
#include "core/crypto/crypto_run.h"
#include "core/crypto/crypto_wire.h"

/* Room left in a SNAP or FINAL for what the agent adds after the test's items: its monotonic
 * time, the mark id and a CPU sample (96 bytes + 20 per CPU, at most 256 CPUs). */
#define AGENT_RESERVE 8192u
/* A point's profile item: its stacks dropped beyond this (they go in whole or not at all). */
#define PROF_MAX 32768u

struct crypto_agent {
	struct nb_crypto_params o;
	uint64_t bound_ns;
	enum nb_crypto_load_form form; /* the CPU load as the controller reads it */
	struct nb_job job;	       /* the run; its cancel flag is o.stop */

	/* under the job's lock: everything the run thread writes */
	uint8_t *head, *algo[NB_CRYPTO_MAX_ALGOS];
	size_t head_len, algo_len[NB_CRYPTO_MAX_ALGOS];
	/* each algorithm's points' profiles, sent before the algorithm's item */
	uint8_t *prof[NB_CRYPTO_MAX_ALGOS][NB_CRYPTO_MAX_ENGINES * NB_CRYPTO_MAX_SIZES];
	size_t prof_len[NB_CRYPTO_MAX_ALGOS][NB_CRYPTO_MAX_ENGINES * NB_CRYPTO_MAX_SIZES];
	size_t nprof[NB_CRYPTO_MAX_ALGOS];
	size_t done;	/* algorithms encoded */
	int encode_err; /* an algorithm that could not be encoded */
	bool finished;
	int run_ret;
	struct nb_crypto_result *r; /* the whole result, once finished */

	/* the control loop's own */
	size_t sent, prof_sent; /* prof_sent: of algorithm sent's profiles */
	bool head_sent;
};

static void crypto_free(void *state)
{
	struct crypto_agent *t = state;
	if (!t)
		return;
	nb_job_destroy(&t->job);
	free(t->head);
	for (size_t i = 0; i < NB_CRYPTO_MAX_ALGOS; i++) {
		free(t->algo[i]);
		for (size_t k = 0; k < t->nprof[i]; k++)
			free(t->prof[i][k]);
	}
	nb_crypto_result_free(t->r);
	free(t);
}

static int crypto_setup(const struct nb_agent_ctx *ctx, const struct nb_msg *req, void **state,
			struct nb_msg *ack, char *err, size_t errlen)
{
	struct crypto_agent *t = calloc(1, sizeof(*t));
	uint64_t asked_ns = 0;
	int ret = -ENOMEM;

	if (!t)
		return ret;
	nb_job_init(&t->job);
	if ((ret = nb_crypto_get_request(req, &t->o, err, errlen)))
		goto fail;
	t->o.stop = nb_job_cancel_flag(&t->job);
	/* The kernel profile: refused by --no-profile, its rate capped whatever is asked. */
	if (NB_CRYPTO_PROFILE && t->o.profile_hz &&
	    (ctx->policy->no_profile || t->o.profile_hz > NB_PROF_HZ_MAX)) {
		if (ctx->policy->no_profile)
			snprintf(
			    err, errlen,
			    "refused by rule profile: this agent was started with --no-profile");
		else
			snprintf(err, errlen,
				 "refused by rule profile: %u Hz asked; this agent samples at 1 to "
				 "%u Hz per CPU",
				 t->o.profile_hz, NB_PROF_HZ_MAX);
		ret = -EPERM;
		goto fail;
	}
	t->form = nb_crypto_request_load_form(req);
	t->bound_ns = nb_crypto_bound_ns(&t->o);
	/* The session is dropped when a test outlives its duration: the controller must have
	 * asked for at least the bound, which is also what the max-time rule judges. */
	nb_msg_get_u64(req, NB_T_DURATION_NS, &asked_ns);
	if (asked_ns < t->bound_ns) {
		snprintf(err, errlen,
			 "crypto request: duration %.1f s is below the run's bound of %.1f s",
			 (double)asked_ns / 1e9, (double)t->bound_ns / 1e9);
		ret = -EINVAL;
		goto fail;
	}
	/* No traffic leaves the board: the rate cap does not apply (1 bit/s passes it). */
	if ((ret = nb_agent_check_caps(ctx, t->bound_ns, 1, err, errlen)))
		goto fail;
	if ((ret = nb_msg_put_u64(ack, NB_T_CRYPTO_BOUND_NS, t->bound_ns)))
		goto fail;
	*state = t;
	return 0;
fail:
	crypto_free(t);
	return ret;
}

/* In the run thread, after each complete algorithm: encode it (and the head with the first)
 * here, where the result is not being written, and publish it under the lock. */
static void on_progress(void *arg, const struct nb_crypto_result *r, size_t ai)
{
	struct crypto_agent *t = arg;
	uint8_t *head = NULL, *buf = NULL;
	size_t head_len = 0, len = 0, np = 0;
	int ret = 0;

	if (ai == 0)
		ret = nb_crypto_head_encode(r, &head, &head_len);
	if (!ret)
		ret = nb_crypto_algo_encode(r, ai, t->form, &buf, &len);
	/* The points' profiles: the algorithm's item is published after them, so that nothing
	 * reads them until then. */
	for (size_t ei = 0;
	     NB_CRYPTO_PROFILE && !ret && ai < NB_CRYPTO_MAX_ALGOS && ei < r->opts.nengines; ei++)
		for (size_t si = 0; !ret && si < r->opts.nsizes; si++) {
			const struct nb_prof_result *pr =
			    nb_crypto_point_prof(r, nb_crypto_cell_at(r, ai, ei), si);
			if (pr)
				ret = nb_crypto_prof_encode(pr, ai, ei, si, PROF_MAX,
							    &t->prof[ai][np], &t->prof_len[ai][np]);
			if (pr && !ret)
				t->nprof[ai] = ++np;
		}
	nb_job_lock(&t->job);
	if (ret || ai != t->done) {
		t->encode_err = ret ? ret : -EPROTO;
		free(head);
		free(buf);
	} else {
		if (head) {
			t->head = head;
			t->head_len = head_len;
		}
		t->algo[ai] = buf;
		t->algo_len[ai] = len;
		t->done = ai + 1;
	}
	nb_job_unlock(&t->job);
}

static int run_main(struct nb_job *job, void *arg)
{
	struct crypto_agent *t = arg;
	(void)job;
	struct nb_crypto_result *r = NULL;
	int ret = nb_crypto_run(&t->o, on_progress, t, &r);
	nb_job_lock(&t->job);
	t->r = r;
	t->run_ret = ret;
	t->finished = true;
	nb_job_unlock(&t->job);
	return ret;
}

static int crypto_start(void *state, char *err, size_t errlen)
{
	struct crypto_agent *t = state;
	int ret = nb_job_start(&t->job, run_main, t);
	if (ret) {
		snprintf(err, errlen, "cannot start the crypto run: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static bool fits(const struct nb_msg *m, size_t n)
{
	return m->len + 4 + n + AGENT_RESERVE <= NB_MSG_MAX;
}

/* Appends the head (once) and as many unsent algorithms as fit; with the lock held. */
static int put_pending(struct crypto_agent *t, struct nb_msg *m)
{
	int ret = 0;
	if (t->head && !t->head_sent && fits(m, t->head_len)) {
		if ((ret = nb_msg_put_bytes(m, NB_T_CRYPTO_HEAD, t->head, t->head_len)))
			return ret;
		t->head_sent = true;
	}
	while (t->head_sent && t->sent < t->done) {
		size_t a = t->sent;
		while (NB_CRYPTO_PROFILE && t->prof_sent < t->nprof[a] &&
		       fits(m, t->prof_len[a][t->prof_sent])) {
			ret = nb_msg_put_bytes(m, NB_T_CRYPTO_POINT_PROF, t->prof[a][t->prof_sent],
					       t->prof_len[a][t->prof_sent]);
			if (ret)
				return ret;
			t->prof_sent++;
		}
		if (t->prof_sent < t->nprof[a] || !fits(m, t->algo_len[a]))
			break;
		ret =
		    nb_msg_put_bytes(m, NB_T_CRYPTO_RESULT, t->algo[t->sent], t->algo_len[t->sent]);
		if (ret)
			return ret;
		t->sent++;
		t->prof_sent = 0;
	}
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_CRYPTO_DONE, (uint32_t)t->done);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_CRYPTO_FINISHED, t->finished);
	return ret;
}

static int crypto_snapshot(void *state, struct nb_msg *snap)
{
	struct crypto_agent *t = state;
	nb_job_lock(&t->job);
	int ret = t->encode_err ? t->encode_err : put_pending(t, snap);
	nb_job_unlock(&t->job);
	return ret;
}

static int crypto_stop(void *state, struct nb_msg *final, char *err, size_t errlen)
{
	struct crypto_agent *t = state;
	int ret = 0;

	nb_job_finish(&t->job); /* the run's value is t->run_ret */
	/* The run thread is gone: no lock needed. */
	if (t->encode_err) {
		snprintf(err, errlen, "cannot encode the crypto result: %s",
			 strerror(-t->encode_err));
		return t->encode_err;
	}
	if (t->run_ret)
		ret = nb_msg_put_u32(final, NB_T_CRYPTO_RUN_ERR, (uint32_t)-t->run_ret);
	if (!ret && t->r && !t->head) {
		/* Stopped before the first algorithm was complete: the head alone. */
		ret = nb_crypto_head_encode(t->r, &t->head, &t->head_len);
	}
	if (!ret)
		ret = put_pending(t, final);
	if (!ret && t->r)
		ret = nb_msg_put_u32(final, NB_T_CRYPTO_INTERRUPTED, t->r->interrupted);
	if (!ret)
		ret = nb_msg_put_u32(final, NB_T_CRYPTO_NALGOS, (uint32_t)t->sent);
	if (ret)
		snprintf(err, errlen, "cannot report the crypto result: %s", strerror(-ret));
	return ret;
}

static void crypto_describe(void *state, char *buf, size_t len)
{
	const struct crypto_agent *t = state;
	size_t ok = 0;
	for (size_t i = 0; t->r && i < t->r->ncells; i++)
		ok += t->r->cells[i].status == NB_CRYPTO_OK;
	snprintf(buf, len,
		 "%zu algorithm%s x %zu engine%s x %zu size%s, %zu complete, %zu measured%s",
		 t->o.nalgos, t->o.nalgos > 1 ? "s" : "", t->o.nengines,
		 t->o.nengines > 1 ? "s" : "", t->o.nsizes, t->o.nsizes > 1 ? "s" : "", t->done, ok,
		 t->r && t->r->interrupted ? ", interrupted" : "");
}

const struct nb_test_ops nb_crypto_ops = {
    .type = NB_TEST_CRYPTO,
    .name = "crypto",
    .setup = crypto_setup,
    .start = crypto_start,
    .snapshot = crypto_snapshot,
    .stop = crypto_stop,
    .free = crypto_free,
    .describe = crypto_describe,
};
