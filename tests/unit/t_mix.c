/* SPDX-License-Identifier: BSD-2-Clause */
/* IMIX mixes (core/rate/mix.c): simple IMIX's sizes, weights and mean, the interleaving (every
 * prefix within one frame of the proportion, the 64-byte frames never all back to back), counts
 * per size from frame counts alone, and bad mixes refused with the accepted range. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/rate/mix.h"
#include "tap.h"

int main(void)
{
	struct nb_mix m;
	char err[256];
	bool within = true;
	uint32_t run = 0, longest = 0;

	CHECK(nb_mix_parse("simple", 64, 9216, &m, err, sizeof(err)) == 0 && m.n == 3 &&
		  m.bytes[0] == 64 && m.weight[0] == 7 && m.bytes[1] == 570 && m.weight[1] == 4 &&
		  m.bytes[2] == 1518 && m.weight[2] == 1 && m.plen == 12,
	      "simple IMIX: 64:7, 570:4, 1518:1, a pattern of 12");
	CHECK(fabs(m.mean_bytes - (7 * 64 + 4 * 570 + 1518) / 12.0) < 1e-9,
	      "its mean frame is %.3f bytes", m.mean_bytes);
	for (uint32_t k = 1; k <= m.plen; k++)
		for (uint32_t i = 0; i < m.n; i++) {
			double want = (double)k * m.weight[i] / m.plen;
			if (fabs((double)nb_mix_count(&m, i, k) - want) >= 1)
				within = false;
		}
	CHECK(within, "every prefix of the pattern holds each size within one frame of its share");
	for (uint32_t k = 0; k < 2 * m.plen; k++) {
		run = m.pattern[k % m.plen] == 0 ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	CHECK(longest <= 3, "64-byte frames interleaved: at most %u in a row (of 7 in 12)",
	      longest);
	CHECK(nb_mix_count(&m, 0, 1200) == 700 && nb_mix_count(&m, 1, 1200) == 400 &&
		  nb_mix_count(&m, 2, 1200) == 100 &&
		  nb_mix_count(&m, 0, 1205) + nb_mix_count(&m, 1, 1205) +
			  nb_mix_count(&m, 2, 1205) ==
		      1205,
	      "counts per size from the frame count: 700, 400, 100 of 1200; 1205 add up");
	CHECK(nb_mix_max_bytes(&m) == 1518 && nb_mix_min_bytes(&m) == 64, "largest and smallest");
	CHECK(nb_mix_parse("128:20,256:10", 64, 1518, &m, err, sizeof(err)) == 0 && m.plen == 3 &&
		  m.weight[0] == 2 && m.weight[1] == 1,
	      "weights divided by their gcd: 20:10 is 2:1");

	static const char *const bad[] = {"",
					  "64",
					  "64:0",
					  "64:1001",
					  "63:1,128:1",
					  "64:1,64:2",
					  "64:1,9217:1",
					  "64:1",
					  "x:1,128:1",
					  "64:1,128:1024",
					  "64:1,65:1,66:1,67:1,68:1,69:1,70:1,71:1,72:1"};
	bool refused = true;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (nb_mix_parse(bad[i], 64, 9216, &m, err, sizeof(err)) != -EINVAL || !err[0]) {
			refused = false;
			tap_skip("not refused: '%s'", bad[i]);
		}
	}
	CHECK(refused, "bad mixes refused with a reason (sizes, weights, duplicates, one size, "
		       "too many)");
	nb_mix_parse("64:1,65:1", 84, 9216, &m, err, sizeof(err));
	CHECK(strstr(err, "84 to 9216") != NULL, "the reason names the range: %s", err);
	return tap_done();
}
