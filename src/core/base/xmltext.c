/* SPDX-License-Identifier: BSD-2-Clause */
/* XML 1.0 text (xmltext.h). */
#include "core/base/xmltext.h"

#include <stdint.h>

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* The length of the valid UTF-8 sequence at s (2 to 4) and its code point, or 0. */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	uint32_t c = s[0] & (n == 4 ? 0x07 : n == 3 ? 0x0f : 0x1f);
	static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also the terminating NUL */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

void nb_xml_write(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		unsigned char c = *p;
		uint32_t cp;
		int n;
		if (c < 0x80) {
			if (c == '&')
				fputs("&amp;", f);
			else if (c == '<')
				fputs("&lt;", f);
			else if (c == '>')
				fputs("&gt;", f);
			else if (c == '"')
				fputs("&quot;", f);
			else if (c == '\'')
				fputs("&#39;", f);
			else if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r')
				fputc(c, f);
			else
				fputs(REPLACEMENT, f);
			p++;
		} else if ((n = utf8_seq(p, &cp)) == 0) {
			fputs(REPLACEMENT, f);
			p++;
		} else {
			if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
				fputs(REPLACEMENT, f);
			else
				fwrite(p, 1, (size_t)n, f);
			p += n;
		}
	}
}
