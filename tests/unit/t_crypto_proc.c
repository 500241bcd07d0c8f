/* SPDX-License-Identifier: BSD-2-Clause */
/* /proc/crypto parsing and the driver the kernel would pick: a sample captured on an x86-64
 * development machine and one in the format a PowerPC board with the talitos engine prints,
 * where the hardware driver outranks the generic one (and a CAAM-style entry that failed its
 * self-test, which the kernel never uses). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/crypto_proc.h"
#include "core/crypto/crypto_run.h"
#include "tap.h"

static const char x86_sample[] = "name         : cbc(aes)\n"
				 "driver       : cbc(ecb(aes-fixed-time))\n"
				 "module       : kernel\n"
				 "priority     : 101\n"
				 "refcnt       : 1\n"
				 "selftest     : passed\n"
				 "internal     : no\n"
				 "type         : skcipher\n"
				 "async        : no\n"
				 "blocksize    : 16\n"
				 "min keysize  : 16\n"
				 "max keysize  : 32\n"
				 "ivsize       : 16\n"
				 "chunksize    : 16\n"
				 "walksize     : 16\n"
				 "statesize    : 0\n"
				 "\n"
				 "name         : aes\n"
				 "driver       : aes-fixed-time\n"
				 "module       : kernel\n"
				 "priority     : 101\n"
				 "refcnt       : 1\n"
				 "selftest     : passed\n"
				 "internal     : no\n"
				 "type         : cipher\n"
				 "blocksize    : 16\n"
				 "min keysize  : 16\n"
				 "max keysize  : 32\n"
				 "\n"
				 "name         : aes\n"
				 "driver       : aes-generic\n"
				 "module       : kernel\n"
				 "priority     : 100\n"
				 "refcnt       : 1\n"
				 "selftest     : passed\n"
				 "internal     : no\n"
				 "type         : cipher\n"
				 "\n"
				 "name         : hmac(sha1)\n"
				 "driver       : hmac-sha1-lib\n"
				 "module       : kernel\n"
				 "priority     : 300\n"
				 "refcnt       : 1\n"
				 "selftest     : passed\n"
				 "internal     : no\n"
				 "type         : shash\n"
				 "blocksize    : 64\n"
				 "digestsize   : 20\n"
				 "\n";

static const char talitos_sample[] =
    "name         : authenc(hmac(sha1),cbc(aes))\n"
    "driver       : authenc-hmac-sha1-cbc-aes-talitos\n"
    "module       : talitos\n"
    "priority     : 3000\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : no\n"
    "type         : aead\n"
    "async        : yes\n"
    "blocksize    : 16\n"
    "ivsize       : 16\n"
    "maxauthsize  : 20\n"
    "geniv        : <none>\n"
    "\n"
    "name         : cbc(aes)\n"
    "driver       : cbc-aes-talitos\n"
    "module       : talitos\n"
    "priority     : 3000\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : no\n"
    "type         : skcipher\n"
    "async        : yes\n"
    "\n"
    "name         : cbc(aes)\n"
    "driver       : cbc(aes-generic)\n"
    "module       : kernel\n"
    "priority     : 100\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : no\n"
    "type         : skcipher\n"
    "async        : no\n"
    "\n"
    "name         : cbc(aes)\n"
    "driver       : cbc-aes-caam\n"
    "module       : caamalg\n"
    "priority     : 3500\n"
    "refcnt       : 1\n"
    "selftest     : unknown\n"
    "internal     : no\n"
    "type         : skcipher\n"
    "async        : yes\n"
    "\n"
    "name         : __cbc(aes)\n"
    "driver       : __cbc-aes-ppc-spe\n"
    "module       : kernel\n"
    "priority     : 4000\n"
    "refcnt       : 1\n"
    "selftest     : passed\n"
    "internal     : yes\n"
    "type         : skcipher\n"
    "\n"
    "name         : hmac(sha256)\n"
    "driver       : hmac-sha256-talitos\n"
    "module       : talitos\n"
    "priority     : 3000\n"
    "type         : ahash\n"
    "async        : yes\n"; /* no trailing blank line, no selftest line (old kernel) */

int main(void)
{
	struct nb_proc_crypto_alg algs[16];
	const struct nb_proc_crypto_alg *a;

	int n = nb_proc_crypto_parse(x86_sample, algs, 16);
	CHECK(n == 4, "x86 sample: 4 entries (got %d)", n);
	a = nb_proc_crypto_best(algs, (size_t)n, "aes");
	CHECK(a && !strcmp(a->driver, "aes-fixed-time") && a->priority == 101,
	      "aes: the priority-101 driver wins over aes-generic");
	a = nb_proc_crypto_best(algs, (size_t)n, "cbc(aes)");
	CHECK(a && !strcmp(a->type, "skcipher") && !a->async && !strcmp(a->module, "kernel"),
	      "cbc(aes): type, module, async parsed");
	CHECK(!nb_proc_crypto_best(algs, (size_t)n, "gcm(aes)"), "absent transform: none");
	CHECK(nb_crypto_driver_is_hw("cbc(ecb(aes-fixed-time))") == 0 &&
		  nb_crypto_driver_is_hw("hmac-sha1-lib") == 0 &&
		  nb_crypto_driver_is_hw("gcm-aes-aesni") == 0 &&
		  nb_crypto_driver_is_hw("cbc-aes-ce") == 0 &&
		  nb_crypto_driver_is_hw("cbc(aes-generic)") == 0,
	      "CPU implementations recognised");

	n = nb_proc_crypto_parse(talitos_sample, algs, 16);
	CHECK(n == 6, "talitos sample: 6 entries (got %d)", n);
	a = nb_proc_crypto_best(algs, (size_t)n, "cbc(aes)");
	CHECK(a && !strcmp(a->driver, "cbc-aes-talitos") && a->priority == 3000 &&
		  !strcmp(a->module, "talitos") && a->async,
	      "cbc(aes): talitos (3000) over generic (100); caam skipped (self-test not "
	      "passed), internal SPE helper skipped");
	a = nb_proc_crypto_best(algs, (size_t)n, "authenc(hmac(sha1),cbc(aes))");
	CHECK(a && !strcmp(a->driver, "authenc-hmac-sha1-cbc-aes-talitos"),
	      "IPsec transform served by talitos");
	a = nb_proc_crypto_best(algs, (size_t)n, "hmac(sha256)");
	CHECK(a && a->priority == 3000 && a->selftest_passed,
	      "last entry without blank line or selftest line");
	a = nb_proc_crypto_by_driver(algs, (size_t)n, "cbc(aes-generic)");
	CHECK(a && a->priority == 100, "lookup by driver name");
	CHECK(nb_crypto_driver_is_hw("cbc-aes-talitos") == 1 &&
		  nb_crypto_driver_is_hw("cbc-aes-caam") == 1 &&
		  nb_crypto_driver_is_hw("authenc-hmac-sha1-cbc-aes-talitos") == 1,
	      "hardware drivers recognised");
	CHECK(nb_crypto_driver_is_hw("") == -1, "empty driver: unknown");
	CHECK(nb_crypto_driver_is_hw("authenc(hmac(sha1-generic),virtio_crypto_aes_cbc)") == 1 &&
		  nb_crypto_driver_is_hw("echainiv(authenc(hmac(sha256-ce),cbc-aes-caam))") == 1 &&
		  nb_crypto_driver_is_hw("rfc4106(gcm-aes-caam)") == 1 &&
		  nb_crypto_driver_is_hw("authenc(hmac(sha1-generic),cbc(aes-generic))") == 0 &&
		  nb_crypto_driver_is_hw("rfc4106(gcm_base(ctr(aes-aesni),ghash-clmulni))") == 0,
	      "a template is classed by its inner cipher's driver");

	CHECK(nb_proc_crypto_parse(talitos_sample, algs, 2) == 2, "bounded by max");
	CHECK(nb_proc_crypto_parse("", algs, 16) == 0, "empty text: no entries");

	/* Robustness (run under ASan too): mutated and truncated samples, long lines, no
	 * newlines, stray colons. The parser must stay in bounds and never report more than max. */
	char fuzz[sizeof(talitos_sample) + 200];
	uint64_t seed = 1;
	bool fuzz_ok = true;
	for (int it = 0; it < 3000; it++) {
		size_t len = sizeof(talitos_sample) - 1;
		memcpy(fuzz, talitos_sample, len + 1);
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		int muts = (int)(seed >> 60) + 1;
		for (int m = 0; m < muts; m++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			size_t at = (size_t)(seed >> 33) % len;
			static const char pick[] = ":\n \t\0xy9(";
			fuzz[at] = pick[(seed >> 20) % (sizeof(pick) - 1)];
		}
		if (it % 3 == 0)
			fuzz[(seed >> 40) % len] = '\0'; /* truncation */
		if (it % 7 == 0) {
			memset(fuzz, 'a', sizeof(fuzz) - 1); /* one huge line */
			fuzz[sizeof(fuzz) - 1] = '\0';
			fuzz[100] = ':';
		}
		int k = nb_proc_crypto_parse(fuzz, algs, 4);
		fuzz_ok &= k >= 0 && k <= 4;
		if (k > 0)
			nb_proc_crypto_best(algs, (size_t)k, algs[0].name);
	}
	CHECK(fuzz_ok, "3000 mutated inputs parsed within bounds");

	/* The file path: the whole lookup on a captured file. */
	char path[] = "/tmp/t_crypto_proc.XXXXXX";
	int fd = mkstemp(path);
	struct nb_crypto_driver drv;
	if (fd >= 0) {
		CHECK(write(fd, talitos_sample, sizeof(talitos_sample) - 1) ==
			  (ssize_t)(sizeof(talitos_sample) - 1),
		      "sample written");
		close(fd);
		CHECK(nb_proc_crypto_lookup(path, "cbc(aes)", NULL, &drv) == 0 &&
			  !strcmp(drv.driver, "cbc-aes-talitos") && drv.priority == 3000 &&
			  drv.hw == 1,
		      "lookup from file: talitos, priority 3000, hardware");
		CHECK(nb_proc_crypto_lookup(path, "gcm(aes)", NULL, &drv) == -ENOENT,
		      "lookup of an absent transform: -ENOENT");
		unlink(path);
	}
	CHECK(nb_proc_crypto_lookup("/nonexistent/crypto", "aes", NULL, &drv) == -ENOENT,
	      "missing file: -ENOENT");
	if (access("/proc/crypto", R_OK) == 0) {
		/* What this machine has decides the answer: sha1 listed, or not. */
		FILE *f = fopen("/proc/crypto", "r");
		char line[256];
		bool listed = false;
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "name", 4) && strstr(line, ": sha1\n"))
				listed = true;
		if (f)
			fclose(f);
		int r = nb_proc_crypto_lookup(NULL, "sha1", NULL, &drv);
		if (listed)
			CHECK(r == 0 && drv.driver[0] && drv.priority >= 0,
			      "this machine's /proc/crypto lists sha1: found, driver %s",
			      r ? "none" : drv.driver);
		else
			CHECK(r == -ENOENT,
			      "this machine's /proc/crypto lists no sha1: -ENOENT (%d)", r);
	}
	return tap_done();
}
