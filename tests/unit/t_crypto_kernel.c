/* SPDX-License-Identifier: BSD-2-Clause */
/* Request marshalling of the kernel engines, checked without the devices: the cryptodev ABI
 * (structure layout, ioctl numbers, session and request fields) and AF_ALG's control messages
 * and authenc key blob. On this machine the engines themselves report why they cannot run. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "core/base/compat.h"
#include "core/crypto/crypto_kernel.h"
#include "tap.h"

/* musl's <sys/ioctl.h> builds ioctl numbers but cannot take them apart: use the kernel's macros. */
#ifndef _IOC_NR
#undef _IOC
#undef _IO
#undef _IOR
#undef _IOW
#undef _IOWR
#undef _IOC_NONE
#undef _IOC_READ
#undef _IOC_WRITE
#include <asm/ioctl.h>
#endif

int main(void)
{
	struct nb_cryptodev_session_op so;
	uint8_t key[32] = {1, 2, 3}, mkey[20] = {9, 8, 7}, in[64], out[128], iv[16] = {0xaa};
	uint8_t aad[8] = {0x55};
	struct nb_crypto_keys k = {key, mkey, 16, 20};
	const struct nb_crypto_algo *cbc = nb_crypto_algo_find("aes-128-cbc");
	const struct nb_crypto_algo *gcm = nb_crypto_algo_find("aes-256-gcm");
	const struct nb_crypto_algo *cc = nb_crypto_algo_find("chacha20-poly1305");
	const struct nb_crypto_algo *h256 = nb_crypto_algo_find("hmac-sha256");
	const struct nb_crypto_algo *esp = nb_crypto_algo_find("aes-128-cbc-hmac-sha1");

	/* The ABI: native pointers, natural alignment (64-bit: 48 bytes; 32-bit: 28). */
	size_t ptr = sizeof(void *);
	CHECK(sizeof(struct nb_cryptodev_session_op) == (ptr == 8 ? 48u : 28u),
	      "session_op is %zu bytes", sizeof(struct nb_cryptodev_session_op));
	CHECK(sizeof(struct nb_cryptodev_crypt_op) == (ptr == 8 ? 48u : 28u),
	      "crypt_op is %zu bytes", sizeof(struct nb_cryptodev_crypt_op));
	CHECK(sizeof(struct nb_cryptodev_session_info_op) == 268u, "session_info_op is %zu bytes",
	      sizeof(struct nb_cryptodev_session_info_op));
	CHECK(_IOC_TYPE(NB_CIOCGSESSION) == 'c' && _IOC_NR(NB_CIOCGSESSION) == 102 &&
		  _IOC_NR(NB_CIOCCRYPT) == 104 && _IOC_NR(NB_CIOCGSESSINFO) == 107 &&
		  _IOC_NR(NB_CIOCAUTHCRYPT) == 109 && _IOC_NR(NB_CIOCFSESSION) == 103,
	      "ioctl numbers");
	CHECK(_IOC_SIZE(NB_CIOCCRYPT) == sizeof(struct nb_cryptodev_crypt_op) &&
		  _IOC_DIR(NB_CIOCCRYPT) == (_IOC_READ | _IOC_WRITE) &&
		  _IOC_DIR(NB_CIOCFSESSION) == _IOC_WRITE,
	      "ioctl sizes and directions");

	/* Sessions. */
	CHECK(nb_cryptodev_session_fill(cbc, &k, false, &so) == 0 && so.cipher == 11 &&
		  so.mac == 0 && so.keylen == 16 && so.key == key,
	      "aes-128-cbc: CRYPTO_AES_CBC, 16-byte key");
	CHECK(nb_cryptodev_session_fill(cbc, &k, true, &so) == -ENOENT, "aes-128-cbc: no MAC half");
	struct nb_crypto_keys k32 = {key, mkey, 32, 32};
	CHECK(nb_cryptodev_session_fill(gcm, &k32, false, &so) == 0 && so.cipher == 50 &&
		  so.keylen == 32,
	      "aes-256-gcm: CRYPTO_AES_GCM");
	CHECK(nb_cryptodev_session_fill(cc, &k32, false, &so) == -EOPNOTSUPP,
	      "chacha20-poly1305: cryptodev has none");
	CHECK(nb_cryptodev_session_fill(h256, &k32, true, &so) == 0 && so.mac == 18 &&
		  so.cipher == 0 && so.mackeylen == 32 && so.mackey == mkey,
	      "hmac-sha256: CRYPTO_SHA2_256_HMAC");
	CHECK(nb_cryptodev_session_fill(h256, &k32, false, &so) == -ENOENT,
	      "hmac-sha256: no cipher half");
	CHECK(nb_cryptodev_session_fill(esp, &k, false, &so) == 0 && so.cipher == 11 &&
		  nb_cryptodev_session_fill(esp, &k, true, &so) == 0 && so.mac == 7 &&
		  so.mackeylen == 20,
	      "CBC+HMAC-SHA1: two sessions (cryptodev MACs plaintext in a combined one)");

	/* Requests. */
	struct nb_crypto_req r = {in, out, 64, iv, aad, 8};
	struct nb_cryptodev_crypt_op op;
	nb_cryptodev_crypt_fill(esp, 7, false, &r, in, &op);
	CHECK(op.ses == 7 && op.op == 0 && op.len == 64 && op.src == in && op.dst == out &&
		  op.iv == iv && op.mac == NULL,
	      "CBC half: in -> out with the IV");
	nb_cryptodev_crypt_fill(esp, 8, true, &r, out, &op);
	CHECK(op.ses == 8 && op.src == out && op.mac == out + 64 && op.dst == NULL && op.iv == NULL,
	      "HMAC half: over the ciphertext, MAC after it");
	nb_cryptodev_crypt_fill(h256, 9, true, &r, in, &op);
	CHECK(op.src == in && op.mac == out && op.len == 64, "plain HMAC: digest at out");
	struct nb_cryptodev_crypt_auth_op aop;
	nb_cryptodev_auth_fill(gcm, 3, &r, &aop);
	CHECK(aop.ses == 3 && aop.op == 0 && aop.flags == 0 && aop.len == 64 &&
		  aop.auth_src == aad && aop.auth_len == 8 && aop.src == in && aop.dst == out &&
		  aop.tag_len == 16 && aop.iv == iv && aop.iv_len == 12,
	      "GCM: plain AEAD mode, tag appended to dst");

	/* AF_ALG control messages. */
	uint8_t cbuf[NB_AFALG_CMSG_SPACE] __attribute__((aligned(8)));
	int cl = nb_afalg_cmsg(cbuf, sizeof(cbuf), iv, 12, 8);
	CHECK(cl > 0, "cmsg built (%d bytes)", cl);
	struct msghdr msg = {.msg_control = cbuf, .msg_controllen = (size_t)(cl > 0 ? cl : 0)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	uint32_t v = 0;
	if (c)
		memcpy(&v, CMSG_DATA(c), 4);
	CHECK(c && c->cmsg_level == SOL_ALG && c->cmsg_type == ALG_SET_OP && v == ALG_OP_ENCRYPT,
	      "first: ALG_SET_OP encrypt");
	c = c ? CMSG_NXTHDR(&msg, c) : NULL;
	uint32_t ivlen = 0;
	if (c)
		memcpy(&ivlen, CMSG_DATA(c), 4);
	CHECK(c && c->cmsg_type == ALG_SET_IV && ivlen == 12 && CMSG_DATA(c)[4] == 0xaa &&
		  c->cmsg_len == CMSG_LEN(4 + 12),
	      "second: ALG_SET_IV, 12 bytes");
	c = c ? CMSG_NXTHDR(&msg, c) : NULL;
	v = 0;
	if (c)
		memcpy(&v, CMSG_DATA(c), 4);
	CHECK(c && c->cmsg_type == 4 /* ALG_SET_AEAD_ASSOCLEN */ && v == 8,
	      "third: AEAD assoclen 8");
	CHECK(!c || !CMSG_NXTHDR(&msg, c), "nothing after");
	cl = nb_afalg_cmsg(cbuf, sizeof(cbuf), NULL, 0, -1);
	msg.msg_controllen = (size_t)cl;
	c = CMSG_FIRSTHDR(&msg);
	CHECK(cl == (int)CMSG_SPACE(4) && c && !CMSG_NXTHDR(&msg, c),
	      "hash-style: only the operation");
	CHECK(nb_afalg_cmsg(cbuf, 16, iv, 16, 0) == -E2BIG, "small buffer: -E2BIG");

	/* authenc key: rtattr {len 8, type 1}, be32 enckeylen, HMAC key, cipher key. */
	uint8_t blob[128];
	int bl = nb_afalg_authenc_key(&k, blob, sizeof(blob));
	uint16_t rl, rt;
	uint32_t ekl;
	memcpy(&rl, blob, 2);
	memcpy(&rt, blob + 2, 2);
	memcpy(&ekl, blob + 4, 4);
	CHECK(bl == 8 + 20 + 16 && rl == 8 && rt == 1 && ntohl(ekl) == 16,
	      "authenc key header: rtattr host order, key length big-endian");
	CHECK(blob[8] == 9 && blob[9] == 8 && blob[28] == 1 && blob[29] == 2,
	      "HMAC key first, then the cipher key");
	CHECK(nb_afalg_authenc_key(&k, blob, 40) == -E2BIG, "authenc key: small buffer");

	/* On this machine: each kernel engine runs or says why not. */
	const struct nb_crypto_engine *eng[] = {&nb_crypto_devcrypto, &nb_crypto_afalg};
	for (int i = 0; i < 2; i++) {
		char why[200] = "";
		int ret = eng[i]->probe(why, sizeof(why));
		CHECK(ret == 0 || (ret < 0 && why[0]), "%s: %s", eng[i]->name,
		      ret ? why : "available");
	}
	return tap_done();
}
