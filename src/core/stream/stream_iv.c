/* SPDX-License-Identifier: BSD-2-Clause */
/* Interval reports of a receiver: the receiving loop runs as it always does, and a thread of
 * this file's peeks at the step it receives at each edge (stream_iv.h says where the edges are). */
#include "core/stream/stream_iv.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/timeutil.h"

#define LOOK_NS (50 * NB_NS_PER_MS) /* how soon a step's close is seen */

/* The CPU samples of the step being cut: its window's opening one (the receiver's), the last
 * edge's, and one taken now. */
struct nb_stream_iv_samples {
	struct nb_cpu_sample open, edge, now;
};

struct watch {
	struct nb_stream_iv *w;
	struct nb_stream_recv *r;
};

/* Datagrams of the window not (yet) received below the highest one seen. */
static uint64_t missing(const struct nb_stream_step *s)
{
	uint64_t seen = s->datagrams ? (uint64_t)s->highest_seq + 1 : 0;
	return seen > s->unique ? seen - s->unique : 0;
}

/* The last interval's CPU: the step's whole window (the receiver's own samples at its edges)
 * less what the intervals before it took (from the opening sample to the last edge). */
static void last_cpu(const struct nb_stream_iv *w, const struct nb_stream_step *s,
		     struct nb_cpu_load *out)
{
	struct nb_cpu_load before;
	double rest_s;

	if (!s->cpu.valid || !w->cpu_open)
		return;
	if (w->n == 0) {
		*out = s->cpu;
		return;
	}
	if (!w->cpu_edge)
		return;
	nb_cpu_load(&w->sm->open, &w->sm->edge, &before);
	rest_s = s->cpu.window_s - before.window_s;
	if (!before.valid || rest_s <= 0)
		return;
	out->window_s = rest_s;
	out->proc_cpu_s = s->cpu.proc_cpu_s - before.proc_cpu_s;
	out->proc_pct = out->proc_cpu_s / rest_s * 100;
	out->softirq_pct =
	    (s->cpu.softirq_pct * s->cpu.window_s - before.softirq_pct * before.window_s) / rest_s;
	out->valid = out->proc_pct >= 0 && out->softirq_pct >= 0;
}

/* One interval from the last edge to counters c at end_ns (CLOCK_REALTIME); cpu: the host's over
 * it (valid false: unknown). The edge moves there. */
static void report(struct nb_stream_iv *w, const struct nb_stream_step *c, uint64_t miss,
		   uint64_t end_ns, bool last, const struct nb_cpu_load *cpu)
{
	struct nb_stream_interval iv;
	double span_s;

	memset(&iv, 0, sizeof(iv));
	iv.step = c->step;
	iv.index = w->n++;
	iv.last = last;
	iv.rate_bps_asked = c->rate_bps_asked;
	if (end_ns < w->edge_ns)
		end_ns = w->edge_ns;
	iv.start_s = (double)(w->edge_ns - w->t0_ns) / 1e9;
	iv.end_s = (double)(end_ns - w->t0_ns) / 1e9;
	iv.datagrams = c->datagrams - w->datagrams;
	iv.unique = c->unique - w->unique;
	iv.lost = (int64_t)miss - (int64_t)w->missing;
	iv.bytes = c->bytes - w->bytes;
	span_s = iv.end_s - iv.start_s;
	iv.mbit_per_s = span_s > 0 ? (double)iv.bytes * 8 / span_s / 1e6 : NAN;
	iv.jitter_ms = c->datagrams >= 2 ? c->jitter.jitter_ns / 1e6 : NAN;
	iv.cpu = *cpu;
	w->fn(w->arg, &iv);
	w->edge_ns = end_ns;
	w->datagrams = c->datagrams;
	w->unique = c->unique;
	w->missing = miss;
	w->bytes = c->bytes;
}

/* Reports every interval that ended by now. final: the receiver stopped (every step is
 * closed); cut: it stopped on Ctrl-C, and the step it was in gets no last interval. */
static void look(struct nb_stream_iv *w, struct nb_stream_recv *r, bool final, bool cut)
{
	struct nb_stream_iv_samples *sm = w->sm;
	for (;;) {
		struct nb_stream_step s;
		struct nb_cpu_load cpu;
		bool fin, open_known, closed;
		size_t i = w->next_step,
		       n = nb_stream_recv_peek(r, i, &s, &fin, &sm->now, &open_known);
		uint64_t now = nb_real_ns(), next;
		if (i >= n)
			return;
		closed = s.closed || i + 1 < n || final;
		memset(&cpu, 0, sizeof(cpu));
		if (!w->watching) {
			if (!s.datagrams) { /* the window has not opened */
				if (!closed)
					return;
				w->next_step++;
				continue;
			}
			w->watching = true;
			w->n = 0;
			w->t0_ns = w->edge_ns = s.first_ns;
			w->window_ns =
			    s.step_count && s.rate_bps_asked
				? (uint64_t)((double)s.step_count * (double)s.first_bytes * 8e9 /
					     (double)s.rate_bps_asked)
				: 0;
			w->datagrams = w->unique = w->missing = w->bytes = 0;
			w->cpu_open = w->cpu_edge = open_known;
			if (open_known)
				sm->open = sm->edge = sm->now;
		}
		if (closed) {
			if (!(cut && i + 1 == n && !fin)) {
				last_cpu(w, &s, &cpu);
				report(w, &s, nb_stream_step_lost(&s), s.last_ns, true, &cpu);
			}
			w->watching = false;
			w->next_step++;
			continue;
		}
		next = w->t0_ns + (uint64_t)(w->n + 1) * w->interval_ns;
		if (w->window_ns && next + w->interval_ns / 4 > w->t0_ns + w->window_ns)
			return; /* the last interval ends at the step's close */
		if (now < next)
			return;
		bool sampled = nb_cpu_sample_now(&sm->now) == 0;
		if (w->cpu_edge && sampled)
			nb_cpu_load(&sm->edge, &sm->now, &cpu);
		report(w, &s, missing(&s), now, false, &cpu);
		w->cpu_edge = sampled;
		if (sampled)
			sm->edge = sm->now;
	}
}

static void *watch_thread(void *arg)
{
	struct watch *t = arg;
	struct nb_stream_iv *w = t->w;

	while (!nb_cancelled(&w->done)) {
		uint64_t real = nb_real_ns(), wait = LOOK_NS;
		look(w, t->r, false, false);
		if (w->watching) {
			uint64_t next = w->t0_ns + (uint64_t)(w->n + 1) * w->interval_ns;
			if (next > real && next - real < wait)
				wait = next - real;
		}
		nb_sleep_until_ns(nb_mono_ns() + wait);
	}
	return NULL;
}

int nb_stream_recv_run_intervals(struct nb_stream_recv *r, struct nb_stream_iv *w)
{
	struct watch t = {.w = w, .r = r};
	pthread_t th;
	int ret, e;

	w->sm = calloc(1, sizeof(*w->sm));
	if (!w->sm)
		return -ENOMEM;
	w->done = 0;
	if ((e = pthread_create(&th, NULL, watch_thread, &t))) {
		free(w->sm);
		return -e;
	}
	ret = nb_stream_recv_run(r);
	w->done = 1;
	pthread_join(th, NULL);
	look(w, r, true, r->end == NB_END_STOP);
	free(w->sm);
	w->sm = NULL;
	return ret;
}
