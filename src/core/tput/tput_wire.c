/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench tput on the wire: the request and acknowledgement items, the counter and pacing
 * records and the two data-path headers, each fixed record written and read whole on the cursor
 * and refused when it is not exactly its length. */
#include "core/tput/tput_wire.h"

#include <errno.h>
#include <string.h>

#include "core/base/cursor.h"
#include "core/base/pacer.h"

enum {
	COUNTERS = 7,
	COUNTERS_BYTES = COUNTERS * 8,
	PAIR_BYTES = 2 * 8,
};

int nb_tput_put_request(struct nb_msg *m, const struct nb_tput_request *rq)
{
	int ret;
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	ret = nb_msg_put_u32(m, NB_T_TEST_TYPE, NB_TEST_TPUT);
	if (!ret)
		ret = nb_msg_put_u64(m, NB_T_DURATION_NS, rq->duration_ns);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_TPUT_PROTO, rq->proto);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_TPUT_BLOCK, rq->block);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_TPUT_STREAMS, rq->streams);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_TPUT_DIR, rq->dir);
	if (!ret)
		ret = nb_msg_put_u64(m, NB_T_RATE_BPS, rq->rate_bps);
	if (!ret && rq->pacing != NB_PACING_AUTO)
		ret = nb_msg_put_u32(m, NB_T_TPUT_PACING, rq->pacing);
	if (!ret && rq->burst)
		ret = nb_msg_put_u32(m, NB_T_TPUT_BURST, rq->burst);
	if (!ret && rq->udp_port)
		ret = nb_msg_put_u32(m, NB_T_TPUT_UDP_PORT, rq->udp_port);
	if (!ret && rq->congestion[0])
		ret = nb_msg_put_str(m, NB_T_TPUT_CONGESTION, rq->congestion);
	if (!ret && rq->profile_hz)
		ret = nb_msg_put_u32(m, NB_T_TPUT_PROFILE_HZ, rq->profile_hz);
	return ret;
}

/* An item that may be absent: 0 and def then, -EBADMSG when present but malformed. */
static int get_opt_u32(const struct nb_msg *m, uint16_t tag, uint32_t def, uint32_t *v)
{
	int ret = nb_msg_get_u32(m, tag, v);
	if (ret == -ENOENT) {
		*v = def;
		return 0;
	}
	return ret ? -EBADMSG : 0;
}

/* An algorithm's name that may be absent (name left as it is): 0, or -EBADMSG when present and
 * not a name. */
static int get_opt_cc(const struct nb_msg *m, uint16_t tag, char name[NB_TCPCC_NAME_MAX])
{
	char v[NB_TCPCC_NAME_MAX];
	int ret = nb_msg_get_str(m, tag, v, sizeof(v));
	if (ret == -ENOENT)
		return 0;
	if (ret || !nb_tcpcc_name_ok(v))
		return -EBADMSG;
	memcpy(name, v, sizeof(v));
	return 0;
}

int nb_tput_get_request(const struct nb_msg *m, struct nb_tput_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	if (nb_msg_get_u32(m, NB_T_TPUT_PROTO, &rq->proto) ||
	    nb_msg_get_u32(m, NB_T_TPUT_BLOCK, &rq->block) ||
	    nb_msg_get_u32(m, NB_T_TPUT_STREAMS, &rq->streams) ||
	    nb_msg_get_u32(m, NB_T_TPUT_DIR, &rq->dir) ||
	    nb_msg_get_u64(m, NB_T_RATE_BPS, &rq->rate_bps) ||
	    nb_msg_get_u64(m, NB_T_DURATION_NS, &rq->duration_ns) ||
	    get_opt_u32(m, NB_T_TPUT_PACING, NB_PACING_AUTO, &rq->pacing) ||
	    get_opt_u32(m, NB_T_TPUT_BURST, 0, &rq->burst) ||
	    get_opt_u32(m, NB_T_TPUT_UDP_PORT, 0, &rq->udp_port) ||
	    get_opt_u32(m, NB_T_TPUT_PROFILE_HZ, 0, &rq->profile_hz))
		return -EBADMSG;
	return get_opt_cc(m, NB_T_TPUT_CONGESTION, rq->congestion);
}

int nb_tput_put_ack(struct nb_msg *m, uint32_t port, uint32_t cookie)
{
	int ret = nb_msg_put_u32(m, NB_T_PORT, port);
	return ret ? ret : nb_msg_put_u32(m, NB_T_TPUT_COOKIE, cookie);
}

int nb_tput_get_ack(const struct nb_msg *m, uint16_t *port, uint32_t *cookie)
{
	uint32_t p;
	if (nb_msg_get_u32(m, NB_T_PORT, &p) || nb_msg_get_u32(m, NB_T_TPUT_COOKIE, cookie) ||
	    p > 65535)
		return -EBADMSG;
	*port = (uint16_t)p;
	return 0;
}

int nb_tput_put_counters(struct nb_msg *m, uint16_t tag, const struct nb_tput_counters *c)
{
	uint8_t b[COUNTERS_BYTES];
	struct nb_cur w = nb_cur_writer(b, sizeof(b));
	nb_cur_put_u64(&w, c->bytes);
	nb_cur_put_u64(&w, c->datagrams);
	nb_cur_put_u64(&w, c->expected);
	nb_cur_put_u64(&w, c->unique);
	nb_cur_put_u64(&w, c->reordered);
	nb_cur_put_u64(&w, c->duplicates);
	nb_cur_put_u64(&w, c->errors);
	return w.bad ? -EMSGSIZE : nb_msg_put_bytes(m, tag, b, w.off);
}

int nb_tput_get_counters(const struct nb_msg *m, uint16_t tag, struct nb_tput_counters *c)
{
	const uint8_t *b;
	size_t n;
	int ret = nb_msg_get_bytes(m, tag, &b, &n);
	if (ret)
		return ret;
	struct nb_cur r = nb_cur_reader(b, n);
	uint64_t v[7];
	for (size_t i = 0; i < 7; i++)
		v[i] = nb_cur_get_u64(&r);
	if (r.bad || nb_cur_left(&r))
		return -EBADMSG;
	/* Only the seven counters: the pacing figures and the TCP segment counts travel in
	 * records of their own, and c's other members are left unread as they are. */
	c->bytes = v[0];
	c->datagrams = v[1];
	c->expected = v[2];
	c->unique = v[3];
	c->reordered = v[4];
	c->duplicates = v[5];
	c->errors = v[6];
	return 0;
}

/* The agent's optional records of two u64s (pacing, TCP segments): an older agent sends none,
 * so a missing record is 1 (not known), not an error. */
static int put_u64_pair(struct nb_msg *m, uint16_t tag, uint64_t a, uint64_t b)
{
	uint8_t buf[PAIR_BYTES];
	struct nb_cur w = nb_cur_writer(buf, sizeof(buf));
	nb_cur_put_u64(&w, a);
	nb_cur_put_u64(&w, b);
	return w.bad ? -EMSGSIZE : nb_msg_put_bytes(m, tag, buf, w.off);
}

static int get_u64_pair(const struct nb_msg *m, uint16_t tag, uint64_t *a, uint64_t *b)
{
	const uint8_t *buf;
	size_t n;
	int ret = nb_msg_get_bytes(m, tag, &buf, &n);
	if (ret == -ENOENT)
		return 1;
	if (ret)
		return -EBADMSG;
	struct nb_cur r = nb_cur_reader(buf, n);
	*a = nb_cur_get_u64(&r);
	*b = nb_cur_get_u64(&r);
	return r.bad || nb_cur_left(&r) ? -EBADMSG : 0;
}

int nb_tput_put_pacing(struct nb_msg *m, const struct nb_tput_counters *c)
{
	return put_u64_pair(m, NB_T_TPUT_AGENT_PACE, c->pacing_cpu_ns, c->pacing_wakeups);
}

int nb_tput_get_pacing(const struct nb_msg *m, struct nb_tput_counters *c)
{
	uint64_t cpu_ns, wakeups;
	int ret = get_u64_pair(m, NB_T_TPUT_AGENT_PACE, &cpu_ns, &wakeups);
	if (ret)
		return ret < 0 ? ret : 0;
	c->pacing_cpu_ns = cpu_ns;
	c->pacing_wakeups = wakeups;
	return 0;
}

int nb_tput_put_tcp(struct nb_msg *m, const struct nb_tput_counters *c)
{
	return c->tcp_known ? put_u64_pair(m, NB_T_TPUT_AGENT_TCP, c->tcp_segs_out, c->tcp_retrans)
			    : 0;
}

int nb_tput_get_tcp(const struct nb_msg *m, struct nb_tput_counters *c)
{
	uint64_t out, retrans;
	int ret = get_u64_pair(m, NB_T_TPUT_AGENT_TCP, &out, &retrans);
	if (ret)
		return ret < 0 ? ret : 0;
	if (retrans > out) /* retransmitted segments are among those sent */
		return -EBADMSG;
	c->tcp_segs_out = out;
	c->tcp_retrans = retrans;
	c->tcp_known = true;
	return 0;
}

int nb_tput_put_cc(struct nb_msg *m, const struct nb_tput_counters *c)
{
	return c->tcp_cc[0] ? nb_msg_put_str(m, NB_T_TPUT_AGENT_CC, c->tcp_cc) : 0;
}

int nb_tput_get_cc(const struct nb_msg *m, struct nb_tput_counters *c)
{
	return get_opt_cc(m, NB_T_TPUT_AGENT_CC, c->tcp_cc);
}

void nb_tput_conn_hdr_put(uint8_t *p, uint32_t cookie, uint16_t stream, uint16_t dir)
{
	struct nb_cur w = nb_cur_writer(p, NB_TPUT_CONN_HDR);
	nb_cur_put_u32(&w, cookie);
	nb_cur_put_u16(&w, stream);
	nb_cur_put_u16(&w, dir);
}

int nb_tput_conn_hdr_get(const uint8_t *p, size_t len, uint32_t *cookie, uint32_t *stream,
			 uint32_t *dir)
{
	struct nb_cur r = nb_cur_reader(p, len);
	uint32_t c = nb_cur_get_u32(&r), s = nb_cur_get_u16(&r), d = nb_cur_get_u16(&r);
	if (r.bad || nb_cur_left(&r))
		return -EBADMSG;
	*cookie = c;
	*stream = s;
	*dir = d;
	return 0;
}

void nb_tput_udp_hdr_put(uint8_t *p, uint32_t stream, uint64_t seq, uint64_t tx_ns)
{
	struct nb_cur w = nb_cur_writer(p, NB_TPUT_UDP_HDR);
	nb_cur_put_u32(&w, NB_TPUT_UDP_MAGIC);
	nb_cur_put_u32(&w, stream);
	nb_cur_put_u64(&w, seq);
	nb_cur_put_u64(&w, tx_ns);
}

/* The header opens a datagram of any length: only what follows it is payload. */
int nb_tput_udp_hdr_get(const uint8_t *p, size_t len, uint32_t *stream, uint64_t *seq)
{
	struct nb_cur r = nb_cur_reader(p, len < NB_TPUT_UDP_HDR ? len : NB_TPUT_UDP_HDR);
	uint32_t magic = nb_cur_get_u32(&r), s = nb_cur_get_u32(&r);
	uint64_t q = nb_cur_get_u64(&r);
	(void)nb_cur_get_u64(&r); /* the send time: the header is whole only with it */
	if (r.bad || magic != NB_TPUT_UDP_MAGIC)
		return -EBADMSG;
	*stream = s;
	*seq = q;
	return 0;
}
