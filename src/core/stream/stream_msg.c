/* Stream requests and counters as control-protocol items. Fixed-layout records, big-endian,
 * doubles as their IEEE 754 bits, every length checked before anything is read. */
#include "core/stream/stream_msg.h"

#include <errno.h>
#include <string.h>

#include "core/base/wire.h"

struct cur {
	uint8_t *p;
	const uint8_t *q;
	size_t o, n;
	bool bad;
};

static void w64(struct cur *c, uint64_t v)
{
	nb_put_be64(c->p + c->o, v);
	c->o += 8;
}

static void w32(struct cur *c, uint32_t v)
{
	nb_put_be32(c->p + c->o, v);
	c->o += 4;
}

static void wd(struct cur *c, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	w64(c, v);
}

static uint64_t r64(struct cur *c)
{
	if (c->o + 8 > c->n) {
		c->bad = true;
		return 0;
	}
	c->o += 8;
	return nb_get_be64(c->q + c->o - 8);
}

static uint32_t r32(struct cur *c)
{
	if (c->o + 4 > c->n) {
		c->bad = true;
		return 0;
	}
	c->o += 4;
	return nb_get_be32(c->q + c->o - 4);
}

static double rd(struct cur *c)
{
	uint64_t v = r64(c);
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

#define LOAD_BYTES NB_LOAD_WIRE_BYTES

static void w_load(struct cur *c, const struct nb_cpu_load *l)
{
	nb_proto_encode_load(c->p + c->o, l);
	c->o += LOAD_BYTES;
}

static void r_load(struct cur *c, struct nb_cpu_load *l)
{
	if (c->o + LOAD_BYTES > c->n) {
		c->bad = true;
		memset(l, 0, sizeof(*l));
		return;
	}
	if (nb_proto_decode_load(c->q + c->o, l))
		c->bad = true;
	c->o += LOAD_BYTES;
}

int nb_stream_req_put(struct nb_msg *m, const struct nb_stream_req *r)
{
	uint8_t rates[NB_STREAM_MAX_STEPS * 8];
	int ret = 0;

	for (uint32_t i = 0; i < r->nrates && i < NB_STREAM_MAX_STEPS; i++)
		nb_put_be64(rates + 8 * i, r->rates_bps[i]);
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
	ret |= nb_msg_put_bytes(m, NB_T_STR_RATES, rates, (size_t)r->nrates * 8);
	ret |= nb_msg_put_u64(m, NB_T_STR_STEP_NS, r->step_ns);
	ret |= nb_msg_put_u32(m, NB_T_STR_STREAM_ID, r->stream_id);
	if (r->omit_ns)
		ret |= nb_msg_put_u64(m, NB_T_STR_OMIT_NS, r->omit_ns);
	if (r->pacing != NB_PACING_AUTO)
		ret |= nb_msg_put_u32(m, NB_T_STR_PACING, r->pacing);
	if (r->burst)
		ret |= nb_msg_put_u32(m, NB_T_STR_BURST, r->burst);
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
	for (uint32_t i = 0; i < r->nrates; i++) {
		r->rates_bps[i] = nb_get_be64(p + 8 * i);
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
		struct cur c = {.p = b};
		w32(&c, ((uint32_t)s->step << 16) | (s->closed ? 1u : 0u));
		w32(&c, s->step_count);
		w64(&c, s->rate_bps_asked);
		w64(&c, s->datagrams);
		w64(&c, s->bytes);
		w64(&c, s->unique);
		w64(&c, s->dups);
		w64(&c, s->reordered);
		w64(&c, s->late);
		w64(&c, s->first_ns);
		w64(&c, s->last_ns);
		w64(&c, s->first_bytes);
		w32(&c, s->highest_seq);
		wd(&c, s->jitter.jitter_ns);
		w_load(&c, &s->cpu);
		ret |= nb_msg_put_bytes(m, NB_T_STR_STEP, b, c.o);
		c.o = 0;
		w32(&c, s->omit_count);
		w64(&c, s->warmup_datagrams);
		ret |= nb_msg_put_bytes(m, NB_T_STR_STEP_WARM, b, c.o);
		c.o = 0;
		w64(&c, s->gaps);
		w64(&c, s->gap_p50_ns);
		w64(&c, s->gap_p99_ns);
		ret |= nb_msg_put_bytes(m, NB_T_STR_STEP_GAP, b, c.o);
	}
	if (rx->foreign.datagrams) {
		const struct nb_stream_foreign *f = &rx->foreign;
		struct cur c = {.p = b};
		w64(&c, f->datagrams);
		w64(&c, f->bytes);
		w64(&c, f->first_ns);
		w64(&c, f->last_ns);
		w64(&c, f->first_bytes);
		w_load(&c, &f->cpu);
		ret |= nb_msg_put_bytes(m, NB_T_STR_FOREIGN, b, c.o);
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
		struct cur c = {.q = p, .n = n};
		if (tag == NB_T_STR_STEP) {
			struct nb_stream_step *s;
			uint32_t w;
			if (n != STEP_BYTES || rx->nsteps == NB_STREAM_MAX_STEPS)
				return -EBADMSG;
			s = &rx->steps[rx->nsteps++];
			w = r32(&c);
			s->step = (uint16_t)(w >> 16);
			s->closed = w & 1u;
			s->step_count = r32(&c);
			s->rate_bps_asked = r64(&c);
			s->datagrams = r64(&c);
			s->bytes = r64(&c);
			s->unique = r64(&c);
			s->dups = r64(&c);
			s->reordered = r64(&c);
			s->late = r64(&c);
			s->first_ns = r64(&c);
			s->last_ns = r64(&c);
			s->first_bytes = r64(&c);
			s->highest_seq = r32(&c);
			s->jitter.jitter_ns = rd(&c);
			r_load(&c, &s->cpu);
		} else if (tag == NB_T_STR_STEP_WARM) {
			struct nb_stream_step *s = nb_stream_rx_current(rx);
			if (n != WARM_BYTES || !s)
				return -EBADMSG;
			s->omit_count = r32(&c);
			s->warmup_datagrams = r64(&c);
		} else if (tag == NB_T_STR_STEP_GAP) {
			struct nb_stream_step *s = nb_stream_rx_current(rx);
			if (n != GAP_BYTES || !s)
				return -EBADMSG;
			s->gaps = r64(&c);
			s->gap_p50_ns = r64(&c);
			s->gap_p99_ns = r64(&c);
		} else if (tag == NB_T_STR_FOREIGN) {
			struct nb_stream_foreign *f = &rx->foreign;
			if (n != FOREIGN_BYTES)
				return -EBADMSG;
			f->datagrams = r64(&c);
			f->bytes = r64(&c);
			f->first_ns = r64(&c);
			f->last_ns = r64(&c);
			f->first_bytes = r64(&c);
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
		struct cur c = {.p = b};
		w64(&c, s[i].rate_bps);
		w32(&c, s[i].count);
		w64(&c, s[i].datagrams);
		w64(&c, s[i].bytes);
		w64(&c, s[i].errors);
		w64(&c, s[i].first_ns);
		w64(&c, s[i].last_ns);
		w64(&c, s[i].late_sends);
		w64(&c, s[i].max_late_ns);
		w_load(&c, &s[i].cpu);
		ret |= nb_msg_put_bytes(m, NB_T_STR_SENT, b, c.o);
		c.o = 0;
		w32(&c, s[i].omit_count);
		w64(&c, s[i].omit_datagrams);
		ret |= nb_msg_put_bytes(m, NB_T_STR_SENT_WARM, b, c.o);
		c.o = 0;
		w32(&c, s[i].pacing_mode);
		w32(&c, s[i].burst);
		w64(&c, s[i].pacing_cpu_ns);
		w64(&c, s[i].wakeups);
		ret |= nb_msg_put_bytes(m, NB_T_STR_SENT_PACE, b, c.o);
	}
	return ret ? -EMSGSIZE : 0;
}

int nb_stream_sent_get(const struct nb_msg *m, struct nb_stream_send_step *s, size_t max)
{
	size_t off = 0, n, k = 0;
	uint16_t tag;
	const uint8_t *p;

	while (nb_msg_next(m, &off, &tag, &p, &n) == 1) {
		struct cur c = {.q = p, .n = n};
		if (tag == NB_T_STR_SENT_WARM) {
			if (n != WARM_BYTES || k == 0)
				return -EBADMSG;
			s[k - 1].omit_count = r32(&c);
			s[k - 1].omit_datagrams = r64(&c);
			continue;
		}
		if (tag == NB_T_STR_SENT_PACE) {
			if (n != PACE_BYTES || k == 0)
				return -EBADMSG;
			s[k - 1].pacing_mode = r32(&c);
			s[k - 1].burst = r32(&c);
			s[k - 1].pacing_cpu_ns = r64(&c);
			s[k - 1].wakeups = r64(&c);
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
		s[k].rate_bps = r64(&c);
		s[k].count = r32(&c);
		s[k].datagrams = r64(&c);
		s[k].bytes = r64(&c);
		s[k].errors = r64(&c);
		s[k].first_ns = r64(&c);
		s[k].last_ns = r64(&c);
		s[k].late_sends = r64(&c);
		s[k].max_late_ns = r64(&c);
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
