/* SPDX-License-Identifier: BSD-2-Clause */
/* Control message encoding, validation and blocking I/O with timeouts. */
#include "core/session/proto.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/compat.h"
#include "core/base/escape.h"
#include "core/base/cursor.h"
#include "core/base/timeutil.h"
#include "core/base/cursor.h"

struct nb_msg *nb_msg_new(uint16_t type)
{
	struct nb_msg *m = malloc(sizeof(*m));
	if (m)
		nb_msg_reset(m, type);
	return m;
}

void nb_msg_free(struct nb_msg *m)
{
	free(m);
}

void nb_msg_reset(struct nb_msg *m, uint16_t type)
{
	m->type = type;
	m->len = 0;
}

int nb_msg_put_bytes(struct nb_msg *m, uint16_t tag, const void *p, size_t n)
{
	if (n > 0xffff || m->len + 4 + n > NB_MSG_MAX)
		return -EMSGSIZE;
	nb_put_be16(m->data + m->len, tag);
	nb_put_be16(m->data + m->len + 2, (uint16_t)n);
	if (n)
		memcpy(m->data + m->len + 4, p, n);
	m->len += 4 + (uint32_t)n;
	return 0;
}

int nb_msg_put_u32(struct nb_msg *m, uint16_t tag, uint32_t v)
{
	uint8_t b[4];
	nb_put_be32(b, v);
	return nb_msg_put_bytes(m, tag, b, 4);
}

int nb_msg_put_u64(struct nb_msg *m, uint16_t tag, uint64_t v)
{
	uint8_t b[8];
	nb_put_be64(b, v);
	return nb_msg_put_bytes(m, tag, b, 8);
}

int nb_msg_put_double(struct nb_msg *m, uint16_t tag, double v)
{
	/* IEEE 754 binary64 on every supported target; only the byte order needs fixing. */
	uint64_t bits;
	memcpy(&bits, &v, 8);
	return nb_msg_put_u64(m, tag, bits);
}

int nb_msg_put_str(struct nb_msg *m, uint16_t tag, const char *s)
{
	return nb_msg_put_bytes(m, tag, s, strlen(s));
}

int nb_msg_next(const struct nb_msg *m, size_t *off, uint16_t *tag, const uint8_t **p, size_t *n)
{
	size_t len;
	if (*off + 4 > m->len)
		return 0;
	len = nb_get_be16(m->data + *off + 2);
	if (*off + 4 + len > m->len)
		return 0;
	*tag = nb_get_be16(m->data + *off);
	*p = m->data + *off + 4;
	*n = len;
	*off += 4 + len;
	return 1;
}

int nb_msg_get_bytes(const struct nb_msg *m, uint16_t tag, const uint8_t **p, size_t *n)
{
	size_t off = 0;
	uint16_t t;
	while (nb_msg_next(m, &off, &t, p, n))
		if (t == tag)
			return 0;
	return -ENOENT;
}

int nb_msg_get_u32(const struct nb_msg *m, uint16_t tag, uint32_t *v)
{
	const uint8_t *p;
	size_t n;
	int ret = nb_msg_get_bytes(m, tag, &p, &n);
	if (ret)
		return ret;
	if (n != 4)
		return -EBADMSG;
	*v = nb_get_be32(p);
	return 0;
}

int nb_msg_get_u64(const struct nb_msg *m, uint16_t tag, uint64_t *v)
{
	const uint8_t *p;
	size_t n;
	int ret = nb_msg_get_bytes(m, tag, &p, &n);
	if (ret)
		return ret;
	if (n != 8)
		return -EBADMSG;
	*v = nb_get_be64(p);
	return 0;
}

int nb_msg_get_double(const struct nb_msg *m, uint16_t tag, double *v)
{
	uint64_t bits;
	int ret = nb_msg_get_u64(m, tag, &bits);
	if (ret)
		return ret;
	memcpy(v, &bits, 8);
	return 0;
}

int nb_msg_get_str(const struct nb_msg *m, uint16_t tag, char *buf, size_t len)
{
	const uint8_t *p;
	size_t n;
	int ret = nb_msg_get_bytes(m, tag, &p, &n);
	if (ret)
		return ret;
	if (n >= len || memchr(p, '\0', n))
		return -EBADMSG;
	memcpy(buf, p, n);
	buf[n] = '\0';
	/* Every string the peer sends is foreign: no control character gets past here. */
	nb_esc_inplace(buf, len, NB_ESC_LINE);
	return 0;
}

int nb_msg_parse_header(const uint8_t hdr[NB_MSG_HDR], uint16_t *type, uint32_t *len)
{
	if (nb_get_be32(hdr) != NB_PROTO_MAGIC)
		return -EBADMSG;
	*type = nb_get_be16(hdr + 4);
	*len = nb_get_be32(hdr + 8);
	if (*type == 0 || *type > NB_MSG_TYPE_MAX || nb_get_be16(hdr + 6) != 0 || *len > NB_MSG_MAX)
		return -EBADMSG;
	return 0;
}

int nb_msg_validate(const struct nb_msg *m)
{
	size_t off = 0;
	while (off < m->len) {
		if (off + 4 > m->len || off + 4 + nb_get_be16(m->data + off + 2) > m->len)
			return -EBADMSG;
		off += 4 + nb_get_be16(m->data + off + 2);
	}
	return 0;
}

size_t nb_msg_encode_header(const struct nb_msg *m, uint8_t hdr[NB_MSG_HDR])
{
	nb_put_be32(hdr, NB_PROTO_MAGIC);
	nb_put_be16(hdr + 4, m->type);
	nb_put_be16(hdr + 6, 0);
	nb_put_be32(hdr + 8, m->len);
	return NB_MSG_HDR;
}

#ifndef MSG_MORE
#define MSG_MORE 0
#endif

/* Writes all of buf before the deadline: a peer that does not read cannot hold us longer,
 * however it lets the bytes trickle out. */
static int write_all(int fd, const void *buf, size_t len, int flags, uint64_t deadline_ns)
{
	const uint8_t *p = buf;
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT | flags);
		if (n < 0) {
			uint64_t now = nb_mono_ns();
			struct pollfd pfd = {.fd = fd, .events = POLLOUT};
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -errno;
			if (now >= deadline_ns ||
			    poll(&pfd, 1,
				 (int)((deadline_ns - now + NB_NS_PER_MS - 1) / NB_NS_PER_MS)) == 0)
				return -ETIMEDOUT;
			continue;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int nb_msg_send_by(int fd, const struct nb_msg *m, uint64_t deadline_ns)
{
	uint8_t hdr[NB_MSG_HDR];
	int ret;
	nb_msg_encode_header(m, hdr);
	/* One segment for header and body: a header sent alone leaves the body to Nagle, which
	 * holds it until the peer's delayed ACK of the header (up to 40 ms on Linux), and every
	 * control round trip (a window's edge) would wait that long. */
	ret = write_all(fd, hdr, sizeof(hdr), m->len ? MSG_MORE : 0, deadline_ns);
	if (!ret && m->len)
		ret = write_all(fd, m->data, m->len, 0, deadline_ns);
	return ret;
}

int nb_msg_send(int fd, const struct nb_msg *m)
{
	return nb_msg_send_by(fd, m, nb_mono_ns() + NB_MSG_SEND_MS * NB_NS_PER_MS);
}

/* Reads exactly len bytes before the deadline; a stalled peer cannot hold us longer. */
static int read_all(int fd, void *buf, size_t len, uint64_t deadline_ns)
{
	uint8_t *p = buf;
	while (len) {
		uint64_t now = nb_mono_ns();
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int left_ms, r;
		ssize_t n;
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		left_ms = (int)((deadline_ns - now + NB_NS_PER_MS - 1) / NB_NS_PER_MS);
		r = poll(&pfd, 1, left_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		n = recv(fd, p, len, 0);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int nb_msg_recv(int fd, struct nb_msg *m, int timeout_ms)
{
	uint8_t hdr[NB_MSG_HDR];
	uint64_t deadline = nb_mono_ns() + (uint64_t)timeout_ms * NB_NS_PER_MS;
	uint16_t type;
	uint32_t len;
	int ret = read_all(fd, hdr, sizeof(hdr), deadline);
	if (ret)
		return ret;
	ret = nb_msg_parse_header(hdr, &type, &len);
	if (ret)
		return ret;
	m->type = type;
	m->len = len;
	ret = read_all(fd, m->data, len, deadline);
	if (ret)
		return ret;
	return nb_msg_validate(m);
}

int nb_msg_expect(int fd, struct nb_msg *m, uint16_t type, int timeout_ms, char *err, size_t errlen)
{
	int ret = nb_msg_recv(fd, m, timeout_ms);
	if (ret) {
		snprintf(err, errlen, "%s",
			 ret == -ETIMEDOUT    ? "timed out waiting for the peer"
			 : ret == -ECONNRESET ? "the peer closed the connection"
			 : ret == -EBADMSG    ? "malformed message from the peer"
					      : strerror(-ret));
		return ret;
	}
	if (m->type == NB_MSG_ERROR) {
		char text[512] = "error without text";
		nb_msg_get_str(m, NB_T_ERR_TEXT, text, sizeof(text));
		snprintf(err, errlen, "%s", text);
		return -EPROTO;
	}
	if (m->type != type) {
		snprintf(err, errlen, "unexpected %s message (wanted %s)",
			 nb_msg_type_name(m->type), nb_msg_type_name(type));
		return -EBADMSG;
	}
	return 0;
}

static int send_error_v(int fd, uint64_t deadline_ns, int code, const char *fmt, va_list ap)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_ERROR);
	char text[1024];
	int ret;
	if (!m)
		return -ENOMEM;
	vsnprintf(text, sizeof(text), fmt, ap);
	nb_msg_put_u32(m, NB_T_ERR_CODE, (uint32_t)code);
	nb_msg_put_str(m, NB_T_ERR_TEXT, text);
	ret = nb_msg_send_by(fd, m, deadline_ns);
	nb_msg_free(m);
	return ret;
}

int nb_msg_send_error(int fd, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;
	va_start(ap, fmt);
	ret = send_error_v(fd, nb_mono_ns() + NB_MSG_SEND_MS * NB_NS_PER_MS, code, fmt, ap);
	va_end(ap);
	return ret;
}

int nb_msg_send_error_by(int fd, uint64_t deadline_ns, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;
	va_start(ap, fmt);
	ret = send_error_v(fd, deadline_ns, code, fmt, ap);
	va_end(ap);
	return ret;
}

static const struct {
	uint16_t tag;
	size_t off, len;
} si_strings[] = {
#define S(t, f)                                                                                    \
	{                                                                                          \
		t, offsetof(struct nb_sysinfo, f), sizeof(((struct nb_sysinfo *)0)->f)             \
	}
    S(NB_T_SI_VERSION, version),
    S(NB_T_SI_GITREV, gitrev),
    S(NB_T_SI_HOSTNAME, hostname),
    S(NB_T_SI_KERNEL, kernel),
    S(NB_T_SI_KERNEL_BUILD, kernel_build),
    S(NB_T_SI_ARCH, arch),
    S(NB_T_SI_BYTE_ORDER, byte_order),
    S(NB_T_SI_CPU_MODEL, cpu_model),
    S(NB_T_SI_IFACE, iface),
    S(NB_T_SI_DRIVER, driver),
    S(NB_T_SI_DRIVER_VERSION, driver_version),
    S(NB_T_SI_BUS_INFO, bus_info),
    S(NB_T_SI_VIRT, virt),
#undef S
};

int nb_proto_put_sysinfo(struct nb_msg *m, const struct nb_sysinfo *si)
{
	int ret = 0;
	for (size_t i = 0; i < sizeof(si_strings) / sizeof(si_strings[0]) && !ret; i++)
		ret = nb_msg_put_str(m, si_strings[i].tag, (const char *)si + si_strings[i].off);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_SI_NCPU, si->ncpu);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_SI_CPU_MHZ, si->cpu_mhz);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_SI_MTU, si->mtu);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_SI_CORE_MHZ, si->core_mhz);
	if (!ret)
		ret = nb_msg_put_u32(m, NB_T_SI_BUS_MHZ, si->bus_mhz);
	return ret;
}

void nb_proto_get_sysinfo(const struct nb_msg *m, struct nb_sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	/* Missing or oversized fields stay empty: context is informative, never fatal. */
	for (size_t i = 0; i < sizeof(si_strings) / sizeof(si_strings[0]); i++)
		if (nb_msg_get_str(m, si_strings[i].tag, (char *)si + si_strings[i].off,
				   si_strings[i].len))
			((char *)si + si_strings[i].off)[0] = '\0';
	nb_msg_get_u32(m, NB_T_SI_NCPU, &si->ncpu);
	nb_msg_get_u32(m, NB_T_SI_CPU_MHZ, &si->cpu_mhz);
	nb_msg_get_u32(m, NB_T_SI_MTU, &si->mtu);
	nb_msg_get_u32(m, NB_T_SI_CORE_MHZ, &si->core_mhz);
	nb_msg_get_u32(m, NB_T_SI_BUS_MHZ, &si->bus_mhz);
}

/* CPU sample layout: mono_ns, proc_user_us, proc_sys_us, 8 total tick columns, columns, ncpu,
 * then per CPU: id (u32), busy, all (u64). */
enum { CPU_FIXED = 8 * 11 + 4 + 4, CPU_PER = 4 + 8 + 8 };

int nb_proto_put_cpu(struct nb_msg *m, const struct nb_cpu_sample *s)
{
	size_t n = CPU_FIXED + (size_t)s->ncpu * CPU_PER;
	const uint64_t t[8] = {s->total.user,	s->total.nice, s->total.system,	 s->total.idle,
			       s->total.iowait, s->total.irq,  s->total.softirq, s->total.steal};
	struct nb_cur c;
	uint8_t *b;
	int ret;
	if (n > 0xffff)
		return -EMSGSIZE;
	b = malloc(n);
	if (!b)
		return -ENOMEM;
	c = nb_cur_writer(b, n);
	nb_cur_put_u64(&c, s->mono_ns);
	nb_cur_put_u64(&c, s->proc_user_us);
	nb_cur_put_u64(&c, s->proc_sys_us);
	for (int i = 0; i < 8; i++)
		nb_cur_put_u64(&c, t[i]);
	nb_cur_put_u32(&c, s->columns);
	nb_cur_put_u32(&c, s->ncpu);
	for (uint32_t i = 0; i < s->ncpu; i++) {
		nb_cur_put_u32(&c, s->cpu_id[i]);
		nb_cur_put_u64(&c, s->cpu_busy[i]);
		nb_cur_put_u64(&c, s->cpu_all[i]);
	}
	ret = c.bad ? -EMSGSIZE : nb_msg_put_bytes(m, NB_T_CPU_SAMPLE, b, c.off);
	free(b);
	return ret;
}

int nb_proto_get_cpu(const struct nb_msg *m, struct nb_cpu_sample *s)
{
	const uint8_t *b;
	size_t n;
	uint64_t *const t[8] = {&s->total.user,	   &s->total.nice,   &s->total.system,
				&s->total.idle,	   &s->total.iowait, &s->total.irq,
				&s->total.softirq, &s->total.steal};
	struct nb_cur c;
	uint32_t ncpu;
	int ret = nb_msg_get_bytes(m, NB_T_CPU_SAMPLE, &b, &n);
	if (ret)
		return ret;
	if (n < CPU_FIXED)
		return -EBADMSG;
	ncpu = nb_get_be32(b + CPU_FIXED - 4);
	if (ncpu > NB_CPU_MAX || n != CPU_FIXED + (size_t)ncpu * CPU_PER)
		return -EBADMSG;
	memset(s, 0, sizeof(*s));
	c = nb_cur_reader(b, n);
	s->mono_ns = nb_cur_get_u64(&c);
	s->proc_user_us = nb_cur_get_u64(&c);
	s->proc_sys_us = nb_cur_get_u64(&c);
	for (int i = 0; i < 8; i++)
		*t[i] = nb_cur_get_u64(&c);
	s->columns = nb_cur_get_u32(&c);
	s->ncpu = nb_cur_get_u32(&c);
	for (uint32_t i = 0; i < ncpu; i++) {
		s->cpu_id[i] = (uint16_t)nb_cur_get_u32(&c);
		s->cpu_busy[i] = nb_cur_get_u64(&c);
		s->cpu_all[i] = nb_cur_get_u64(&c);
	}
	return c.bad ? -EBADMSG : 0;
}

void nb_proto_encode_load(uint8_t *p, const struct nb_cpu_load *l)
{
#define LOAD_PUT(i, f) l->f,
	const double d[16] = {NB_LOAD_DOUBLES(LOAD_PUT)};
#undef LOAD_PUT
	struct nb_cur c = nb_cur_writer(p, NB_LOAD_WIRE_BYTES);
	for (int i = 0; i < 16; i++)
		nb_cur_put_dbl(&c, d[i]); /* NaN travels as is */
	nb_cur_put_u32(&c, (uint32_t)(int32_t)l->busiest_cpu);
	nb_cur_put_u32(&c, l->ncpu);
	nb_cur_put_u32(&c, l->valid ? 1u : 0u);
}

int nb_proto_decode_load(const uint8_t *p, struct nb_cpu_load *l)
{
#define LOAD_GET(i, f) &l->f,
	double *const d[16] = {NB_LOAD_DOUBLES(LOAD_GET)};
#undef LOAD_GET
	struct nb_cur c = nb_cur_reader(p, NB_LOAD_WIRE_BYTES);
	for (int i = 0; i < 16; i++)
		*d[i] = nb_cur_get_dbl(&c);
	l->busiest_cpu = (int)(int32_t)nb_cur_get_u32(&c);
	l->ncpu = nb_cur_get_u32(&c);
	l->valid = nb_cur_get_bool(&c);
	return c.bad ? -EBADMSG : 0;
}

const char *nb_msg_type_name(uint16_t type)
{
	static const char *const names[] = {"?",     "HELLO",	 "HELLO_OK", "AUTH",  "AUTH_OK",
					    "ERROR", "TEST_REQ", "TEST_ACK", "START", "MARK",
					    "SNAP",  "STOP",	 "FINAL",    "BYE",   "ALIVE"};
	return type <= NB_MSG_TYPE_MAX ? names[type] : "?";
}
