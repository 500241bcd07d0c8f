/* SPDX-License-Identifier: BSD-2-Clause */
/* A crypto run's parameters: the engine table, the defaults, and the selection of algorithms and
 * engines from the user's lists (afalg:DRIVER and afalg:all bind kernel drivers). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto/crypto_params.h"

const struct nb_crypto_engine *const nb_crypto_engines[] = {
    &nb_crypto_soft,
    &nb_crypto_devcrypto,
    &nb_crypto_afalg,
    NULL,
};

const struct nb_crypto_engine *nb_crypto_engine_find(const char *name)
{
	for (size_t i = 0; nb_crypto_engines[i]; i++)
		if (!strcmp(nb_crypto_engines[i]->name, name))
			return nb_crypto_engines[i];
	return NULL;
}

static const uint32_t default_sizes[] = {16, 64, 256, 1024, 1420, 8192, 16384};

void nb_crypto_params_default(struct nb_crypto_params *o)
{
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < nb_crypto_nalgos && i < NB_CRYPTO_MAX_ALGOS; i++)
		o->algos[o->nalgos++] = &nb_crypto_algos[i];
	for (size_t i = 0; i < sizeof(default_sizes) / sizeof(default_sizes[0]); i++)
		o->sizes[o->nsizes++] = default_sizes[i];
	for (size_t i = 0; nb_crypto_engines[i] && i < NB_CRYPTO_MAX_ENGINES; i++)
		o->engines[o->nengines++] = nb_crypto_engines[i];
	o->time_ns = 500000000ull;
	o->warmup_ns = 100000000ull;
	o->inflight = 1;
	o->aad_len = 8; /* ESP's SPI and sequence number (RFC 4106) */
	o->repeat = 3;
}

/* Splits list at commas and calls add for each name; "all" adds everything. */
static int select_list(const char *list, const void *(*find)(const char *), const void **items,
		       size_t *n, size_t max, const void *(*nth)(size_t), char *bad, size_t len)
{
	char name[64];
	const char *p = list;
	size_t count = 0;

	if (!*list) {
		snprintf(bad, len, "(empty)");
		return -ENOENT;
	}
	while (*p) {
		size_t l = strcspn(p, ",");
		if (l == 0 || l >= sizeof(name) || (p[l] == ',' && p[l + 1] == '\0')) {
			snprintf(bad, len, "%.*s", (int)(l && p[l] != ',' ? l : l + 1), p);
			return -ENOENT;
		}
		memcpy(name, p, l);
		name[l] = '\0';
		p += l + (p[l] == ',');
		if (!strcmp(name, "all")) {
			for (size_t i = 0; nth(i); i++) {
				if (count >= max)
					return -E2BIG;
				items[count++] = nth(i);
			}
			continue;
		}
		const void *it = find(name);
		if (!it) {
			snprintf(bad, len, "%s", name);
			return -ENOENT;
		}
		bool dup = false;
		for (size_t i = 0; i < count; i++)
			dup |= items[i] == it;
		if (dup)
			continue;
		if (count >= max)
			return -E2BIG;
		items[count++] = it;
	}
	*n = count;
	return 0;
}

static const void *engine_find_v(const char *name)
{
	return nb_crypto_engine_find(name);
}

static const void *engine_nth(size_t i)
{
	return i < NB_CRYPTO_MAX_ENGINES ? nb_crypto_engines[i] : NULL;
}

static const void *algo_find_v(const char *name)
{
	return nb_crypto_algo_find(name);
}

static const void *algo_nth(size_t i)
{
	return i < nb_crypto_nalgos ? &nb_crypto_algos[i] : NULL;
}

/* Adds the afalg engine bound to one kernel driver; duplicates are skipped. */
static int add_driver(struct nb_crypto_params *o, const char *driver, char *bad, size_t len)
{
	size_t l = strlen(driver);
	if (l == 0 || l >= 64 || strcspn(driver, " \t\n:") != l) {
		snprintf(bad, len, "afalg:%s", driver);
		return -ENOENT; /* a driver name fits AF_ALG's 64-byte salg_name, without blanks */
	}
	for (size_t i = 0; i < o->ndrv; i++)
		if (!strcmp(o->drv_names[i][1], driver))
			return 0;
	if (o->ndrv >= NB_CRYPTO_MAX_ENGINES || o->nengines >= NB_CRYPTO_MAX_ENGINES)
		return -E2BIG;
	size_t i = o->ndrv++;
	snprintf(o->drv_names[i][0], sizeof(o->drv_names[i][0]), "afalg:%s", driver);
	snprintf(o->drv_names[i][1], sizeof(o->drv_names[i][1]), "%s", driver);
	o->drv_engines[i] = nb_crypto_afalg;
	o->drv_engines[i].name = o->drv_names[i][0];
	o->drv_engines[i].kernel_driver = o->drv_names[i][1];
	o->engines[o->nengines++] = &o->drv_engines[i];
	return 0;
}

/* Length of the list's first item: up to the next comma outside parentheses, so that a driver
 * name such as authenc(hmac(sha1-generic),cbc(aes-generic)) is one item. -1 when its
 * parentheses do not balance. */
static long item_len(const char *p)
{
	long depth = 0, l = 0;
	for (; p[l] && (p[l] != ',' || depth > 0); l++) {
		depth += p[l] == '(' ? 1 : p[l] == ')' ? -1 : 0;
		if (depth < 0)
			return -1;
	}
	return depth ? -1 : l;
}

int nb_crypto_select_engines(struct nb_crypto_params *o, const char *list, char *bad, size_t len)
{
	const void *items[NB_CRYPTO_MAX_ENGINES * 2];
	char plain[512] = "", drivers[512] = "";
	size_t n = 0, pl = 0, dl = 0;
	const char *p = list;
	int ret;

	/* afalg:DRIVER names apart; the plain engine names through select_list. */
	while (*p) {
		long il = item_len(p);
		if (il < 0) {
			snprintf(bad, len, "%s", p);
			return -EINVAL;
		}
		size_t l = (size_t)il;
		bool drv = l > 6 && !strncmp(p, "afalg:", 6);
		char *dst = drv ? drivers : plain;
		size_t *dl_p = drv ? &dl : &pl;
		if (*dl_p + l + 2 > sizeof(plain))
			return -E2BIG;
		if (*dl_p)
			dst[(*dl_p)++] = ',';
		memcpy(dst + *dl_p, drv ? p + 6 : p, drv ? l - 6 : l);
		*dl_p += drv ? l - 6 : l;
		dst[*dl_p] = '\0';
		p += l;
		if (*p == ',' && (p[1] == '\0' || p[1] == ',')) {
			snprintf(bad, len, "%s", list);
			return -ENOENT;
		}
		p += *p == ',';
	}
	if (!dl || pl) {
		ret = select_list(plain, engine_find_v, items, &n, NB_CRYPTO_MAX_ENGINES,
				  engine_nth, bad, len);
		if (ret)
			return ret;
	}
	/* Soft first: it is the reference the others are checked and compared against. */
	o->nengines = 0;
	o->ndrv = 0;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if ((items[i] == &nb_crypto_soft) == (pass == 0))
				o->engines[o->nengines++] = items[i];
	for (char *d = dl ? drivers : NULL, *next; d; d = next) {
		size_t l = (size_t)item_len(d); /* balanced: checked above */
		next = d[l] ? d + l + 1 : NULL;
		d[l] = '\0';
		if (strcmp(d, "all")) {
			if ((ret = add_driver(o, d, bad, len)))
				return ret;
			continue;
		}
		/* Every driver of every selected algorithm, as this kernel has them. */
		for (size_t ai = 0; ai < o->nalgos; ai++) {
			char found[NB_CRYPTO_MAX_ENGINES][80];
			size_t nf =
			    nb_crypto_afalg_drivers(o->algos[ai], found, NB_CRYPTO_MAX_ENGINES);
			for (size_t i = 0; i < nf; i++)
				if ((ret = add_driver(o, found[i], bad, len)))
					return ret;
		}
	}
	if (!o->nengines) {
		snprintf(bad, len, "%s (no kernel driver of the selected algorithms here)", list);
		return -ENOENT;
	}
	return 0;
}

void nb_crypto_params_copy(struct nb_crypto_params *dst, const struct nb_crypto_params *src)
{
	*dst = *src;
	for (size_t ei = 0; ei < dst->nengines; ei++)
		for (size_t i = 0; i < src->ndrv; i++)
			if (src->engines[ei] == &src->drv_engines[i])
				dst->engines[ei] = &dst->drv_engines[i];
	for (size_t i = 0; i < dst->ndrv; i++) {
		dst->drv_engines[i].name = dst->drv_names[i][0];
		dst->drv_engines[i].kernel_driver = dst->drv_names[i][1];
	}
}

int nb_crypto_select_algos(struct nb_crypto_params *o, const char *list, char *bad, size_t len)
{
	const void *items[NB_CRYPTO_MAX_ALGOS * 2];
	size_t n = 0;
	int ret =
	    select_list(list, algo_find_v, items, &n, NB_CRYPTO_MAX_ALGOS, algo_nth, bad, len);
	if (ret)
		return ret;
	o->nalgos = n;
	for (size_t i = 0; i < n; i++)
		o->algos[i] = items[i];
	return 0;
}
