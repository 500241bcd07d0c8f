/* SPDX-License-Identifier: BSD-2-Clause */
/* `rate --bidir`'s shared decisions (bidir.h): the caps on the sum of both directions, and a
 * trial's pass or fail in both, with the direction that failed named. No I/O. */
#include "core/rate/bidir.h"

#include <errno.h>
#include <stdio.h>

const char *const nb_bidir_failed_names[5] = {"none", "forward", "reverse", "both", "invalid"};

int nb_bidir_check_caps(const struct nb_caps *c, uint64_t duration_ns, uint64_t fwd_frame_bps,
			uint64_t rev_fps, uint32_t rev_bytes, char *err, size_t errlen)
{
	return nb_bidir_check_caps_sizes(c, duration_ns, fwd_frame_bps, rev_bytes, rev_fps,
					 rev_bytes, err, errlen);
}

int nb_bidir_check_caps_sizes(const struct nb_caps *c, uint64_t duration_ns, uint64_t fwd_frame_bps,
			      uint32_t fwd_bytes, uint64_t rev_fps, uint32_t rev_bytes, char *err,
			      size_t errlen)
{
	uint64_t fwd_fps, fwd_wire, rev_wire, wire, pps;
	bool flat = fwd_frame_bps == 0 || rev_fps == 0;

	if (!rev_bytes || !fwd_bytes) {
		snprintf(err, errlen, "refused by rule max-rate: frames of 0 bytes");
		return -EPERM;
	}
	if ((c->max_rate_bps || c->max_pps) && flat) {
		snprintf(err, errlen,
			 "refused by rule %s: an unlimited rate asked in the %s direction, at "
			 "most %llu %s over both directions",
			 c->max_rate_bps ? "max-rate" : "max-pps",
			 fwd_frame_bps == 0 ? "forward" : "reverse",
			 (unsigned long long)(c->max_rate_bps ? c->max_rate_bps : c->max_pps),
			 c->max_rate_bps ? "bit/s" : "packets/s");
		return -EPERM;
	}
	if (flat) /* no rate or packet cap: only the duration is judged */
		return nb_caps_check(c, duration_ns, 0, err, errlen);
	/* Every product and sum checked for overflow before it is compared. */
	fwd_fps = fwd_frame_bps / (8ull * fwd_bytes);
	if (__builtin_mul_overflow(rev_fps, (uint64_t)(rev_bytes + NB_BIDIR_WIRE_OVERHEAD_B) * 8u,
				   &rev_wire) ||
	    __builtin_mul_overflow(fwd_fps, (uint64_t)NB_BIDIR_WIRE_OVERHEAD_B * 8u, &fwd_wire) ||
	    __builtin_add_overflow(fwd_wire, fwd_frame_bps, &fwd_wire) ||
	    __builtin_add_overflow(fwd_wire, rev_wire, &wire) ||
	    __builtin_add_overflow(fwd_fps, rev_fps, &pps)) {
		snprintf(err, errlen,
			 "refused by rule max-rate: the rate asked over both directions does not "
			 "fit 64 bits");
		return -EPERM;
	}
	if (c->max_rate_bps && wire > c->max_rate_bps) {
		snprintf(err, errlen,
			 "refused by rule max-rate: %llu bit/s on the wire over both directions "
			 "(forward %llu, reverse %llu), at most %llu",
			 (unsigned long long)wire, (unsigned long long)fwd_wire,
			 (unsigned long long)rev_wire, (unsigned long long)c->max_rate_bps);
		return -EPERM;
	}
	if (c->max_pps && pps > c->max_pps) {
		snprintf(err, errlen,
			 "refused by rule max-pps: %llu packets/s over both directions (forward "
			 "%llu, reverse %llu), at most %llu",
			 (unsigned long long)pps, (unsigned long long)fwd_fps,
			 (unsigned long long)rev_fps, (unsigned long long)c->max_pps);
		return -EPERM;
	}
	return nb_caps_check(c, duration_ns, wire ? wire : 1, err, errlen);
}

static double ratio(const struct nb_trial_counts *c)
{
	return c->tx ? (double)c->lost / (double)c->tx : 1.0;
}

static bool pass(const struct nb_trial_counts *c, double tolerance)
{
	if (!c->tx)
		return false;
	if (tolerance <= 0)
		return c->lost == 0;
	return ratio(c) <= tolerance;
}

static int say(char *b, size_t len, const char *dir, const struct nb_trial_counts *c)
{
	return snprintf(b, len, "%s lost %llu of %llu (%.3f %%)", dir, (unsigned long long)c->lost,
			(unsigned long long)c->tx, 100.0 * ratio(c));
}

void nb_bidir_judge(const struct nb_trial_counts *fwd, const struct nb_trial_counts *rev,
		    double tolerance, struct nb_bidir_judged *out)
{
	const struct nb_trial_counts *worse = ratio(rev) > ratio(fwd) ? rev : fwd;
	bool fp, rp;
	int n;

	out->tx = worse->tx;
	out->lost = worse->lost;
	out->valid = fwd->valid && rev->valid;
	if (!out->valid) {
		out->failed = NB_BIDIR_INVALID;
		snprintf(out->text, sizeof(out->text), "%s did not reconcile: %s",
			 !fwd->valid ? "forward" : "reverse", !fwd->valid ? fwd->why : rev->why);
		return;
	}
	fp = pass(fwd, tolerance);
	rp = pass(rev, tolerance);
	out->failed = fp && rp ? NB_BIDIR_NONE
		      : fp     ? NB_BIDIR_REV
		      : rp     ? NB_BIDIR_FWD
			       : NB_BIDIR_BOTH;
	if (out->failed == NB_BIDIR_NONE) {
		snprintf(out->text, sizeof(out->text), "both directions passed");
		return;
	}
	n = snprintf(out->text, sizeof(out->text),
		     "%s failed: ", nb_bidir_failed_names[out->failed]);
	if (!fp)
		n += say(out->text + n, sizeof(out->text) - (size_t)n, "forward", fwd);
	if (!fp && !rp)
		n += snprintf(out->text + n, sizeof(out->text) - (size_t)n, ", ");
	if (!rp)
		n += say(out->text + n, sizeof(out->text) - (size_t)n, "reverse", rev);
	snprintf(out->text + n, sizeof(out->text) - (size_t)n, ", above %g %%", 100.0 * tolerance);
}
