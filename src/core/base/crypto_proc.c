/* SPDX-License-Identifier: BSD-2-Clause */
/* /proc/crypto: which implementation (driver) of a transform the kernel has and at what
 * priority. The kernel serves a request with the highest-priority implementation that passed
 * its self-test, so a hardware driver registered below a CPU one is never used. */
#include "core/base/crypto_proc.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/compat.h"

static void copy_val(char *dst, size_t cap, const char *v, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

int nb_proc_crypto_parse(const char *text, struct nb_proc_crypto_alg *algs, size_t max)
{
	struct nb_proc_crypto_alg cur;
	bool open = false;
	size_t n = 0;
	const char *p = text;

	memset(&cur, 0, sizeof(cur));
	for (;;) {
		const char *eol = strchr(p, '\n');
		size_t l = eol ? (size_t)(eol - p) : strlen(p);
		const char *colon = memchr(p, ':', l);
		if (l == 0 || !colon) {
			/* A blank line (or the end) closes an entry. */
			if (open && cur.name[0]) {
				if (n < max)
					algs[n] = cur;
				n++;
			}
			open = false;
			memset(&cur, 0, sizeof(cur));
			cur.priority = -1;
		} else {
			size_t kl = (size_t)(colon - p);
			while (kl && (p[kl - 1] == ' ' || p[kl - 1] == '\t'))
				kl--;
			const char *v = colon + 1;
			while (v < p + l && (*v == ' ' || *v == '\t'))
				v++;
			size_t vl = (size_t)(p + l - v);
			while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\r'))
				vl--;
			if (!open) {
				open = true;
				memset(&cur, 0, sizeof(cur));
				cur.priority = -1;
				cur.selftest_passed =
				    true; /* kernels before 4.x print no selftest line */
			}
#define KEY(s) (kl == sizeof(s) - 1 && !memcmp(p, s, kl))
			if (KEY("name"))
				copy_val(cur.name, sizeof(cur.name), v, vl);
			else if (KEY("driver"))
				copy_val(cur.driver, sizeof(cur.driver), v, vl);
			else if (KEY("module"))
				copy_val(cur.module, sizeof(cur.module), v, vl);
			else if (KEY("type"))
				copy_val(cur.type, sizeof(cur.type), v, vl);
			else if (KEY("priority"))
				cur.priority = atoi(v);
			else if (KEY("selftest"))
				cur.selftest_passed = vl >= 6 && !memcmp(v, "passed", 6);
			else if (KEY("internal"))
				cur.internal = vl >= 3 && !memcmp(v, "yes", 3);
			else if (KEY("async"))
				cur.async = vl >= 3 && !memcmp(v, "yes", 3);
#undef KEY
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	if (open && cur.name[0]) {
		if (n < max)
			algs[n] = cur;
		n++;
	}
	return n > max ? (int)max : (int)n;
}

const struct nb_proc_crypto_alg *nb_proc_crypto_best(const struct nb_proc_crypto_alg *algs,
						     size_t n, const char *name)
{
	const struct nb_proc_crypto_alg *best = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct nb_proc_crypto_alg *a = &algs[i];
		if (strcmp(a->name, name) || !a->selftest_passed || a->internal)
			continue;
		if (!best || a->priority > best->priority)
			best = a;
	}
	return best;
}

const struct nb_proc_crypto_alg *nb_proc_crypto_by_driver(const struct nb_proc_crypto_alg *algs,
							  size_t n, const char *driver)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(algs[i].driver, driver))
			return &algs[i];
	return NULL;
}

/* Reads a whole proc file (its size is not known in advance). */
static int read_all(const char *path, char **out)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	int fd = -1, ret = -ENOMEM;

	if (!buf)
		goto out;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			ret = -errno;
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

int nb_proc_crypto_lookup(const char *path, const char *name, const char *driver,
			  struct nb_crypto_driver *drv)
{
	enum { MAX_ALGS = 2048 };
	char *text = NULL;
	struct nb_proc_crypto_alg *algs = calloc(MAX_ALGS, sizeof(*algs));
	int ret = -ENOMEM;

	memset(drv, 0, sizeof(*drv));
	drv->priority = -1;
	drv->hw = -1;
	if (!algs)
		goto out;
	ret = read_all(path ? path : "/proc/crypto", &text);
	if (ret)
		goto out;
	int n = nb_proc_crypto_parse(text, algs, MAX_ALGS);
	const struct nb_proc_crypto_alg *a = driver
						 ? nb_proc_crypto_by_driver(algs, (size_t)n, driver)
						 : nb_proc_crypto_best(algs, (size_t)n, name);
	ret = -ENOENT;
	if (!a)
		goto out;
	snprintf(drv->name, sizeof(drv->name), "%s", a->name);
	snprintf(drv->driver, sizeof(drv->driver), "%s", a->driver);
	snprintf(drv->module, sizeof(drv->module), "%s", a->module);
	drv->priority = a->priority;
	drv->hw = nb_crypto_driver_is_hw(a->driver);
	ret = 0;
out:
	free(text);
	free(algs);
	return ret;
}

/* Is one implementation name (no template around it) a CPU's? */
static bool cpu_impl(const char *name, size_t len)
{
	static const char *const cpu[] = {
	    "generic", "-lib", "fixed-time", "aesni",  "avx",  "sse",	 "ssse3", "-ce",
	    "neon",    "-arm", "arm64",	     "-asm",   "-ppc", "-spe",	 "-vmx",  "p8",
	    "-mips",   "-x86", "-s390",	     "-riscv", "-zvk", "-clmul",
	};
	char buf[128];
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	for (size_t i = 0; i < sizeof(cpu) / sizeof(cpu[0]); i++)
		if (strstr(buf, cpu[i]))
			return true;
	return false;
}

int nb_crypto_driver_is_hw(const char *driver)
{
	/* Implementation names of the CPU: generic C, library code, and instruction-set drivers of
	 * x86, ARM, PowerPC, MIPS. Anything else is taken to be a device (talitos, caam, sec,
	 * safexcel, omap, virtio_crypto...). A template (authenc(hmac(sha1-generic),
	 * virtio_crypto_aes_cbc), echainiv(...), rfc4106(...)) is classed by the implementations
	 * inside it: a device among them does the heavy part (the cipher), so the whole is the
	 * device's; only when every inner one is a CPU's is the template a CPU's. */
	if (!driver || !*driver)
		return -1;
	bool any = false;
	for (const char *p = driver; *p;) {
		size_t n = strcspn(p, "(),");
		if (n && p[n] != '(') {
			any = true;
			if (!cpu_impl(p, n))
				return 1;
		}
		p += n + (p[n] != '\0');
	}
	return any ? 0 : 1;
}

void nb_proc_crypto_instantiate(const char *type, const char *name)
{
	struct sockaddr_alg sa;
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	(void)bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
}
