/* SPDX-License-Identifier: BSD-2-Clause */
/* tput's sweep driven from the controller: the plan of steps, each step run in turn with its
 * results kept in the sweep as they come, and Ctrl-C keeping the sizes measured whole. */
#include "core/tput/tput_ctl.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/tput/tput_plan.h"

size_t nb_tput_sweep_plan(const struct nb_tput_sweep *s, struct nb_tput_step *out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nsizes; i++) {
		if (s->bidir) {
			out[n++] = (struct nb_tput_step){.size_index = i,
							 .dir = NB_TPUT_DIR_TX | NB_TPUT_DIR_RX};
		} else {
			if (s->tx)
				out[n++] =
				    (struct nb_tput_step){.size_index = i, .dir = NB_TPUT_DIR_TX};
			if (s->rx)
				out[n++] =
				    (struct nb_tput_step){.size_index = i, .dir = NB_TPUT_DIR_RX};
		}
		if (n)
			out[n - 1].ends_size = true;
	}
	if (n)
		out[0].baseline = true;
	return n;
}

bool nb_tput_sweep_has(const struct nb_tput_sweep *s, size_t i, bool tx)
{
	if (i >= s->ndone || !(tx ? s->tx : s->rx))
		return false;
	return tx || !s->half_tx || i + 1 < s->ndone;
}

bool nb_tput_sweep_valid(const struct nb_tput_sweep *s)
{
	for (size_t i = 0; i < s->ndone; i++)
		if ((nb_tput_sweep_has(s, i, true) && !s->res[i].tx.valid) ||
		    (nb_tput_sweep_has(s, i, false) && !s->res[i].rx.valid))
			return false;
	return true;
}

/* What an interval callback needs to keep the interval and pass it on. */
struct drive {
	struct nb_tput_sweep *s;
	size_t size_index;
	uint32_t block;
	nb_tput_event_fn fn;
	void *arg;
	bool nomem;
};

static void emit(const struct drive *d, struct nb_tput_event ev)
{
	if (d->fn)
		d->fn(d->arg, &ev);
}

static void on_interval(void *arg, const struct nb_tput_interval *iv)
{
	struct drive *d = arg;
	if (nb_tput_sweep_add_interval(d->s, d->size_index, iv))
		d->nomem = true;
	emit(d, (struct nb_tput_event){.kind = NB_TPUT_EV_INTERVAL,
				       .size_index = d->size_index,
				       .block = d->block,
				       .iv = iv});
}

/* A step's results into the sweep: its direction(s), its observers' window (owned by the sweep
 * from here), the baseline. */
static void keep(struct nb_tput_sweep *s, const struct nb_tput_step *st,
		 struct nb_tput_step_result *one)
{
	struct nb_tput_step_result *r = &s->res[st->size_index];
	struct nb_obs_trial *slot = NULL;

	if (st->dir & NB_TPUT_DIR_TX)
		r->tx = one->tx;
	if (st->dir & NB_TPUT_DIR_RX)
		r->rx = one->rx;
	if (s->obs_tx)
		slot = st->dir & NB_TPUT_DIR_TX ? &s->obs_tx[st->size_index]
						: &s->obs_rx[st->size_index];
	if (slot)
		*slot = one->obs;
	else
		nb_obs_trial_free(&one->obs);
	if (st->baseline) {
		r->baseline = one->baseline;
		s->baseline = one->baseline;
	}
}

/* The plan's room: -EINVAL with err for more sizes than one sweep holds. */
static int too_many(const struct nb_tput_sweep *s, char *err, size_t errlen)
{
	if (s->nsizes <= NB_TPUT_MAX_SIZES)
		return 0;
	snprintf(err, errlen, "%zu block sizes: at most %d in one sweep", s->nsizes,
		 NB_TPUT_MAX_SIZES);
	return -EINVAL;
}

int nb_tput_sweep_drive(nb_tput_step_fn step, void *step_arg, const struct nb_tput_params *p,
			struct nb_tput_sweep *s, const nb_cancel_t *stop, nb_tput_event_fn fn,
			void *arg, char *err, size_t errlen)
{
	struct nb_tput_step plan[2 * NB_TPUT_MAX_SIZES];
	struct nb_tput_params q = *p;
	struct drive d = {.s = s, .fn = fn, .arg = arg};
	size_t n, tx_ended = SIZE_MAX; /* a size whose Tx step ended, its Rx to come */
	int ret = 0;

	if ((ret = too_many(s, err, errlen)))
		return ret;
	n = nb_tput_sweep_plan(s, plan);
	for (size_t k = 0; k < n && !ret; k++) {
		const struct nb_tput_step *st = &plan[k];
		struct nb_tput_step_result one;
		if (nb_cancelled(stop))
			break;
		d.size_index = st->size_index;
		d.block = (uint32_t)s->sizes[st->size_index];
		q.block = d.block;
		q.dir = st->dir;
		q.baseline_ns = st->baseline ? NB_TPUT_BASELINE_NS : 0;
		emit(&d, (struct nb_tput_event){.kind = NB_TPUT_EV_STEP,
						.step = k,
						.size_index = st->size_index,
						.block = d.block,
						.dir = st->dir});
		ret = step(step_arg, &q, &one, on_interval, &d, stop, err, errlen);
		if (!ret && d.nomem) {
			nb_obs_trial_free(&one.obs);
			nb_tput_dir_result_free(&one.tx);
			nb_tput_dir_result_free(&one.rx);
			snprintf(err, errlen, "out of memory keeping the intervals");
			ret = -ENOMEM;
		}
		if (ret)
			break;
		keep(s, st, &one);
		emit(&d, (struct nb_tput_event){.kind = NB_TPUT_EV_RESULT,
						.step = k,
						.size_index = st->size_index,
						.block = d.block,
						.dir = st->dir,
						.res = &one});
		tx_ended = st->dir == NB_TPUT_DIR_TX && !st->ends_size ? st->size_index : SIZE_MAX;
		if (st->ends_size) {
			s->ndone = st->size_index + 1;
			emit(&d, (struct nb_tput_event){.kind = NB_TPUT_EV_SIZE,
							.size_index = st->size_index,
							.block = d.block});
		}
	}
	/* Ctrl-C, inside a step (its -EINTR, or whatever the signal cut short) or after one: the
	 * sizes measured whole are kept, the one cut short is dropped. */
	if (nb_cancelled(stop) || ret == -EINTR) {
		s->interrupted = true;
		ret = 0;
		/* A Tx step that ended is a measurement: kept, with its Rx not measured. */
		if (tx_ended == s->ndone) {
			s->ndone++;
			s->half_tx = true;
		}
	}
	return ret;
}

static int real_step(void *arg, const struct nb_tput_params *p, struct nb_tput_step_result *r,
		     nb_tput_interval_fn on_iv, void *iv_arg, const nb_cancel_t *stop, char *err,
		     size_t errlen)
{
	return nb_tput_run_step(arg, p, r, on_iv, iv_arg, stop, err, errlen);
}

int nb_tput_ctl_run(const struct nb_tput_ctl_req *req, const struct nb_tput_ctl_cb *cb,
		    struct nb_tput_result **out, char *err, size_t errlen)
{
	const struct nb_tput_params *p = req->p;
	nb_tput_event_fn fn = cb ? cb->event : NULL;
	void *arg = cb ? cb->arg : NULL;
	struct nb_tput_step plan[2 * NB_TPUT_MAX_SIZES];
	struct nb_tput_result *res = calloc(1, sizeof(*res));
	struct nb_tput_sweep *s;
	int ret;

	*out = res;
	if (!res || nb_tput_sweep_init(&res->s, req->sizes, req->nsizes, req->tx, req->rx,
				       req->bidir, p->observe && p->observe->n > 0)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s = &res->s;
	if ((ret = too_many(s, err, errlen)))
		return ret;
	if ((ret = nb_ctl_open_target(&res->ctl, &req->target, err, errlen)))
		return ret;
	/* The whole run against the agent's caps, before any traffic: a step it would refuse
	 * halfway must not cost the steps before it. */
	if ((ret = nb_tput_check_plan(&res->ctl->caps, p, s->sizes, s->nsizes, s->rx || s->bidir,
				      res->ctl->local.ss_family == AF_INET6, err, errlen)))
		return ret;
	if (fn)
		fn(arg, &(struct nb_tput_event){.kind = NB_TPUT_EV_BEGIN,
						.ctl = res->ctl,
						.nsteps = nb_tput_sweep_plan(s, plan)});
	return nb_tput_sweep_drive(real_step, res->ctl, p, s, req->stop, fn, arg, err, errlen);
}

void nb_tput_result_free(struct nb_tput_result *r)
{
	if (!r)
		return;
	nb_tput_sweep_free(&r->s);
	nb_ctl_free(r->ctl);
	free(r);
}
