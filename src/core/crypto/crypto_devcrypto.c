/* SPDX-License-Identifier: BSD-2-Clause */
/* The devcrypto engine: /dev/crypto (cryptodev-linux), the path by which OpenSSL's devcrypto
 * engine and IPsec stacks reach hardware crypto on embedded SoCs. One ioctl per request (two
 * for CBC+HMAC, see compat_cryptodev.h); the module reports which kernel driver serves each
 * session. */
#include "core/crypto/crypto_kernel.h"
#include "core/base/crypto_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define DEV_PATH "/dev/crypto"

struct dc_sess {
	const struct nb_crypto_algo *a;
	int fd;
	uint32_t ses[2]; /* cipher, mac */
	bool have[2];
};

int nb_cryptodev_session_fill(const struct nb_crypto_algo *a, const struct nb_crypto_keys *k,
			      bool mac_half, struct nb_cryptodev_session_op *s)
{
	memset(s, 0, sizeof(*s));
	if (mac_half) {
		if (a->kind != NB_CRYPTO_MAC && a->kind != NB_CRYPTO_CIPHER_MAC)
			return -ENOENT;
		s->mac = a->tag_len == 32 ? NB_CRYPTODEV_SHA2_256_HMAC : NB_CRYPTODEV_SHA1_HMAC;
		s->mackeylen = k->mac_key_len;
		s->mackey = (uint8_t *)k->mac_key;
		return 0;
	}
	if (a->kind == NB_CRYPTO_MAC)
		return -ENOENT;
	if (a->kind == NB_CRYPTO_AEAD) {
		if (strncmp(a->name, "aes-", 4))
			return -EOPNOTSUPP; /* no ChaCha20-Poly1305 in cryptodev */
		s->cipher = NB_CRYPTODEV_AES_GCM;
	} else {
		s->cipher = NB_CRYPTODEV_AES_CBC;
	}
	s->keylen = k->key_len;
	s->key = (uint8_t *)k->key;
	return 0;
}

void nb_cryptodev_crypt_fill(const struct nb_crypto_algo *a, uint32_t ses, bool mac_half,
			     const struct nb_crypto_req *r, const uint8_t *in,
			     struct nb_cryptodev_crypt_op *op)
{
	memset(op, 0, sizeof(*op));
	op->ses = ses;
	op->op = NB_CRYPTODEV_COP_ENCRYPT;
	op->len = r->len;
	op->src = (uint8_t *)in;
	if (mac_half) {
		/* The MAC lands after the ciphertext, or alone for a plain HMAC. */
		op->mac = r->out + nb_crypto_out_len(a, r->len) - a->tag_len;
	} else {
		op->dst = r->out;
		op->iv = (uint8_t *)r->iv;
	}
}

void nb_cryptodev_auth_fill(const struct nb_crypto_algo *a, uint32_t ses,
			    const struct nb_crypto_req *r, struct nb_cryptodev_crypt_auth_op *op)
{
	memset(op, 0, sizeof(*op));
	op->ses = ses;
	op->op = NB_CRYPTODEV_COP_ENCRYPT;
	op->len = r->len;
	op->auth_len = r->aad_len;
	op->auth_src = (uint8_t *)r->aad;
	op->src = (uint8_t *)r->in;
	op->dst = r->out; /* ciphertext, then the tag */
	op->tag_len = a->tag_len;
	op->iv = (uint8_t *)r->iv;
	op->iv_len = a->iv_len;
}

static int dc_open(char *why, size_t len)
{
	int fd = open(DEV_PATH, O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	int err = errno;
	if (err == ENOENT)
		snprintf(why, len,
			 DEV_PATH " does not exist: the cryptodev module is not loaded "
				  "(modprobe cryptodev) or not built for this kernel");
	else
		snprintf(why, len, "cannot open " DEV_PATH ": %s", strerror(err));
	return -err;
}

static int dc_probe(char *why, size_t len)
{
	int fd = dc_open(why, len);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static void dc_free(void *p)
{
	struct dc_sess *s = p;
	if (!s)
		return;
	for (int i = 0; i < 2; i++)
		if (s->have[i])
			ioctl(s->fd, NB_CIOCFSESSION, &s->ses[i]);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

static int dc_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		  const struct nb_crypto_keys *k, void **out, char *why, size_t len)
{
	struct dc_sess *s = calloc(1, sizeof(*s));
	int ret = -ENOMEM;

	if (!s)
		goto out;
	s->a = a;
	/* One descriptor per session: the module serialises requests per file. */
	s->fd = dc_open(why, len);
	if (s->fd < 0) {
		ret = s->fd;
		goto out;
	}
	for (int half = 0; half < 2; half++) {
		struct nb_cryptodev_session_op so;
		ret = nb_cryptodev_session_fill(a, k, half, &so);
		if (ret == -ENOENT)
			continue;
		if (ret == -EOPNOTSUPP) {
			snprintf(why, len, "cryptodev-linux has no %s operation", a->name);
			goto out;
		}
		if (ioctl(s->fd, NB_CIOCGSESSION, &so) < 0) {
			ret = -errno;
			/* The module asks the kernel for the transform; EINVAL/ENOENT mean the
			 * kernel has no implementation of it. */
			if (ret == -EINVAL || ret == -ENOENT || ret == -ENOTSUP)
				ret = -EOPNOTSUPP;
			snprintf(why, len, "CIOCGSESSION for %s (%s): %s", a->name,
				 half ? "hmac" : "cipher", strerror(errno));
			goto out;
		}
		s->ses[half] = so.ses;
		s->have[half] = true;
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	dc_free(s);
	return ret;
}

static int dc_run(void *p, const struct nb_crypto_req *r)
{
	struct dc_sess *s = p;

	if (s->a->kind == NB_CRYPTO_AEAD) {
		struct nb_cryptodev_crypt_auth_op op;
		nb_cryptodev_auth_fill(s->a, s->ses[0], r, &op);
		return ioctl(s->fd, NB_CIOCAUTHCRYPT, &op) < 0 ? -errno : 0;
	}
	if (s->have[0]) {
		struct nb_cryptodev_crypt_op op;
		nb_cryptodev_crypt_fill(s->a, s->ses[0], false, r, r->in, &op);
		if (ioctl(s->fd, NB_CIOCCRYPT, &op) < 0)
			return -errno;
	}
	if (s->have[1]) {
		struct nb_cryptodev_crypt_op op;
		/* ESP order: the HMAC covers the ciphertext just written. */
		nb_cryptodev_crypt_fill(s->a, s->ses[1], true, r, s->have[0] ? r->out : r->in, &op);
		if (ioctl(s->fd, NB_CIOCCRYPT, &op) < 0)
			return -errno;
	}
	return 0;
}

static int dc_driver(void *p, struct nb_crypto_driver *drv)
{
	struct dc_sess *s = p;
	struct nb_cryptodev_session_info_op si;
	int ret = 0;

	memset(drv, 0, sizeof(*drv));
	drv->priority = -1;
	drv->hw = -1;
	for (int half = 0; half < 2; half++) {
		if (!s->have[half])
			continue;
		memset(&si, 0, sizeof(si));
		si.ses = s->ses[half];
		if (ioctl(s->fd, NB_CIOCGSESSINFO, &si) < 0) {
			ret = -errno; /* cryptodev before 1.6 has no CIOCGSESSINFO */
			continue;
		}
		struct nb_cryptodev_alg_info *ai = half ? &si.hash_info : &si.cipher_info;
		char *dst = drv->driver[0] ? drv->mac_driver : drv->driver;
		snprintf(dst, sizeof(drv->driver), "%.63s", ai->cra_driver_name);
		if (!drv->name[0]) {
			snprintf(drv->name, sizeof(drv->name), "%.63s", ai->cra_name);
			struct nb_crypto_driver pc;
			if (!nb_proc_crypto_lookup(NULL, NULL, ai->cra_driver_name, &pc)) {
				drv->priority = pc.priority;
				snprintf(drv->module, sizeof(drv->module), "%s", pc.module);
			}
			drv->hw = (si.flags & NB_CRYPTODEV_SIOP_KERNEL_DRIVER_ONLY) ? 1 : 0;
		}
	}
	return drv->driver[0] ? 0 : ret;
}

const struct nb_crypto_engine nb_crypto_devcrypto = {
    .name = "devcrypto",
    .summary = "/dev/crypto (cryptodev-linux ioctls)",
    .kernel = true,
    .probe = dc_probe,
    .session_new = dc_new,
    .driver = dc_driver,
    .run = dc_run,
    .session_free = dc_free,
};
