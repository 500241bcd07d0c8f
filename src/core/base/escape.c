/* SPDX-License-Identifier: BSD-2-Clause */
/* Escaping of foreign strings for the terminal: one pass over UTF-8 that keeps printable text
 * (any language) and turns every control character, and every byte that is not UTF-8, into a
 * visible escape. A terminal acts on C1 controls sent as UTF-8 (U+009B is CSI) as on ESC [. */
#include "core/base/escape.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when p does not start one. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static bool kept_control(unsigned char c, enum nb_esc_mode mode)
{
	return mode != NB_ESC_LINE && (c == '\n' || c == '\t');
}

/* Bytes at p to copy as they are (> 0), or 0 when the byte at p must be escaped. */
static size_t safe_run(const unsigned char *p, size_t n, enum nb_esc_mode mode)
{
	if (p[0] < 0x20 || p[0] == 0x7f)
		return kept_control(p[0], mode) ? 1 : 0;
	size_t len = utf8_len(p, n);
	if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0; /* C1 control */
	return len;
}

bool nb_esc_needed(const char *s, size_t n, enum nb_esc_mode mode)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = safe_run(p + i, n - i, mode);
		if (!k)
			return true;
		i += k;
	}
	return false;
}

size_t nb_esc(char *out, size_t cap, const char *in, size_t n, enum nb_esc_mode mode)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t need = 0, o = 0;
	bool full = false;
	for (size_t i = 0; i < n;) {
		char esc[16];
		size_t k = safe_run(p + i, n - i, mode), w;
		const char *src;
		if (k) {
			src = in + i;
			w = k;
		} else if (mode == NB_ESC_JSON) {
			/* A C1 control is one character in JSON: \u0080..\u009f. */
			bool c1 = p[i] == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] < 0xa0;
			w = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", c1 ? p[i + 1] : p[i]);
			src = esc;
			k = c1 ? 2 : 1;
		} else {
			w = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", p[i]);
			src = esc;
			k = 1;
		}
		need += w;
		if (!full && o + w < cap) {
			memcpy(out + o, src, w);
			o += w;
		} else {
			full = true;
		}
		i += k;
	}
	if (cap)
		out[o] = '\0';
	return need;
}

void nb_esc_inplace(char *buf, size_t cap, enum nb_esc_mode mode)
{
	size_t n = strnlen(buf, cap);
	if (!nb_esc_needed(buf, n, mode))
		return;
	char *tmp = malloc(cap);
	if (!tmp) {
		buf[0] = '\0'; /* an empty field rather than a raw one */
		return;
	}
	nb_esc(tmp, cap, buf, n, mode);
	memcpy(buf, tmp, cap);
	free(tmp);
}

char *nb_esc_dup(const char *s, enum nb_esc_mode mode)
{
	size_t n = strlen(s), need = nb_esc(NULL, 0, s, n, mode);
	char *out = malloc(need + 1);
	if (out)
		nb_esc(out, need + 1, s, n, mode);
	return out;
}
