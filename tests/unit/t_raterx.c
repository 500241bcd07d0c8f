/* SPDX-License-Identifier: BSD-2-Clause */
/* The counting receiver over loopback: received, duplicated, reordered, late and foreign frames,
 * trial changes, a port range read by several threads; and its counters' encoding for the
 * control protocol, round trip. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/rate/frame.h"
#include "core/rate/rate_wire.h"
#include "core/rate/raterx.h"
#include "core/base/timeutil.h"
#include "tap.h"

static void send_one(int fd, uint16_t trial, uint16_t flow, uint32_t seq)
{
	uint8_t p[NB_PAYLOAD_MIN];
	struct nb_payload pl = {.flow = flow, .trial = trial, .seq = seq, .tx_ns = nb_mono_ns()};
	nb_payload_put(p, &pl);
	(void)send(fd, p, sizeof(p), 0);
}

/* A test frame of len bytes of payload (zero-padded after the header). */
static void send_len(int fd, uint16_t trial, uint32_t seq, size_t len)
{
	uint8_t p[1500] = {0};
	struct nb_payload pl = {.flow = 0, .trial = trial, .seq = seq, .tx_ns = nb_mono_ns()};
	nb_payload_put(p, &pl);
	(void)send(fd, p, len, 0);
}

static void settle(void)
{
	struct timespec ts = {0, 150 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

int main(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t alen = sizeof(a);
	struct nb_rx *rx = NULL;
	struct nb_rx_snap *s = calloc(1, sizeof(*s)), *back = calloc(1, sizeof(*back));
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	int rfd = socket(AF_INET, SOCK_DGRAM, 0), tfd = socket(AF_INET, SOCK_DGRAM, 0);
	static const uint32_t seqs[] = {0, 1, 2, 4, 3, 2, 5};

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!s || !back || !m || rfd < 0 || tfd < 0 || bind(rfd, (struct sockaddr *)&a, alen) ||
	    getsockname(rfd, (struct sockaddr *)&a, &alen) ||
	    connect(tfd, (struct sockaddr *)&a, alen)) {
		tap_skip("no loopback UDP here");
		return tap_done();
	}
	CHECK(nb_rx_new(&rx, rfd, false) == 0 && nb_rx_start(rx) == 0, "receiver starts");
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		send_one(tfd, 5, 0, seqs[i]);
	send_one(tfd, 5, 1, 0);
	send_one(tfd, 4, 0, 9);	   /* an earlier trial's frame: late */
	send_one(tfd, 5, 0, 5000); /* a gap: 4994 lost */
	send_one(tfd, 5, 0, 10);   /* too old for the window: late */
	(void)send(tfd, "hello, world, not a frame", 25, 0);
	settle();
	nb_rx_snapshot(rx, s);
	CHECK(s->any && s->trial == 5, "current trial is 5");
	CHECK(s->rx == 8, "8 distinct frames received (%llu)", (unsigned long long)s->rx);
	CHECK(s->dup == 1, "1 duplicate (%llu)", (unsigned long long)s->dup);
	CHECK(s->reordered == 1, "1 reordered (%llu)", (unsigned long long)s->reordered);
	CHECK(s->late == 2, "2 late: an earlier trial's, one beyond the window (%llu)",
	      (unsigned long long)s->late);
	CHECK(s->foreign == 1, "1 datagram without a test payload");
	CHECK(s->flows == 2 && s->rx_flow[0] == 7 && s->rx_flow[1] == 1 && s->seq_end[0] == 5001,
	      "per-flow counts and highest sequence");
	CHECK(s->lat.count == 8 && s->lat.max_ns < 5 * NB_NS_PER_S, "one latency sample per frame");

	struct nb_trial_counts c;
	uint64_t tx_flow[2] = {5001, 1};
	nb_rx_reconcile(tx_flow, 2, 5, s, &c);
	CHECK(c.valid && c.lost == 5002 - 8, "reconciled: %llu lost", (unsigned long long)c.lost);
	uint64_t rx_was = s->rx;
	s->rx = 5003; /* a peer's total beyond what was sent, its flows within */
	nb_rx_reconcile(tx_flow, 2, 5, s, &c);
	CHECK(!c.valid && strstr(c.why, "received 5003 frames, 5002 sent"),
	      "a total beyond what was sent is invalid, not a loss that wraps: %s", c.why);
	s->rx = rx_was;

	s->drops_known = true; /* (qemu-user does not pass SO_MEMINFO: set, to test the codec) */
	s->sock_drops = 17;
	CHECK(nb_rate_snap_put(m, s) == 0 && nb_rate_snap_get(m, back) == 0,
	      "counters encode and decode");
	CHECK(back->drops_known && back->sock_drops == 17,
	      "the receiver's socket drops are carried (%llu)",
	      (unsigned long long)back->sock_drops);
	CHECK(back->trial == s->trial && back->rx == s->rx && back->dup == s->dup &&
		  back->reordered == s->reordered && back->late == s->late &&
		  back->foreign == s->foreign && back->flows == s->flows &&
		  !memcmp(back->rx_flow, s->rx_flow, sizeof(s->rx_flow)) &&
		  !memcmp(back->seq_end, s->seq_end, sizeof(s->seq_end)) &&
		  !memcmp(&back->lat, &s->lat, sizeof(s->lat)),
	      "round trip keeps every counter and the histogram");
	m->len -= 3; /* truncate the last item: a malformed reply */
	CHECK(nb_rate_snap_get(m, back) != 0 || nb_msg_validate(m) != 0,
	      "a truncated reply is refused");

	send_one(tfd, 6, 0, 0);
	settle();
	nb_rx_snapshot(rx, s);
	CHECK(s->trial == 6 && s->rx == 1 && s->late == 0, "a new trial starts fresh counters");
	send_one(tfd, 5, 0, 6);
	settle();
	nb_rx_snapshot(rx, s);
	CHECK(s->trial == 6 && s->late == 1, "a frame of the previous trial is late");
	nb_rx_free(rx);
	close(tfd);

	/* A named trial (nb_rx_expect, as every trial of a run does): frames of any other trial
	 * never count as its own, also when their id is higher (an earlier run's, at the same
	 * port). A learning phase expects one id across rounds: its counts add up. */
	{
		struct nb_rx *ex = NULL;
		int fd = socket(AF_INET, SOCK_DGRAM, 0), t = socket(AF_INET, SOCK_DGRAM, 0);
		struct nb_trial_counts tc;
		uint64_t sent[1] = {3};
		a.sin_port = 0;
		alen = sizeof(a);
		if (fd >= 0 && t >= 0 && !bind(fd, (struct sockaddr *)&a, alen) &&
		    !getsockname(fd, (struct sockaddr *)&a, &alen) &&
		    !connect(t, (struct sockaddr *)&a, alen) && !nb_rx_new(&ex, fd, false) &&
		    !nb_rx_start(ex)) {
			nb_rx_expect(ex, 40);
			send_one(t, 40, 0, 0);
			send_one(t, 40, 0, 1);
			settle();
			nb_rx_expect(ex, 40); /* a second learning round, same id */
			send_one(t, 40, 0, 2);
			settle();
			nb_rx_snapshot(ex, s);
			CHECK(s->any && s->trial == 40 && s->rx == 3,
			      "expecting the same id again keeps counting (%llu of 3)",
			      (unsigned long long)s->rx);
			nb_rx_expect(ex, 41);
			send_one(t, 40, 0, 3);	/* the previous trial's, late */
			send_one(t, 900, 0, 0); /* a higher id: an earlier run's */
			send_one(t, 900, 0, 1);
			settle();
			nb_rx_snapshot(ex, s);
			CHECK(!s->any,
			      "trial 41: nothing of it arrived, nothing counted as its own");
			nb_rx_reconcile(sent, 1, 41, s, &tc);
			CHECK(tc.valid && tc.rx == 0 && tc.lost == 3,
			      "trial 41 reconciles as all lost, not as frames of 40 or 900");
			send_one(t, 41, 0, 0);
			send_one(t, 41, 0, 2);
			send_one(t, 40, 0, 4); /* late again, while 41's own arrive */
			settle();
			nb_rx_snapshot(ex, s);
			CHECK(s->any && s->trial == 41 && s->rx == 2 && s->late == 4 &&
				  s->rx_flow[0] == 2 && s->seq_end[0] == 3,
			      "trial 41 counts its 2 frames; 4 of trials 40 and 900 are late "
			      "(rx %llu, late %llu)",
			      (unsigned long long)s->rx, (unsigned long long)s->late);
			nb_rx_reconcile(sent, 1, 41, s, &tc);
			CHECK(tc.valid && tc.rx == 2 && tc.lost == 1 && tc.late == 4,
			      "reconciled: 2 received, 1 lost, 4 late");
			/* Counts by payload length (IMIX): the whole datagram's length, though
			 * only its header is read; a duplicate is not counted twice. */
			nb_rx_expect(ex, 42);
			send_len(t, 42, 0, 18);
			send_len(t, 42, 1, 528);
			send_len(t, 42, 2, 1476);
			send_len(t, 42, 3, 528);
			send_len(t, 42, 3, 528);
			settle();
			nb_rx_snapshot(ex, s);
			CHECK(s->lens_known && s->nlens == 3 && s->len_bytes[0] == 18 &&
				  s->len_rx[0] == 1 && s->len_bytes[1] == 528 &&
				  s->len_rx[1] == 2 && s->len_bytes[2] == 1476 &&
				  s->len_rx[2] == 1 && s->dup == 1,
			      "counted by length: 18 x1, 528 x2, 1476 x1 (a duplicate once)");
			nb_msg_reset(m, NB_MSG_FINAL);
			CHECK(nb_rate_snap_put(m, s) == 0 && nb_rate_snap_get(m, back) == 0 &&
				  back->lens_known && back->nlens == 3 &&
				  !memcmp(back->len_bytes, s->len_bytes, sizeof(s->len_bytes)) &&
				  !memcmp(back->len_rx, s->len_rx, sizeof(s->len_rx)),
			      "counts by length cross the control protocol");
		} else {
			tap_skip("cannot build the expecting receiver");
		}
		nb_rx_free(ex);
		if (t >= 0)
			close(t);
	}

	/* A receiver that does not read, with the smallest buffer: the kernel drops, the
	 * snapshot counts it. */
	{
		struct nb_rx *slow = NULL;
		int fd = socket(AF_INET, SOCK_DGRAM, 0), t = socket(AF_INET, SOCK_DGRAM, 0);
		a.sin_port = 0;
		alen = sizeof(a);
		if (fd >= 0 && t >= 0 && !bind(fd, (struct sockaddr *)&a, alen) &&
		    !getsockname(fd, (struct sockaddr *)&a, &alen) &&
		    !connect(t, (struct sockaddr *)&a, alen) && !nb_rx_new(&slow, fd, false) &&
		    !nb_rx_set_rcvbuf(slow, 1)) {
			for (int i = 0; i < 200; i++)
				send_one(t, 1, 0, (uint32_t)i);
			nb_rx_snapshot(slow, s);
			if (!s->drops_known)
				tap_skip("SO_MEMINFO is not passed here (qemu-user, Linux < 4.12)");
			else
				CHECK(s->sock_drops > 100,
				      "a full receive buffer's drops are counted (%llu of 200)",
				      (unsigned long long)s->sock_drops);
		} else {
			tap_skip("cannot build the slow receiver");
		}
		nb_rx_free(slow);
		if (t >= 0)
			close(t);
	}
	{
		/* A port range (flows by destination port): 40 ports from a free one, read by
		 * three threads through epoll; flow f's frames to port + f all counted, in their
		 * flow, and no port shared with a socket that holds one of them. */
		struct nb_rx *pr = NULL;
		int fds[40], t = socket(AF_INET, SOCK_DGRAM, 0), squat = -1, n = -1;
		struct sockaddr_in pa = a;
		for (uint16_t base = 47000; base < 60000 && n < 0; base += 97) {
			pa.sin_port = htons(base);
			n = nb_rx_bind_ports((struct sockaddr *)&pa, 40, fds);
		}
		if (n == 40 && t >= 0 && !nb_rx_new_ports(&pr, fds, 40, 3, false) &&
		    !nb_rx_start(pr)) {
			uint16_t base = ntohs(pa.sin_port);
			nb_rx_expect(pr, 9);
			for (uint16_t f = 0; f < 40; f++) {
				struct sockaddr_in to = pa;
				to.sin_port = htons((uint16_t)(base + f));
				connect(t, (struct sockaddr *)&to, sizeof(to));
				for (uint32_t q = 0; q <= f % 5; q++)
					send_one(t, 9, f, q);
			}
			settle();
			nb_rx_snapshot(pr, s);
			bool each = s->flows == 40;
			for (uint16_t f = 0; f < 40 && each; f++)
				each = s->rx_flow[f] == f % 5 + 1u && s->seq_end[f] == f % 5 + 1u;
			CHECK(nb_rx_sockets(pr) == 3 && s->rx == 120 && each && !s->foreign,
			      "40 ports, 3 threads: every flow's frames counted (%llu of 120)",
			      (unsigned long long)s->rx);
			squat = socket(AF_INET, SOCK_DGRAM, 0);
			pa.sin_port = htons((uint16_t)(base + 50));
			if (squat >= 0 && !bind(squat, (struct sockaddr *)&pa, sizeof(pa))) {
				int more[60];
				pa.sin_port = htons((uint16_t)(base + 40));
				CHECK(nb_rx_bind_ports((struct sockaddr *)&pa, 60, more) ==
					  -EADDRINUSE,
				      "a range holding a port another socket has is refused");
			}
		} else {
			tap_skip("cannot bind 40 ports on loopback");
		}
		pa.sin_port = htons(65500);
		CHECK(nb_rx_bind_ports((struct sockaddr *)&pa, 37, fds) == -EINVAL,
		      "a range past port 65535 is refused");
		nb_rx_free(pr);
		if (squat >= 0)
			close(squat);
		if (t >= 0)
			close(t);
	}
	{
		/* 65,536 flows: the flow id's top bit is the flow's where no probes come. */
		struct nb_rx *wr = NULL;
		int fd = socket(AF_INET, SOCK_DGRAM, 0), t = socket(AF_INET, SOCK_DGRAM, 0);
		a.sin_port = 0;
		alen = sizeof(a);
		if (fd >= 0 && t >= 0 && !bind(fd, (struct sockaddr *)&a, alen) &&
		    !getsockname(fd, (struct sockaddr *)&a, &alen) &&
		    !connect(t, (struct sockaddr *)&a, alen) && !nb_rx_new(&wr, fd, false)) {
			CHECK(nb_rx_set_flows(wr, 65537, true) == -EINVAL &&
				  nb_rx_set_flows(wr, 40000, false) == -EINVAL,
			      "more than 65536 flows, or past 32768 with probes, refused");
			CHECK(nb_rx_set_flows(wr, 65536, true) == 0 && nb_rx_start(wr) == 0,
			      "a receiver of 65536 flows starts");
			nb_rx_expect(wr, 4);
			send_one(t, 4, 40000, 0);
			send_one(t, 4, 65535, 0);
			send_one(t, 4, 65535, 1);
			settle();
			nb_rx_snapshot(wr, s);
			CHECK(s->rx == 3 && s->flows == 65536 && s->rx_flow[40000] == 1 &&
				  s->rx_flow[65535] == 2 && !s->probes,
			      "flows 40000 and 65535 counted as themselves, no probe");
		} else {
			tap_skip("cannot build the wide receiver");
		}
		nb_rx_free(wr);
		if (t >= 0)
			close(t);
	}
	{
		/* Past 1024 flows the counts travel as runs of equal counts: 65,536 flows of a
		 * paced trial fit one reply; counts too varied to fit are refused, not cut. */
		memset(s, 0, sizeof(*s));
		s->any = true;
		s->trial = 2;
		s->flows = 65536;
		for (uint32_t f = 0; f < 65536; f++) {
			s->rx_flow[f] = f < 30000 ? 20 - (f % 97 == 0) : f < 40000 ? 160 : 0;
			s->seq_end[f] = f < 30000 ? 20 : f < 40000 ? 160 : 0;
		}
		nb_msg_reset(m, NB_MSG_FINAL);
		int put = nb_rate_snap_put(m, s);
		bool same = put == 0 && nb_rate_snap_get(m, back) == 0 && back->flows == 65536;
		for (uint32_t f = 0; same && f < 65536; f++)
			same =
			    back->rx_flow[f] == s->rx_flow[f] && back->seq_end[f] == s->seq_end[f];
		CHECK(same, "65536 flows' counts as runs, read back whole (put %d)", put);
		for (uint32_t f = 0; f < 65536; f++)
			s->rx_flow[f] = s->seq_end[f] = 1000000 + f;
		nb_msg_reset(m, NB_MSG_FINAL);
		CHECK(nb_rate_snap_put(m, s) == -EMSGSIZE,
		      "65536 distinct counts do not fit one reply: refused");
	}
	nb_msg_free(m);
	free(s);
	free(back);
	return tap_done();
}
