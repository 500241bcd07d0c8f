/* SPDX-License-Identifier: BSD-2-Clause */
/* A kernel profile's categories are metrics like any other: rate's judged trial per frame size
 * (the DUT's observer) and stream's steps per bitrate give one series of ns per frame per
 * category, lower being better; a category whose share is not established, or whose ns per
 * frame is unknown, is no point; an unavailable profile gives no view at all. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/store/jdoc.h"
#include "core/store/views.h"
#include "tap.h"

/* Two sizes; 64 B judged on trial 2 (netfilter 900 ns there, 50 ns on trial 1), 1518 B with no
 * judged trial (its last trial counts); driver not established at 64 B. */
static const char rate_doc[] =
    "{\"schema\":\"netbench/1\",\"test\":\"rate\",\"sizes\":["
    "{\"frame_bytes\":64,\"fps\":1000,\"valid\":true,\"bottleneck_trial\":2,\"trials\":["
    "{\"id\":1,\"observers\":[{\"profile\":{\"available\":true,\"categories\":["
    "{\"name\":\"netfilter\",\"established\":true,\"ns_per_frame\":50}]}}]},"
    "{\"id\":2,\"observers\":[{\"profile\":{\"available\":true,\"categories\":["
    "{\"name\":\"netfilter\",\"established\":true,\"ns_per_frame\":900},"
    "{\"name\":\"driver\",\"established\":false,\"ns_per_frame\":40},"
    "{\"name\":\"idle\",\"established\":true,\"ns_per_frame\":null}]}}]},"
    "{\"id\":3,\"observers\":[{\"profile\":{\"available\":true,\"categories\":["
    "{\"name\":\"netfilter\",\"established\":true,\"ns_per_frame\":7}]}}]}]},"
    "{\"frame_bytes\":1518,\"fps\":500,\"valid\":true,\"bottleneck_trial\":null,\"trials\":["
    "{\"id\":1,\"observers\":[{\"profile\":{\"available\":true,\"categories\":["
    "{\"name\":\"netfilter\",\"established\":true,\"ns_per_frame\":11}]}}]},"
    "{\"id\":2,\"observers\":[{\"profile\":{\"available\":true,\"categories\":["
    "{\"name\":\"netfilter\",\"established\":true,\"ns_per_frame\":1200},"
    "{\"name\":\"driver\",\"established\":true,\"ns_per_frame\":300}]}}]}]}]}";

static const char rate_unavailable[] =
    "{\"schema\":\"netbench/1\",\"test\":\"rate\",\"sizes\":["
    "{\"frame_bytes\":64,\"fps\":1000,\"valid\":true,\"bottleneck_trial\":1,\"trials\":["
    "{\"id\":1,\"observers\":[{\"profile\":{\"available\":false,"
    "\"unavailable\":\"perf events refused\"}}]}]}]}";

static const char stream_doc[] =
    "{\"schema\":\"netbench/1\",\"test\":\"stream\",\"receivers\":["
    "{\"agent\":\"a\",\"steps\":["
    "{\"rate_bps_asked\":4000000,\"valid\":true,\"cpu\":{\"sys_busy_pct\":5},\"profile\":"
    "{\"available\":true,\"categories\":[{\"name\":\"driver\",\"established\":true,"
    "\"ns_per_frame\":2500},{\"name\":\"copy\",\"established\":true,\"ns_per_frame\":800}]}},"
    "{\"rate_bps_asked\":8000000,\"valid\":false,\"cpu\":{\"sys_busy_pct\":9},\"profile\":"
    "{\"available\":true,\"categories\":[{\"name\":\"driver\",\"established\":true,"
    "\"ns_per_frame\":9}]}}]}]}";

/* tput: the agent's profile per step and direction; the 8k Rx step is invalid (no point). */
static const char tput_doc[] =
    "{\"schema\":\"netbench/1\",\"test\":\"tput\",\"steps\":["
    "{\"block_bytes\":1024,\"direction\":\"tx\",\"valid\":true,\"kbyte_per_s\":100,"
    "\"profile_local\":{\"available\":true,\"categories\":["
    "{\"name\":\"user\",\"established\":true,\"ns_per_frame\":9}]},"
    "\"profile_remote\":{\"available\":true,\"categories\":["
    "{\"name\":\"copy\",\"established\":true,\"ns_per_frame\":600},"
    "{\"name\":\"socket\",\"established\":true,\"ns_per_frame\":2300}]}},"
    "{\"block_bytes\":8192,\"direction\":\"rx\",\"valid\":false,"
    "\"profile_remote\":{\"available\":true,\"categories\":["
    "{\"name\":\"socket\",\"established\":true,\"ns_per_frame\":1}]}},"
    "{\"block_bytes\":32768,\"direction\":\"rx\",\"valid\":true,\"kbyte_per_s\":100,"
    "\"profile_remote\":{\"available\":true,\"categories\":["
    "{\"name\":\"socket\",\"established\":true,\"ns_per_frame\":500}]}}]}";

static const struct nb_view *find(const struct nb_view *v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].id, id))
			return &v[i];
	return NULL;
}

static const struct nb_series *series(const struct nb_view *v, const char *name)
{
	for (size_t i = 0; v && i < v->nseries; i++)
		if (!strcmp(v->s[i].name, name))
			return &v->s[i];
	return NULL;
}

static struct nb_jdoc *parse(const char *text)
{
	struct nb_jdoc *d = NULL;
	char err[200];
	if (nb_jdoc_parse(text, strlen(text), &d, err, sizeof(err)))
		printf("# parse: %s\n", err);
	return d;
}

int main(void)
{
	static struct nb_view views[NB_VIEW_MAX];
	size_t n = 0;
	struct nb_jdoc *d = parse(rate_doc);

	CHECK(d && !nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n), "rate: views extracted");
	const struct nb_view *v = find(views, n, "rate.profile");
	CHECK(v != NULL, "rate: a profile view beside rate.fps (%zu views)", n);
	CHECK(v && v->lower_is_better, "rate.profile: lower is better");
	const struct nb_series *nf = series(v, "netfilter"), *drv = series(v, "driver");
	CHECK(nf && nf->n == 2 && nf->x[0] == 64 && nf->y[0] == 900,
	      "64 B: netfilter from the judged trial 2 (900 ns), not trial 1 or 3 (%g)",
	      nf && nf->n ? nf->y[0] : NAN);
	CHECK(nf && nf->n == 2 && nf->x[1] == 1518 && nf->y[1] == 1200,
	      "1518 B with no judged trial: its last trial (%g)", nf && nf->n > 1 ? nf->y[1] : NAN);
	CHECK(drv && drv->n == 1 && drv->x[0] == 1518 && drv->y[0] == 300,
	      "driver: not established at 64 B is no point, 1518 B is one (%zu points)",
	      drv ? drv->n : 0);
	CHECK(!series(v, "idle"), "a category without ns per frame is no series");
	nb_jdoc_free(d);

	d = parse(rate_unavailable);
	CHECK(d && !nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n) &&
		  !find(views, n, "rate.profile") && find(views, n, "rate.fps"),
	      "rate: an unavailable profile gives no profile view, the frame rate still");
	nb_jdoc_free(d);

	d = parse(stream_doc);
	CHECK(d && !nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n), "stream: views extracted");
	v = find(views, n, "stream.profile");
	drv = series(v, "driver");
	const struct nb_series *cp = series(v, "copy");
	CHECK(v && v->lower_is_better && drv && cp,
	      "stream: a profile view of the receiver, driver and copy");
	CHECK(drv && drv->n == 1 && drv->x[0] == 4 && drv->y[0] == 2500,
	      "stream: 4 Mbit/s at 2500 ns per datagram; the invalid step is no point");
	nb_jdoc_free(d);

	d = parse(tput_doc);
	CHECK(d && !nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n), "tput: views extracted");
	v = find(views, n, "tput.profile");
	const struct nb_series *txs = series(v, "Tx: socket"), *rxs = series(v, "Rx: socket");
	CHECK(v && v->lower_is_better && v->stacked && series(v, "Tx: copy") && txs && rxs &&
		  !series(v, "Tx: user"),
	      "tput: the agent's profile per direction and category (not this host's)");
	CHECK(txs && txs->n == 1 && txs->x[0] == 1024 && txs->y[0] == 2300 && rxs && rxs->n == 1 &&
		  rxs->x[0] == 32768 && rxs->y[0] == 500,
	      "tput: ns per KByte at each block size; the invalid step is no point");
	nb_jdoc_free(d);
	return tap_done();
}
