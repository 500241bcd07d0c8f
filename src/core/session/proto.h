/* SPDX-License-Identifier: BSD-2-Clause */
/* The control protocol between controller and agent. A message is a 12-byte header (magic,
 * type, flags, payload length; all big-endian) followed by TLV items (u16 tag, u16 length,
 * value; big-endian integers). Every length is bounded before anything is allocated or read,
 * and every message is validated whole when it arrives. Byte order on the wire is explicit, so
 * a little-endian controller and a big-endian agent interoperate. */
#ifndef NB_PROTO_H
#define NB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/cpu.h"
#include "core/base/sysinfo.h"

#define NB_PROTO_MAGIC	 0x4e424331u /* "NBC1" */
#define NB_PROTO_VERSION 1u
#define NB_MSG_HDR	 12u
#define NB_MSG_MAX	 65536u /* payload bytes */
#define NB_DEFAULT_PORT	 5301	/* iperf3 uses 5201, netperf 12865, netio 18767 */

enum nb_msg_type {
	NB_MSG_HELLO = 1,    /* controller: version, nonce */
	NB_MSG_HELLO_OK = 2, /* agent: version, nonce, sysinfo, whether auth is needed */
	NB_MSG_AUTH = 3,     /* controller: HMAC proof */
	NB_MSG_AUTH_OK = 4,  /* agent: HMAC proof of its own */
	NB_MSG_ERROR = 5,    /* either: code, text; ends the session */
	NB_MSG_TEST_REQ = 6, /* controller: test type and parameters */
	NB_MSG_TEST_ACK = 7, /* agent: ports and whatever the test needs */
	NB_MSG_START = 8,    /* controller: start traffic */
	NB_MSG_MARK = 9,     /* controller: take a counter snapshot now */
	NB_MSG_SNAP = 10,    /* agent: counters and CPU sample at the mark */
	NB_MSG_STOP = 11,    /* controller: stop, drain, report final counters */
	NB_MSG_FINAL = 12,   /* agent: final counters */
	NB_MSG_BYE = 13,     /* controller: session over */
	NB_MSG_ALIVE = 14,   /* controller: still here, while a test runs (no answer) */
	NB_MSG_TYPE_MAX = 14,
};

/* Tags. 1-99 common; each test type owns a range of 100 (tput 100-199, rate 200-299,
 * stream 300-399, crypto 400-499, mem 500-599, observe 600-699). */
enum nb_tag {
	NB_T_PROTO_VERSION = 1,
	NB_T_SW_VERSION = 2,
	NB_T_NONCE = 3,
	NB_T_AUTH_REQUIRED = 4,
	NB_T_PROOF = 5,
	NB_T_ERR_CODE = 6,
	NB_T_ERR_TEXT = 7,
	NB_T_TEST_TYPE = 8,
	NB_T_DURATION_NS = 9,
	NB_T_MARK_ID = 10,
	NB_T_CPU_SAMPLE = 11,
	NB_T_MONO_NS = 12,
	NB_T_RATE_BPS = 13,
	NB_T_PORT = 14,
	NB_T_TEXT = 15, /* free-form text result (e.g. a JSON fragment) */
	/* the agent's caps, in HELLO_OK / AUTH_OK (core/session/caps.h) */
	NB_T_CAP_MAX_TIME_NS = 16,
	NB_T_CAP_MAX_RATE_BPS = 17,
	NB_T_CAP_MAX_PPS = 18,
	/* u32 in a MARK: the mark opens (NB_MARK_OPENS) or closes (NB_MARK_CLOSES) the measurement
	 * window; absent: neither. A test that profiles the window starts and stops there. */
	NB_T_MARK_EDGE = 19,
	/* sysinfo: 20-39 */
	NB_T_SI_VERSION = 20,
	NB_T_SI_GITREV,
	NB_T_SI_HOSTNAME,
	NB_T_SI_KERNEL,
	NB_T_SI_KERNEL_BUILD,
	NB_T_SI_ARCH,
	NB_T_SI_BYTE_ORDER,
	NB_T_SI_CPU_MODEL,
	NB_T_SI_NCPU,
	NB_T_SI_CPU_MHZ,
	NB_T_SI_IFACE,
	NB_T_SI_DRIVER,
	NB_T_SI_DRIVER_VERSION,
	NB_T_SI_BUS_INFO,
	NB_T_SI_MTU,
	NB_T_SI_VIRT, /* absent from older agents: unknown */
	NB_T_SI_CORE_MHZ =
	    38, /* the device tree's clocks (top of the range: others grow from 35) */
	NB_T_SI_BUS_MHZ = 39,
	/* the agent's quiet limit, in HELLO_OK / AUTH_OK beside its caps (core/session/caps.h): a
	 * running test ends after this long without a message */
	NB_T_CAP_QUIET_NS = 40,
};

enum nb_mark_edge { NB_MARK_OPENS = 1, NB_MARK_CLOSES = 2 };

enum nb_test_type {
	NB_TEST_TPUT = 1,
	NB_TEST_RATE = 2,
	NB_TEST_STREAM = 3,
	NB_TEST_CRYPTO = 4,
	NB_TEST_MEM = 5,
	NB_TEST_OBSERVE = 6,
};

struct nb_msg {
	uint16_t type;
	uint32_t len;
	uint8_t data[NB_MSG_MAX];
};

struct nb_msg *nb_msg_new(uint16_t type);
void nb_msg_free(struct nb_msg *m);
void nb_msg_reset(struct nb_msg *m, uint16_t type);

/* Appending fails with -EMSGSIZE when the payload would exceed NB_MSG_MAX. */
int nb_msg_put_bytes(struct nb_msg *m, uint16_t tag, const void *p, size_t n);
int nb_msg_put_u32(struct nb_msg *m, uint16_t tag, uint32_t v);
int nb_msg_put_u64(struct nb_msg *m, uint16_t tag, uint64_t v);
int nb_msg_put_double(struct nb_msg *m, uint16_t tag, double v);
int nb_msg_put_str(struct nb_msg *m, uint16_t tag, const char *s);

/* Getters find the first item with the tag: 0, -ENOENT when absent, -EBADMSG when its length
 * is wrong for the type (or a string holds a NUL or does not fit len). */
int nb_msg_get_bytes(const struct nb_msg *m, uint16_t tag, const uint8_t **p, size_t *n);
int nb_msg_get_u32(const struct nb_msg *m, uint16_t tag, uint32_t *v);
int nb_msg_get_u64(const struct nb_msg *m, uint16_t tag, uint64_t *v);
int nb_msg_get_double(const struct nb_msg *m, uint16_t tag, double *v);
int nb_msg_get_str(const struct nb_msg *m, uint16_t tag, char *buf, size_t len);
/* Iterates items: *off starts at 0. Returns 1 with an item, 0 at the end. */
int nb_msg_next(const struct nb_msg *m, size_t *off, uint16_t *tag, const uint8_t **p, size_t *n);

/* Checks a header and payload as received: magic, known type, TLVs exactly filling the
 * payload. Returns 0 or -EBADMSG. */
int nb_msg_parse_header(const uint8_t hdr[NB_MSG_HDR], uint16_t *type, uint32_t *len);
int nb_msg_validate(const struct nb_msg *m);
/* Encodes header + payload into out (NB_MSG_HDR + m->len bytes). */
size_t nb_msg_encode_header(const struct nb_msg *m, uint8_t hdr[NB_MSG_HDR]);

/* Blocking I/O with a timeout on every read: -ETIMEDOUT, -ECONNRESET (peer closed), -EBADMSG.
 * A send has an overall deadline (nb_msg_send: NB_MSG_SEND_MS from now), not one per write:
 * a peer that reads a byte now and then cannot hold the sender longer. */
#define NB_MSG_SEND_MS 10000
int nb_msg_send(int fd, const struct nb_msg *m);
int nb_msg_send_by(int fd, const struct nb_msg *m, uint64_t deadline_ns);
int nb_msg_recv(int fd, struct nb_msg *m, int timeout_ms);
/* Receives and turns an ERROR message into -EPROTO with its text in err. */
int nb_msg_expect(int fd, struct nb_msg *m, uint16_t type, int timeout_ms, char *err,
		  size_t errlen);
int nb_msg_send_error(int fd, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int nb_msg_send_error_by(int fd, uint64_t deadline_ns, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Context blocks carried inside messages. */
int nb_proto_put_sysinfo(struct nb_msg *m, const struct nb_sysinfo *si);
void nb_proto_get_sysinfo(const struct nb_msg *m, struct nb_sysinfo *si);
int nb_proto_put_cpu(struct nb_msg *m, const struct nb_cpu_sample *s);
int nb_proto_get_cpu(const struct nb_msg *m, struct nb_cpu_sample *s);

/* A CPU load over a window as one fixed-size record, for results computed where they ran (a
 * probe on the agent, a stream receiver): 16 doubles as IEEE 754 bits, then busiest CPU,
 * CPU count and the valid flag as u32. Decoding a valid flag other than 0 or 1 is -EBADMSG. */
#define NB_LOAD_WIRE_BYTES (16 * 8 + 3 * 4)
/* The record's 16 doubles in wire order, as X(index, member of struct nb_cpu_load): the one list
 * every codec that carries a CPU load follows (this record, and the crypto result's items). */
#define NB_LOAD_DOUBLES(X)                                                                         \
	X(0, window_s)                                                                             \
	X(1, user_pct)                                                                             \
	X(2, nice_pct)                                                                             \
	X(3, system_pct)                                                                           \
	X(4, irq_pct)                                                                              \
	X(5, softirq_pct)                                                                          \
	X(6, iowait_pct)                                                                           \
	X(7, steal_pct)                                                                            \
	X(8, idle_pct)                                                                             \
	X(9, busy_pct)                                                                             \
	X(10, proc_user_pct)                                                                       \
	X(11, proc_sys_pct)                                                                        \
	X(12, proc_pct)                                                                            \
	X(13, busiest_cpu_pct)                                                                     \
	X(14, busy_cpu_s)                                                                          \
	X(15, proc_cpu_s)
void nb_proto_encode_load(uint8_t *p, const struct nb_cpu_load *l);
int nb_proto_decode_load(const uint8_t *p, struct nb_cpu_load *l);

const char *nb_msg_type_name(uint16_t type);

#endif
