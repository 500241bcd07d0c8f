/* SPDX-License-Identifier: BSD-2-Clause */
/* The record cursor of the wire codecs (core/base/cursor.h): big-endian layout, and that no
 * write or read ever passes the buffer's end, only marks the cursor bad. */
#include <string.h>

#include "core/base/cursor.h"
#include "tap.h"

int main(void)
{
	uint8_t b[16], big[64];
	struct nb_cur w = nb_cur_writer(b, sizeof(b)), r;
	char s[8];

	memset(b, 0xee, sizeof(b));
	nb_cur_put_u16(&w, 0x0102);
	nb_cur_put_u32(&w, 0x03040506);
	nb_cur_put_u64(&w, 0x0708090a0b0c0d0eULL);
	CHECK(!w.bad && w.off == 14, "14 bytes written (%zu)", w.off);
	CHECK(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[5] == 6 && b[6] == 7 && b[13] == 0x0e,
	      "big-endian on the wire");
	nb_cur_put_u32(&w, 0xffffffff);
	CHECK(w.bad && w.off == 14 && b[14] == 0xee && b[15] == 0xee,
	      "a write past the end writes nothing and marks the cursor bad");
	nb_cur_put_u16(&w, 1);
	CHECK(w.bad && w.off == 14, "a bad cursor stays bad (even where 2 bytes would fit)");

	r = nb_cur_reader(b, 14);
	CHECK(nb_cur_get_u16(&r) == 0x0102 && nb_cur_get_u32(&r) == 0x03040506 &&
		  nb_cur_get_u64(&r) == 0x0708090a0b0c0d0eULL && !r.bad && nb_cur_left(&r) == 0,
	      "what was written reads back");
	CHECK(nb_cur_get_u32(&r) == 0 && r.bad, "a read past the end gives 0 and marks bad");
	r = nb_cur_reader(b, 3);
	CHECK(nb_cur_get_u32(&r) == 0 && r.bad && r.off == 0, "a short buffer: nothing read");
	CHECK(nb_cur_get_bytes(&r, 1) == NULL, "... and nothing after");

	w = nb_cur_writer(big, sizeof(big));
	nb_cur_put_dbl(&w, -2.5);
	nb_cur_put_u32(&w, 1);
	nb_cur_put_u32(&w, 2);
	nb_cur_put_strfield(&w, "abcdefghij", 8);
	nb_cur_put_strfield(&w, "xy", 8);
	r = nb_cur_reader(big, w.off);
	CHECK(nb_cur_get_dbl(&r) == -2.5, "doubles cross as binary64");
	CHECK(nb_cur_get_bool(&r) && !r.bad, "1 is true");
	CHECK(nb_cur_get_bool(&r) == false && r.bad, "2 is not a flag: bad");
	r.bad = false;
	nb_cur_get_strfield(&r, s, sizeof(s));
	CHECK(!r.bad && !strcmp(s, "abcdefg"), "a long string is cut to its field, NUL-ended (%s)",
	      s);
	nb_cur_get_strfield(&r, s, sizeof(s));
	CHECK(!r.bad && !strcmp(s, "xy"), "a short one is NUL-padded");
	memset(big, 'z', 8);
	r = nb_cur_reader(big, 8);
	nb_cur_get_strfield(&r, s, sizeof(s));
	CHECK(r.bad && s[7] == '\0', "a field without its NUL is bad, and still ends the string");
	{
		uint8_t *at;
		w = nb_cur_writer(big, 6);
		at = nb_cur_reserve(&w, 2);
		nb_cur_put_u32(&w, 7);
		CHECK(at == big && w.off == 6 && !w.bad, "reserve leaves room to fill later");
		CHECK(nb_cur_reserve(&w, 1) == NULL && w.bad, "reserve past the end: NULL, bad");
	}
	return tap_done();
}
