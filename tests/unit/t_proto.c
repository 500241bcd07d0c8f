/* SPDX-License-Identifier: BSD-2-Clause */
/* Control protocol: encode/decode round trips, explicit byte order, and rejection of truncated,
 * oversized and garbage input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/session/proto.h"
#include "core/base/wire.h"
#include "tap.h"

static int pair(int sv[2])
{
	return socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
}

int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_TEST_REQ), *r = nb_msg_new(0);
	uint8_t hdr[NB_MSG_HDR];
	uint32_t u32 = 0;
	uint64_t u64 = 0;
	double d = 0;
	char s[16];
	int sv[2];

	CHECK(m && r, "allocate messages");
	CHECK(nb_msg_put_u32(m, 8, 0x01020304) == 0, "put u32");
	CHECK(nb_msg_put_u64(m, 9, 0x1122334455667788ULL) == 0, "put u64");
	CHECK(nb_msg_put_double(m, 13, 1.5e9) == 0, "put double");
	CHECK(nb_msg_put_str(m, 15, "hello") == 0, "put string");
	/* Wire layout is big-endian whatever the host: tag 8, length 4, value 01 02 03 04. */
	CHECK(m->data[0] == 0 && m->data[1] == 8 && m->data[2] == 0 && m->data[3] == 4 &&
		      m->data[4] == 1 && m->data[7] == 4,
	      "u32 item is big-endian on the wire");
	CHECK(nb_msg_get_u32(m, 8, &u32) == 0 && u32 == 0x01020304, "get u32");
	CHECK(nb_msg_get_u64(m, 9, &u64) == 0 && u64 == 0x1122334455667788ULL, "get u64");
	CHECK(nb_msg_get_double(m, 13, &d) == 0 && d == 1.5e9, "get double");
	CHECK(nb_msg_get_str(m, 15, s, sizeof(s)) == 0 && !strcmp(s, "hello"), "get string");
	CHECK(nb_msg_get_u32(m, 9, &u32) == -EBADMSG, "u32 getter refuses an 8-byte item");
	CHECK(nb_msg_get_u32(m, 77, &u32) == -ENOENT, "missing tag is -ENOENT");
	CHECK(nb_msg_get_str(m, 15, s, 5) == -EBADMSG, "string that does not fit is refused");
	CHECK(nb_msg_validate(m) == 0, "well-formed payload validates");

	/* Header checks. */
	nb_msg_encode_header(m, hdr);
	uint16_t type;
	uint32_t len;
	CHECK(nb_msg_parse_header(hdr, &type, &len) == 0 && type == NB_MSG_TEST_REQ &&
		      len == m->len,
	      "header round trip");
	hdr[0] ^= 0xff;
	CHECK(nb_msg_parse_header(hdr, &type, &len) == -EBADMSG, "bad magic refused");
	nb_msg_encode_header(m, hdr);
	nb_put_be32(hdr + 8, NB_MSG_MAX + 1);
	CHECK(nb_msg_parse_header(hdr, &type, &len) == -EBADMSG,
	      "oversized length refused before any allocation");
	nb_msg_encode_header(m, hdr);
	nb_put_be16(hdr + 4, 999);
	CHECK(nb_msg_parse_header(hdr, &type, &len) == -EBADMSG, "unknown type refused");

	/* A TLV that claims more than the payload holds. */
	struct nb_msg *bad = nb_msg_new(NB_MSG_MARK);
	bad->len = 6;
	nb_put_be16(bad->data, 1);
	nb_put_be16(bad->data + 2, 100);
	CHECK(nb_msg_validate(bad) == -EBADMSG, "truncated TLV refused");
	bad->len = 3;
	CHECK(nb_msg_validate(bad) == -EBADMSG, "partial TLV header refused");

	/* Too much for one message. */
	uint8_t *big = calloc(1, 65536);
	nb_msg_reset(bad, NB_MSG_SNAP);
	CHECK(nb_msg_put_bytes(bad, 1, big, NB_MSG_MAX - 4) == 0, "an item filling the payload fits");
	CHECK(nb_msg_put_bytes(bad, 1, big, 0) == -EMSGSIZE, "one more item is refused");
	nb_msg_reset(bad, NB_MSG_SNAP);
	CHECK(nb_msg_put_bytes(bad, 1, big, 65536) == -EMSGSIZE, "an item over 65535 bytes is refused");
	free(big);

	/* Over a socket: a round trip, then garbage, then a truncated message. */
	CHECK(pair(sv) == 0, "socketpair");
	CHECK(nb_msg_send(sv[0], m) == 0, "send");
	CHECK(nb_msg_recv(sv[1], r, 1000) == 0 && r->type == m->type && r->len == m->len &&
		      !memcmp(r->data, m->data, m->len),
	      "receive what was sent");
	CHECK(write(sv[0], "GET / HTTP/1.0\r\n\r\n", 18) == 18, "write garbage");
	CHECK(nb_msg_recv(sv[1], r, 1000) == -EBADMSG, "garbage is -EBADMSG");
	close(sv[0]);
	close(sv[1]);
	CHECK(pair(sv) == 0, "socketpair");
	nb_msg_encode_header(m, hdr);
	CHECK(write(sv[0], hdr, sizeof(hdr)) == sizeof(hdr), "write a header alone");
	CHECK(nb_msg_recv(sv[1], r, 200) == -ETIMEDOUT, "a stalled peer times out");
	close(sv[0]);
	CHECK(nb_msg_recv(sv[1], r, 1000) == -ECONNRESET, "a closed peer is -ECONNRESET");
	close(sv[1]);

	/* ERROR messages become -EPROTO with their text. */
	char err[128];
	CHECK(pair(sv) == 0, "socketpair");
	nb_msg_send_error(sv[0], EBUSY, "agent busy: %s", "try later");
	CHECK(nb_msg_expect(sv[1], r, NB_MSG_HELLO_OK, 1000, err, sizeof(err)) == -EPROTO &&
		      !strcmp(err, "agent busy: try later"),
	      "error text reaches the caller");
	close(sv[0]);
	close(sv[1]);

	/* Context blocks. */
	struct nb_sysinfo si, si2;
	nb_sysinfo_get(&si, NULL);
	nb_msg_reset(r, NB_MSG_HELLO_OK);
	CHECK(nb_proto_put_sysinfo(r, &si) == 0, "encode sysinfo");
	nb_proto_get_sysinfo(r, &si2);
	CHECK(!strcmp(si.hostname, si2.hostname) && !strcmp(si.arch, si2.arch) &&
		      si.ncpu == si2.ncpu && !strcmp(si.byte_order, si2.byte_order),
	      "sysinfo round trip");
	struct nb_cpu_sample *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	CHECK(nb_cpu_sample_now(a) == 0, "cpu sample");
	nb_msg_reset(r, NB_MSG_SNAP);
	CHECK(nb_proto_put_cpu(r, a) == 0 && nb_proto_get_cpu(r, b) == 0, "cpu sample round trip");
	CHECK(a->ncpu == b->ncpu && a->total.softirq == b->total.softirq &&
		      a->proc_sys_us == b->proc_sys_us && a->cpu_all[0] == b->cpu_all[0],
	      "cpu sample fields survive");
	r->data[r->len - 1] ^= 0; /* keep */
	r->len -= 3;
	CHECK(nb_msg_validate(r) == -EBADMSG, "cut cpu sample does not validate");
	free(a);
	free(b);
	nb_msg_free(bad);
	nb_msg_free(m);
	nb_msg_free(r);
	nb_msg_free(NULL);
	return tap_done();
}
