/* SPDX-License-Identifier: BSD-2-Clause */
/* Absolute-deadline pacing: per datagram (sleep, then spin the remainder), or per group of
 * datagrams (sleep, spin at most 1 % of the group's period), or per group handed to the kernel
 * ahead of time with a transmit time on each datagram. */
#include "core/base/pacer.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/prctl.h>

#include "core/base/timeutil.h"

#define SPIN_MIN_NS 5000u

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * NB_NS_PER_S + (uint64_t)ts.tv_nsec;
}

void nb_pacer_init(struct nb_pacer *p, uint64_t rate_bps, uint64_t bits, uint64_t start_ns)
{
	memset(p, 0, sizeof(*p));
	p->start_ns = start_ns;
	p->interval_ns = rate_bps ? (double)bits * 1e9 / (double)rate_bps : 0.0;
	p->spin_ns = 20000;
	p->wake_late_ns = 10000.0;
	p->mode = NB_PACING_SPIN;
	p->burst = 1;
	/* The default timer slack of 50 us would make every wake-up late by up to that much. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

void nb_pacer_set_mode(struct nb_pacer *p, enum nb_pacing_mode mode, uint32_t burst)
{
	if (mode == NB_PACING_AUTO)
		mode = NB_PACING_BURST;
	p->mode = mode;
	p->burst = nb_pacing_burst(mode, p->interval_ns, burst);
}

uint64_t nb_pacer_deadline(const struct nb_pacer *p, uint64_t k)
{
	/* A double holds nanoseconds exactly for 104 days: no drift over any test. */
	return p->start_ns + (uint64_t)llround((double)k * p->interval_ns);
}

/* Sleeps until spin_ns before due, then spins to due. The spin is about twice the usual
 * wake-up latency (a moving average, outliers clipped so that one preemption does not blow it
 * up), never more than cap; below SPIN_MIN_NS of budget a wait only sleeps. */
static uint64_t sleep_spin(struct nb_pacer *p, uint64_t due, double cap)
{
	uint64_t now = nb_mono_ns(), spin = (double)p->spin_ns <= cap ? p->spin_ns : 0;

	if (now < due && due - now > spin) {
		uint64_t target = due - spin, woke, late;
		nb_sleep_until_ns(target);
		woke = nb_mono_ns();
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
	return now;
}

static void note_late(struct nb_pacer *p, uint64_t late_ns, double allowed_ns, uint32_t n)
{
	if ((double)late_ns > allowed_ns) {
		p->late_sends += n;
		if (late_ns > p->max_late_ns)
			p->max_late_ns = late_ns;
	}
}

/* Today's per-datagram pacing: exact gaps. */
static uint64_t wait_spin(struct nb_pacer *p)
{
	uint64_t due = nb_pacer_deadline(p, p->next++), sched = due;
	uint64_t now = nb_mono_ns(), cpu0 = thread_cpu_ns();
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
		 * the lag would never be repaid on a busy host. A spin budget below the least
		 * useful spin means spinning through (intervals under 20 us). */
		if (sched > now && (double)p->spin_ns <= cap)
			now = sleep_spin(p, due, cap);
		else
			while ((now = nb_mono_ns()) < due)
				;
	}
	note_late(p, now - sched, p->interval_ns, 1);
	p->last_ns = now;
	p->cpu_ns += thread_cpu_ns() - cpu0;
	p->wakeups++;
	return sched;
}

/* One wake-up per group: burst mode waits for the group's last deadline (no datagram leaves
 * early), txtime mode wakes a lead time before the group's first one and lets the kernel hold
 * each datagram to its own deadline. A pacer that was held up never spins to catch up (on a
 * busy host the CPU it would burn is what held it up): a wake-up then takes everything due, up
 * to NB_PACER_CATCHUP_GROUPS groups, and the next one comes no sooner than a quarter of that
 * group's length, so the lag is repaid at up to four times the rate, in sleeps. Eight groups
 * keep the rate through wake-ups up to 7 periods late (a loaded 2-CPU host delays them by
 * several ms); four fell 15 % short of 200 Mbit/s there. */
static uint64_t wait_group(struct nb_pacer *p)
{
	uint64_t k = p->next++, sched = nb_pacer_deadline(p, k);

	if (k >= p->group_end) {
		double period = p->interval_ns * (double)p->burst;
		uint64_t due, planned, now, lead = 0, cpu0 = thread_cpu_ns(), n = p->burst;
		double cap = 0, since;

		if (p->mode == NB_PACING_TXTIME) {
			lead = NB_PACER_TXTIME_LEAD_NS;
			due = sched > lead ? sched - lead : 0;
		} else {
			uint64_t last = k + p->burst - 1;
			/* A run of count datagrams: its last group waits for its last one only. */
			if (p->count && last >= p->count)
				last = p->count > k ? p->count - 1 : k;
			due = nb_pacer_deadline(p, last);
			cap = period / 100 < NB_PACER_MAX_SPIN_NS ? period / 100
								  : NB_PACER_MAX_SPIN_NS;
		}
		planned = due;
		if (p->last_ns &&
		    due < p->last_ns + (uint64_t)(p->interval_ns * (double)p->last_group / 4))
			due = p->last_ns + (uint64_t)(p->interval_ns * (double)p->last_group / 4);
		now = sleep_spin(p, due, cap);
		/* Datagrams due by now (by now plus the lead with transmit times). */
		since = now + lead > p->start_ns ? (double)(now + lead - p->start_ns) : 0;
		if (p->interval_ns > 0) {
			double due_k = floor(since / p->interval_ns) + 1;
			if (due_k > (double)(k + n))
				n = due_k - (double)k < NB_PACER_CATCHUP_GROUPS * (double)p->burst
					? (uint64_t)due_k - k
					: NB_PACER_CATCHUP_GROUPS * (uint64_t)p->burst;
		}
		p->group_end = k + n;
		p->last_group = (uint32_t)n;
		note_late(p, now > planned ? now - planned : 0, period, (uint32_t)n);
		p->last_ns = now;
		p->cpu_ns += thread_cpu_ns() - cpu0;
		p->wakeups++;
	}
	if (p->mode == NB_PACING_TXTIME) {
		uint64_t min_tx = p->last_tx_ns + (uint64_t)(p->interval_ns / 4);
		/* Deadlines already past would leave at once, back to back: spread them at four
		 * times the rate instead, as spin mode repays a lag. */
		p->last_tx_ns = p->last_tx_ns && sched < min_tx ? min_tx : sched;
	}
	return sched;
}

uint64_t nb_pacer_wait(struct nb_pacer *p)
{
	if (p->mode == NB_PACING_SPIN || p->burst < 1)
		return wait_spin(p);
	return wait_group(p);
}

uint64_t nb_pacer_txtime(const struct nb_pacer *p)
{
	return p->last_tx_ns;
}

uint32_t nb_pacer_take(struct nb_pacer *p, uint32_t max, uint32_t spin_max, uint64_t now_ns)
{
	uint32_t n = 1;

	if (p->mode == NB_PACING_BURST) {
		for (; n < max && p->next < p->group_end; n++)
			p->next++;
	} else if (p->mode == NB_PACING_SPIN) {
		if (max > spin_max)
			max = spin_max;
		for (; n < max && nb_pacer_deadline(p, p->next) <= now_ns; n++)
			p->next++;
	}
	return n;
}

uint32_t nb_pacing_burst(enum nb_pacing_mode mode, double interval_ns, uint32_t asked)
{
	uint32_t max = mode == NB_PACING_TXTIME ? NB_PACER_TXTIME_MAX_BURST : NB_PACER_MAX_BURST;
	double fit;

	if (mode == NB_PACING_SPIN)
		return 1;
	if (asked)
		return asked < max ? asked : max;
	if (!(interval_ns > 0))
		return 1;
	fit = floor((double)NB_PACER_GROUP_NS / interval_ns);
	if (fit < 1)
		return 1;
	return fit > (double)max ? max : (uint32_t)fit;
}

int nb_pacing_choose(enum nb_pacing_mode asked, bool txtime_ok)
{
	switch (asked) {
	case NB_PACING_AUTO:
		return txtime_ok ? NB_PACING_TXTIME : NB_PACING_BURST;
	case NB_PACING_TXTIME:
		return txtime_ok ? NB_PACING_TXTIME : -EOPNOTSUPP;
	case NB_PACING_SPIN:
	case NB_PACING_BURST:
		return asked;
	}
	return -EINVAL;
}

double nb_pacing_cpu_pct(uint64_t cpu_ns, double window_s)
{
	return window_s > 0 ? (double)cpu_ns / 1e9 / window_s * 100.0 : NAN;
}

static const char *const names[] = {"auto", "spin", "burst", "txtime"};

const char *nb_pacing_name(enum nb_pacing_mode mode)
{
	return (unsigned)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}

int nb_pacing_parse(const char *s, enum nb_pacing_mode *mode)
{
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*mode = (enum nb_pacing_mode)i;
			return 0;
		}
	return -EINVAL;
}
