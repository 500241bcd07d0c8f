/* SPDX-License-Identifier: BSD-2-Clause */
/* IMIX parsing and the interleaving pattern (mix.h). */
#include "core/rate/mix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Smooth weighted round robin: each position goes to the entry whose running credit is
 * highest; the chosen one pays the total. Every entry's share of any prefix stays within one
 * frame of its weight's proportion. */
static void build_pattern(struct nb_mix *m)
{
	int64_t credit[NB_MIX_MAX] = {0};
	uint32_t total = 0;

	for (uint32_t i = 0; i < m->n; i++)
		total += m->weight[i];
	m->plen = total;
	for (uint32_t k = 0; k < total; k++) {
		uint32_t best = 0;
		for (uint32_t i = 0; i < m->n; i++) {
			credit[i] += m->weight[i];
			if (credit[i] > credit[best])
				best = i;
		}
		credit[best] -= total;
		m->pattern[k] = (uint8_t)best;
	}
}

int nb_mix_parse(const char *spec, uint32_t min_bytes, uint32_t max_bytes, struct nb_mix *m,
		 char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;
	uint32_t g = 0;
	uint64_t sum = 0, wsum = 0;

	memset(m, 0, sizeof(*m));
	if (!spec || !*spec || strlen(spec) >= sizeof(m->spec)) {
		snprintf(err, errlen, "'%s' is not a mix (simple, or SIZE:WEIGHT,...)",
			 spec ? spec : "");
		return -EINVAL;
	}
	memcpy(m->spec, spec, strlen(spec) + 1);
	strcpy(buf, strcmp(spec, "simple") ? spec : "64:7,570:4,1518:1");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end;
		unsigned long b, w;
		if (m->n == NB_MIX_MAX) {
			snprintf(err, errlen, "'%s': at most %u sizes in a mix", spec, NB_MIX_MAX);
			return -EINVAL;
		}
		if (!colon) {
			snprintf(err, errlen, "'%s' is not SIZE:WEIGHT (in '%s')", tok, spec);
			return -EINVAL;
		}
		*colon = '\0';
		b = strtoul(tok, &end, 10);
		if (end == tok || *end || b < min_bytes || b > max_bytes) {
			snprintf(err, errlen, "frame size '%s' in '%s': %u to %u bytes", tok, spec,
				 min_bytes, max_bytes);
			return -EINVAL;
		}
		w = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || *end || w < 1 || w > 1000) {
			snprintf(err, errlen, "weight '%s' in '%s': 1 to 1000", colon + 1, spec);
			return -EINVAL;
		}
		for (uint32_t i = 0; i < m->n; i++)
			if (m->bytes[i] == b) {
				snprintf(err, errlen, "frame size %lu twice in '%s'", b, spec);
				return -EINVAL;
			}
		m->bytes[m->n] = (uint32_t)b;
		m->weight[m->n++] = (uint32_t)w;
		g = gcd(g, (uint32_t)w);
	}
	if (m->n < 2) {
		snprintf(err, errlen, "'%s': a mix has 2 to %u sizes (one size: --sizes)", spec,
			 NB_MIX_MAX);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < m->n; i++) {
		m->weight[i] /= g;
		wsum += m->weight[i];
		sum += (uint64_t)m->weight[i] * m->bytes[i];
	}
	if (wsum > NB_MIX_PATTERN_MAX) {
		snprintf(err, errlen,
			 "'%s': the weights add up to %llu (at most %u after dividing "
			 "by their greatest common divisor)",
			 spec, (unsigned long long)wsum, NB_MIX_PATTERN_MAX);
		return -EINVAL;
	}
	m->mean_bytes = (double)sum / (double)wsum;
	build_pattern(m);
	return 0;
}

uint64_t nb_mix_count(const struct nb_mix *m, uint32_t i, uint64_t n)
{
	uint64_t c = n / m->plen * m->weight[i];
	for (uint32_t k = 0; k < n % m->plen; k++)
		c += m->pattern[k] == i;
	return c;
}

uint32_t nb_mix_max_bytes(const struct nb_mix *m)
{
	uint32_t x = 0;
	for (uint32_t i = 0; i < m->n; i++)
		x = m->bytes[i] > x ? m->bytes[i] : x;
	return x;
}

uint32_t nb_mix_min_bytes(const struct nb_mix *m)
{
	uint32_t x = UINT32_MAX;
	for (uint32_t i = 0; i < m->n; i++)
		x = m->bytes[i] < x ? m->bytes[i] : x;
	return x;
}
