/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's driver of a rate run (rate_ctl.h): open, check, start, then the sizes, the
 * rule sweep or the clock experiment, with Ctrl-C keeping what was measured whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate/rate_ctl.h"

static bool stopped(const struct nb_rate_params *p)
{
	return p->stop && *p->stop;
}

/* Counts the sizes whose procedure finished (the sizes the result keeps after a stop), then
 * hands the event on. */
static void ctl_progress(void *arg, const struct nb_rate_event *ev)
{
	struct nb_rate_result *res = arg;

	if (ev->kind == NB_RATE_EV_SIZE_DONE)
		res->ndone++;
	if (res->cb.progress)
		res->cb.progress(res->cb.arg, ev);
}

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory: %s", strerror(ENOMEM));
	return -ENOMEM;
}

static int run_sweep(struct nb_rate_result *res, char *err, size_t errlen)
{
	res->fits = calloc(1, sizeof(*res->fits));
	if (!res->fits)
		return oom(err, errlen);
	return nb_rate_sweep(res->run, res->cb.dut, &res->points, &res->npoints, res->fits, err,
			     errlen);
}

static int run_clocks(struct nb_rate_result *res, char *err, size_t errlen)
{
	res->clocks = calloc(res->cb.nclocks, sizeof(*res->clocks));
	if (!res->clocks)
		return oom(err, errlen);
	res->nclocks = res->cb.nclocks;
	return nb_rate_clocks(res->run, res->cb.clocks_mhz, res->cb.nclocks, res->clocks,
			      &res->nclock_points, &res->have_freq, &res->clock_fits, err, errlen);
}

static int run_sizes(struct nb_rate_result *res, char *err, size_t errlen)
{
	const struct nb_rate_params *p = res->run->p;
	int ret = nb_rate_run_sizes(res->run, res->res, &res->verdict, err, errlen);

	/* Ctrl-C: the sizes whose procedure finished are kept, the one cut short is dropped. */
	return stopped(p) ? 0 : ret;
}

int nb_rate_ctl_run(const struct nb_rate_params *p, const struct nb_rate_ctl_cb *cb,
		    struct nb_rate_result **out, char *err, size_t errlen)
{
	struct nb_rate_result *res = calloc(1, sizeof(*res));
	struct nb_rate_run *r;
	int ret;

	*out = res;
	if (!res)
		return oom(err, errlen);
	if (cb)
		res->cb = *cb;
	if (p->nsweep && !res->cb.dut) {
		snprintf(err, errlen, "a rule sweep needs a DUT to load its rules into");
		return -EINVAL;
	}
	res->res = calloc(p->nsizes ? p->nsizes : 1, sizeof(*res->res));
	if (!res->res)
		return oom(err, errlen);
	ret = nb_rate_open(&res->run, p, ctl_progress, res, err, errlen);
	if (ret)
		return ret;
	r = res->run;
	if (res->cb.opened && (ret = res->cb.opened(res->cb.arg, r, err, errlen)))
		return ret;
	if ((ret = nb_rate_check_sizes(r, err, errlen)) ||
	    (ret = nb_rate_check_flows(r, err, errlen))) {
		res->bad_input = ret == -EINVAL; /* the request; else what this host lacks */
		return ret;
	}
	if ((ret = nb_rate_start(r, err, errlen)))
		return ret;
	ctl_progress(res, &(struct nb_rate_event){.kind = NB_RATE_EV_BEGIN});
	if (p->nsweep)
		ret = run_sweep(res, err, errlen);
	else if (res->cb.nclocks)
		ret = run_clocks(res, err, errlen);
	else
		ret = run_sizes(res, err, errlen);
	res->interrupted = r->interrupted = stopped(p);
	if (p->nsweep || res->cb.nclocks)
		res->ndone = 0; /* their points say what was measured whole */
	else if (!res->interrupted)
		res->ndone = p->nsizes;
	nb_rate_describe(r);
	return ret;
}

int nb_rate_result_doc_text(const struct nb_rate_result *r, char **text, size_t *len)
{
	const struct nb_rate_params *p = r->run->p;

	if (p->nsweep)
		return nb_rate_sweep_doc_text(r->run, r->points, r->npoints, r->fits, text, len);
	if (r->nclocks)
		return nb_rate_clocks_doc_text(r->run, r->clocks, r->nclock_points, r->have_freq,
					       &r->clock_fits, text, len);
	return nb_rate_doc_text(r->run, r->res, r->ndone, &r->verdict, text, len);
}

int nb_rate_result_status(const struct nb_rate_result *r)
{
	const struct nb_rate_params *p = r->run->p;
	int status = 0;

	for (size_t i = 0; i < r->npoints; i++)
		for (size_t k = 0; k < p->nsizes; k++)
			status |= nb_rate_status(p, &r->points[i].res[k]);
	for (size_t c = 0; c < r->nclock_points; c++)
		for (size_t k = 0; k < p->nsizes; k++)
			status |= nb_rate_status(p, &r->clocks[c].res[k]);
	if (!p->nsweep && !r->nclocks)
		for (size_t i = 0; i < r->ndone; i++)
			status |= nb_rate_status(p, &r->res[i]);
	return status;
}

void nb_rate_result_free(struct nb_rate_result *r)
{
	if (!r)
		return;
	nb_rate_sweep_free(r->points, r->npoints);
	if (r->clocks)
		nb_rate_clocks_free(r->clocks, r->nclocks);
	free(r->clocks);
	free(r->fits);
	free(r->res);
	nb_rate_free(r->run);
	free(r);
}
