/* SPDX-License-Identifier: BSD-2-Clause */
/* A window's profile on the wire (tags 620-629, inside the observe test's range; docs/protocol.md):
 * counts and names only, never a kernel address. The decoder bounds every count and length,
 * requires each CPU's categories to add up to its samples and names to be printable. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/base/wire.h"
#include "core/profile/prof.h"
#include "core/session/proto.h"

enum {
	T_HEAD = 620,	/* u32 available, u32 hz, u64 cpu_ns, window_ns, func_mask, throttled,
			   func_samples */
	T_WHY = 621,	/* string: why unavailable */
	T_CPU = 622,	/* u32 cpu, u64 samples, u64 lost, u32 ncat, u64 cat[ncat] */
	T_FUNC = 623,	/* u64 count, u8 name length, name, module */
	T_FOLDED = 624, /* the folded stacks' text */
};

#define HEAD_B 48
#define CPU_B  (4 + 16 + 4 + 8 * NB_PC_N)
#define FUNC_B 9

bool nb_prof_tag(uint16_t tag)
{
	return tag >= 620 && tag <= 629;
}

int nb_prof_put(struct nb_msg *m, const struct nb_prof_result *r)
{
	uint8_t b[CPU_B + NB_PROF_NAME + NB_PROF_MOD];
	int ret;
	nb_put_be32(b, r->available ? 1 : 0);
	nb_put_be32(b + 4, r->hz);
	nb_put_be64(b + 8, r->cpu_ns);
	nb_put_be64(b + 16, r->window_ns);
	nb_put_be64(b + 24, r->func_mask);
	nb_put_be64(b + 32, r->throttled);
	nb_put_be64(b + 40, r->func_samples);
	if ((ret = nb_msg_put_bytes(m, T_HEAD, b, HEAD_B)))
		return ret;
	if (!r->available)
		return nb_msg_put_str(m, T_WHY, r->why[0] ? r->why : "not reported");
	for (uint32_t i = 0; i < r->ncpu && i < NB_PROF_CPUS; i++) {
		const struct nb_prof_cpu *c = &r->cpu[i];
		nb_put_be32(b, c->cpu);
		nb_put_be64(b + 4, c->samples);
		nb_put_be64(b + 12, c->lost);
		nb_put_be32(b + 20, NB_PC_N);
		for (int k = 0; k < NB_PC_N; k++)
			nb_put_be64(b + 24 + 8 * k, c->cat[k]);
		if ((ret = nb_msg_put_bytes(m, T_CPU, b, CPU_B)))
			return ret;
	}
	for (uint32_t i = 0; i < r->nfunc && i < NB_PROF_FUNCS; i++) {
		const struct nb_prof_func *f = &r->func[i];
		size_t nl = strnlen(f->name, NB_PROF_NAME - 1),
		       ml = strnlen(f->module, NB_PROF_MOD - 1);
		nb_put_be64(b, f->count);
		b[8] = (uint8_t)nl;
		memcpy(b + FUNC_B, f->name, nl);
		memcpy(b + FUNC_B + nl, f->module, ml);
		if ((ret = nb_msg_put_bytes(m, T_FUNC, b, FUNC_B + nl + ml)))
			return ret;
	}
	/* The stacks go in whole when they fit in what the message has left; else not at all
	 * (the window's other items come first), and the result says so. */
	size_t fl = r->folded_len < NB_PROF_FOLDED_MAX ? r->folded_len : 0;
	if (fl && m->len + 4 + fl <= NB_MSG_MAX)
		return nb_msg_put_bytes(m, T_FOLDED, r->folded, fl);
	if (fl && r->func_samples) {
		char t[80];
		int n = snprintf(t, sizeof(t), "[stacks not sent: message full] %llu\n",
				 (unsigned long long)r->func_samples);
		return nb_msg_put_bytes(m, T_FOLDED, t, (size_t)n);
	}
	return 0;
}

static bool printable(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return true;
}

/* Lines "frames COUNT\n": printable, each ending in a space and digits. */
static bool folded_ok(const uint8_t *p, size_t n)
{
	size_t s = 0;
	if (!n || p[n - 1] != '\n')
		return false;
	for (size_t i = 0; i < n; i++) {
		if (p[i] != '\n')
			continue;
		size_t e = i, d = e;
		while (d > s && p[d - 1] >= '0' && p[d - 1] <= '9')
			d--;
		if (d == e || d == s || p[d - 1] != ' ' || d - 1 == s || !printable(p + s, e - s))
			return false;
		s = i + 1;
	}
	return true;
}

static int get_head(const uint8_t *p, size_t n, struct nb_prof_result *r)
{
	uint32_t a;
	if (n != HEAD_B)
		return -EBADMSG;
	a = nb_get_be32(p);
	r->hz = nb_get_be32(p + 4);
	r->cpu_ns = nb_get_be64(p + 8);
	r->window_ns = nb_get_be64(p + 16);
	r->func_mask = nb_get_be64(p + 24);
	r->throttled = nb_get_be64(p + 32);
	r->func_samples = nb_get_be64(p + 40);
	if (a > 1 || r->hz < 1 || r->hz > NB_PROF_HZ_MAX)
		return -EBADMSG;
	r->available = a == 1;
	return 0;
}

/* One CPU's samples: its categories must account for every sample, and no CPU comes twice
 * (seen: those before). */
static int get_cpu(const uint8_t *p, size_t n, struct nb_prof_result *r, uint64_t *seen)
{
	if (!r->available || n != CPU_B || r->ncpu >= NB_PROF_CPUS ||
	    nb_get_be32(p + 20) != NB_PC_N)
		return -EBADMSG;
	struct nb_prof_cpu *c = &r->cpu[r->ncpu];
	uint64_t sum = 0;
	c->cpu = nb_get_be32(p);
	c->samples = nb_get_be64(p + 4);
	c->lost = nb_get_be64(p + 12);
	for (int k = 0; k < NB_PC_N; k++) {
		c->cat[k] = nb_get_be64(p + 24 + 8 * k);
		if (c->cat[k] > c->samples)
			return -EBADMSG;
		sum += c->cat[k];
	}
	if (sum != c->samples)
		return -EBADMSG;
	for (uint32_t i = 0; i < r->ncpu; i++)
		if (seen[i] == c->cpu)
			return -EBADMSG;
	seen[r->ncpu++] = c->cpu;
	return 0;
}

static int get_func(const uint8_t *p, size_t n, struct nb_prof_result *r)
{
	if (!r->available || n <= FUNC_B || r->nfunc >= NB_PROF_FUNCS)
		return -EBADMSG;
	struct nb_prof_func *f = &r->func[r->nfunc];
	size_t nl = p[8], ml;
	if (!nl || nl >= NB_PROF_NAME || FUNC_B + nl > n)
		return -EBADMSG;
	ml = n - FUNC_B - nl;
	if (ml >= NB_PROF_MOD || !printable(p + FUNC_B, nl + ml))
		return -EBADMSG;
	f->count = nb_get_be64(p);
	if (!f->count || f->count > r->func_samples)
		return -EBADMSG;
	memcpy(f->name, p + FUNC_B, nl);
	f->name[nl] = '\0';
	memcpy(f->module, p + FUNC_B + nl, ml);
	f->module[ml] = '\0';
	r->nfunc++;
	return 0;
}

static int decode(const struct nb_msg *m, struct nb_prof_result *r)
{
	size_t off = 0, n;
	uint16_t tag;
	const uint8_t *p;
	bool head = false, why = false, folded = false;
	uint64_t seen[NB_PROF_CPUS];
	int ret = 0;

	while (nb_msg_next(m, &off, &tag, &p, &n) == 1) {
		if (!head && (tag == T_WHY || tag == T_CPU || tag == T_FUNC || tag == T_FOLDED))
			return -EBADMSG; /* the head comes first */
		switch (tag) {
		case T_HEAD:
			ret = head ? -EBADMSG : get_head(p, n, r);
			head = true;
			break;
		case T_WHY:
			if (r->available || why || !n || n >= sizeof(r->why) || !printable(p, n))
				return -EBADMSG;
			memcpy(r->why, p, n);
			r->why[n] = '\0';
			why = true;
			break;
		case T_CPU:
			ret = get_cpu(p, n, r, seen);
			break;
		case T_FUNC:
			ret = get_func(p, n, r);
			break;
		case T_FOLDED:
			if (!r->available || folded || n >= NB_PROF_FOLDED_MAX || !folded_ok(p, n))
				return -EBADMSG;
			memcpy(r->folded, p, n);
			r->folded[n] = '\0';
			r->folded_len = n;
			folded = true;
			break;
		default:
			if (nb_prof_tag(tag))
				return -EBADMSG; /* one of ours we do not know: another version */
			break;
		}
		if (ret)
			return ret;
	}
	if (!head)
		return 0;
	if (!r->available && !why)
		return -EBADMSG;
	return 1;
}

int nb_prof_get(const struct nb_msg *m, struct nb_prof_result *r)
{
	int ret;
	memset(r, 0, sizeof(*r));
	ret = decode(m, r);
	if (ret < 0)
		memset(r, 0, sizeof(*r));
	return ret;
}
