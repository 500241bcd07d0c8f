/* Absolute-deadline pacing: sleep, then spin the remainder. */
#include "core/pacer.h"

#include <math.h>
#include <sys/prctl.h>

#include "core/timeutil.h"

#define SPIN_MIN_NS 5000u

void nb_pacer_init(struct nb_pacer *p, uint64_t rate_bps, uint64_t bits, uint64_t start_ns)
{
	p->start_ns = start_ns;
	p->interval_ns = rate_bps ? (double)bits * 1e9 / (double)rate_bps : 0.0;
	p->next = 0;
	p->spin_ns = 20000;
	p->late_sends = 0;
	p->max_late_ns = 0;
	/* The default timer slack of 50 us would make every wake-up late by up to that much. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

uint64_t nb_pacer_deadline(const struct nb_pacer *p, uint64_t k)
{
	/* A double holds nanoseconds exactly for 104 days: no drift over any test. */
	return p->start_ns + (uint64_t)llround((double)k * p->interval_ns);
}

uint64_t nb_pacer_wait(struct nb_pacer *p)
{
	uint64_t due = nb_pacer_deadline(p, p->next++);
	uint64_t now = nb_mono_ns();

	if (now < due) {
		if (due - now > p->spin_ns && p->interval_ns > (double)p->spin_ns) {
			uint64_t woke;
			nb_sleep_until_ns(due - p->spin_ns);
			woke = nb_mono_ns();
			/* Adapt the spin to the wake-up latency: late wake-ups widen it quickly,
			 * punctual ones narrow it slowly, so CPU spent spinning stays small. */
			if (woke > due - p->spin_ns / 2) {
				p->spin_ns = p->spin_ns * 2;
				if (p->spin_ns > NB_PACER_MAX_SPIN_NS)
					p->spin_ns = NB_PACER_MAX_SPIN_NS;
			} else if (woke < due - p->spin_ns * 3 / 4 && p->spin_ns > SPIN_MIN_NS) {
				p->spin_ns -= p->spin_ns / 16;
			}
		}
		while (nb_mono_ns() < due)
			;
	} else if ((double)(now - due) > p->interval_ns) {
		p->late_sends++;
		if (now - due > p->max_late_ns)
			p->max_late_ns = now - due;
	}
	return due;
}
