/* SPDX-License-Identifier: BSD-2-Clause */
/* The crypto run driven from the controller. A remote run asks the agent for the controller's
 * own parameters and rebuilds the result from the algorithms the snapshots carry, so that the
 * callbacks see the same sequence as a run here. */
#include "core/crypto/crypto_ctl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/crypto/crypto_wire.h"
#include "core/session/ctl_poll.h"
#include "core/base/timeutil.h"

#define MARK_EVERY_NS (250 * NB_NS_PER_MS)
#define STOP_MS	      60000 /* an interrupted run still finishes its current check */
#define LATE_NS	      (15 * NB_NS_PER_S)

struct take {
	struct nb_crypto_result *r;
	const struct nb_crypto_ctl_cb *cb;
	size_t got; /* algorithms so far: they must arrive in order */
};

/* Takes the head and every algorithm out of a SNAP or FINAL, handing each to the callback. */
static int take_results(struct take *t, const struct nb_msg *m, char *err, size_t errlen)
{
	const uint8_t *p;
	size_t n, off = 0, ai;
	uint16_t tag;

	if (!nb_msg_get_bytes(m, NB_T_CRYPTO_HEAD, &p, &n) && nb_crypto_head_decode(t->r, p, n)) {
		snprintf(err, errlen, "malformed engine list from the agent");
		return -EBADMSG;
	}
	while (nb_msg_next(m, &off, &tag, &p, &n)) {
		if (tag == NB_T_CRYPTO_POINT_PROF &&
		    (!NB_CRYPTO_PROFILE || nb_crypto_prof_decode(t->r, p, n))) {
			snprintf(err, errlen, "malformed kernel profile from the agent");
			return -EBADMSG;
		}
		if (tag != NB_T_CRYPTO_RESULT)
			continue;
		if (nb_crypto_algo_decode(t->r, p, n, &ai) || ai != t->got) {
			snprintf(err, errlen, "malformed result from the agent (algorithm %zu)",
				 t->got + 1);
			return -EBADMSG;
		}
		t->got++;
		if (t->cb && t->cb->algo_done)
			t->cb->algo_done(t->cb->arg, t->r, ai);
	}
	return 0;
}

static int take_snap(void *arg, const struct nb_msg *snap, char *err, size_t errlen)
{
	struct take *t = arg;
	uint32_t done = 0, finished = 0;
	int ret = take_results(t, snap, err, errlen);

	if (ret)
		return ret;
	if (nb_msg_get_u32(snap, NB_T_CRYPTO_DONE, &done) ||
	    nb_msg_get_u32(snap, NB_T_CRYPTO_FINISHED, &finished)) {
		snprintf(err, errlen, "malformed snapshot from the agent");
		return -EBADMSG;
	}
	if (finished && t->got >= done)
		return NB_POLL_DONE;
	/* More complete than one message held: fetch the rest now. */
	return t->got < done ? NB_POLL_MORE : NB_POLL_WAIT;
}

static int run_remote(const struct nb_crypto_params *o, const struct nb_ctl_target *rm,
		      const struct nb_crypto_ctl_cb *cb, struct nb_crypto_result **out, char *err,
		      size_t errlen)
{
	struct nb_msg *req = nb_msg_new(NB_MSG_TEST_REQ), *snap = nb_msg_new(0);
	struct take t = {.r = *out = nb_crypto_result_new(o), .cb = cb};
	uint64_t bound_ns = nb_crypto_bound_ns(o);
	uint32_t v = 0;
	int ret = -ENOMEM;

	if (!req || !snap || !t.r) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	ret = nb_ctl_open_target(&t.r->ctl, rm, err, errlen);
	if (ret)
		goto out;
	struct nb_ctl *ctl = t.r->ctl;
	if (cb && cb->connected)
		cb->connected(cb->arg, ctl);
	nb_msg_put_u32(req, NB_T_TEST_TYPE, NB_TEST_CRYPTO);
	nb_msg_put_u64(req, NB_T_DURATION_NS, bound_ns);
	if ((ret = nb_crypto_put_request(req, o))) {
		snprintf(err, errlen, "cannot encode the request: %s", strerror(-ret));
		goto out;
	}
	if ((ret = nb_ctl_request(ctl, req, snap, err, errlen)) ||
	    (ret = nb_ctl_start(ctl, err, errlen)))
		goto out;
	const struct nb_ctl_poll poll = {
	    .every_ns = MARK_EVERY_NS,
	    .bound_ns = bound_ns,
	    .late_ns = LATE_NS,
	    .stop = o->stop,
	    .what = "the run on the agent",
	    .snap = take_snap,
	    .arg = &t,
	};
	ret = nb_ctl_poll(ctl, &poll, snap, err, errlen);
	if (ret && ret != -EINTR)
		goto out; /* interrupted: the stop below keeps what the agent finished */
	if ((ret = nb_ctl_stop(ctl, snap, STOP_MS, err, errlen)) ||
	    (ret = take_results(&t, snap, err, errlen)))
		goto out;
	if (!nb_msg_get_u32(snap, NB_T_CRYPTO_RUN_ERR, &v)) {
		snprintf(err, errlen, "the run failed on the agent: %s", strerror((int)v));
		ret = -EIO;
		goto out;
	}
	v = 0;
	nb_msg_get_u32(snap, NB_T_CRYPTO_INTERRUPTED, &v);
	t.r->interrupted = v || nb_cancelled(o->stop);
	if (t.got < o->nalgos && !t.r->interrupted) {
		snprintf(err, errlen, "the agent sent %zu of %zu algorithms", t.got, o->nalgos);
		ret = -EBADMSG;
		goto out;
	}
	ret = 0;
out:
	nb_msg_free(req);
	nb_msg_free(snap);
	return ret;
}

int nb_crypto_ctl_run(const struct nb_crypto_ctl_req *req, const struct nb_crypto_ctl_cb *cb,
		      struct nb_crypto_result **out, char *err, size_t errlen)
{
	int ret;

	*out = NULL;
	if (req->target.host)
		return run_remote(req->p, &req->target, cb, out, err, errlen);
	ret = nb_crypto_run(req->p, cb ? cb->algo_done : NULL, cb ? cb->arg : NULL, out);
	if (ret)
		snprintf(err, errlen, "run failed: %s", strerror(-ret));
	return ret;
}
