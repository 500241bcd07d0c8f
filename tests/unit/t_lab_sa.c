/* SPDX-License-Identifier: BSD-2-Clause */
/* A board's tunnel counters as its control port gives them ("xfrm-stat" of tests/board/init):
 * the lines parsed, each board's kept apart, anything else refused; keys out of ip's errors. */
#include <errno.h>
#include <string.h>

#include "core/lab/lab_sa.h"
#include "core/lab/lab_vpn.h"
#include "tap.h"

int main(void)
{
	static struct nb_lab_sa_list l;
	/* Captured from the DUT board after a 2 s trial through the tunnel. */
	const char *dut = "sa 198.19.0.1 198.19.0.254 0x39a9de76 47379 948\n"
			  "sa 198.19.0.254 198.19.0.1 0xac75d08f 423855 3862\n";
	const char *sink = "sa 198.19.0.1 198.19.0.254 0x39a9de76 47379 948\n"
			   "sa 198.19.0.254 198.19.0.1 0xac75d08f 423855 3862\n"
			   "xfrm_stat XfrmInNoStates 3\n";

	CHECK(nb_lab_sa_parse(dut, NB_LAB_DUT, &l) == 0 && l.n_sa == 2 && l.n_err == 0,
	      "the DUT board's two SAs");
	CHECK(!strcmp(l.sa[1].src, "198.19.0.254") && !strcmp(l.sa[1].dst, "198.19.0.1") &&
		  !strcmp(l.sa[1].spi, "0xac75d08f") && l.sa[1].bytes == 423855 &&
		  l.sa[1].packets == 3862 && l.sa[1].board == NB_LAB_DUT,
	      "an SA's addresses, SPI, bytes and packets");
	CHECK(nb_lab_sa_parse(sink, NB_LAB_SINK, &l) == 0 && l.n_sa == 4 && l.n_err == 1 &&
		  l.sa[2].board == NB_LAB_SINK && l.sa[0].board == NB_LAB_DUT,
	      "the sink board's appended, each board's its own");
	CHECK(!strcmp(l.err[0].name, "XfrmInNoStates") && l.err[0].count == 3 &&
		  l.err[0].board == NB_LAB_SINK,
	      "an xfrm error counter");
	CHECK(nb_lab_sa_parse("", NB_LAB_DUT, &l) == 0 && l.n_sa == 4, "an empty reply: no SA");
	CHECK(nb_lab_sa_parse("sa 1.1.1.1 2.2.2.2 0x1 5\n", NB_LAB_DUT, &l) == -EPROTO &&
		  l.n_sa == 4,
	      "a short line refused, the list unchanged");
	CHECK(nb_lab_sa_parse("sa 1.1.1.1 2.2.2.2 0x1 5 6 enc\n", NB_LAB_DUT, &l) == -EPROTO,
	      "a longer line refused (no key ever passes as a count)");
	CHECK(nb_lab_sa_parse("src 1.1.1.1 dst 2.2.2.2\n", NB_LAB_DUT, &l) == -EPROTO,
	      "ip's own output refused");
	memset(&l, 0, sizeof(l));
	CHECK(nb_lab_sa_parse("sa a b c 1 1\nsa a b c 1 1\nsa a b c 1 1\nsa a b c 1 1\n"
			      "sa a b c 1 1\n",
			      NB_LAB_DUT, &l) == -ENOSPC &&
		  l.n_sa == 0,
	      "more SAs than a board of the lab has: refused, nothing kept");
	memset(&l, 0, sizeof(l));
	CHECK(nb_lab_sa_parse("transform authenc(hmac(sha1),cbc(aes)) "
			      "authenc(hmac(sha1-neon),cbc(aes-generic)) 3\n",
			      NB_LAB_SINK, &l) == 0 &&
		  l.n_tf == 1 && l.tf[0].board == NB_LAB_SINK &&
		  !strcmp(l.tf[0].name, "authenc(hmac(sha1),cbc(aes))") &&
		  !strcmp(l.tf[0].driver, "authenc(hmac(sha1-neon),cbc(aes-generic))") &&
		  l.tf[0].refcnt == 3,
	      "an ESP transform: its name, driver and references");
	CHECK(nb_lab_sa_parse("transform authenc(hmac(sha1),cbc(aes)) x 3 4\n", NB_LAB_SINK, &l) ==
		      -EPROTO &&
		  l.n_tf == 1,
	      "a transform line with more words refused");
	{
		char e[] =
		    "Error: argument \"0x00112233445566778899aabbccddeeff\" is wrong: spi 0x1234 "
		    "0xABCDEF0123456789";
		nb_lab_redact_keys(e);
		CHECK(!strcmp(e, "Error: argument \"0x...\" is wrong: spi 0x1234 0x..."),
		      "an ip error's keys redacted, a short SPI kept (got %s)", e);
	}
	return tap_done();
}
