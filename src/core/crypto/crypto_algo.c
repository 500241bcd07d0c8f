/* SPDX-License-Identifier: BSD-2-Clause */
/* The algorithms netbench crypto measures, their sizes on the wire, and the built-in known-answer
 * vectors. The vectors are published ones, so a board without OpenSSL (the agent, static builds)
 * can still tell a wrong kernel engine from a right one. */
#include "core/crypto/crypto_algo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct nb_crypto_algo nb_crypto_algos[] = {
    {"aes-128-cbc", NB_CRYPTO_CIPHER, 16, 0, 16, 0, 16, "cbc(aes)", "skcipher"},
    {"aes-256-cbc", NB_CRYPTO_CIPHER, 32, 0, 16, 0, 16, "cbc(aes)", "skcipher"},
    {"aes-128-gcm", NB_CRYPTO_AEAD, 16, 0, 12, 16, 1, "gcm(aes)", "aead"},
    {"aes-256-gcm", NB_CRYPTO_AEAD, 32, 0, 12, 16, 1, "gcm(aes)", "aead"},
    {"chacha20-poly1305", NB_CRYPTO_AEAD, 32, 0, 12, 16, 1, "rfc7539(chacha20,poly1305)", "aead"},
    {"hmac-sha1", NB_CRYPTO_MAC, 0, 20, 0, 20, 1, "hmac(sha1)", "hash"},
    {"hmac-sha256", NB_CRYPTO_MAC, 0, 32, 0, 32, 1, "hmac(sha256)", "hash"},
    /* ESP's classic transform: encrypt, then HMAC over the ciphertext (the kernel's authenc
     * template does the same for IPsec). The full 20-byte HMAC is compared; ESP sends 12 of
     * them, which costs the same. */
    {"aes-128-cbc-hmac-sha1", NB_CRYPTO_CIPHER_MAC, 16, 20, 16, 20, 16,
     "authenc(hmac(sha1),cbc(aes))", "aead"},
};
const size_t nb_crypto_nalgos = sizeof(nb_crypto_algos) / sizeof(nb_crypto_algos[0]);

const struct nb_crypto_algo *nb_crypto_algo_find(const char *name)
{
	for (size_t i = 0; i < nb_crypto_nalgos; i++)
		if (!strcmp(nb_crypto_algos[i].name, name))
			return &nb_crypto_algos[i];
	return NULL;
}

uint32_t nb_crypto_padded_len(const struct nb_crypto_algo *a, uint32_t size)
{
	uint32_t b = a->block_len ? a->block_len : 1;
	return (size + b - 1) / b * b;
}

uint32_t nb_crypto_out_len(const struct nb_crypto_algo *a, uint32_t len)
{
	switch (a->kind) {
	case NB_CRYPTO_CIPHER:
		return len;
	case NB_CRYPTO_MAC:
		return a->tag_len;
	case NB_CRYPTO_AEAD:
	case NB_CRYPTO_CIPHER_MAC:
		break;
	}
	return len + a->tag_len;
}

/* Known answers. Sources: NIST SP 800-38A F.2.1 and F.2.5; the GCM specification (McGrew and
 * Viega) test cases 4 and 16; RFC 8439 section 2.8.2; RFC 2202 and RFC 4231 test case 2. The
 * CBC+HMAC-SHA1 vector composes SP 800-38A F.2.1 with HMAC-SHA1 (key of RFC 2202 case 1) over
 * its ciphertext. */
#define SP800_38A_PT                                                                               \
	"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"                         \
	"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
#define SP800_38A_CT128                                                                            \
	"7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"                         \
	"73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"
#define GCM_PT60                                                                                   \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"                         \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GCM_AAD	  "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define JEFE_DATA "7768617420646f2079612077616e7420666f72206e6f7468696e673f"

const struct nb_crypto_kat nb_crypto_kats[] = {
    {"aes-128-cbc", "NIST SP 800-38A F.2.1", "2b7e151628aed2a6abf7158809cf4f3c", "",
     "000102030405060708090a0b0c0d0e0f", "", SP800_38A_PT, SP800_38A_CT128},
    {"aes-256-cbc", "NIST SP 800-38A F.2.5",
     "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", "",
     "000102030405060708090a0b0c0d0e0f", "", SP800_38A_PT,
     "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
     "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"},
    {"aes-128-gcm", "GCM specification test case 4", "feffe9928665731c6d6a8f9467308308", "",
     "cafebabefacedbaddecaf888", GCM_AAD, GCM_PT60,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {"aes-256-gcm", "GCM specification test case 16",
     "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "",
     "cafebabefacedbaddecaf888", GCM_AAD, GCM_PT60,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
     "76fc6ece0f4e1768cddf8853bb2d551b"},
    {"chacha20-poly1305", "RFC 8439 section 2.8.2",
     "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", "",
     "070000004041424344454647", "50515253c0c1c2c3c4c5c6c7",
     "4c616469657320616e642047656e746c656d656e206f662074686520636c6173"
     "73206f66202739393a204966204920636f756c64206f6666657220796f75206f"
     "6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73"
     "637265656e20776f756c642062652069742e",
     "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
     "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
     "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
     "3ff4def08e4b7a9de576d26586cec64b6116"
     "1ae10b594f09e26a7e902ecbd0600691"},
    {"hmac-sha1", "RFC 2202 test case 2", "", "4a656665", "", "", JEFE_DATA,
     "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
    {"hmac-sha256", "RFC 4231 test case 2", "", "4a656665", "", "", JEFE_DATA,
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
    {"aes-128-cbc-hmac-sha1", "NIST SP 800-38A F.2.1 + HMAC-SHA1 of its ciphertext",
     "2b7e151628aed2a6abf7158809cf4f3c", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "000102030405060708090a0b0c0d0e0f", "", SP800_38A_PT,
     SP800_38A_CT128 "a93ca10bd80536504cceccc78016185075114cd4"},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

const struct nb_crypto_kat *nb_crypto_kat_find(const char *algo)
{
	for (size_t i = 0; nb_crypto_kats[i].algo; i++)
		if (!strcmp(nb_crypto_kats[i].algo, algo))
			return &nb_crypto_kats[i];
	return NULL;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int nb_crypto_hex(const char *hex, uint8_t *buf, size_t cap)
{
	size_t n = strlen(hex);
	if (n % 2)
		return -EINVAL;
	if (n / 2 > cap)
		return -E2BIG;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		buf[i] = (uint8_t)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

int nb_crypto_kat_check(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a, char *why,
			size_t len)
{
	const struct nb_crypto_kat *v = nb_crypto_kat_find(a->name);
	uint8_t key[NB_CRYPTO_MAX_KEY], mac_key[NB_CRYPTO_MAX_KEY], iv[16], aad[NB_CRYPTO_MAX_AAD];
	uint8_t in[256], want[256 + NB_CRYPTO_MAX_TAG], out[256 + NB_CRYPTO_MAX_TAG];
	void *sess = NULL;
	int ret = -EINVAL;

	if (!v) {
		snprintf(why, len, "no known-answer vector for %s", a->name);
		return -ENOENT;
	}
	int kl = nb_crypto_hex(v->key, key, sizeof(key));
	int ml = nb_crypto_hex(v->mac_key, mac_key, sizeof(mac_key));
	int il = nb_crypto_hex(v->iv, iv, sizeof(iv));
	int al = nb_crypto_hex(v->aad, aad, sizeof(aad));
	int pl = nb_crypto_hex(v->in, in, sizeof(in));
	int wl = nb_crypto_hex(v->out, want, sizeof(want));
	if (kl < 0 || ml < 0 || il < 0 || al < 0 || pl < 0 || wl < 0 ||
	    (uint32_t)wl != nb_crypto_out_len(a, (uint32_t)pl)) {
		snprintf(why, len, "known-answer vector for %s is malformed", a->name);
		goto out;
	}
	struct nb_crypto_keys k = {key, mac_key, (uint32_t)kl, (uint32_t)ml};
	ret = e->session_new(e, a, &k, &sess, why, len);
	if (ret)
		goto out;
	struct nb_crypto_req req = {in, out, (uint32_t)pl, iv, aad, (uint32_t)al};
	memset(out, 0, sizeof(out));
	ret = e->run(sess, &req);
	if (ret) {
		snprintf(why, len, "request failed: %s", strerror(-ret));
		goto out;
	}
	for (int i = 0; i < wl; i++)
		if (out[i] != want[i]) {
			snprintf(why, len, "wrong answer for %s (%s): byte %d of %d differs",
				 a->name, v->source, i, wl);
			ret = -EBADMSG;
			goto out;
		}
	ret = 0;
out:
	if (sess)
		e->session_free(sess);
	return ret;
}
