/* SPDX-License-Identifier: BSD-2-Clause */
/* Terminal escaping of foreign text: every C0, DEL and C1 control and every non-UTF-8 byte is
 * made visible, printable UTF-8 is kept, nothing is cut in half, and the wire getters escape. */
#include <stdlib.h>
#include <string.h>

#include "core/base/cursor.h"
#include "core/base/escape.h"
#include "core/session/proto.h"
#include "tap.h"

static const char *esc(const char *in, enum nb_esc_mode m)
{
	static char buf[256];
	nb_esc(buf, sizeof(buf), in, strlen(in), m);
	return buf;
}

int main(void)
{
	char small[8], field[16];

	CHECK(!strcmp(esc("plain board-1 (x86_64)", NB_ESC_LINE), "plain board-1 (x86_64)"),
	      "printable ASCII is kept");
	CHECK(!strcmp(esc("gr\xc3\xbc\xc3\x9f \xe6\x97\xa5", NB_ESC_LINE),
		      "gr\xc3\xbc\xc3\x9f \xe6\x97\xa5"),
	      "printable UTF-8 is kept");
	CHECK(!strcmp(esc("a\x1b]0;t\x07z", NB_ESC_LINE), "a\\x1b]0;t\\x07z"),
	      "ESC and BEL become \\x1b and \\x07");
	CHECK(!strcmp(esc("a\rb\x7f", NB_ESC_LINE), "a\\x0db\\x7f"), "CR and DEL are escaped");
	CHECK(!strcmp(esc("\xc2\x9b"
			  "31m",
			  NB_ESC_LINE),
		      "\\xc2\\x9b31m"),
	      "a C1 control in UTF-8 (CSI, U+009B) is escaped");
	CHECK(!strcmp(esc("\xc2\xa0", NB_ESC_LINE), "\xc2\xa0"), "U+00A0 is not a control: kept");
	CHECK(!strcmp(esc("\x9b"
			  "31m",
			  NB_ESC_LINE),
		      "\\x9b31m"),
	      "a raw 8-bit C1 byte is escaped");
	CHECK(!strcmp(esc("\xc0\xaf\xed\xa0\x80", NB_ESC_LINE), "\\xc0\\xaf\\xed\\xa0\\x80"),
	      "overlong forms and surrogates are not UTF-8: escaped");
	CHECK(!strcmp(esc("a\nb\tc", NB_ESC_LINE), "a\\x0ab\\x09c"),
	      "LINE escapes newline and tab");
	CHECK(!strcmp(esc("a\nb\tc\x1b", NB_ESC_TEXT), "a\nb\tc\\x1b"),
	      "TEXT keeps newline and tab");
	CHECK(!strcmp(esc("{\"h\":\"a\x1b\xc2\x9b\"}\n", NB_ESC_JSON),
		      "{\"h\":\"a\\u001b\\u009b\"}\n"),
	      "JSON escapes as \\u00NN, a C1 control as one character");
	CHECK(nb_esc(small, sizeof(small), "abcd\x1b", 5, NB_ESC_LINE) == 8 &&
		  !strcmp(small, "abcd"),
	      "an escape that does not fit is left out whole (needs 8, got \"%s\")", small);
	CHECK(nb_esc(small, sizeof(small), "ab\xe6\x97\xa5\xe6\x97\xa5", 8, NB_ESC_LINE) == 8 &&
		  !strcmp(small, "ab\xe6\x97\xa5"),
	      "a UTF-8 character is never cut");
	CHECK(nb_esc_needed("ok", 2, NB_ESC_LINE) == false &&
		  nb_esc_needed("\x1b", 1, NB_ESC_LINE) == true,
	      "nb_esc_needed");
	strcpy(field, "ab\x1b[2Jcdefghij");
	nb_esc_inplace(field, sizeof(field), NB_ESC_LINE);
	CHECK(!strcmp(field, "ab\\x1b[2Jcdefgh"), "in place, cut to the field: \"%s\"", field);
	char *d = nb_esc_dup("x\x07", NB_ESC_LINE);
	CHECK(d && !strcmp(d, "x\\x07"), "dup");
	free(d);

	/* The wire getters escape what the peer sends. */
	struct nb_msg *m = nb_msg_new(NB_MSG_HELLO_OK);
	CHECK(m && nb_msg_put_str(m, NB_T_SI_HOSTNAME, "h\x1b]0;x\x07") == 0, "message built");
	struct nb_sysinfo si;
	nb_proto_get_sysinfo(m, &si);
	CHECK(!strcmp(si.hostname, "h\\x1b]0;x\\x07"),
	      "a host name from an agent arrives escaped: %s", si.hostname);
	nb_msg_free(m);
	uint8_t wire[16] = "a\x1b"
			   "b";
	struct nb_cur c = nb_cur_reader(wire, sizeof(wire));
	nb_cur_get_strfield(&c, field, sizeof(field));
	CHECK(!c.bad && !strcmp(field, "a\\x1bb"), "a fixed string field arrives escaped");
	return tap_done();
}
