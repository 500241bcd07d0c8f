/* SPDX-License-Identifier: BSD-2-Clause */
/* The /dev/crypto (cryptodev-linux) user ABI, declared here because Debian ships no header for
 * it. Layouts follow the module's published interface: pointers are native-width, so the same
 * declarations serve 32- and 64-bit boards. Names carry an nb_ prefix so that a system header,
 * where one exists, cannot clash. */
#ifndef NB_COMPAT_CRYPTODEV_H
#define NB_COMPAT_CRYPTODEV_H

#include <stdint.h>
#include <sys/ioctl.h>

/* Algorithm numbers of struct session_op (cipher, mac). cryptodev has no ChaCha20-Poly1305. */
#define NB_CRYPTODEV_SHA1_HMAC	   7
#define NB_CRYPTODEV_AES_CBC	   11
#define NB_CRYPTODEV_SHA2_256_HMAC 18
#define NB_CRYPTODEV_AES_GCM	   50

#define NB_CRYPTODEV_COP_ENCRYPT 0
#define NB_CRYPTODEV_COP_DECRYPT 1

#define NB_CRYPTODEV_MAX_ALG_NAME 64
/* session_info_op.flags: the implementation is a kernel-only driver (hardware, typically), not
 * a CPU instruction set or generic C. */
#define NB_CRYPTODEV_SIOP_KERNEL_DRIVER_ONLY 1

struct nb_cryptodev_session_op {
	uint32_t cipher;
	uint32_t mac;
	uint32_t keylen;
	uint8_t *key;
	uint32_t mackeylen;
	uint8_t *mackey;
	uint32_t ses; /* out: session id */
};

struct nb_cryptodev_alg_info {
	char cra_name[NB_CRYPTODEV_MAX_ALG_NAME];
	char cra_driver_name[NB_CRYPTODEV_MAX_ALG_NAME];
};

struct nb_cryptodev_session_info_op {
	uint32_t ses;
	struct nb_cryptodev_alg_info cipher_info, hash_info;
	uint16_t alignmask;
	uint32_t flags;
};

/* CIOCCRYPT: a cipher and/or a MAC over src. With both in one session the module MACs the
 * plaintext before encrypting it, which is not ESP's order, hence two sessions for CBC+HMAC. */
struct nb_cryptodev_crypt_op {
	uint32_t ses;
	uint16_t op;
	uint16_t flags;
	uint32_t len;
	uint8_t *src;
	uint8_t *dst;
	uint8_t *mac;
	uint8_t *iv;
};

/* CIOCAUTHCRYPT in plain AEAD mode (flags 0): dst receives len bytes and then the tag. */
struct nb_cryptodev_crypt_auth_op {
	uint32_t ses;
	uint16_t op;
	uint16_t flags;
	uint32_t len;
	uint32_t auth_len;
	uint8_t *auth_src;
	uint8_t *src;
	uint8_t *dst;
	uint8_t *tag;
	uint32_t tag_len; /* 0: the algorithm's full tag */
	uint8_t *iv;
	uint32_t iv_len;
};

#define NB_CIOCGSESSION	 _IOWR('c', 102, struct nb_cryptodev_session_op)
#define NB_CIOCFSESSION	 _IOW('c', 103, uint32_t)
#define NB_CIOCCRYPT	 _IOWR('c', 104, struct nb_cryptodev_crypt_op)
#define NB_CIOCGSESSINFO _IOWR('c', 107, struct nb_cryptodev_session_info_op)
#define NB_CIOCAUTHCRYPT _IOWR('c', 109, struct nb_cryptodev_crypt_auth_op)

#endif
