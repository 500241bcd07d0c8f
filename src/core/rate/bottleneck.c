/* SPDX-License-Identifier: BSD-2-Clause */
/* The bottleneck of one frame size: which trial the verdict is judged on, and the verdict's
 * inputs from that trial (its counts, the generator's ceiling, the DUT's window, the sink's
 * socket drops). Pure: tested with recorded trials in tests/unit/t_rfc2544.c. */
#include <math.h>
#include <string.h>

#include "core/rate/rate.h"

/* With --bidir both directions cross the DUT the observer watches: the verdict weighs the
 * frames of both together (the reverse's, the agent's sent and this host's received). */
static uint64_t both(uint64_t fwd, const struct nb_rate_trial *t, uint64_t rev)
{
	return fwd + (t->rev.on ? rev : 0);
}

void nb_rate_bottleneck(const struct nb_rate_params *p, const struct nb_rate_trial *trials,
			struct nb_rate_size *s)
{
	const struct nb_rate_trial *pick = NULL;
	struct nb_verdict_in in;
	size_t at = 0;

	s->have_bneck = false;
	memset(&s->nf, 0, sizeof(s->nf));
	if ((p->receiver && !p->receiver->counts) || p->test == NB_RATE_B2B)
		return; /* nothing counted frames, or bursts rather than rates */
	/* The rate the DUT could not carry: the first trial above the result that lost. */
	for (size_t k = s->first_trial; k < s->first_trial + s->ntrials && !pick; k++)
		if (nb_rate_judged_valid(&trials[k]) &&
		    both(trials[k].c.lost, &trials[k], trials[k].rev.c.lost) &&
		    trials[k].offered_fps > s->fps) {
			pick = &trials[k];
			at = k;
		}
	for (size_t k = s->first_trial + s->ntrials; k-- > s->first_trial && !pick;)
		if (nb_rate_judged_valid(&trials[k])) {
			pick = &trials[k];
			at = k;
		}
	if (!pick)
		return;
	memset(&in, 0, sizeof(in));
	in.offered = both(pick->c.tx, pick, pick->rev.c.tx);
	in.received = in.offered - both(pick->c.lost, pick, pick->rev.c.lost);
	in.offered_fps = pick->offered_fps;
	in.active_s = pick->window_s; /* the traffic's time, not the observer's longer window */
	in.gen_max = p->test == NB_RATE_TRIAL
			 ? !nb_rate_asked_fps(p, s->size) && !pick->asked_frames
			 : s->at_max;
	in.max_asked = p->test != NB_RATE_TRIAL && nb_rate_max_is_asked(p, s->size);
	in.dut = pick->obs.n ? pick->obs.s[0] : NULL;
	in.win = pick->obs.n ? pick->obs.w[0] : NULL;
	in.prof = pick->obs.n ? pick->obs.psum[0] : NULL;
	in.have_sink_drops = pick->drops_known && (!pick->rev.on || pick->rev.drops_known);
	in.sink_drops = both(pick->rx_dropped, pick, pick->rev.rx_dropped);
	in.ring_dropped = pick->ring_known ? pick->ring_dropped : 0;
	in.emulated = pick->ring_known;
	in.host_other_pct = pick->ring_known ? pick->host_other_pct : NAN;
	nb_verdict_decide(&in, &s->bneck);
	for (size_t c = 0; in.prof && in.prof->available && c < in.prof->n; c++) {
		const struct nb_prof_share *q = &in.prof->cat[c];
		if (q->cat != NB_PC_NETFILTER || isnan(q->ns_per_frame))
			continue;
		s->nf.have = true;
		s->nf.ns = q->ns_per_frame;
		s->nf.lo = q->ns_lo;
		s->nf.hi = q->ns_hi;
		s->nf.samples = q->n;
	}
	s->have_bneck = true;
	s->bneck_trial = at;
}
