/* SPDX-License-Identifier: BSD-2-Clause */
/* The crypto request on the control protocol: the options by name, so that the agent validates
 * them with the same selectors and bounds as the command line, and the bound on a run's duration
 * that both ends compute alike. */
#include <errno.h>
#include <stdio.h>

#include "core/base/cursor.h"
#include "core/base/timeutil.h"
#include "core/crypto/crypto_wire.h"

static int join_names(char *buf, size_t cap, const char *const *names, size_t n)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + off, cap - off, "%s%s", i ? "," : "", names[i]);
		if (w < 0 || (size_t)w >= cap - off)
			return -EMSGSIZE;
		off += (size_t)w;
	}
	return 0;
}

int nb_crypto_put_request(struct nb_msg *m, const struct nb_crypto_params *o)
{
	const char *names[NB_CRYPTO_MAX_ALGOS > NB_CRYPTO_MAX_ENGINES ? NB_CRYPTO_MAX_ALGOS
								      : NB_CRYPTO_MAX_ENGINES];
	char list[512];
	uint8_t sizes[4 * NB_CRYPTO_MAX_SIZES];
	struct nb_cur sc = nb_cur_writer(sizes, sizeof(sizes));
	int ret;

	for (size_t i = 0; i < o->nalgos; i++)
		names[i] = o->algos[i]->name;
	if ((ret = join_names(list, sizeof(list), names, o->nalgos)) ||
	    (ret = nb_msg_put_str(m, NB_T_CRYPTO_ALGOS, list)))
		return ret;
	for (size_t i = 0; i < o->nengines; i++)
		names[i] = o->engines[i]->name;
	if ((ret = join_names(list, sizeof(list), names, o->nengines)) ||
	    (ret = nb_msg_put_str(m, NB_T_CRYPTO_ENGINES, list)))
		return ret;
	for (size_t i = 0; i < o->nsizes; i++)
		nb_cur_put_u32(&sc, o->sizes[i]);
	if ((ret = nb_msg_put_bytes(m, NB_T_CRYPTO_SIZES, sizes, sc.off)) ||
	    (ret = nb_msg_put_u64(m, NB_T_CRYPTO_TIME_NS, o->time_ns)) ||
	    (ret = nb_msg_put_u64(m, NB_T_CRYPTO_WARMUP_NS, o->warmup_ns)) ||
	    (ret = nb_msg_put_u32(m, NB_T_CRYPTO_INFLIGHT, o->inflight)))
		return ret;
	if ((ret = nb_msg_put_u32(m, NB_T_CRYPTO_AAD, o->aad_len)))
		return ret;
	if (o->profile_hz &&
	    ((ret = nb_msg_put_u32(m, NB_T_CRYPTO_PROFILE_HZ, o->profile_hz)) ||
	     (o->profile_folded && (ret = nb_msg_put_u32(m, NB_T_CRYPTO_PROFILE_FOLDED, 1)))))
		return ret;
	/* An agent before this tag passes over it (it reads the tags it knows) and answers in
	 * the nested TLVs, which nb_crypto_algo_decode still reads. */
	if ((ret = nb_msg_put_u32(m, NB_T_CRYPTO_LOAD_RECORD, 1)))
		return ret;
	return nb_msg_put_u32(m, NB_T_CRYPTO_REPEAT, o->repeat);
}

enum nb_crypto_load_form nb_crypto_request_load_form(const struct nb_msg *req)
{
	uint32_t v = 0, rep = 0;
	if (nb_msg_get_u32(req, NB_T_CRYPTO_LOAD_RECORD, &v) || v != 1)
		return NB_CRYPTO_LOAD_TLV;
	return nb_msg_get_u32(req, NB_T_CRYPTO_REPEAT, &rep) ? NB_CRYPTO_LOAD_RECORD
							     : NB_CRYPTO_LOAD_RECORD_WINDOWS;
}

int nb_crypto_get_request(const struct nb_msg *m, struct nb_crypto_params *o, char *err,
			  size_t errlen)
{
	char list[512], bad[80];
	const uint8_t *p;
	size_t n;

	nb_crypto_params_default(o);
	if (nb_msg_get_str(m, NB_T_CRYPTO_ALGOS, list, sizeof(list))) {
		snprintf(err, errlen, "crypto request without algorithms");
		return -EINVAL;
	}
	if (nb_crypto_select_algos(o, list, bad, sizeof(bad))) {
		snprintf(err, errlen, "crypto request: unknown algorithm '%s' (or too many)", bad);
		return -EINVAL;
	}
	if (nb_msg_get_str(m, NB_T_CRYPTO_ENGINES, list, sizeof(list))) {
		snprintf(err, errlen, "crypto request without engines");
		return -EINVAL;
	}
	if (nb_crypto_select_engines(o, list, bad, sizeof(bad))) {
		snprintf(err, errlen, "crypto request: unknown engine '%s' (or too many)", bad);
		return -EINVAL;
	}
	if (nb_msg_get_bytes(m, NB_T_CRYPTO_SIZES, &p, &n) || n == 0 || n % 4 ||
	    n / 4 > NB_CRYPTO_MAX_SIZES) {
		snprintf(err, errlen, "crypto request: sizes missing or more than %d",
			 NB_CRYPTO_MAX_SIZES);
		return -EINVAL;
	}
	o->nsizes = n / 4;
	struct nb_cur sc = nb_cur_reader(p, n);
	for (size_t i = 0; i < o->nsizes; i++) {
		o->sizes[i] = nb_cur_get_u32(&sc);
		if (o->sizes[i] < 1 || o->sizes[i] > NB_CRYPTO_MAX_SIZE) {
			snprintf(err, errlen, "crypto request: size %u out of range (1 to %u)",
				 o->sizes[i], NB_CRYPTO_MAX_SIZE);
			return -EINVAL;
		}
	}
	if (nb_msg_get_u64(m, NB_T_CRYPTO_TIME_NS, &o->time_ns) ||
	    nb_msg_get_u64(m, NB_T_CRYPTO_WARMUP_NS, &o->warmup_ns) ||
	    nb_msg_get_u32(m, NB_T_CRYPTO_INFLIGHT, &o->inflight) ||
	    nb_msg_get_u32(m, NB_T_CRYPTO_AAD, &o->aad_len)) {
		snprintf(err, errlen, "crypto request without time, warm-up, inflight or aad");
		return -EINVAL;
	}
	/* A controller before --repeat measured one window per point. */
	o->repeat = 1;
	if (nb_msg_get_u32(m, NB_T_CRYPTO_REPEAT, &o->repeat) == 0 &&
	    (o->repeat < 1 || o->repeat > NB_CRYPTO_MAX_REPEAT)) {
		snprintf(err, errlen, "crypto request: repeat %u out of range (1 to %d)", o->repeat,
			 NB_CRYPTO_MAX_REPEAT);
		return -EINVAL;
	}
	/* The profile's rate is judged against the agent's cap where it opens (crypto_agent.c);
	 * an agent-only build has no profile (crypto_params.h) and says so. */
	uint32_t folded = 0;
	int hz = nb_msg_get_u32(m, NB_T_CRYPTO_PROFILE_HZ, &o->profile_hz);
	if (!NB_CRYPTO_PROFILE && hz != -ENOENT) {
		snprintf(err, errlen, "refused: no crypto profile in an agent-only build");
		return -EINVAL;
	}
	if (hz == -EBADMSG || (hz == 0 && !o->profile_hz) ||
	    nb_msg_get_u32(m, NB_T_CRYPTO_PROFILE_FOLDED, &folded) == -EBADMSG || folded > 1 ||
	    (folded && !o->profile_hz)) {
		snprintf(err, errlen, "crypto request: malformed profile");
		return -EINVAL;
	}
	o->profile_folded = folded == 1;
	/* The command line's bounds: 10 ms to 60 s windows, warm-up at most the window. */
	if (o->time_ns < 10 * NB_NS_PER_MS || o->time_ns > 60 * NB_NS_PER_S ||
	    o->warmup_ns > o->time_ns || o->inflight < 1 || o->inflight > NB_CRYPTO_MAX_INFLIGHT ||
	    o->aad_len > NB_CRYPTO_MAX_AAD) {
		snprintf(err, errlen,
			 "crypto request out of range (time %.3f s, warm-up %.3f s, inflight %u, "
			 "aad %u)",
			 (double)o->time_ns / 1e9, (double)o->warmup_ns / 1e9, o->inflight,
			 o->aad_len);
		return -EINVAL;
	}
	return 0;
}

uint64_t nb_crypto_bound_ns(const struct nb_crypto_params *o)
{
	/* Per point: warm-up, window, a thread and a session per request in flight. Per cell:
	 * the known answer and the comparison at every size, budgeted at 1 us per byte (a slow
	 * board's reference C code and engine together), plus a second. A fixed 5 s for the
	 * probes. Generous on purpose: the agent drops a session that outlives it. */
	uint64_t point_ns = o->warmup_ns + o->time_ns + 100 * NB_NS_PER_MS +
			    (uint64_t)o->inflight * 2 * NB_NS_PER_MS;
	uint64_t bytes = 0;
	for (size_t i = 0; i < o->nsizes; i++)
		bytes += o->sizes[i];
	uint64_t cell_ns = (uint64_t)o->nsizes * point_ns + NB_NS_PER_S + bytes * 1000;
	/* With a profile: the kernel's symbols read once (seconds on an emulated board). */
	return (NB_CRYPTO_PROFILE && o->profile_hz ? 25 : 5) * NB_NS_PER_S +
	       (uint64_t)(o->nalgos * o->nengines) * cell_ns;
}
