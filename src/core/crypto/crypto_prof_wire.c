/* SPDX-License-Identifier: BSD-2-Clause */
/* A crypto point's kernel profile on the control protocol: the point's place (algorithm, engine,
 * size index) and the profile's own items (core/profile/prof_wire.c) as a message's payload, so
 * that the profile's decoder checks it whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wire.h"
#include "core/crypto/crypto_wire.h"

#define PLACE_B 6

int nb_crypto_prof_encode(const struct nb_prof_result *pr, size_t algo, size_t engine, size_t si,
			  size_t max, uint8_t **buf, size_t *len)
{
	struct nb_msg *m = nb_msg_new(0);
	struct nb_prof_result *r = malloc(sizeof(*r));
	int ret = m && r ? 0 : -ENOMEM;

	*buf = NULL;
	for (int pass = 0; !ret && pass < 3; pass++) {
		*r = *pr;
		if (pass > 0)
			r->folded_len = 0; /* the stacks first */
		if (pass > 1) {
			memset(r, 0, sizeof(*r));
			r->hz = pr->hz;
			snprintf(r->why, sizeof(r->why),
				 "the point's profile did not fit in the agent's answer");
		}
		nb_msg_reset(m, 0);
		nb_put_be16(m->data, (uint16_t)algo);
		nb_put_be16(m->data + 2, (uint16_t)engine);
		nb_put_be16(m->data + 4, (uint16_t)si);
		m->len = PLACE_B;
		ret = nb_prof_put(m, r);
		if (!ret && m->len <= max)
			break;
		if (!ret && pass == 2)
			ret = -EMSGSIZE;
	}
	if (!ret && !(*buf = malloc(m->len)))
		ret = -ENOMEM;
	if (!ret) {
		memcpy(*buf, m->data, m->len);
		*len = m->len;
	}
	nb_msg_free(m);
	free(r);
	return ret;
}

int nb_crypto_prof_decode(struct nb_crypto_result *r, const uint8_t *p, size_t n)
{
	const struct nb_crypto_params *o = &r->opts;
	struct nb_msg *m;
	struct nb_prof_result *pr;
	int ret = -EBADMSG;

	if (!r->prof || n < PLACE_B || n - PLACE_B > NB_MSG_MAX)
		return -EBADMSG;
	size_t ai = nb_get_be16(p), ei = nb_get_be16(p + 2), si = nb_get_be16(p + 4);
	if (ai >= o->nalgos || ei >= o->nengines || si >= o->nsizes)
		return -EBADMSG;
	m = nb_msg_new(0);
	pr = malloc(sizeof(*pr));
	if (m && pr) {
		memcpy(m->data, p + PLACE_B, n - PLACE_B);
		m->len = (uint32_t)(n - PLACE_B);
		if (nb_msg_validate(m) >= 0 && nb_prof_get(m, pr) == 1) {
			nb_crypto_point_prof_set(r, nb_crypto_cell_at(r, ai, ei), si, pr);
			pr = NULL;
			ret = 0;
		}
	} else {
		ret = -ENOMEM;
	}
	nb_msg_free(m);
	free(pr);
	return ret;
}
