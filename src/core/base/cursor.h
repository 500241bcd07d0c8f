/* SPDX-License-Identifier: BSD-2-Clause */
/* The one record cursor of the wire codecs: bounded big-endian reads and writes over a byte
 * buffer. A write or read past the end writes nothing, reads zeros and marks the cursor bad, so
 * a codec writes or reads a whole record and checks `bad` once at the end. Doubles cross as
 * their IEEE 754 binary64 bits (every target has them; only the byte order is fixed here). */
#ifndef NB_CURSOR_H
#define NB_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/base/escape.h"
#include "core/base/wire.h"

struct nb_cur {
	uint8_t *w;	  /* writing: the buffer (NULL when reading) */
	const uint8_t *r; /* reading: the bytes */
	size_t off, len;  /* position, and the buffer's length */
	bool bad;	  /* a bound was hit, or a value was out of range */
};

static inline struct nb_cur nb_cur_writer(uint8_t *buf, size_t len)
{
	return (struct nb_cur){.w = buf, .len = len};
}

static inline struct nb_cur nb_cur_reader(const uint8_t *buf, size_t len)
{
	return (struct nb_cur){.r = buf, .len = len};
}

/* True when n more bytes fit; marks the cursor bad otherwise. */
static inline bool nb_cur_room(struct nb_cur *c, size_t n)
{
	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return false;
	}
	return true;
}

static inline size_t nb_cur_left(const struct nb_cur *c)
{
	return c->len - c->off;
}

static inline void nb_cur_put_u16(struct nb_cur *c, uint16_t v)
{
	if (nb_cur_room(c, 2)) {
		nb_put_be16(c->w + c->off, v);
		c->off += 2;
	}
}

static inline void nb_cur_put_u32(struct nb_cur *c, uint32_t v)
{
	if (nb_cur_room(c, 4)) {
		nb_put_be32(c->w + c->off, v);
		c->off += 4;
	}
}

static inline void nb_cur_put_u64(struct nb_cur *c, uint64_t v)
{
	if (nb_cur_room(c, 8)) {
		nb_put_be64(c->w + c->off, v);
		c->off += 8;
	}
}

static inline void nb_cur_put_dbl(struct nb_cur *c, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	nb_cur_put_u64(c, v);
}

static inline void nb_cur_put_bytes(struct nb_cur *c, const void *p, size_t n)
{
	if (nb_cur_room(c, n)) {
		if (n)
			memcpy(c->w + c->off, p, n);
		c->off += n;
	}
}

/* A string in a fixed field of `field` bytes, NUL-padded; the field always ends with a NUL. */
static inline void nb_cur_put_strfield(struct nb_cur *c, const char *s, size_t field)
{
	if (nb_cur_room(c, field)) {
		size_t n = strnlen(s, field - 1);
		memset(c->w + c->off, 0, field);
		memcpy(c->w + c->off, s, n);
		c->off += field;
	}
}

/* Reserves n bytes to be filled later (a length written after its contents); NULL when full. */
static inline uint8_t *nb_cur_reserve(struct nb_cur *c, size_t n)
{
	uint8_t *p = NULL;
	if (nb_cur_room(c, n)) {
		p = c->w + c->off;
		c->off += n;
	}
	return p;
}

static inline uint16_t nb_cur_get_u16(struct nb_cur *c)
{
	if (!nb_cur_room(c, 2))
		return 0;
	c->off += 2;
	return nb_get_be16(c->r + c->off - 2);
}

static inline uint32_t nb_cur_get_u32(struct nb_cur *c)
{
	if (!nb_cur_room(c, 4))
		return 0;
	c->off += 4;
	return nb_get_be32(c->r + c->off - 4);
}

static inline uint64_t nb_cur_get_u64(struct nb_cur *c)
{
	if (!nb_cur_room(c, 8))
		return 0;
	c->off += 8;
	return nb_get_be64(c->r + c->off - 8);
}

static inline double nb_cur_get_dbl(struct nb_cur *c)
{
	uint64_t v = nb_cur_get_u64(c);
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

/* A 32-bit 0 or 1; anything else marks the cursor bad. */
static inline bool nb_cur_get_bool(struct nb_cur *c)
{
	uint32_t v = nb_cur_get_u32(c);
	if (v > 1)
		c->bad = true;
	return v == 1;
}

/* The next n bytes in place (NULL when fewer are left). */
static inline const uint8_t *nb_cur_get_bytes(struct nb_cur *c, size_t n)
{
	if (!nb_cur_room(c, n))
		return NULL;
	c->off += n;
	return c->r + c->off - n;
}

/* A fixed field written by nb_cur_put_strfield: without a NUL inside it, the cursor is bad. */
static inline void nb_cur_get_strfield(struct nb_cur *c, char *s, size_t field)
{
	const uint8_t *p = nb_cur_get_bytes(c, field);
	if (!p) {
		s[0] = '\0';
		return;
	}
	if (!memchr(p, '\0', field))
		c->bad = true;
	memcpy(s, p, field);
	s[field - 1] = '\0';
	nb_esc_inplace(s, field, NB_ESC_LINE); /* foreign text: docs/security.md */
}

#endif
