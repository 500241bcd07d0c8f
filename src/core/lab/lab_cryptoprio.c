/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel crypto API's choice of driver, changed through the crypto_user netlink interface
 * (CRYPTO_MSG_UPDATEALG, CONFIG_CRYPTO_USER): a driver's priority decides which implementation
 * a new transform (an IPsec SA) gets. Global to the kernel, not per namespace: the lab records
 * the old priority and restores it on `lab down`. */
#include "core/lab/lab_cryptoprio.h"

#include <errno.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/base/crypto_proc.h"

#ifndef NETLINK_CRYPTO
#define NETLINK_CRYPTO 21
#endif
/* <linux/cryptouser.h>, not in every libc's kernel headers: the parts used here. */
#define NB_CRYPTO_MSG_UPDATEALG	   0x12 /* NEWALG 0x10, DELALG, UPDATEALG, GETALG */
#define NB_CRYPTOCFGA_PRIORITY_VAL 1
#define NB_CRYPTO_MAX_NAME	   64

struct nb_crypto_user_alg {
	char cru_name[NB_CRYPTO_MAX_NAME];
	char cru_driver_name[NB_CRYPTO_MAX_NAME];
	char cru_module_name[NB_CRYPTO_MAX_NAME];
	uint32_t cru_type, cru_mask, cru_refcnt, cru_flags;
};

int nb_crypto_user_update(const char *driver, int priority, char *why, size_t len)
{
	struct {
		struct nlmsghdr nh;
		struct nb_crypto_user_alg alg;
		struct nlattr attr;
		uint32_t prio;
	} req;
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	int fd = -1, ret;

	if (strlen(driver) >= NB_CRYPTO_MAX_NAME) {
		snprintf(why, len, "driver name longer than %d bytes: %.63s...",
			 NB_CRYPTO_MAX_NAME - 1, driver);
		return -EINVAL;
	}
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = priority >= 0 ? sizeof(req) : NLMSG_LENGTH(sizeof(req.alg));
	req.nh.nlmsg_type = NB_CRYPTO_MSG_UPDATEALG;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = 1;
	snprintf(req.alg.cru_driver_name, sizeof(req.alg.cru_driver_name), "%s", driver);
	req.attr.nla_len = NLA_HDRLEN + sizeof(uint32_t);
	req.attr.nla_type = NB_CRYPTOCFGA_PRIORITY_VAL;
	req.prio = (uint32_t)priority;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_CRYPTO);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, len,
			 "the kernel has no crypto_user netlink interface (CONFIG_CRYPTO_USER, "
			 "module crypto_user): %s",
			 strerror(errno));
		goto out;
	}
	struct timeval tv = {2, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		snprintf(why, len, "crypto_user: send: %s", strerror(errno));
		goto out;
	}
	ssize_t n = recv(fd, &ack, sizeof(ack), 0);
	if (n < (ssize_t)sizeof(ack) || ack.nh.nlmsg_type != NLMSG_ERROR) {
		ret = n < 0 ? -errno : -EPROTO;
		snprintf(why, len, "crypto_user: no answer to CRYPTO_MSG_UPDATEALG: %s",
			 strerror(-ret));
		goto out;
	}
	ret = ack.err.error;
	if (ret)
		snprintf(why, len, "crypto_user: CRYPTO_MSG_UPDATEALG %.63s: %s", driver,
			 ret == -ENOENT ? "no such driver registered (see /proc/crypto)"
					: strerror(-ret));
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Instantiates a template driver (cbc(aes-generic)) so that it is registered and can be
 * raised; a no-op for a driver that already is. Binding is what instantiates. */
static void instantiate(const char *driver)
{
	static const char *const types[] = {"skcipher", "aead", "hash"};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		nb_proc_crypto_instantiate(types[i], driver);
}

int nb_crypto_driver_raise(const char *driver, const char *const *algos, struct nb_crypto_raise *r,
			   char *why, size_t len)
{
	struct nb_crypto_driver drv, best = {0};
	int ret;

	memset(r, 0, sizeof(*r));
	instantiate(driver);
	if (nb_proc_crypto_lookup(NULL, NULL, driver, &drv)) {
		snprintf(why, len,
			 "this kernel has no driver %.63s (see the driver lines of /proc/crypto)",
			 driver);
		return -ENOENT;
	}
	snprintf(r->name, sizeof(r->name), "%s", drv.name);
	r->old_priority = r->priority = drv.priority;
	if (algos) {
		size_t i, used = 0;
		for (i = 0; algos[i] && strcmp(algos[i], drv.name); i++)
			;
		if (!algos[i]) {
			used = (size_t)snprintf(why, len,
						"driver %.63s implements %.63s, which the SA's "
						"transform does not use (it uses",
						driver, drv.name);
			for (i = 0; algos[i] && used < len; i++)
				used += (size_t)snprintf(why + used, len - used, " %s", algos[i]);
			if (used < len)
				snprintf(why + used, len - used, ")");
			return -EINVAL;
		}
	}
	/* Above every other implementation of the same algorithm. */
	if (!nb_proc_crypto_lookup(NULL, drv.name, NULL, &best) && best.priority >= drv.priority &&
	    strcmp(best.driver, drv.driver)) {
		r->priority = best.priority + 1;
		snprintf(r->former, sizeof(r->former), "%s", best.driver);
	}
	ret = nb_crypto_user_update(driver, r->priority, why, len);
	if (ret)
		return ret;
	/* The former choice may carry template instances (authenc(...) over it) that a new SA
	 * would reuse: updating it drops them, its priority unchanged. */
	if (r->former[0]) {
		char ignored[200];
		nb_crypto_user_update(r->former, best.priority, ignored, sizeof(ignored));
	}
	return 0;
}
