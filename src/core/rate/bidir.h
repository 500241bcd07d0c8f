/* SPDX-License-Identifier: BSD-2-Clause */
/* `rate --bidir`: the decisions both directions share, pure and unit-tested. The agent's caps
 * judged on the sum of what both directions put on the wire (so a rate split over the two
 * directions is judged whole), and a trial's pass or fail when it must pass both ways: which
 * direction failed, said once and stored with the trial. */
#ifndef NB_BIDIR_H
#define NB_BIDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rate/raterx.h"
#include "core/session/caps.h"

/* Ethernet framing the agent adds to each reverse frame's bytes on the wire (preamble, SFD,
 * inter-frame gap: the FCS is inside the frame size). */
#define NB_BIDIR_WIRE_OVERHEAD_B 20u

/* The agent's caps on a bidirectional trial: the forward direction as the controller states it
 * (fwd_frame_bps: its frames' bits per second, 0 flat out), the reverse the agent sends
 * (rev_fps frames of rev_bytes, 0 flat out). Both directions carry frames of rev_bytes, so the
 * forward's frames per second are fwd_frame_bps / (8 x rev_bytes). The wire rate (frames plus
 * 20 bytes each) of both against max-rate, their frames per second against max-pps, duration
 * against max-time; flat out in either direction is refused under a rate or packet cap.
 * 0, or -EPERM with "refused by rule max-...: ... both directions ..." in err. */
int nb_bidir_check_caps(const struct nb_caps *c, uint64_t duration_ns, uint64_t fwd_frame_bps,
			uint64_t rev_fps, uint32_t rev_bytes, char *err, size_t errlen);
/* The same with each direction's mean frame size: --imix's reverse frames have the mix's mean
 * size rounded up (fwd_bytes the size the forward's bit rate was computed with). */
int nb_bidir_check_caps_sizes(const struct nb_caps *c, uint64_t duration_ns, uint64_t fwd_frame_bps,
			      uint32_t fwd_bytes, uint64_t rev_fps, uint32_t rev_bytes, char *err,
			      size_t errlen);

enum nb_bidir_failed {
	NB_BIDIR_NONE = 0,   /* both passed */
	NB_BIDIR_FWD = 1,    /* the forward direction (controller to agent) failed */
	NB_BIDIR_REV = 2,    /* the reverse direction (agent to controller) failed */
	NB_BIDIR_BOTH = 3,   /* both failed */
	NB_BIDIR_INVALID = 4 /* a direction's counts did not reconcile: no decision */
};
extern const char
    *const nb_bidir_failed_names[5]; /* "none", "forward", "reverse", "both", "invalid" */

/* What the search sees of a trial in both directions: the direction with the larger loss ratio
 * (no frame sent counts as all lost), so that it passes at a loss ratio exactly when both do;
 * valid only when both reconciled. */
struct nb_bidir_judged {
	uint64_t tx, lost;
	bool valid;
	enum nb_bidir_failed failed; /* at tolerance */
	char text[256];		     /* "reverse failed: lost 12 of 10000 (0.120 %, above 0 %)" */
};
/* fwd, rev: each direction's reconciled counts; tolerance: the loss ratio a trial may lose
 * (0: none). Pure. */
void nb_bidir_judge(const struct nb_trial_counts *fwd, const struct nb_trial_counts *rev,
		    double tolerance, struct nb_bidir_judged *out);

#endif
