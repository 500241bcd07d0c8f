/* SPDX-License-Identifier: BSD-2-Clause */
/* UDP sequence tracking (loss, reordering, duplicates) and the agent's admission of data
 * connections; then a real TCP and UDP side pair over loopback. The wire codec: t_tput_wire.c. */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/net.h"
#include "core/base/timeutil.h"
#include "core/tput/tput.h"
#include "core/tput/tput_plan.h"
#include "tap.h"

/* A slow sender, as a receiver on an emulated board sees it: 1 KiB every 100 ms for 2 s, then
 * the end of the stream. */
static void *trickle(void *arg)
{
	int fd = *(int *)arg;
	char b[1024] = {0};
	for (int i = 0; i < 20; i++) {
		if (send(fd, b, sizeof(b), MSG_NOSIGNAL) != (ssize_t)sizeof(b))
			break;
		nb_sleep_until_ns(nb_mono_ns() + 100 * NB_NS_PER_MS);
	}
	shutdown(fd, SHUT_WR);
	return NULL;
}

static void feed(struct nb_seq_track *t, const uint64_t *seq, size_t n)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++)
		nb_seq_track_add(t, seq[i]);
}

int main(void)
{
	struct nb_seq_track *t = calloc(1, sizeof(*t));
	static const uint64_t in_order[] = {0, 1, 2, 3, 4};
	static const uint64_t lost[] = {0, 1, 4, 5};
	static const uint64_t reord[] = {0, 2, 1, 3};
	static const uint64_t dup[] = {0, 1, 1, 2, 0};

	feed(t, in_order, 5);
	CHECK(t->highest_plus1 == 5 && t->unique == 5 && !t->reordered && !t->duplicates,
	      "in order: 5 of 5");
	feed(t, lost, 4);
	CHECK(t->highest_plus1 - t->unique == 2 && !t->reordered, "two lost");
	feed(t, reord, 4);
	CHECK(t->highest_plus1 == 4 && t->unique == 4 && t->reordered == 1,
	      "one reordered, none lost");
	feed(t, dup, 5);
	CHECK(t->unique == 3 && t->duplicates == 2, "two duplicates");
	memset(t, 0, sizeof(*t));
	nb_seq_track_add(t, 0);
	nb_seq_track_add(t, 100000);
	nb_seq_track_add(t, 0);
	CHECK(t->duplicates == 0 && t->reordered == 1,
	      "beyond the window a late datagram is counted late, not duplicate");
	memset(t, 0, sizeof(*t));
	nb_seq_track_add(t, 5000);
	nb_seq_track_add(t, 5000 + NB_TPUT_DUP_WINDOW);
	nb_seq_track_add(t, 5000 + NB_TPUT_DUP_WINDOW);
	CHECK(t->duplicates == 1, "a window-sized jump clears the window but keeps the new seq");

	/* The agent's data connections: one per stream and planned direction, no more. */
	{
		uint64_t seen[2] = {0, 0};
		char err[256];
		CHECK(nb_tput_conn_admit(2, 3, seen, 0, NB_TPUT_DIR_RX, err, sizeof(err)) == 0 &&
			  nb_tput_conn_admit(2, 3, seen, 1, NB_TPUT_DIR_RX, err, sizeof(err)) ==
			      0 &&
			  nb_tput_conn_admit(2, 3, seen, 0, NB_TPUT_DIR_TX, err, sizeof(err)) == 0,
		      "both directions, 2 streams: stream 0 and 1 sending, stream 0 receiving");
		CHECK(nb_tput_conn_admit(2, 3, seen, 1, NB_TPUT_DIR_RX, err, sizeof(err)) ==
			      -EPERM &&
			  strstr(err, "second data connection for stream 1") &&
			  strstr(err, "the agent sends"),
		      "a second 'agent sends' connection for stream 1 is refused, named");
		CHECK(seen[1] == 3 && seen[0] == 1, "the refusal marks nothing");
		CHECK(nb_tput_conn_admit(2, 3, seen, 2, NB_TPUT_DIR_TX, err, sizeof(err)) ==
			      -EPERM &&
			  strstr(err, "stream the test did not ask for"),
		      "stream index 2 of 2 streams is refused");
		CHECK(nb_tput_conn_admit(2, 3, seen, 1, 3, err, sizeof(err)) == -EPERM &&
			  strstr(err, "no single direction"),
		      "a connection claiming both directions is refused");
		CHECK(nb_tput_conn_admit(2, 3, seen, 1, NB_TPUT_DIR_TX, err, sizeof(err)) == 0,
		      "stream 1 receiving completes the plan");
		memset(seen, 0, sizeof(seen));
		CHECK(nb_tput_conn_admit(1, NB_TPUT_DIR_TX, seen, 0, NB_TPUT_DIR_RX, err,
					 sizeof(err)) == -EPERM &&
			  strstr(err, "direction the test did not ask for"),
		      "an 'agent sends' connection in a test where the agent only receives");
		memset(seen, 0, sizeof(seen));
		CHECK(nb_tput_conn_admit(32, NB_TPUT_DIR_RX, seen, 31, NB_TPUT_DIR_RX, err,
					 sizeof(err)) == 0 &&
			  seen[1] == 1ULL << 31,
		      "stream 31 of 32: the highest index has its bit");
	}

	/* TCP over loopback: every byte sent arrives, counted at both ends. */
	struct sockaddr_in lo = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int lfd = nb_net_bind_like((struct sockaddr *)&lo, SOCK_STREAM, 0);
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	getsockname(lfd, (struct sockaddr *)&ss, &len);
	int cfd = nb_net_connect_addr((struct sockaddr *)&ss, len, SOCK_STREAM, 1000);
	int afd = accept(lfd, NULL, NULL);
	struct nb_tput_side *tx =
	    nb_tput_side_new(NB_TPUT_TCP, NB_TPUT_SEND, 4096, 0, nb_mono_ns() + 10 * NB_NS_PER_S);
	struct nb_tput_side *rx = nb_tput_side_new(NB_TPUT_TCP, NB_TPUT_RECV, 4096, 0, 0);
	struct nb_tput_counters ct, cr;
	CHECK(cfd >= 0 && afd >= 0 && tx && rx, "loopback TCP pair");
	nb_tput_side_add(tx, cfd, 0);
	nb_tput_side_add(rx, afd, 0);
	nb_tput_side_start(rx);
	nb_tput_side_start(tx);
	nb_sleep_until_ns(nb_mono_ns() + 200 * NB_NS_PER_MS);
	nb_tput_side_stop(tx, 0);
	CHECK(nb_tput_side_stop(rx, 2 * NB_NS_PER_S) == 0, "receiver saw the end of the stream");
	nb_tput_side_read(tx, &ct);
	nb_tput_side_read(rx, &cr);
	CHECK(ct.bytes > 0 && ct.bytes == cr.bytes, "TCP: %llu sent, %llu received",
	      (unsigned long long)ct.bytes, (unsigned long long)cr.bytes);
	nb_tput_side_free(tx);
	nb_tput_side_free(rx);

	/* Bytes a TCP sender wrote that its peer has not acknowledged: a peer that does not read
	 * holds them once its receive buffer is full; read, they are acknowledged. */
	cfd = nb_net_connect_addr((struct sockaddr *)&ss, len, SOCK_STREAM, 1000);
	afd = accept(lfd, NULL, NULL);
	tx = nb_tput_side_new(NB_TPUT_TCP, NB_TPUT_SEND, 4096, 0, nb_mono_ns() + NB_NS_PER_S);
	nb_tput_side_add(tx, cfd, 0);
	{
		static char b[65536];
		uint64_t wrote = 0, got = 0, left = 0;
		ssize_t k;
		while ((k = send(cfd, b, sizeof(b), MSG_DONTWAIT | MSG_NOSIGNAL)) > 0)
			wrote += (uint64_t)k;
		nb_sleep_until_ns(nb_mono_ns() + 50 * NB_NS_PER_MS);
		left = nb_tput_side_unacked(tx);
		CHECK(wrote > 0 && left > 0 && left <= wrote,
		      "unacknowledged: %llu of %llu bytes while the peer does not read",
		      (unsigned long long)left, (unsigned long long)wrote);
		for (uint64_t until = nb_mono_ns() + 5 * NB_NS_PER_S;
		     got < wrote && nb_mono_ns() < until;)
			if ((k = recv(afd, b, sizeof(b), MSG_DONTWAIT)) > 0)
				got += (uint64_t)k;
			else
				nb_sleep_until_ns(nb_mono_ns() + NB_NS_PER_MS);
		for (uint64_t until = nb_mono_ns() + 2 * NB_NS_PER_S;
		     (left = nb_tput_side_unacked(tx)) && nb_mono_ns() < until;)
			nb_sleep_until_ns(nb_mono_ns() + NB_NS_PER_MS);
		CHECK(got == wrote && left == 0, "all read: nothing unacknowledged (%llu)",
		      (unsigned long long)left);
	}
	nb_tput_side_free(tx);
	close(afd);

	/* After STOP a receiver drains. A peer still sending 2 s later (a slow board's backlog):
	 * a fixed 0.9 s cuts it off; draining while bytes still arrive reaches its end. */
	for (int slow = 0; slow < 2; slow++) {
		pthread_t th;
		cfd = nb_net_connect_addr((struct sockaddr *)&ss, len, SOCK_STREAM, 1000);
		afd = accept(lfd, NULL, NULL);
		rx = nb_tput_side_new(NB_TPUT_TCP, NB_TPUT_RECV, 4096, 0, 0);
		nb_tput_side_add(rx, afd, 0);
		nb_tput_side_start(rx);
		pthread_create(&th, NULL, trickle, &cfd);
		nb_sleep_until_ns(nb_mono_ns() + 100 * NB_NS_PER_MS);
		uint64_t t0 = nb_mono_ns();
		int ret = slow ? nb_tput_side_stop_slow(rx, 900 * NB_NS_PER_MS, 5 * NB_NS_PER_S)
			       : nb_tput_side_stop(rx, 900 * NB_NS_PER_MS);
		double took = (double)(nb_mono_ns() - t0) / 1e9;
		pthread_join(th, NULL);
		nb_tput_side_read(rx, &cr);
		if (slow)
			CHECK(
			    ret == 0 && cr.bytes == 20 * 1024 && took > 1.0 && took < 5.5,
			    "drain while bytes arrive: the whole 20 KiB, its end seen after %.1f s "
			    "(%llu bytes)",
			    took, (unsigned long long)cr.bytes);
		else
			CHECK(ret == -ETIMEDOUT && cr.bytes < 20 * 1024 && took < 1.9,
			      "fixed 0.9 s drain: cut off after %.1f s with %llu of 20480 bytes",
			      took, (unsigned long long)cr.bytes);
		nb_tput_side_free(rx);
		close(cfd);
	}
	close(lfd);

	/* UDP paced at 8 Mbit/s for 0.5 s: about 488 datagrams of 1 KiB, none lost. */
	int ufd = nb_net_bind_like((struct sockaddr *)&lo, SOCK_DGRAM, 0);
	len = sizeof(ss);
	getsockname(ufd, (struct sockaddr *)&ss, &len);
	int sfd = nb_net_connect_addr((struct sockaddr *)&ss, len, SOCK_DGRAM, 1000);
	uint64_t start = nb_mono_ns(), stop_ns;
	tx = nb_tput_side_new(NB_TPUT_UDP, NB_TPUT_SEND, 1024, 8000000, start + 10 * NB_NS_PER_S);
	rx = nb_tput_side_new(NB_TPUT_UDP, NB_TPUT_RECV, 1024, 0, 0);
	nb_tput_side_add(tx, sfd, 3);
	nb_tput_side_add(rx, ufd, 0);
	nb_tput_side_start(rx);
	nb_tput_side_start(tx);
	start = nb_mono_ns();
	nb_sleep_until_ns(start + NB_NS_PER_S / 2);
	nb_tput_side_stop(tx, 0);
	stop_ns = nb_mono_ns();
	nb_tput_side_stop(rx, NB_NS_PER_S);
	nb_tput_side_read(tx, &ct);
	nb_tput_side_read(rx, &cr);
	/* 8 Mbit/s of 1 KiB datagrams is 976.6/s. Never faster than asked; slower only when this
	 * (possibly emulated, possibly loaded) machine starves the thread. */
	double ideal = (double)(stop_ns - start) / 1e9 * 8e6 / 8192.0;
	CHECK(ct.datagrams <= ideal * 1.01 + 2 && ct.datagrams >= ideal * 0.5,
	      "paced: %llu datagrams where %.0f were due", (unsigned long long)ct.datagrams, ideal);
	CHECK(cr.unique <= ct.datagrams && cr.expected <= ct.datagrams && cr.duplicates == 0 &&
		  cr.unique >= ct.datagrams * 9 / 10,
	      "UDP: %llu sent, %llu received, highest %llu", (unsigned long long)ct.datagrams,
	      (unsigned long long)cr.unique, (unsigned long long)cr.expected);
	nb_tput_side_free(tx);
	nb_tput_side_free(rx);
	nb_tput_side_free(NULL);
	free(t);
	return tap_done();
}
