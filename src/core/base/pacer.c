/* SPDX-License-Identifier: BSD-2-Clause */
/* Absolute-deadline pacing: sleep, then spin the remainder. */
#include "core/base/pacer.h"

#include <math.h>
#include <sys/prctl.h>

#include "core/base/timeutil.h"

#define SPIN_MIN_NS 5000u

void nb_pacer_init(struct nb_pacer *p, uint64_t rate_bps, uint64_t bits, uint64_t start_ns)
{
	p->start_ns = start_ns;
	p->interval_ns = rate_bps ? (double)bits * 1e9 / (double)rate_bps : 0.0;
	p->next = 0;
	p->spin_ns = 20000;
	p->wake_late_ns = 10000.0;
	p->late_sends = 0;
	p->last_ns = 0;
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
	uint64_t due = nb_pacer_deadline(p, p->next++), sched = due;
	uint64_t now = nb_mono_ns();
	/* Never spin more than a quarter of the interval: a thread that sleeps most of each
	 * interval keeps the scheduler's favour on a busy machine; one that spins gets preempted
	 * for whole milliseconds, which is worse than any wake-up latency. */
	double cap =
	    p->interval_ns / 4 < NB_PACER_MAX_SPIN_NS ? p->interval_ns / 4 : NB_PACER_MAX_SPIN_NS;

	/* Behind schedule (preempted), catch up at four times the rate rather than in one burst
	 * at line rate: the lag is repaid in a third of its length, the step's rate is kept, and
	 * no millisecond-long burst leaves the host. */
	if (p->last_ns && due < p->last_ns + (uint64_t)(p->interval_ns / 4))
		due = p->last_ns + (uint64_t)(p->interval_ns / 4);
	if (now < due) {
		/* Catching up (sched already past) only spins: a sleep could end late again and
		 * the lag would never be repaid on a busy host. */
		if (sched > now && due - now > p->spin_ns && (double)p->spin_ns <= cap) {
			uint64_t target = due - p->spin_ns, woke, late;
			nb_sleep_until_ns(target);
			woke = nb_mono_ns();
			/* Spin for about twice the usual wake-up latency (a moving average, with
			 * outliers clipped so that one preemption does not blow it up). */
			late = woke > target ? woke - target : 0;
			if ((double)late > cap)
				late = (uint64_t)cap;
			p->wake_late_ns += ((double)late - p->wake_late_ns) / 16.0;
			p->spin_ns = (uint64_t)(2.0 * p->wake_late_ns);
			if (p->spin_ns < SPIN_MIN_NS)
				p->spin_ns = SPIN_MIN_NS;
			if ((double)p->spin_ns > cap)
				p->spin_ns = (uint64_t)cap;
		}
		while ((now = nb_mono_ns()) < due)
			;
	}
	if ((double)(now - sched) > p->interval_ns) {
		p->late_sends++;
		if (now - sched > p->max_late_ns)
			p->max_late_ns = now - sched;
	}
	p->last_ns = now;
	return sched;
}
