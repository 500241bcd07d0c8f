/* SPDX-License-Identifier: BSD-2-Clause */
/* SHA-256 (FIPS 180-4 examples) and HMAC-SHA256 (RFC 4231 test cases), and the PSK proofs. */
#include <stdio.h>
#include <string.h>

#include "core/session/auth.h"
#include "core/base/sha256.h"
#include "tap.h"

static void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static int sha(const char *msg, const char *want)
{
	struct nb_sha256 c;
	uint8_t d[32];
	char h[65];
	nb_sha256_init(&c);
	nb_sha256_update(&c, msg, strlen(msg));
	nb_sha256_final(&c, d);
	hex(d, 32, h);
	return !strcmp(h, want);
}

int main(void)
{
	uint8_t out[32], key[131], data[152];
	char h[65];

	CHECK(sha("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
	      "SHA-256 abc");
	CHECK(sha("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
	      "SHA-256 empty");
	CHECK(sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
	      "SHA-256 two blocks");

	/* RFC 4231 test case 1 */
	memset(key, 0x0b, 20);
	nb_hmac_sha256(key, 20, "Hi There", 8, out);
	hex(out, 32, h);
	CHECK(!strcmp(h, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
	      "HMAC RFC 4231 case 1");
	/* case 2 */
	nb_hmac_sha256((const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28, out);
	hex(out, 32, h);
	CHECK(!strcmp(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
	      "HMAC RFC 4231 case 2");
	/* case 6: key longer than a block is hashed first */
	memset(key, 0xaa, 131);
	nb_hmac_sha256(key, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54, out);
	hex(out, 32, h);
	CHECK(!strcmp(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
	      "HMAC RFC 4231 case 6");
	(void)data;

	uint8_t cn[NB_NONCE_LEN] = {1}, sn[NB_NONCE_LEN] = {2}, p1[32], p2[32], p3[32];
	nb_auth_proof((const uint8_t *)"secret", 6, "controller", cn, sn, p1);
	nb_auth_proof((const uint8_t *)"secret", 6, "agent", cn, sn, p2);
	nb_auth_proof((const uint8_t *)"secreT", 6, "controller", cn, sn, p3);
	CHECK(!nb_ct_equal(p1, p2, 32), "the two roles' proofs differ (no reflection)");
	CHECK(!nb_ct_equal(p1, p3, 32), "a different key gives a different proof");
	sn[5] = 9;
	nb_auth_proof((const uint8_t *)"secret", 6, "controller", cn, sn, p3);
	CHECK(!nb_ct_equal(p1, p3, 32), "a fresh nonce gives a fresh proof (no replay)");
	CHECK(nb_ct_equal(p1, p1, 32), "equal compares equal");
	return tap_done();
}
