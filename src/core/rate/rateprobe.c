/* SPDX-License-Identifier: BSD-2-Clause */
/* The sender's end of reflected probes: a thread reading the returns with a 50 ms timeout (to
 * notice the stop flag), one mutex around the per-trial counts; returns are a few thousand per
 * second at most, so one recv per datagram is enough. */
#include "core/rate/rateprobe.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/rate/frame.h"
#include "core/base/timeutil.h"

struct nb_probe {
	int fd;
	uint16_t port;
	pthread_t thread;
	bool started;
	volatile int stop;
	pthread_mutex_t lock;
	struct nb_probe_snap cur;
};

void nb_probe_count(struct nb_probe_snap *s, const uint8_t *buf, size_t len, uint64_t now_ns)
{
	struct nb_payload pl;

	if (nb_reflect_get(buf, len, &pl) || !pl.probe) {
		s->foreign++;
		return;
	}
	if (pl.trial != s->trial) {
		s->stale++;
		return;
	}
	s->returned++;
	if (now_ns >= pl.tx_ns)
		nb_hist_add(&s->rtt, now_ns - pl.tx_ns);
}

static void *probe_main(void *arg)
{
	struct nb_probe *p = arg;
	uint8_t buf[64];

	while (!p->stop) {
		ssize_t n = recv(p->fd, buf, sizeof(buf), 0);
		uint64_t now = nb_mono_ns();
		if (n <= 0)
			continue; /* timeout: check the stop flag */
		pthread_mutex_lock(&p->lock);
		nb_probe_count(&p->cur, buf, (size_t)n, now);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

int nb_probe_new(struct nb_probe **out, int family)
{
	struct nb_probe *p = calloc(1, sizeof(*p));
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct timeval tv = {0, 50000};
	int ret;

	if (!p)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	nb_hist_reset(&p->cur.rtt);
	p->fd = socket(family == AF_INET6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->fd < 0) {
		ret = -errno;
		goto fail;
	}
	memset(&ss, 0, sizeof(ss));
	ss.ss_family = family == AF_INET6 ? AF_INET6 : AF_INET;
	if (bind(p->fd, (struct sockaddr *)&ss,
		 family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in)) <
		0 ||
	    getsockname(p->fd, (struct sockaddr *)&ss, &len) < 0) {
		ret = -errno;
		goto fail;
	}
	p->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
						 : ((struct sockaddr_in *)&ss)->sin_port);
	(void)setsockopt(p->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	*out = p;
	return 0;
fail:
	nb_probe_free(p);
	return ret;
}

uint16_t nb_probe_port(const struct nb_probe *p)
{
	return p->port;
}

int nb_probe_start(struct nb_probe *p)
{
	int ret = pthread_create(&p->thread, NULL, probe_main, p);
	if (ret)
		return -ret;
	p->started = true;
	return 0;
}

void nb_probe_trial(struct nb_probe *p, uint16_t trial)
{
	pthread_mutex_lock(&p->lock);
	memset(&p->cur, 0, sizeof(p->cur));
	nb_hist_reset(&p->cur.rtt);
	p->cur.trial = trial;
	pthread_mutex_unlock(&p->lock);
}

void nb_probe_snapshot(struct nb_probe *p, struct nb_probe_snap *s)
{
	pthread_mutex_lock(&p->lock);
	memcpy(s, &p->cur, sizeof(*s));
	pthread_mutex_unlock(&p->lock);
}

void nb_probe_free(struct nb_probe *p)
{
	if (!p)
		return;
	p->stop = 1;
	if (p->started)
		pthread_join(p->thread, NULL);
	if (p->fd >= 0)
		close(p->fd);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
