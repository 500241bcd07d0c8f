/* Shared between the stream front end's files: options, and the printing of receive and send
 * results that standalone and agent modes have in common. */
#ifndef NB_CMD_STREAM_H
#define NB_CMD_STREAM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/json.h"
#include "core/session/proto.h"
#include "core/stream/stream.h"
#include "core/stream/stream_pacing.h"
#include "core/stream/stream_run.h"
#include "core/stream/stream_sock.h"
#include "core/base/sysinfo.h"

struct stream_opts {
	struct nb_stream_sock_opts sock;
	size_t block;
	uint64_t rates[NB_STREAM_MAX_STEPS];
	size_t nrates;
	uint64_t time_ns;      /* per step: the measurement window */
	uint64_t omit_ns;      /* per step: warm-up before the window, not counted */
	uint64_t recv_time_ns; /* --recv: overall limit, 0 none */
	uint64_t idle_ns;
	bool send, recv, reverse, json, multicast;
	bool to_controller; /* --reverse without -a: the agent sends to us */
	int family;
	const char *connect;
	const char *times_path; /* --recv --timestamps */
	const char *psk_path;
	uint8_t psk[256];
	size_t psk_len;
	uint16_t ctl_port;
	struct nb_stream_pacing pacing; /* asked and burst_asked from the options */
};

void stream_local_sysinfo(const struct stream_opts *o, struct nb_sysinfo *si);
bool stream_step_valid(const struct nb_stream_step *s);
void stream_print_rx(const char *who, const struct nb_stream_rx *rx);
void stream_json_rx(struct nb_json *j, const struct nb_stream_rx *rx);
void stream_json_params(struct nb_json *j, const struct stream_opts *o, const char *mode);
void stream_json_send(struct nb_json *j, const char *key, const struct nb_stream_send_step *steps,
		      size_t n, size_t block);
uint32_t stream_random_id(void);
/* The sender's table of steps (the same here, from a controller and from an agent). */
void stream_print_send_head(const char *who);
void stream_print_send_row(const struct nb_stream_send_step *s, size_t block);
/* "pacing: burst (kernel pacing unavailable: ...)" */
void stream_print_pacing(const struct nb_stream_pacing *pc);
void stream_json_pacing(struct nb_json *j, const struct nb_stream_pacing *pc);

/* Controller mode (cmd/stream_ctl.c): agents receive, or with --reverse one agent sends. */
int stream_run_ctl(struct stream_opts *o, volatile sig_atomic_t *stop);

#endif
