/* SPDX-License-Identifier: BSD-2-Clause */
/* Stream requests and counters as control-protocol items. Fixed-layout records, big-endian,
 * doubles as their IEEE 754 bits, every length checked before anything is read. */
#include "core/stream/stream_msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cursor.h"
#include "core/base/wire.h"

#define LOAD_BYTES NB_LOAD_WIRE_BYTES

/* The CPU-load record every test shares (nb_proto_encode_load), at the cursor. */
static void w_load(struct nb_cur *c, const struct nb_cpu_load *l)
{
	uint8_t *q = nb_cur_reserve(c, LOAD_BYTES);
	if (q)
		nb_proto_encode_load(q, l);
}

static void r_load(struct nb_cur *c, struct nb_cpu_load *l)
{
	const uint8_t *q = nb_cur_get_bytes(c, LOAD_BYTES);
	if (!q) {
		memset(l, 0, sizeof(*l));
		return;
	}
	if (nb_proto_decode_load(q, l))
		c->bad = true;
}

int nb_stream_req_put(struct nb_msg *m, const struct nb_stream_req *r)
{
	uint8_t rates[NB_STREAM_MAX_STEPS * 8];
	struct nb_cur rc = nb_cur_writer(rates, sizeof(rates));
	int ret = 0;

	for (uint32_t i = 0; i < r->nrates && i < NB_STREAM_MAX_STEPS; i++)
		nb_cur_put_u64(&rc, r->rates_bps[i]);
	ret |= nb_msg_put_u32(m, NB_T_TEST_TYPE, NB_TEST_STREAM);
	ret |= nb_msg_put_u32(m, NB_T_STR_ROLE, r->role);
	ret |= nb_msg_put_str(m, NB_T_STR_ADDR, r->addr);
	ret |= nb_msg_put_u32(m, NB_T_PORT, r->port);
	if (r->iface[0])
		ret |= nb_msg_put_str(m, NB_T_STR_IFACE, r->iface);
	if (r->source[0])
		ret |= nb_msg_put_str(m, NB_T_STR_SOURCE, r->source);
	if (r->ttl >= 0)
		ret |= nb_msg_put_u32(m, NB_T_STR_TTL, (uint32_t)r->ttl);
	ret |= nb_msg_put_u32(m, NB_T_STR_FLAGS, r->flags);
	ret |= nb_msg_put_u32(m, NB_T_STR_BLOCK, r->block);
	ret |= nb_msg_put_bytes(m, NB_T_STR_RATES, rates, rc.off);
	ret |= nb_msg_put_u64(m, NB_T_STR_STEP_NS, r->step_ns);
	ret |= nb_msg_put_u32(m, NB_T_STR_STREAM_ID, r->stream_id);
	if (r->omit_ns)
		ret |= nb_msg_put_u64(m, NB_T_STR_OMIT_NS, r->omit_ns);
	if (r->pacing != NB_PACING_AUTO)
		ret |= nb_msg_put_u32(m, NB_T_STR_PACING, r->pacing);
	if (r->burst)
		ret |= nb_msg_put_u32(m, NB_T_STR_BURST, r->burst);
	if (r->profile_hz)
		ret |= nb_msg_put_u32(m, NB_T_STR_PROFILE_HZ, r->profile_hz);
	/* The whole run, for the agent's duration cap. */
	ret |= nb_msg_put_u64(m, NB_T_DURATION_NS, (r->step_ns + r->omit_ns) * r->nrates);
	return ret ? -EMSGSIZE : 0;
}

int nb_stream_req_get(const struct nb_msg *m, struct nb_stream_req *r)
{
	uint32_t port = 0, ttl;
	const uint8_t *p;
	size_t n;

	memset(r, 0, sizeof(*r));
	r->ttl = -1;
	if (nb_msg_get_u32(m, NB_T_STR_ROLE, &r->role) < 0 || r->role > NB_STREAM_AGENT_SEND ||
	    nb_msg_get_str(m, NB_T_STR_ADDR, r->addr, sizeof(r->addr)) < 0 ||
	    nb_msg_get_u32(m, NB_T_PORT, &port) < 0 || port == 0 || port > 65535 ||
	    nb_msg_get_u32(m, NB_T_STR_FLAGS, &r->flags) < 0 ||
	    nb_msg_get_u32(m, NB_T_STR_BLOCK, &r->block) < 0 || r->block < NB_STREAM_HDR ||
	    r->block > 65527 || nb_msg_get_bytes(m, NB_T_STR_RATES, &p, &n) < 0 || n % 8 ||
	    n / 8 > NB_STREAM_MAX_STEPS || nb_msg_get_u64(m, NB_T_STR_STEP_NS, &r->step_ns) < 0 ||
	    nb_msg_get_u32(m, NB_T_STR_STREAM_ID, &r->stream_id) < 0)
		return -EBADMSG;
	r->port = (uint16_t)port;
	r->nrates = (uint32_t)(n / 8);
	struct nb_cur rc = nb_cur_reader(p, n);
	for (uint32_t i = 0; i < r->nrates; i++) {
		r->rates_bps[i] = nb_cur_get_u64(&rc);
		if (r->rates_bps[i] < NB_STREAM_MIN_RATE || r->rates_bps[i] > NB_STREAM_MAX_RATE)
			return -EBADMSG;
	}
	if (nb_msg_get_str(m, NB_T_STR_IFACE, r->iface, sizeof(r->iface)) == -EBADMSG ||
	    nb_msg_get_str(m, NB_T_STR_SOURCE, r->source, sizeof(r->source)) == -EBADMSG)
		return -EBADMSG;
	if (nb_msg_get_u64(m, NB_T_STR_OMIT_NS, &r->omit_ns) == -EBADMSG ||
	    r->omit_ns > NB_STREAM_MAX_OMIT_NS)
		return -EBADMSG;
	if (nb_msg_get_u32(m, NB_T_STR_PACING, &r->pacing) == -EBADMSG ||
	    r->pacing > NB_PACING_TXTIME ||
	    nb_msg_get_u32(m, NB_T_STR_BURST, &r->burst) == -EBADMSG ||
	    r->burst > NB_PACER_MAX_BURST)
		return -EBADMSG;
	/* The rate is checked against the agent's cap where the profiler opens. */
	int hz = nb_msg_get_u32(m, NB_T_STR_PROFILE_HZ, &r->profile_hz);
	if (hz == -EBADMSG || (hz == 0 && !r->profile_hz))
		return -EBADMSG;
	if (nb_msg_get_u32(m, NB_T_STR_TTL, &ttl) == 0) {
		if (ttl > 255)
			return -EBADMSG;
		r->ttl = (int)ttl;
	}
	return 0;
}

#define STEP_BYTES    (4 + 4 + 8 + 9 * 8 + 4 + 8 + LOAD_BYTES)
#define FOREIGN_BYTES (5 * 8 + LOAD_BYTES)
#define SENT_BYTES    (8 + 4 + 7 * 8 + LOAD_BYTES)
#define WARM_BYTES    (4 + 8)
#define PACE_BYTES    (4 + 4 + 8 + 8)
#define GAP_BYTES     (8 + 8 + 8)

int nb_stream_rx_put(struct nb_msg *m, const struct nb_stream_rx *rx, enum nb_stream_end end)
{
	uint8_t b[STEP_BYTES > FOREIGN_BYTES ? STEP_BYTES : FOREIGN_BYTES];
	int ret = 0;

	for (size_t i = 0; i < rx->nsteps; i++) {
		const struct nb_stream_step *s = &rx->steps[i];
		struct nb_cur c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u32(&c, ((uint32_t)s->step << 16) | (s->closed ? 1u : 0u));
		nb_cur_put_u32(&c, s->step_count);
		nb_cur_put_u64(&c, s->rate_bps_asked);
		nb_cur_put_u64(&c, s->datagrams);
		nb_cur_put_u64(&c, s->bytes);
		nb_cur_put_u64(&c, s->unique);
		nb_cur_put_u64(&c, s->dups);
		nb_cur_put_u64(&c, s->reordered);
		nb_cur_put_u64(&c, s->late);
		nb_cur_put_u64(&c, s->first_ns);
		nb_cur_put_u64(&c, s->last_ns);
		nb_cur_put_u64(&c, s->first_bytes);
		nb_cur_put_u32(&c, s->highest_seq);
		nb_cur_put_dbl(&c, s->jitter.jitter_ns);
		w_load(&c, &s->cpu);
		ret |= nb_msg_put_bytes(m, NB_T_STR_STEP, b, c.off);
		c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u32(&c, s->omit_count);
		nb_cur_put_u64(&c, s->warmup_datagrams);
		ret |= nb_msg_put_bytes(m, NB_T_STR_STEP_WARM, b, c.off);
		c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u64(&c, s->gaps);
		nb_cur_put_u64(&c, s->gap_p50_ns);
		nb_cur_put_u64(&c, s->gap_p99_ns);
		ret |= nb_msg_put_bytes(m, NB_T_STR_STEP_GAP, b, c.off);
	}
	if (rx->foreign.datagrams) {
		const struct nb_stream_foreign *f = &rx->foreign;
		struct nb_cur c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u64(&c, f->datagrams);
		nb_cur_put_u64(&c, f->bytes);
		nb_cur_put_u64(&c, f->first_ns);
		nb_cur_put_u64(&c, f->last_ns);
		nb_cur_put_u64(&c, f->first_bytes);
		w_load(&c, &f->cpu);
		ret |= nb_msg_put_bytes(m, NB_T_STR_FOREIGN, b, c.off);
	}
	ret |= nb_msg_put_u64(m, NB_T_STR_OTHER, rx->other_stream_datagrams);
	ret |= nb_msg_put_u32(m, NB_T_STR_END, (uint32_t)end);
	return ret ? -EMSGSIZE : 0;
}

int nb_stream_rx_get(const struct nb_msg *m, struct nb_stream_rx *rx, enum nb_stream_end *end)
{
	size_t off = 0, n;
	uint16_t tag;
	const uint8_t *p;
	uint32_t e = 0;

	nb_stream_rx_reset(rx);
	while (nb_msg_next(m, &off, &tag, &p, &n) == 1) {
		struct nb_cur c = nb_cur_reader(p, n);
		if (tag == NB_T_STR_STEP) {
			struct nb_stream_step *s;
			uint32_t w;
			if (n != STEP_BYTES || rx->nsteps == NB_STREAM_MAX_STEPS)
				return -EBADMSG;
			s = &rx->steps[rx->nsteps++];
			w = nb_cur_get_u32(&c);
			s->step = (uint16_t)(w >> 16);
			s->closed = w & 1u;
			s->step_count = nb_cur_get_u32(&c);
			s->rate_bps_asked = nb_cur_get_u64(&c);
			s->datagrams = nb_cur_get_u64(&c);
			s->bytes = nb_cur_get_u64(&c);
			s->unique = nb_cur_get_u64(&c);
			s->dups = nb_cur_get_u64(&c);
			s->reordered = nb_cur_get_u64(&c);
			s->late = nb_cur_get_u64(&c);
			s->first_ns = nb_cur_get_u64(&c);
			s->last_ns = nb_cur_get_u64(&c);
			s->first_bytes = nb_cur_get_u64(&c);
			s->highest_seq = nb_cur_get_u32(&c);
			s->jitter.jitter_ns = nb_cur_get_dbl(&c);
			r_load(&c, &s->cpu);
		} else if (tag == NB_T_STR_STEP_WARM) {
			struct nb_stream_step *s = nb_stream_rx_current(rx);
			if (n != WARM_BYTES || !s)
				return -EBADMSG;
			s->omit_count = nb_cur_get_u32(&c);
			s->warmup_datagrams = nb_cur_get_u64(&c);
		} else if (tag == NB_T_STR_STEP_GAP) {
			struct nb_stream_step *s = nb_stream_rx_current(rx);
			if (n != GAP_BYTES || !s)
				return -EBADMSG;
			s->gaps = nb_cur_get_u64(&c);
			s->gap_p50_ns = nb_cur_get_u64(&c);
			s->gap_p99_ns = nb_cur_get_u64(&c);
		} else if (tag == NB_T_STR_FOREIGN) {
			struct nb_stream_foreign *f = &rx->foreign;
			if (n != FOREIGN_BYTES)
				return -EBADMSG;
			f->datagrams = nb_cur_get_u64(&c);
			f->bytes = nb_cur_get_u64(&c);
			f->first_ns = nb_cur_get_u64(&c);
			f->last_ns = nb_cur_get_u64(&c);
			f->first_bytes = nb_cur_get_u64(&c);
			r_load(&c, &f->cpu);
		}
		if (c.bad)
			return -EBADMSG;
	}
	(void)nb_msg_get_u64(m, NB_T_STR_OTHER, &rx->other_stream_datagrams);
	if (nb_msg_get_u32(m, NB_T_STR_END, &e) == 0 && end)
		*end = e <= NB_END_STOP ? (enum nb_stream_end)e : NB_END_NONE;
	return 0;
}

int nb_stream_sent_put(struct nb_msg *m, const struct nb_stream_send_step *s, size_t n)
{
	uint8_t b[SENT_BYTES];
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		struct nb_cur c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u64(&c, s[i].rate_bps);
		nb_cur_put_u32(&c, s[i].count);
		nb_cur_put_u64(&c, s[i].datagrams);
		nb_cur_put_u64(&c, s[i].bytes);
		nb_cur_put_u64(&c, s[i].errors);
		nb_cur_put_u64(&c, s[i].first_ns);
		nb_cur_put_u64(&c, s[i].last_ns);
		nb_cur_put_u64(&c, s[i].late_sends);
		nb_cur_put_u64(&c, s[i].max_late_ns);
		w_load(&c, &s[i].cpu);
		ret |= nb_msg_put_bytes(m, NB_T_STR_SENT, b, c.off);
		c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u32(&c, s[i].omit_count);
		nb_cur_put_u64(&c, s[i].omit_datagrams);
		ret |= nb_msg_put_bytes(m, NB_T_STR_SENT_WARM, b, c.off);
		c = nb_cur_writer(b, sizeof(b));
		nb_cur_put_u32(&c, s[i].pacing_mode);
		nb_cur_put_u32(&c, s[i].burst);
		nb_cur_put_u64(&c, s[i].pacing_cpu_ns);
		nb_cur_put_u64(&c, s[i].wakeups);
		ret |= nb_msg_put_bytes(m, NB_T_STR_SENT_PACE, b, c.off);
	}
	return ret ? -EMSGSIZE : 0;
}

int nb_stream_sent_get(const struct nb_msg *m, struct nb_stream_send_step *s, size_t max)
{
	size_t off = 0, n, k = 0;
	uint16_t tag;
	const uint8_t *p;

	while (nb_msg_next(m, &off, &tag, &p, &n) == 1) {
		struct nb_cur c = nb_cur_reader(p, n);
		if (tag == NB_T_STR_SENT_WARM) {
			if (n != WARM_BYTES || k == 0)
				return -EBADMSG;
			s[k - 1].omit_count = nb_cur_get_u32(&c);
			s[k - 1].omit_datagrams = nb_cur_get_u64(&c);
			continue;
		}
		if (tag == NB_T_STR_SENT_PACE) {
			if (n != PACE_BYTES || k == 0)
				return -EBADMSG;
			s[k - 1].pacing_mode = nb_cur_get_u32(&c);
			s[k - 1].burst = nb_cur_get_u32(&c);
			s[k - 1].pacing_cpu_ns = nb_cur_get_u64(&c);
			s[k - 1].wakeups = nb_cur_get_u64(&c);
			if (s[k - 1].pacing_mode > NB_PACING_TXTIME ||
			    s[k - 1].burst > NB_PACER_MAX_BURST)
				return -EBADMSG;
			continue;
		}
		if (tag != NB_T_STR_SENT)
			continue;
		if (n != SENT_BYTES || k == max)
			return -EBADMSG;
		memset(&s[k], 0, sizeof(s[k]));
		s[k].rate_bps = nb_cur_get_u64(&c);
		s[k].count = nb_cur_get_u32(&c);
		s[k].datagrams = nb_cur_get_u64(&c);
		s[k].bytes = nb_cur_get_u64(&c);
		s[k].errors = nb_cur_get_u64(&c);
		s[k].first_ns = nb_cur_get_u64(&c);
		s[k].last_ns = nb_cur_get_u64(&c);
		s[k].late_sends = nb_cur_get_u64(&c);
		s[k].max_late_ns = nb_cur_get_u64(&c);
		r_load(&c, &s[k].cpu);
		if (c.bad)
			return -EBADMSG;
		k++;
	}
	return (int)k;
}

int nb_stream_pacing_put(struct nb_msg *m, const struct nb_stream_pacing *pc)
{
	int ret = 0;

	ret |= nb_msg_put_u32(m, NB_T_STR_PACE_MODE, pc->mode);
	ret |= nb_msg_put_str(m, NB_T_STR_PACE_IFACE, pc->ifname);
	ret |= nb_msg_put_str(m, NB_T_STR_PACE_QDISC, pc->qdisc);
	ret |= nb_msg_put_str(m, NB_T_STR_PACE_WHY, pc->why);
	return ret ? -EMSGSIZE : 0;
}

int nb_stream_pacing_get(const struct nb_msg *m, struct nb_stream_pacing *pc)
{
	uint32_t mode;
	int r = nb_msg_get_u32(m, NB_T_STR_PACE_MODE, &mode);

	if (r == -EBADMSG || (r == 0 && mode > NB_PACING_TXTIME))
		return -EBADMSG;
	if (r == 0)
		pc->mode = (enum nb_pacing_mode)mode;
	if (nb_msg_get_str(m, NB_T_STR_PACE_IFACE, pc->ifname, sizeof(pc->ifname)) == -EBADMSG ||
	    nb_msg_get_str(m, NB_T_STR_PACE_QDISC, pc->qdisc, sizeof(pc->qdisc)) == -EBADMSG ||
	    nb_msg_get_str(m, NB_T_STR_PACE_WHY, pc->why, sizeof(pc->why)) == -EBADMSG)
		return -EBADMSG;
	return 0;
}

/* One step's profile travels as the payload of a message of its own (nb_prof_put's items),
 * behind the step's index: the profile's codec checks it whole. */
int nb_stream_prof_put(struct nb_msg *m, struct nb_prof_result *const *prof, size_t n)
{
	struct nb_msg *sub = nb_msg_new(0);
	struct nb_prof_result *r = malloc(sizeof(*r));
	int ret = sub && r ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < n && i < NB_STREAM_MAX_STEPS; i++) {
		if (!prof[i])
			continue;
		*r = *prof[i];
		r->folded_len = 0; /* the stacks are for a flame graph of one window, not a sweep */
		if (r->nfunc > NB_STREAM_PROF_FUNCS)
			r->nfunc = NB_STREAM_PROF_FUNCS;
		nb_msg_reset(sub, 0);
		nb_put_be16(sub->data, (uint16_t)i);
		sub->len = 2;
		ret = nb_prof_put(sub, r);
		if (!ret && m->len + 4 + sub->len > NB_MSG_MAX) {
			memset(r, 0, sizeof(*r));
			r->hz = prof[i]->hz;
			snprintf(r->why, sizeof(r->why),
				 "the step's profile did not fit in the agent's answer");
			sub->len = 2;
			ret = nb_prof_put(sub, r);
		}
		if (!ret)
			ret = nb_msg_put_bytes(m, NB_T_STR_STEP_PROF, sub->data, sub->len);
	}
	nb_msg_free(sub);
	free(r);
	return ret;
}

int nb_stream_prof_get(const struct nb_msg *m, struct nb_prof_result **prof, size_t n)
{
	struct nb_msg *sub = nb_msg_new(0);
	size_t off = 0, len;
	uint16_t tag;
	const uint8_t *p;
	int ret = sub ? 0 : -ENOMEM;

	for (size_t i = 0; i < n; i++)
		prof[i] = NULL;
	while (!ret && nb_msg_next(m, &off, &tag, &p, &len) == 1) {
		if (tag != NB_T_STR_STEP_PROF)
			continue;
		size_t i = len >= 2 ? nb_get_be16(p) : n;
		if (i >= n || prof[i] || len - 2 > NB_MSG_MAX) {
			ret = -EBADMSG;
			break;
		}
		nb_msg_reset(sub, 0);
		memcpy(sub->data, p + 2, len - 2);
		sub->len = (uint32_t)(len - 2);
		if (!(prof[i] = malloc(sizeof(*prof[i])))) {
			ret = -ENOMEM;
			break;
		}
		if (nb_msg_validate(sub) < 0 || nb_prof_get(sub, prof[i]) != 1)
			ret = -EBADMSG;
	}
	nb_msg_free(sub);
	if (ret < 0)
		for (size_t i = 0; i < n; i++) {
			free(prof[i]);
			prof[i] = NULL;
		}
	return ret;
}
