/* SPDX-License-Identifier: BSD-2-Clause */
/* The multi-threaded generator: the exact split of rate, frames and flows across threads, CPU
 * lists, the receiver's sum over sockets; and a two-thread trial over loopback into a
 * two-socket SO_REUSEPORT receiver whose per-flow counts must reconcile exactly; frames a full
 * receiving socket dropped (SO_MEMINFO), counted as the receiver's. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/base/cpulist.h"
#include "core/rate/frame.h"
#include "core/rate/gen.h"
#include "core/rate/genpool.h"
#include "core/rate/raterx.h"
#include "core/rate/rate.h"
#include "tap.h"

static void split(void)
{
	uint64_t sum = 0;
	CHECK(nb_gen_share(1000000, 2, 0) == 500000 && nb_gen_share(1000000, 2, 1) == 500000,
	      "1 Mfps over 2 threads: 500 k each");
	for (uint32_t i = 0; i < 3; i++)
		sum += nb_gen_share(100001, 3, i);
	CHECK(sum == 100001, "shares add up exactly (100001 over 3: %llu)",
	      (unsigned long long)sum);
	CHECK(nb_gen_share(100001, 3, 0) == 33334 && nb_gen_share(100001, 3, 2) == 33333,
	      "the first shares take the remainder");
	CHECK(nb_gen_share(5, 2, 2) == 0 && nb_gen_share(5, 0, 0) == 0, "no such part: 0");
	CHECK(nb_gen_share_base(10, 4, 0) == 0 && nb_gen_share_base(10, 4, 1) == 3 &&
		  nb_gen_share_base(10, 4, 2) == 6 && nb_gen_share_base(10, 4, 3) == 8 &&
		  nb_gen_share_base(10, 4, 4) == 10,
	      "flow blocks of 10 over 4 threads start at 0, 3, 6, 8");

	struct nb_gen_trial t = {.rate_fps = 30001,
				 .duration_ns = 7,
				 .frames = 0,
				 .flows = 5,
				 .burst = 4,
				 .batch = 9},
			    p;
	nb_gen_trial_share(&t, 2, 1, &p);
	CHECK(p.rate_fps == 15000 && p.flows == 2 && p.duration_ns == 7 && p.burst == 4 &&
		  p.batch == 9 && p.frames == 0,
	      "thread 1 of 2: 15000 fps, 2 of 5 flows, same duration, burst and batch");
}

static void cpulists(void)
{
	uint32_t c[8];
	char buf[64];
	int n = nb_cpulist_parse("0,2-4,7", c, 8);
	CHECK(n == 5 && c[0] == 0 && c[1] == 2 && c[3] == 4 && c[4] == 7, "0,2-4,7: 5 CPUs");
	nb_cpulist_format(c, (size_t)n, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0,2,3,4,7"), "formatted back: %s", buf);
	CHECK(nb_cpulist_parse("3", c, 8) == 1 && c[0] == 3, "a single CPU");
	CHECK(nb_cpulist_parse("", c, 8) == -EINVAL, "empty list refused");
	CHECK(nb_cpulist_parse("1,", c, 8) == -EINVAL, "trailing comma refused");
	CHECK(nb_cpulist_parse("3-1", c, 8) == -EINVAL, "backward range refused");
	CHECK(nb_cpulist_parse("a", c, 8) == -EINVAL, "letters refused");
	CHECK(nb_cpulist_parse("-1", c, 8) == -EINVAL, "negative refused");
	CHECK(nb_cpulist_parse("1024", c, 8) == -ERANGE, "CPU 1024 out of range");
	CHECK(nb_cpulist_parse("99999999999", c, 8) == -ERANGE, "huge number out of range");
	CHECK(nb_cpulist_parse("0-8", c, 8) == -E2BIG, "9 CPUs into 8 slots refused");
	CHECK(nb_cpulist_parse("1,1", c, 8) == -EEXIST, "a CPU twice refused");
	CHECK(nb_cpu_allowed(NB_CPULIST_MAX + 1) == -EINVAL, "CPU past the limit not allowed");
}

static void merge(void)
{
	struct nb_rx_snap *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)),
			  *sum = calloc(1, sizeof(*sum));
	a->any = b->any = true;
	a->trial = b->trial = 7;
	a->mmsg = b->mmsg = true;
	a->flows = 1;
	a->rx = a->rx_flow[0] = 10;
	a->seq_end[0] = 12;
	b->flows = 2;
	b->rx = b->rx_flow[1] = 20;
	b->seq_end[1] = 20;
	b->dup = 1;
	sum->mmsg = true;
	nb_rx_snap_merge(sum, a);
	nb_rx_snap_merge(sum, b);
	CHECK(sum->trial == 7 && sum->rx == 30 && sum->flows == 2 && sum->rx_flow[0] == 10 &&
		  sum->rx_flow[1] == 20 && sum->seq_end[0] == 12 && sum->dup == 1,
	      "two sockets of one trial add up per flow");
	b->trial = 8;
	memset(sum, 0, sizeof(*sum));
	nb_rx_snap_merge(sum, a);
	nb_rx_snap_merge(sum, b);
	CHECK(sum->trial == 8 && sum->rx == 20 && sum->rx_flow[0] == 0,
	      "a socket still on an older trial adds nothing to the newer one");
	free(a);
	free(b);
	free(sum);
}

static void limited(void)
{
	struct nb_rate_trial t[3];
	struct nb_rate_size a = {.first_trial = 0, .ntrials = 2},
			    b = {.first_trial = 2, .ntrials = 1};
	memset(t, 0, sizeof(t));
	t[2].rx_dropped = 1;
	CHECK(!nb_rate_receiver_limited(t, &a), "no socket drops: not receiver-limited");
	CHECK(nb_rate_receiver_limited(t, &b), "one frame dropped at the socket: receiver-limited");
}

/* Time for the receiving threads to read what is queued (emulated: much longer). */
static void settle(void)
{
	bool emulated = getenv("NB_EMULATED") != NULL;
	struct timespec ts = {emulated ? 1 : 0, emulated ? 0 : 200 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

/* Two generator threads, 4 flows, exactly 2001 frames paced at 20 kfps, into two receiving
 * sockets: every flow's count reconciles, the threads' shares are 1001 and 1000. */
static void loopback(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t alen = sizeof(a);
	struct nb_gen_cfg cfg;
	struct nb_gen_pool *pool = NULL;
	struct nb_gen_stats *st = calloc(1, sizeof(*st));
	struct nb_rx_snap *snap = calloc(1, sizeof(*snap));
	struct nb_trial_counts c;
	struct nb_rx *rx = NULL;
	char err[256] = "";
	int fds[2], n, probe = socket(AF_INET, SOCK_DGRAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (probe < 0 || bind(probe, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(probe, (struct sockaddr *)&a, &alen)) {
		tap_skip("no loopback UDP");
		goto out;
	}
	close(probe);
	n = nb_rx_bind_group((struct sockaddr *)&a, sizeof(a), 2, fds);
	CHECK(n == 2 || n == 1, "receiver group bound (%d sockets)", n);
	if (n < 1 || nb_rx_new_group(&rx, fds, (uint32_t)n, false) || nb_rx_start(rx))
		goto out;
	CHECK(nb_rx_sockets(rx) == (uint32_t)n, "one receiving thread per socket");

	memset(&cfg, 0, sizeof(cfg));
	memcpy(&cfg.dst, &a, sizeof(a));
	cfg.dst_len = sizeof(a);
	cfg.flows = 4;
	cfg.batch = 32;
	cfg.frame_max_bytes = 128;
	CHECK(nb_gen_pool_open(&pool, &nb_gen_udp, &cfg, 5, NULL, 0, err, sizeof(err)) == -EINVAL,
	      "5 threads for 4 flows refused: %s", err);
	CHECK(nb_gen_pool_open(&pool, &nb_gen_udp, &cfg, 2, NULL, 0, err, sizeof(err)) == 0,
	      "two-thread udp generator opens %s", err);
	if (!pool)
		goto out;
	CHECK(nb_gen_pool_prepare(pool, 64, 3, 0) == 0, "prepared for 64-byte frames");
	struct nb_gen_trial t = {.rate_fps = 20000, .frames = 2001, .flows = 4, .batch = 32};
	CHECK(nb_gen_pool_run(pool, &t, st) == 0, "trial ran");
	CHECK(st->tx_frames == 2001, "2001 frames sent in all (%llu)",
	      (unsigned long long)st->tx_frames);
	CHECK(nb_gen_pool_thread_stats(pool, 0)->tx_frames == 1001 &&
		  nb_gen_pool_thread_stats(pool, 1)->tx_frames == 1000,
	      "thread shares 1001 and 1000");
	CHECK(nb_gen_pool_thread_rate(pool, 0) == 10000 &&
		  nb_gen_pool_thread_rate(pool, 1) == 10000,
	      "each thread paced at 10 kfps");
	CHECK(st->tx_flow[0] + st->tx_flow[1] == 1001 && st->tx_flow[2] + st->tx_flow[3] == 1000,
	      "flows 0-1 belong to thread 0, flows 2-3 to thread 1");
	settle();
	nb_rx_snapshot(rx, snap);
	nb_rx_reconcile(st->tx_flow, 4, 3, snap, &c);
	CHECK(c.valid && c.tx == 2001 && c.rx + c.lost == c.tx && c.rx == 2001,
	      "per-flow reconciliation over two sockets: %llu sent, %llu received, %s",
	      (unsigned long long)c.tx, (unsigned long long)c.rx, c.valid ? "valid" : c.why);
	for (uint32_t f = 0; f < 4; f++)
		CHECK(snap->rx_flow[f] == st->tx_flow[f], "flow %u: %llu of %llu", f,
		      (unsigned long long)snap->rx_flow[f], (unsigned long long)st->tx_flow[f]);
out:
	nb_gen_pool_free(pool);
	nb_rx_free(rx);
	free(st);
	free(snap);
}

/* A receiver whose socket overflows: what the kernel dropped is counted as the receiver's. */
static void socket_drops(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t alen = sizeof(a);
	struct nb_rx *rx = NULL;
	struct nb_rx_snap *snap = calloc(1, sizeof(*snap));
	int rfd = socket(AF_INET, SOCK_DGRAM, 0), tfd = socket(AF_INET, SOCK_DGRAM, 0);
	int small = 1;
	uint8_t p[64] = {0};

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (rfd < 0 || tfd < 0 || bind(rfd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rfd, (struct sockaddr *)&a, &alen) ||
	    connect(tfd, (struct sockaddr *)&a, sizeof(a))) {
		tap_skip("no loopback UDP");
		goto out;
	}
	int fd = rfd;
	rfd = -1; /* the receiver owns it now, even when it fails */
	if (nb_rx_new(&rx, fd, false))
		goto out;
	/* The smallest buffer the kernel allows (it rounds up to a few KB), before the thread
	 * reads: most of 300 datagrams cannot be queued. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	for (uint32_t i = 0; i < 300; i++) {
		struct nb_payload pl = {.flow = 0, .trial = 5, .seq = i};
		nb_payload_put(p, &pl);
		(void)send(tfd, p, sizeof(p), 0);
	}
	if (nb_rx_start(rx))
		goto out;
	settle();
	/* Nothing was queued after the last drop: the counter is read, not carried. */
	nb_rx_snapshot(rx, snap);
	if (!snap->drops_known) {
		/* Kernels before 4.12, and qemu-user, which does not pass SO_MEMINFO. */
		tap_skip("socket drops: SO_MEMINFO not available here");
		goto out;
	}
	CHECK(snap->sock_drops > 0 && snap->rx + snap->sock_drops == 300,
	      "every datagram received or counted as dropped by the receiver: %llu + %llu of 300",
	      (unsigned long long)snap->rx, (unsigned long long)snap->sock_drops);
	/* The next trial starts from what the last snapshot saw. */
	struct nb_payload next = {.flow = 0, .trial = 6, .seq = 0};
	nb_payload_put(p, &next);
	(void)send(tfd, p, sizeof(p), 0);
	settle();
	nb_rx_snapshot(rx, snap);
	CHECK(snap->trial == 6 && snap->rx == 1 && snap->sock_drops == 0,
	      "the next trial has no drops of its own (%llu)",
	      (unsigned long long)snap->sock_drops);
out:
	if (rfd >= 0)
		close(rfd);
	if (tfd >= 0)
		close(tfd);
	nb_rx_free(rx);
	free(snap);
}

int main(void)
{
	split();
	cpulists();
	merge();
	limited();
	loopback();
	socket_drops();
	return tap_done();
}
