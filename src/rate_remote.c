/* Agent-side receiver for `netbench rate -c`: not available until the control protocol is. */
#include "rate_remote.h"

#include <errno.h>
#include <stdio.h>

int rate_remote_open(struct rate_remote **rr, const char *agent, const char *psk_file,
		     const char *dst_addr, uint16_t port, bool no_mmsg, uint64_t trial_ns,
		     uint64_t max_rate_bps, struct sockaddr_storage *dst, socklen_t *dst_len,
		     struct nb_sysinfo *remote, bool *same_clock, char *err, size_t errlen)
{
	snprintf(err, errlen, "agent %s: not supported yet", agent);
	return -ENOSYS;
}

int rate_remote_snapshot(struct rate_remote *rr, uint16_t trial, struct nb_rx_snap *snap, char *err,
			 size_t errlen)
{
	return -ENOSYS;
}

void rate_remote_free(struct rate_remote *rr)
{
}
