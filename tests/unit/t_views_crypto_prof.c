/* SPDX-License-Identifier: BSD-2-Clause */
/* crypto's kernel profile is a metric like any other: each engine's points give one series of
 * ns per request per category ("ENGINE: CATEGORY") by request size, lower being better, for the
 * algorithm the view shows; a share not established, an invalid point or an unavailable
 * profile is no point; a run without a profile has no such view. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/store/jdoc.h"
#include "core/store/views.h"
#include "tap.h"

#define CAT(n, e, ns) "{\"name\":\"" n "\",\"established\":" e ",\"ns_per_frame\":" ns "}"
#define PROF(cats)    "\"profile\":{\"available\":true,\"categories\":[" cats "]}"

static const char doc[] =
    "{\"schema\":\"netbench/1\",\"test\":\"crypto\",\"results\":["
    "{\"algo\":\"aes-128-cbc\",\"engine\":\"afalg:cbc(aes-generic)\",\"status\":\"ok\","
    "\"points\":["
    "{\"size_bytes\":64,\"valid\":true,\"mbyte_per_s\":10," PROF(
	CAT("crypto", "true", "900") "," CAT(
	    "sched", "false",
	    "40")) "},"
		   "{\"size_bytes\":8192,\"valid\":true,\"mbyte_per_s\":20," PROF(
		       CAT("crypto", "true", "90000") "," CAT(
			   "idle", "true",
			   "null")) "},"
				    "{\"size_bytes\":16384,\"valid\":false,\"invalid_reason\":"
				    "\"x\"," PROF(CAT(
					"crypto", "true",
					"5")) "}]},"
					      "{\"algo\":\"aes-128-cbc\",\"engine\":\"afalg:virtio_"
					      "crypto_aes_cbc\",\"status\":\"ok\","
					      "\"points\":["
					      "{\"size_bytes\":64,\"valid\":true,\"mbyte_per_s\":1,"
					      "\"profile\":{\"available\":false,\"unavailable\":"
					      "\"perf events refused\"}},"
					      "{\"size_bytes\":8192,\"valid\":true,\"mbyte_per_s\":"
					      "3," PROF(CAT("irq", "true", "7000") "," CAT(
						  "crypto", "true",
						  "3000")) "}]},"
							   "{\"algo\":\"hmac-sha1\",\"engine\":"
							   "\"afalg:cbc(aes-generic)\",\"status\":"
							   "\"ok\","
							   "\"points\":[{\"size_bytes\":64,"
							   "\"valid\":true,\"mbyte_per_s\":1," PROF(
							       CAT("crypto", "true", "1")) "}]}]}";

static const char plain[] =
    "{\"schema\":\"netbench/1\",\"test\":\"crypto\",\"results\":["
    "{\"algo\":\"aes-128-cbc\",\"engine\":\"soft\",\"status\":\"ok\",\"points\":["
    "{\"size_bytes\":64,\"valid\":true,\"mbyte_per_s\":10}]}]}";

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

int main(void)
{
	static struct nb_view views[NB_VIEW_MAX];
	size_t n = 0;
	struct nb_jdoc *d = NULL;
	char err[200];

	CHECK(!nb_jdoc_parse(doc, strlen(doc), &d, err, sizeof(err)), "parsed");
	CHECK(d && !nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n), "views extracted");
	const struct nb_view *v = find(views, n, "crypto.profile");
	CHECK(v && find(views, n, "crypto.mbyte"), "a profile view beside crypto.mbyte");
	CHECK(v && v->lower_is_better && strstr(v->title, "aes-128-cbc"),
	      "lower is better, of the algorithm most engines ran");
	const struct nb_series *g = series(v, "afalg:cbc(aes-generic): crypto");
	CHECK(g && g->n == 2 && g->x[0] == 64 && g->y[0] == 900 && g->x[1] == 8192 &&
		  g->y[1] == 90000,
	      "aes-generic's crypto at 64 and 8192 bytes; the invalid point is none (%zu)",
	      g ? g->n : 0);
	CHECK(!series(v, "afalg:cbc(aes-generic): sched") &&
		  !series(v, "afalg:cbc(aes-generic): idle"),
	      "a share not established, or without ns per request, is no series");
	const struct nb_series *irq = series(v, "afalg:virtio_crypto_aes_cbc: irq");
	CHECK(irq && irq->n == 1 && irq->x[0] == 8192 && irq->y[0] == 7000,
	      "virtio's irq at 8192 bytes; its unavailable profile at 64 is no point");
	nb_jdoc_free(d);
	d = NULL;
	CHECK(!nb_jdoc_parse(plain, strlen(plain), &d, err, sizeof(err)) &&
		  !nb_views_extract(d, NULL, views, NB_VIEW_MAX, &n) &&
		  find(views, n, "crypto.mbyte") && !find(views, n, "crypto.profile"),
	      "a run without a profile: no profile view");
	nb_jdoc_free(d);
	return tap_done();
}
