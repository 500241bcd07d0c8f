/* SPDX-License-Identifier: BSD-2-Clause */
/* The built-in reference implementation: every known-answer vector, and (with OpenSSL) the same
 * output as the soft engine at odd and large sizes, with and without AAD, for every algorithm.
 * It is what checks a board's kernel engines where OpenSSL is absent. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto/crypto_run.h"
#include "tap.h"

int main(void)
{
	char why[200];

	for (size_t i = 0; i < nb_crypto_nalgos; i++) {
		const struct nb_crypto_algo *a = &nb_crypto_algos[i];
		int r = nb_crypto_kat_check(&nb_crypto_ref, a, why, sizeof(why));
		CHECK(r == 0, "reference %s: %s", a->name,
		      r ? why : nb_crypto_kat_find(a->name)->source);
	}
	if (nb_crypto_soft.probe(why, sizeof(why)) != 0) {
		tap_skip("reference against soft: built without OpenSSL");
		return tap_done();
	}
	static const uint32_t sizes[] = {1, 15, 16, 17, 63, 64, 65, 100, 1420, 4096, 16384, 16400};
	static const uint32_t aads[] = {0, 1, 8, 13, 16, 20, 64};
	uint8_t key[64], mac_key[64], iv[16], aad[64];
	uint8_t *in = malloc(17000), *o1 = malloc(17100), *o2 = malloc(17100);
	uint64_t seed = 42;
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1), mac_key[i] = (uint8_t)(i * 13 + 5);
	for (size_t i = 0; i < sizeof(iv); i++)
		iv[i] = (uint8_t)(0xf0 + i);
	for (size_t i = 0; i < sizeof(aad); i++)
		aad[i] = (uint8_t)(i ^ 0x5a);
	for (size_t i = 0; i < 17000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		in[i] = (uint8_t)(seed >> 56);
	}
	for (size_t ai = 0; ai < nb_crypto_nalgos; ai++) {
		const struct nb_crypto_algo *a = &nb_crypto_algos[ai];
		struct nb_crypto_keys k = {key, mac_key, a->key_len, a->mac_key_len};
		void *sr = NULL, *ss = NULL;
		int bad = 0, n = 0;
		if (nb_crypto_ref.session_new(&nb_crypto_ref, a, &k, &sr, why, sizeof(why)) ||
		    nb_crypto_soft.session_new(&nb_crypto_soft, a, &k, &ss, why, sizeof(why))) {
			CHECK(0, "%s sessions: %s", a->name, why);
			continue;
		}
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
			for (size_t xi = 0; xi < sizeof(aads) / sizeof(aads[0]); xi++) {
				uint32_t len = nb_crypto_padded_len(a, sizes[si]);
				if (a->kind != NB_CRYPTO_AEAD && xi > 0)
					continue;
				struct nb_crypto_req r = {in, o1, len, iv, aad, aads[xi]};
				uint32_t ol = nb_crypto_out_len(a, len);
				memset(o1, 1, ol);
				memset(o2, 2, ol);
				int e1 = nb_crypto_ref.run(sr, &r);
				r.out = o2;
				int e2 = nb_crypto_soft.run(ss, &r);
				n++;
				if (e1 || e2 || memcmp(o1, o2, ol)) {
					if (!bad)
						CHECK(0, "%s differs at %u bytes, %u AAD", a->name,
						      len, aads[xi]);
					bad++;
				}
			}
		CHECK(!bad, "reference = soft for %s in %d requests", a->name, n);
		nb_crypto_ref.session_free(sr);
		nb_crypto_soft.session_free(ss);
	}
	free(in);
	free(o1);
	free(o2);
	return tap_done();
}
