/* SPDX-License-Identifier: BSD-2-Clause */
/* For bench/tput-vs-iperf3 RX_DELAY_NS=N: an LD_PRELOAD library that spins N nanoseconds of CPU
 * after every read() or recv() that returns data from a TCP socket, in both tools alike. It makes
 * each receiver a fixed amount dearer per call, which shows what decides the veth rows at small
 * blocks (bench/README.md, "veth 1k: what decides the mode"). Built by the bench script; not part
 * of netbench. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { FD_CACHE = 4096, UNKNOWN = 0, TCP = 1, OTHER = 2 };
static _Atomic unsigned char kind[FD_CACHE]; /* the threads of one tool share it */

static int is_tcp(int fd)
{
	int type = 0, proto = 0;
	socklen_t tl = sizeof(type), pl = sizeof(proto);
	if (fd < 0 || fd >= FD_CACHE)
		return 0;
	if (kind[fd] == UNKNOWN)
		kind[fd] = getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) == 0 &&
				   type == SOCK_STREAM &&
				   getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &pl) == 0 &&
				   proto == IPPROTO_TCP
			       ? TCP
			       : OTHER;
	return kind[fd] == TCP;
}

static void spin(int fd, ssize_t n)
{
	static long delay_ns = -1;
	struct timespec a, b;
	if (delay_ns < 0) {
		const char *v = getenv("NB_RX_DELAY_NS");
		delay_ns = v ? atol(v) : 0;
	}
	if (n <= 0 || delay_ns <= 0 || !is_tcp(fd))
		return;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < delay_ns);
}

ssize_t read(int fd, void *buf, size_t len)
{
	static ssize_t (*real)(int, void *, size_t);
	ssize_t n;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "read");
	n = real(fd, buf, len);
	spin(fd, n);
	return n;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	static ssize_t (*real)(int, void *, size_t, int);
	ssize_t n;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "recv");
	n = real(fd, buf, len, flags);
	spin(fd, n);
	return n;
}

/* A descriptor number is reused after close(): forget what it was. */
int close(int fd)
{
	static int (*real)(int);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < FD_CACHE)
		kind[fd] = UNKNOWN;
	return real(fd);
}
