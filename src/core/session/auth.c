/* SPDX-License-Identifier: BSD-2-Clause */
/* Key loading, proofs and nonces for the pre-shared-key handshake. */
#include "core/session/auth.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/base/sha256.h"
#include "core/base/timeutil.h"

int nb_psk_load(const char *path, uint8_t *key, size_t *len)
{
	uint8_t buf[NB_PSK_MAX + 2];
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < (ssize_t)sizeof(buf) &&
	       (n = read(fd, buf + got, sizeof(buf) - (size_t)got)) > 0)
		got += n;
	close(fd);
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		got--;
	if (got == 0)
		return -EINVAL;
	if (got > NB_PSK_MAX)
		return -EFBIG;
	memcpy(key, buf, (size_t)got);
	*len = (size_t)got;
	return 0;
}

void nb_auth_proof(const uint8_t *key, size_t key_len, const char *role,
		   const uint8_t cnonce[NB_NONCE_LEN], const uint8_t snonce[NB_NONCE_LEN],
		   uint8_t out[32])
{
	uint8_t msg[32 + 2 * NB_NONCE_LEN];
	size_t rl = strlen(role) < 32 ? strlen(role) : 32;
	memset(msg, 0, 32);
	memcpy(msg, role, rl);
	memcpy(msg + 32, cnonce, NB_NONCE_LEN);
	memcpy(msg + 32 + NB_NONCE_LEN, snonce, NB_NONCE_LEN);
	nb_hmac_sha256(key, key_len, msg, sizeof(msg), out);
}

int nb_random_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (len) {
		n = read(fd, p, len);
		if (n <= 0) {
			close(fd);
			return n < 0 ? -errno : -EIO;
		}
		p += n;
		len -= (size_t)n;
	}
	close(fd);
	return 0;
}
