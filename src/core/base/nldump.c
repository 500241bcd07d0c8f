/* SPDX-License-Identifier: BSD-2-Clause */
/* The rtnetlink dump every reader shares: the request, the receive loop with its timeout and
 * round limit, and the walk over a datagram's messages (done, error, truncation). */
#include "core/base/nldump.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#define DUMP_BUF_BYTES	32768
#define DUMP_MAX_ROUNDS 4096
#define DUMP_BODY_MAX	64

int nb_nl_socket(void)
{
	struct timeval tv = {.tv_sec = 1};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

int nb_nl_dump(uint16_t type, const void *body, size_t body_len, nb_nl_chunk_fn chunk, void *arg)
{
	struct {
		struct nlmsghdr nh;
		unsigned char body[DUMP_BODY_MAX];
	} req;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	char *buf;
	int fd, ret = 0, rounds;

	if (body_len > sizeof(req.body))
		return -EINVAL;
	if (!(buf = malloc(DUMP_BUF_BYTES)))
		return -ENOMEM;
	fd = nb_nl_socket();
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(body_len);
	req.nh.nlmsg_type = type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = 1;
	memcpy(req.body, body, body_len);
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		goto out;
	}
	for (rounds = 0; ret == 0 && rounds < DUMP_MAX_ROUNDS; rounds++) {
		ssize_t n = recv(fd, buf, DUMP_BUF_BYTES, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0) {
			ret = -EIO;
			break;
		}
		ret = chunk(arg, buf, (size_t)n);
	}
	if (ret == 0) /* the rounds ran out before the end */
		ret = -EIO;
	if (ret > 0)
		ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

int nb_nl_walk(const void *buf, size_t len, uint16_t type, size_t hdr_len, nb_nl_msg_fn msg,
	       void *arg)
{
	const struct nlmsghdr *h = buf;

	for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			return e->error ? (e->error < 0 ? e->error : -e->error) : 1;
		}
		if (h->nlmsg_type != type)
			continue;
		if (h->nlmsg_len < NLMSG_LENGTH(hdr_len))
			return -EBADMSG;
		const char *hdr = NLMSG_DATA(h);
		int ret =
		    msg(arg, hdr, hdr + NLMSG_ALIGN(hdr_len), h->nlmsg_len - NLMSG_LENGTH(hdr_len));
		if (ret)
			return ret;
	}
	if (len)
		return -EBADMSG; /* a truncated message */
	return 0;
}
