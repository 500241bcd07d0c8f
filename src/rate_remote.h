/* The controller's side of `netbench rate -c AGENT`: the counting receiver runs on the agent
 * (test kind NB_TEST_RATE); each trial's counters come back in a snapshot at a mark. */
#ifndef NB_RATE_REMOTE_H
#define NB_RATE_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/raterx.h"
#include "core/sysinfo.h"

struct rate_remote;

/* Connects, asks the agent for a receiver and fills dst with where frames go: dst_addr when
 * given, else the agent's own address, with the port the agent bound. same_clock tells whether
 * the agent shares this host's monotonic clock (same boot id), so one-way latency holds. */
int rate_remote_open(struct rate_remote **rr, const char *agent, const char *psk_file,
		     const char *dst_addr, uint16_t port, bool no_mmsg, uint64_t trial_ns,
		     uint64_t max_rate_bps, struct sockaddr_storage *dst, socklen_t *dst_len,
		     struct nb_sysinfo *remote, bool *same_clock, char *err, size_t errlen);
/* The receiver's counters now (for the trial most recently seen). */
int rate_remote_snapshot(struct rate_remote *rr, uint16_t trial, struct nb_rx_snap *snap, char *err,
			 size_t errlen);
void rate_remote_free(struct rate_remote *rr);

#endif
