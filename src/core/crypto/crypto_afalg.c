/* SPDX-License-Identifier: BSD-2-Clause */
/* The afalg engine: the kernel crypto API over AF_ALG sockets (skcipher, aead, hash). One
 * sendmsg and one read per request. The kernel picks the highest-priority implementation of the
 * named transform; /proc/crypto then says which driver that was. */
#include "core/crypto/crypto_kernel.h"
#include "core/base/crypto_proc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/base/compat.h"

#ifndef ALG_SET_AEAD_ASSOCLEN
#define ALG_SET_AEAD_ASSOCLEN 4
#endif
#ifndef ALG_SET_AEAD_AUTHSIZE
#define ALG_SET_AEAD_AUTHSIZE 5
#endif

/* struct rtattr and crypto_authenc_key_param, as the authenc template parses its key. */
#define AUTHENC_KEYA_PARAM 1
#define AUTHENC_RTA_LEN	   8 /* 4-byte rtattr header + 4-byte enckeylen */

struct af_sess {
	const struct nb_crypto_algo *a;
	const char *driver; /* the engine's kernel_driver: NULL for the kernel's choice */
	int tfm, op;
	uint8_t aad_sink[NB_CRYPTO_MAX_AAD]; /* AEAD output repeats the AAD first */
};

int nb_afalg_authenc_key(const struct nb_crypto_keys *k, uint8_t *buf, size_t cap)
{
	size_t total = AUTHENC_RTA_LEN + k->mac_key_len + k->key_len;
	if (total > cap)
		return -E2BIG;
	uint16_t rta_len = AUTHENC_RTA_LEN, rta_type = AUTHENC_KEYA_PARAM; /* host order */
	uint32_t enckeylen = htonl(k->key_len);				   /* big-endian */
	memcpy(buf, &rta_len, 2);
	memcpy(buf + 2, &rta_type, 2);
	memcpy(buf + 4, &enckeylen, 4);
	memcpy(buf + AUTHENC_RTA_LEN, k->mac_key, k->mac_key_len);
	memcpy(buf + AUTHENC_RTA_LEN + k->mac_key_len, k->key, k->key_len);
	return (int)total;
}

int nb_afalg_cmsg(uint8_t *buf, size_t cap, const uint8_t *iv, uint32_t iv_len, int assoclen)
{
	size_t need = CMSG_SPACE(sizeof(uint32_t));
	if (iv_len)
		need += CMSG_SPACE(sizeof(struct af_alg_iv) + iv_len);
	if (assoclen >= 0)
		need += CMSG_SPACE(sizeof(uint32_t));
	if (need > cap)
		return -E2BIG;
	memset(buf, 0, need);

	struct msghdr msg = {.msg_control = buf, .msg_controllen = need};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	uint32_t v = ALG_OP_ENCRYPT;
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(v));
	memcpy(CMSG_DATA(c), &v, sizeof(v));
	if (iv_len) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + iv_len);
		memcpy(CMSG_DATA(c), &iv_len, sizeof(iv_len));
		memcpy(CMSG_DATA(c) + sizeof(uint32_t), iv, iv_len);
	}
	if (assoclen >= 0) {
		c = CMSG_NXTHDR(&msg, c);
		v = (uint32_t)assoclen;
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		c->cmsg_len = CMSG_LEN(sizeof(v));
		memcpy(CMSG_DATA(c), &v, sizeof(v));
	}
	return (int)need;
}

static int af_probe(char *why, size_t len)
{
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	int err = errno;
	if (err == EAFNOSUPPORT)
		snprintf(why, len,
			 "the kernel has no AF_ALG sockets (CONFIG_CRYPTO_USER_API_* not built): "
			 "socket(AF_ALG): %s",
			 strerror(err));
	else
		snprintf(why, len, "socket(AF_ALG): %s", strerror(err));
	return -err;
}

static void af_free(void *p)
{
	struct af_sess *s = p;
	if (!s)
		return;
	if (s->op >= 0)
		close(s->op);
	if (s->tfm >= 0)
		close(s->tfm);
	free(s);
}

static const char *type_option(const char *type)
{
	if (!strcmp(type, "skcipher"))
		return "CONFIG_CRYPTO_USER_API_SKCIPHER";
	if (!strcmp(type, "aead"))
		return "CONFIG_CRYPTO_USER_API_AEAD";
	return "CONFIG_CRYPTO_USER_API_HASH";
}

static int af_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		  const struct nb_crypto_keys *k, void **out, char *why, size_t len)
{
	struct af_sess *s = calloc(1, sizeof(*s));
	struct sockaddr_alg sa;
	uint8_t keybuf[8 + 2 * NB_CRYPTO_MAX_KEY];
	int ret = -ENOMEM;

	if (!s)
		goto out;
	s->a = a;
	s->driver = e->kernel_driver;
	s->op = -1;
	s->tfm = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s->tfm < 0) {
		ret = af_probe(why, len);
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", a->kernel_type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s",
		 s->driver ? s->driver : a->kernel_name);
	if (bind(s->tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		if (ret == -ENOENT && s->driver) {
			snprintf(why, len, "the kernel has no %s driver \"%s\" (see /proc/crypto)",
				 a->kernel_type, s->driver);
			ret = -EOPNOTSUPP;
		} else if (ret == -ENOENT) {
			snprintf(why, len, "the kernel offers no %s \"%s\" (or %s is not built)",
				 a->kernel_type, a->kernel_name, type_option(a->kernel_type));
			ret = -EOPNOTSUPP;
		} else {
			snprintf(why, len, "bind(AF_ALG %s \"%s\"): %s", a->kernel_type,
				 a->kernel_name, strerror(errno));
		}
		goto out;
	}
	const uint8_t *key = a->kind == NB_CRYPTO_MAC ? k->mac_key : k->key;
	int key_len = (int)(a->kind == NB_CRYPTO_MAC ? k->mac_key_len : k->key_len);
	if (a->kind == NB_CRYPTO_CIPHER_MAC) {
		key_len = nb_afalg_authenc_key(k, keybuf, sizeof(keybuf));
		key = keybuf;
	}
	if (key_len < 0 || setsockopt(s->tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)key_len) < 0) {
		ret = key_len < 0 ? key_len : -errno;
		snprintf(why, len, "ALG_SET_KEY for %s: %s", a->kernel_name, strerror(-ret));
		goto out;
	}
	if ((a->kind == NB_CRYPTO_AEAD || a->kind == NB_CRYPTO_CIPHER_MAC) &&
	    setsockopt(s->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, a->tag_len) < 0) {
		ret = -errno;
		snprintf(why, len, "ALG_SET_AEAD_AUTHSIZE %u for %s: %s", a->tag_len,
			 a->kernel_name, strerror(errno));
		goto out;
	}
	s->op = accept4(s->tfm, NULL, NULL, SOCK_CLOEXEC);
	if (s->op < 0) {
		ret = -errno;
		snprintf(why, len, "accept(AF_ALG %s): %s", a->kernel_name, strerror(errno));
		goto out;
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	af_free(s);
	return ret;
}

static int af_run(void *p, const struct nb_crypto_req *r)
{
	struct af_sess *s = p;
	const struct nb_crypto_algo *a = s->a;
	uint8_t cbuf[NB_AFALG_CMSG_SPACE] __attribute__((aligned(8)));
	struct iovec iov[2];
	struct msghdr msg = {0};
	size_t out_len = nb_crypto_out_len(a, r->len);
	ssize_t n;

	if (a->kind == NB_CRYPTO_MAC) {
		/* Without MSG_MORE the kernel finishes the hash; the read returns the digest. */
		if (send(s->op, r->in, r->len, 0) != (ssize_t)r->len)
			return errno ? -errno : -EIO;
		n = read(s->op, r->out, a->tag_len);
		return n == (ssize_t)a->tag_len ? 0 : (n < 0 ? -errno : -EIO);
	}
	bool aead = a->kind != NB_CRYPTO_CIPHER;
	uint32_t aad_len = a->kind == NB_CRYPTO_AEAD ? r->aad_len : 0;
	int cl = nb_afalg_cmsg(cbuf, sizeof(cbuf), r->iv, a->iv_len, aead ? (int)aad_len : -1);
	if (cl < 0)
		return cl;
	int niov = 0;
	if (aad_len)
		iov[niov++] = (struct iovec){(void *)r->aad, aad_len};
	iov[niov++] = (struct iovec){(void *)r->in, r->len};
	msg.msg_iov = iov;
	msg.msg_iovlen = (size_t)niov;
	msg.msg_control = cbuf;
	msg.msg_controllen = (size_t)cl;
	n = sendmsg(s->op, &msg, 0);
	if (n != (ssize_t)(aad_len + r->len))
		return n < 0 ? -errno : -EIO;
	/* The AEAD output is AAD || ciphertext || tag; the AAD copy goes to a sink. */
	niov = 0;
	if (aad_len)
		iov[niov++] = (struct iovec){s->aad_sink, aad_len};
	iov[niov++] = (struct iovec){r->out, out_len};
	n = readv(s->op, iov, niov);
	if (n != (ssize_t)(aad_len + out_len))
		return n < 0 ? -errno : -EIO;
	return 0;
}

static int af_driver(void *p, struct nb_crypto_driver *drv)
{
	struct af_sess *s = p;
	/* Template instances (gcm(aes), authenc(...)) appear in /proc/crypto once instantiated,
	 * which the session has just done. */
	int ret = nb_proc_crypto_lookup(NULL, s->a->kernel_name, s->driver, drv);
	/* A driver bound by name serves the algorithm only if it implements that transform. */
	if (!ret && s->driver && strcmp(drv->name, s->a->kernel_name))
		ret = -ENOENT;
	return ret;
}

static int read_proc_crypto(struct nb_proc_crypto_alg *algs, size_t max)
{
	char *text = NULL;
	size_t cap = 0, len = 0;
	FILE *f = fopen("/proc/crypto", "re");
	int n = 0;

	if (!f)
		return 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *t = realloc(text, cap = cap ? 2 * cap : 65536);
			if (!t)
				break;
			text = t;
		}
		size_t got = fread(text + len, 1, cap - len - 1, f);
		if (!got)
			break;
		len += got;
	}
	fclose(f);
	if (text) {
		text[len] = '\0';
		n = nb_proc_crypto_parse(text, algs, max);
	}
	free(text);
	return n < 0 ? 0 : n;
}

#define DRV_ALGS_MAX 2048

/* Drivers of name (skipping internal and failed ones), best priority first. For a template
 * tmpl(args..., last) each driver D of last is tried as tmpl(args..., D) first, depth-bounded. */
static size_t drivers_of(const char *type, const char *name, char (*out)[80], size_t max, int depth)
{
	size_t n = 0;
	const char *open_paren = strchr(name, '(');
	size_t nl = strlen(name);

	if (depth < 3 && open_paren && nl > 0 && name[nl - 1] == ')') {
		/* The last top-level argument. */
		const char *last = open_paren + 1;
		int lvl = 0;
		for (const char *q = open_paren + 1; q < name + nl - 1; q++) {
			lvl += *q == '(' ? 1 : *q == ')' ? -1 : 0;
			if (*q == ',' && lvl == 0)
				last = q + 1;
		}
		char inner[80], sub[8][80];
		snprintf(inner, sizeof(inner), "%.*s", (int)(name + nl - 1 - last), last);
		size_t ns = 0;
		if (strchr(inner, '(')) {
			static const char *const types[] = {"skcipher", "hash", "aead"};
			for (size_t t = 0; t < 3 && !ns; t++)
				ns = drivers_of(types[t], inner, sub, 8, depth + 1);
		} else {
			ns = drivers_of(NULL, inner, sub, 8, depth + 1);
		}
		for (size_t i = 0; i < ns; i++) {
			char full[64];
			size_t pl = (size_t)(last - name), sl = strlen(sub[i]);
			if (!type || pl + sl + 2 > sizeof(full))
				continue; /* salg_name holds 64 bytes */
			memcpy(full, name, pl);
			memcpy(full + pl, sub[i], sl);
			memcpy(full + pl + sl, ")", 2);
			nb_proc_crypto_instantiate(type, full);
		}
	}
	if (type)
		nb_proc_crypto_instantiate(type, name);
	struct nb_proc_crypto_alg *algs = calloc(DRV_ALGS_MAX, sizeof(*algs));
	if (!algs)
		return 0;
	int na = read_proc_crypto(algs, DRV_ALGS_MAX);
	for (;;) { /* selection by priority, highest first; duplicates skipped */
		const struct nb_proc_crypto_alg *best = NULL;
		for (int i = 0; i < na; i++) {
			const struct nb_proc_crypto_alg *x = &algs[i];
			bool seen = false;
			for (size_t j = 0; j < n; j++)
				seen |= !strcmp(out[j], x->driver);
			if (seen || strcmp(x->name, name) || x->internal || !x->selftest_passed)
				continue;
			if (!best || x->priority > best->priority)
				best = x;
		}
		if (!best || n >= max)
			break;
		snprintf(out[n++], sizeof(out[0]), "%s", best->driver);
	}
	free(algs);
	return n;
}

size_t nb_crypto_afalg_drivers(const struct nb_crypto_algo *a, char (*drivers)[80], size_t max)
{
	return drivers_of(a->kernel_type, a->kernel_name, drivers, max, 0);
}

const struct nb_crypto_engine nb_crypto_afalg = {
    .name = "afalg",
    .summary = "kernel crypto API over AF_ALG sockets",
    .kernel = true,
    .probe = af_probe,
    .session_new = af_new,
    .driver = af_driver,
    .run = af_run,
    .session_free = af_free,
};
