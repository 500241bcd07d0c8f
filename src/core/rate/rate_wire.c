/* SPDX-License-Identifier: BSD-2-Clause */
/* The rate test's wire codec: the receiver's snapshot of a trial (counts, per-flow receipts and
 * sequence ends, past 1024 flows as runs of equal counts, the latency histogram) as the agent
 * sends it in its FINAL and the controller reads it. Apart from the agent's end so that a
 * fuzzer reaches it alone. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cursor.h"
#include "core/rate/rate_wire.h"

static int put_u64s(struct nb_msg *m, uint16_t tag, const uint64_t *v, uint32_t n)
{
	uint8_t *buf = malloc((size_t)n * 8 + 1);
	struct nb_cur c = nb_cur_writer(buf, (size_t)n * 8);
	int ret;
	if (!buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		nb_cur_put_u64(&c, v[i]);
	ret = nb_msg_put_bytes(m, tag, buf, c.off);
	free(buf);
	return ret;
}

static void put_u8(struct nb_cur *c, uint8_t b)
{
	if (nb_cur_room(c, 1))
		c->w[c->off++] = b;
}

static uint8_t get_u8(struct nb_cur *c)
{
	return nb_cur_room(c, 1) ? c->r[c->off++] : 0;
}

/* LEB128: 7 bits a byte, low first; at most 10 bytes. */
static void put_varint(struct nb_cur *c, uint64_t v)
{
	do {
		uint8_t b = (uint8_t)(v & 0x7f);
		v >>= 7;
		put_u8(c, (uint8_t)(b | (v ? 0x80 : 0)));
	} while (v);
}

static uint64_t get_varint(struct nb_cur *c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		uint8_t b = get_u8(c);
		if (c->bad || (shift == 63 && b > 1)) {
			c->bad = true;
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

/* Past NB_RX_FLOWS flows the per-flow counts go as runs: (received, sequence end, flows in
 * the run) as varints for each run of flows with equal counts, which paced trials give in
 * long runs (flows sent in turn get equal shares, those not reached this trial zeros). What
 * does not fit one field is refused (-EMSGSIZE), never cut short. */
static int put_flow_runs(struct nb_msg *m, const struct nb_rx_snap *s)
{
	size_t cap = 65535;
	uint8_t *buf = malloc(cap);
	struct nb_cur c = nb_cur_writer(buf, cap);
	int ret;
	if (!buf)
		return -ENOMEM;
	for (uint32_t f = 0; f < s->flows;) {
		uint32_t run = 1;
		while (f + run < s->flows && s->rx_flow[f + run] == s->rx_flow[f] &&
		       s->seq_end[f + run] == s->seq_end[f])
			run++;
		put_varint(&c, s->rx_flow[f]);
		put_varint(&c, s->seq_end[f]);
		put_varint(&c, run);
		f += run;
	}
	ret = c.bad ? -EMSGSIZE : nb_msg_put_bytes(m, NB_T_RATE_FLOW_RUNS, buf, c.off);
	free(buf);
	return ret;
}

static int get_flow_runs(const struct nb_msg *m, struct nb_rx_snap *s)
{
	const uint8_t *p;
	size_t len;
	struct nb_cur c;
	uint32_t f = 0;

	if (nb_msg_get_bytes(m, NB_T_RATE_FLOW_RUNS, &p, &len))
		return -EBADMSG;
	c = nb_cur_reader(p, len);
	while (nb_cur_left(&c) && !c.bad) {
		uint64_t rx = get_varint(&c), end = get_varint(&c), run = get_varint(&c);
		if (c.bad || !run || run > s->flows - f)
			return -EBADMSG;
		for (uint64_t k = 0; k < run; k++, f++) {
			s->rx_flow[f] = rx;
			s->seq_end[f] = end;
		}
	}
	return c.bad || f != s->flows ? -EBADMSG : 0;
}

int nb_rate_snap_put(struct nb_msg *m, const struct nb_rx_snap *s)
{
	uint8_t sum[32], *bkt;
	struct nb_cur cs = nb_cur_writer(sum, sizeof(sum)), cb;
	int ret;

	bkt = malloc(NB_HIST_BUCKETS * 10);
	if (!bkt)
		return -ENOMEM;
	cb = nb_cur_writer(bkt, NB_HIST_BUCKETS * 10);
	nb_cur_put_u64(&cs, s->lat.count);
	nb_cur_put_u64(&cs, s->lat.min_ns);
	nb_cur_put_u64(&cs, s->lat.max_ns);
	nb_cur_put_u64(&cs, s->lat.sum_ns);
	for (uint32_t i = 0; i < NB_HIST_BUCKETS; i++)
		if (s->lat.bucket[i]) {
			nb_cur_put_u16(&cb, (uint16_t)i);
			nb_cur_put_u64(&cb, s->lat.bucket[i]);
		}
	if ((ret = nb_msg_put_u32(m, NB_T_RATE_TRIAL, s->trial)) ||
	    (ret = nb_msg_put_u32(m, NB_T_RATE_ANY, s->any)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_RX, s->rx)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_DUP, s->dup)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_REORD, s->reordered)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_LATE, s->late)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_FOREIGN, s->foreign)) ||
	    (ret = nb_msg_put_u32(m, NB_T_RATE_FLOWS, s->flows)) ||
	    (ret = nb_msg_put_u32(m, NB_T_RATE_MMSG, s->mmsg)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_PROBES, s->probes)) ||
	    (ret = nb_msg_put_u64(m, NB_T_RATE_REFLECTED, s->reflected)) ||
	    (s->drops_known && (ret = nb_msg_put_u64(m, NB_T_RATE_SOCK_DROPS, s->sock_drops))) ||
	    (s->flows <= NB_RX_FLOWS &&
	     ((ret = put_u64s(m, NB_T_RATE_RX_FLOW, s->rx_flow, s->flows)) ||
	      (ret = put_u64s(m, NB_T_RATE_SEQ_END, s->seq_end, s->flows)))) ||
	    (s->flows > NB_RX_FLOWS && (ret = put_flow_runs(m, s))) ||
	    (ret = nb_msg_put_bytes(m, NB_T_RATE_LAT_SUM, sum, sizeof(sum))) ||
	    (ret = nb_msg_put_bytes(m, NB_T_RATE_LAT_BKT, bkt, cb.off)))
		goto out;
	{
		uint8_t lens[NB_RX_LENS * 12];
		struct nb_cur cl = nb_cur_writer(lens, sizeof(lens));
		for (uint32_t i = 0; i < s->nlens && i < NB_RX_LENS; i++) {
			nb_cur_put_u32(&cl, s->len_bytes[i]);
			nb_cur_put_u64(&cl, s->len_rx[i]);
		}
		if ((ret = nb_msg_put_bytes(m, NB_T_RATE_LENS, lens, cl.off)) ||
		    (ret = nb_msg_put_u64(m, NB_T_RATE_LEN_OTHER, s->len_other)))
			goto out;
	}
out:
	free(bkt);
	return ret;
}

static int get_u64s(const struct nb_msg *m, uint16_t tag, uint64_t *v, uint32_t n)
{
	const uint8_t *p;
	size_t len;
	struct nb_cur c;
	if (nb_msg_get_bytes(m, tag, &p, &len) || len != (size_t)n * 8)
		return -EBADMSG;
	c = nb_cur_reader(p, len);
	for (uint32_t i = 0; i < n; i++)
		v[i] = nb_cur_get_u64(&c);
	return c.bad ? -EBADMSG : 0;
}

int nb_rate_snap_get(const struct nb_msg *m, struct nb_rx_snap *s)
{
	uint32_t trial, any, flows, mmsg;
	const uint8_t *p;
	size_t len;
	struct nb_cur c;

	memset(s, 0, sizeof(*s));
	if (nb_msg_get_u32(m, NB_T_RATE_TRIAL, &trial) || nb_msg_get_u32(m, NB_T_RATE_ANY, &any) ||
	    nb_msg_get_u64(m, NB_T_RATE_RX, &s->rx) || nb_msg_get_u64(m, NB_T_RATE_DUP, &s->dup) ||
	    nb_msg_get_u64(m, NB_T_RATE_REORD, &s->reordered) ||
	    nb_msg_get_u64(m, NB_T_RATE_LATE, &s->late) ||
	    nb_msg_get_u64(m, NB_T_RATE_FOREIGN, &s->foreign) ||
	    nb_msg_get_u32(m, NB_T_RATE_FLOWS, &flows) ||
	    nb_msg_get_u32(m, NB_T_RATE_MMSG, &mmsg) || trial > 0xffff || flows > NB_GEN_MAX_FLOWS)
		return -EBADMSG;
	/* Absent in a receiver without reflection: zero. */
	(void)nb_msg_get_u64(m, NB_T_RATE_PROBES, &s->probes);
	(void)nb_msg_get_u64(m, NB_T_RATE_REFLECTED, &s->reflected);
	/* Absent from an agent that does not know (older, or SO_RXQ_OVFL missing). */
	s->drops_known = nb_msg_get_u64(m, NB_T_RATE_SOCK_DROPS, &s->sock_drops) == 0;
	s->trial = (uint16_t)trial;
	s->any = any != 0;
	s->mmsg = mmsg != 0;
	s->flows = flows;
	if (flows > NB_RX_FLOWS ? get_flow_runs(m, s) != 0
				: (get_u64s(m, NB_T_RATE_RX_FLOW, s->rx_flow, flows) ||
				   get_u64s(m, NB_T_RATE_SEQ_END, s->seq_end, flows)))
		return -EBADMSG;
	if (nb_msg_get_bytes(m, NB_T_RATE_LAT_SUM, &p, &len) || len != 32)
		return -EBADMSG;
	c = nb_cur_reader(p, len);
	s->lat.count = nb_cur_get_u64(&c);
	s->lat.min_ns = nb_cur_get_u64(&c);
	s->lat.max_ns = nb_cur_get_u64(&c);
	s->lat.sum_ns = nb_cur_get_u64(&c);
	/* Counts by length: absent from an older agent (then unknown). */
	if (nb_msg_get_bytes(m, NB_T_RATE_LENS, &p, &len) == 0) {
		if (len % 12 || len / 12 > NB_RX_LENS)
			return -EBADMSG;
		c = nb_cur_reader(p, len);
		s->nlens = (uint32_t)(len / 12);
		for (uint32_t i = 0; i < s->nlens; i++) {
			s->len_bytes[i] = nb_cur_get_u32(&c);
			s->len_rx[i] = nb_cur_get_u64(&c);
		}
		(void)nb_msg_get_u64(m, NB_T_RATE_LEN_OTHER, &s->len_other);
		s->lens_known = true;
	}
	if (nb_msg_get_bytes(m, NB_T_RATE_LAT_BKT, &p, &len) || len % 10)
		return -EBADMSG;
	c = nb_cur_reader(p, len);
	while (nb_cur_left(&c)) {
		uint16_t idx = nb_cur_get_u16(&c);
		if (idx >= NB_HIST_BUCKETS)
			return -EBADMSG;
		s->lat.bucket[idx] = nb_cur_get_u64(&c);
	}
	return c.bad ? -EBADMSG : 0;
}
