/* SPDX-License-Identifier: BSD-2-Clause */
/* The soft engine: OpenSSL libcrypto's default provider, in process. Each request is one packet:
 * the context keeps its key and is re-initialised with the IV, as an IPsec stack does per
 * packet. Without OpenSSL (the agent, static builds) the engine says what is missing. */
#include "core/crypto/crypto_algo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(HAVE_OPENSSL)
#include <openssl/opensslv.h>
#endif

#if defined(HAVE_OPENSSL) && OPENSSL_VERSION_NUMBER >= 0x30000000L
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

struct soft_sess {
	const struct nb_crypto_algo *a;
	EVP_CIPHER_CTX *cctx;
	EVP_MAC *mac;
	EVP_MAC_CTX *mctx;
};

static int soft_probe(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 0;
}

static const char *cipher_name(const struct nb_crypto_algo *a)
{
	if (!strcmp(a->name, "aes-256-cbc"))
		return "AES-256-CBC";
	if (!strcmp(a->name, "aes-128-gcm"))
		return "AES-128-GCM";
	if (!strcmp(a->name, "aes-256-gcm"))
		return "AES-256-GCM";
	if (!strcmp(a->name, "chacha20-poly1305"))
		return "ChaCha20-Poly1305";
	if (a->kind == NB_CRYPTO_MAC)
		return NULL;
	return "AES-128-CBC"; /* aes-128-cbc and the CBC half of aes-128-cbc-hmac-sha1 */
}

static const char *digest_name(const struct nb_crypto_algo *a)
{
	return strstr(a->name, "sha256") ? "SHA256" : "SHA1";
}

static void soft_free(void *p)
{
	struct soft_sess *s = p;
	if (!s)
		return;
	EVP_CIPHER_CTX_free(s->cctx);
	EVP_MAC_CTX_free(s->mctx);
	EVP_MAC_free(s->mac);
	free(s);
}

static int soft_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		    const struct nb_crypto_keys *k, void **out, char *why, size_t len)
{
	struct soft_sess *s = calloc(1, sizeof(*s));
	EVP_CIPHER *c = NULL;
	int ret = -ENOMEM;

	if (!s)
		goto out;
	s->a = a;
	const char *cn = cipher_name(a);
	if (cn) {
		ret = -EOPNOTSUPP;
		c = EVP_CIPHER_fetch(NULL, cn, NULL);
		if (!c) {
			snprintf(why, len, "OpenSSL's default provider has no %s", cn);
			goto out;
		}
		ret = -EINVAL;
		s->cctx = EVP_CIPHER_CTX_new();
		if (!s->cctx || !EVP_EncryptInit_ex(s->cctx, c, NULL, NULL, NULL)) {
			snprintf(why, len, "EVP_EncryptInit_ex(%s) failed", cn);
			goto out;
		}
		if ((uint32_t)EVP_CIPHER_CTX_get_key_length(s->cctx) != k->key_len) {
			snprintf(why, len, "%s takes a %d-byte key, not %u", cn,
				 EVP_CIPHER_CTX_get_key_length(s->cctx), k->key_len);
			goto out;
		}
		if (a->kind == NB_CRYPTO_AEAD &&
		    !EVP_CIPHER_CTX_ctrl(s->cctx, EVP_CTRL_AEAD_SET_IVLEN, (int)a->iv_len, NULL)) {
			snprintf(why, len, "%s: cannot set a %u-byte IV", cn, a->iv_len);
			goto out;
		}
		if (!EVP_EncryptInit_ex(s->cctx, NULL, NULL, k->key, NULL)) {
			snprintf(why, len, "%s: key setup failed", cn);
			goto out;
		}
		/* Requests are whole blocks already (ESP pads before it encrypts). */
		EVP_CIPHER_CTX_set_padding(s->cctx, 0);
	}
	if (a->kind == NB_CRYPTO_MAC || a->kind == NB_CRYPTO_CIPHER_MAC) {
		ret = -EOPNOTSUPP;
		s->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
		if (!s->mac) {
			snprintf(why, len, "OpenSSL's default provider has no HMAC");
			goto out;
		}
		ret = -EINVAL;
		OSSL_PARAM params[2] = {
		    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest_name(a),
						     0),
		    OSSL_PARAM_construct_end(),
		};
		s->mctx = EVP_MAC_CTX_new(s->mac);
		if (!s->mctx || !EVP_MAC_init(s->mctx, k->mac_key, k->mac_key_len, params)) {
			snprintf(why, len, "HMAC-%s key setup failed", digest_name(a));
			goto out;
		}
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	EVP_CIPHER_free(c);
	soft_free(s);
	return ret;
}

static int soft_mac(struct soft_sess *s, const uint8_t *in, uint32_t len, uint8_t *tag)
{
	size_t outl = 0;
	/* A NULL key re-initialises with the key given at session setup (as openssl speed does). */
	if (!EVP_MAC_init(s->mctx, NULL, 0, NULL) || !EVP_MAC_update(s->mctx, in, len) ||
	    !EVP_MAC_final(s->mctx, tag, &outl, NB_CRYPTO_MAX_TAG) || outl != s->a->tag_len)
		return -EIO;
	return 0;
}

static int soft_run(void *p, const struct nb_crypto_req *r)
{
	struct soft_sess *s = p;
	int n = 0, m = 0;

	if (s->a->kind == NB_CRYPTO_MAC)
		return soft_mac(s, r->in, r->len, r->out);
	if (!EVP_EncryptInit_ex(s->cctx, NULL, NULL, NULL, r->iv))
		return -EIO;
	if (s->a->kind == NB_CRYPTO_AEAD && r->aad_len &&
	    !EVP_EncryptUpdate(s->cctx, NULL, &n, r->aad, (int)r->aad_len))
		return -EIO;
	if (!EVP_EncryptUpdate(s->cctx, r->out, &n, r->in, (int)r->len) ||
	    !EVP_EncryptFinal_ex(s->cctx, r->out + n, &m) || (uint32_t)(n + m) != r->len)
		return -EIO;
	if (s->a->kind == NB_CRYPTO_AEAD)
		return EVP_CIPHER_CTX_ctrl(s->cctx, EVP_CTRL_AEAD_GET_TAG, (int)s->a->tag_len,
					   r->out + r->len)
			   ? 0
			   : -EIO;
	if (s->a->kind == NB_CRYPTO_CIPHER_MAC)
		return soft_mac(s, r->out, r->len, r->out + r->len);
	return 0;
}

#else /* no OpenSSL 3 */

static int soft_probe(char *why, size_t len)
{
#if defined(HAVE_OPENSSL)
	snprintf(why, len, "built against OpenSSL older than 3.0 (%s); the soft engine needs 3.0",
		 OPENSSL_VERSION_TEXT);
#else
	snprintf(why, len,
		 "built without OpenSSL libcrypto (install libssl-dev and rebuild; "
		 "static and agent builds never include it)");
#endif
	return -ENOSYS;
}

static int soft_new(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
		    const struct nb_crypto_keys *k, void **out, char *why, size_t len)
{
	(void)a;
	(void)k;
	(void)out;
	return soft_probe(why, len);
}

static int soft_run(void *p, const struct nb_crypto_req *r)
{
	(void)p;
	(void)r;
	return -ENOSYS;
}

static void soft_free(void *p)
{
	(void)p;
}

#endif

const struct nb_crypto_engine nb_crypto_soft = {
    .name = "soft",
    .summary = "OpenSSL libcrypto, in process",
    .kernel = false,
    .probe = soft_probe,
    .session_new = soft_new,
    .driver = NULL,
    .run = soft_run,
    .session_free = soft_free,
};
