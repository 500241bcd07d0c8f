/* SPDX-License-Identifier: BSD-2-Clause */
/* The tables of `netbench stream`: a receiver's steps (with the CPU columns), a sender's steps,
 * and an agent's platform line. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd/pacing.h"
#include "cmd/stream_print.h"
#include "cmd/virt_note.h"

/* A step whose window other processes shared: a '*' on the row's last figure (the row keeps
 * its columns) and a note under it. */
static void print_polluted(double other_pct)
{
	if (nb_cpu_polluted(other_pct))
		printf("  * other processes used %.0f %% of a CPU in this window: the CPU figures "
		       "are polluted\n",
		       other_pct);
}

static void print_cpu_cols(const struct nb_cpu_load *l, double mbit, double other_pct)
{
	char busiest[24];
	const char *mark = nb_cpu_polluted(other_pct) ? "*" : "";

	if (!l->valid) {
		printf("  %6s %8s %6s %7s %9s %9s\n", "-", "-", "-", "-", "-", "-");
		return;
	}
	if (l->busiest_cpu >= 0)
		snprintf(busiest, sizeof(busiest), "%d:%.1f", l->busiest_cpu, l->busiest_cpu_pct);
	else
		snprintf(busiest, sizeof(busiest), "-");
	printf("  %6.1f %8.2f %6.2f %7.2f %9s %9.3f%s\n", l->proc_pct, l->softirq_pct, l->irq_pct,
	       l->busy_pct, busiest, mbit > 0 ? l->busy_pct / mbit : NAN, mark);
	print_polluted(other_pct);
}

void stream_print_interval_head(FILE *f, uint64_t interval_ns)
{
	fprintf(f,
		"Intervals of %.2f s within each step's window, received here (the step's asked "
		"Mbit/s, the interval's start and end since its first datagram; the table follows "
		"them):\n",
		(double)interval_ns / 1e9);
}

void stream_print_interval(FILE *f, const struct nb_stream_interval *iv)
{
	int64_t exp = (int64_t)iv->unique + iv->lost;

	fprintf(f, "  %8.2f %6.2f-%6.2f s  %8llu datagrams %6lld lost %6.2f %%",
		(double)iv->rate_bps_asked / 1e6, iv->start_s, iv->end_s,
		(unsigned long long)iv->datagrams, (long long)iv->lost,
		exp > 0 ? 100.0 * (double)iv->lost / (double)exp : 0.0);
	if (isnan(iv->mbit_per_s))
		fprintf(f, "  %10s Mbit/s", "-");
	else
		fprintf(f, "  %10.3f Mbit/s", iv->mbit_per_s);
	if (isnan(iv->jitter_ms))
		fprintf(f, "  jitter %7s ms", "-");
	else
		fprintf(f, "  jitter %7.3f ms", iv->jitter_ms);
	if (iv->cpu.valid)
		fprintf(f, "  proc %5.1f %%  softirq %5.2f %%", iv->cpu.proc_pct,
			iv->cpu.softirq_pct);
	else
		fprintf(f, "  proc %5s %%  softirq %5s %%", "-", "-");
	fputc('\n', f);
	fflush(f);
}

void stream_print_rx(const char *who, const struct nb_stream_rx *rx)
{
	if (who)
		printf("%s:\n", who);
	if (rx->nsteps) {
		printf(
		    "   asked  achieved  datagrams    lost   loss  reord   dup  jitter  gap p50    "
		    "p99    proc  softirq    irq   total   busiest  total%%/\n"
		    "  Mbit/s    Mbit/s                      %%                    ms       us "
		    "     us  %%1cpu        %%      %%       %%     cpu:%%   Mbit/s\n");
		for (size_t i = 0; i < rx->nsteps; i++) {
			const struct nb_stream_step *s = &rx->steps[i];
			double r = nb_stream_step_rate_bps(s) / 1e6;
			uint64_t exp = nb_stream_step_expected(s), lost = nb_stream_step_lost(s);
			if (!nb_stream_step_valid(s)) {
				printf(
				    "%8.2f   invalid: %llu datagrams, %llu distinct of %llu sent "
				    "(counts do not reconcile)\n",
				    (double)s->rate_bps_asked / 1e6,
				    (unsigned long long)s->datagrams, (unsigned long long)s->unique,
				    (unsigned long long)exp);
				continue;
			}
			printf("%8.2f ", (double)s->rate_bps_asked / 1e6);
			if (isnan(r))
				printf("%9s", "-");
			else
				printf("%9.3f", r);
			printf(" %10llu %7llu %6.2f %6llu %5llu %7.3f",
			       (unsigned long long)s->datagrams, (unsigned long long)lost,
			       exp ? 100.0 * (double)lost / (double)exp : 0.0,
			       (unsigned long long)s->reordered, (unsigned long long)s->dups,
			       s->jitter.jitter_ns / 1e6);
			if (s->gaps)
				printf(" %8.1f %6.0f", (double)s->gap_p50_ns / 1e3,
				       (double)s->gap_p99_ns / 1e3);
			else
				printf(" %8s %6s", "-", "-");
			print_cpu_cols(&s->cpu, r, nb_cpu_other_pct(&s->cpu, s->cpu_peer_s));
		}
	}
	{
		uint64_t warm = 0;
		bool omitted = false;
		for (size_t i = 0; i < rx->nsteps; i++) {
			warm += rx->steps[i].warmup_datagrams;
			omitted |= rx->steps[i].omit_count > 0;
		}
		if (omitted)
			printf("(each step's warm-up, the sender's -O/--omit, is not counted: %llu "
			       "datagrams)\n",
			       (unsigned long long)warm);
	}
	if (rx->foreign.datagrams) {
		const struct nb_stream_foreign *f = &rx->foreign;
		double r = nb_stream_foreign_rate_bps(f) / 1e6;
		printf(
		    "foreign stream (no netbench header): loss, reordering and jitter cannot be "
		    "known\n"
		    "  achieved  datagrams        bytes    proc  softirq    irq   total   busiest  "
		    "total%%/\n"
		    "    Mbit/s                             %%1cpu        %%      %%       %%     "
		    "cpu:%%   Mbit/s\n");
		printf("%10.3f %10llu %12llu", r, (unsigned long long)f->datagrams,
		       (unsigned long long)f->bytes);
		print_cpu_cols(&f->cpu, r, nb_cpu_other_pct(&f->cpu, 0));
	}
	if (!rx->nsteps && !rx->foreign.datagrams)
		printf("no datagrams received\n");
	if (rx->other_stream_datagrams)
		printf("(%llu datagrams of another netbench stream ignored)\n",
		       (unsigned long long)rx->other_stream_datagrams);
}

void stream_print_send_head(void)
{
	printf("   asked      sent  datagrams  errors   late  max late    proc  pacing  paced "
	       "by    total\n"
	       "  Mbit/s    Mbit/s                                  ms   %%1cpu   %%1cpu          "
	       "        %%\n");
}

void stream_print_send_row(const struct nb_stream_send_step *s, size_t block)
{
	char how[24];
	double other = nb_cpu_other_pct(&s->cpu, s->cpu_peer_s);

	pacing_describe(how, sizeof(how), s->pacing_mode, s->burst);
	printf("%8.2f %9.3f %10llu %7llu %6llu %9.3f %7.1f %7.2f  %-10s %8.2f%s\n",
	       (double)s->rate_bps / 1e6, nb_stream_send_rate_bps(s, block) / 1e6,
	       (unsigned long long)s->datagrams, (unsigned long long)s->errors,
	       (unsigned long long)s->late_sends, (double)s->max_late_ns / 1e6, s->cpu.proc_pct,
	       nb_pacing_cpu_pct(s->pacing_cpu_ns, s->cpu.window_s), how, s->cpu.busy_pct,
	       nb_cpu_polluted(other) ? "*" : "");
	print_polluted(other);
}

void stream_print_baseline(const struct nb_cpu_idle *b, const struct nb_stream_ctl_agent *agents,
			   size_t nagents)
{
	if (!b->known)
		return;
	printf("idle baseline (%.2f s before the stream): other processes used %.0f %% of a CPU "
	       "here",
	       b->cpu.window_s, b->other_pct);
	for (size_t i = 0; i < nagents; i++) {
		if (agents[i].base.known)
			printf(", %.0f %% on %s", agents[i].base.other_pct, agents[i].host);
		else
			printf(", unknown on %s (an older netbench)", agents[i].host);
	}
	printf("\n");
}

void stream_print_pacing(const struct nb_stream_pacing *pc)
{
	printf("pacing: %s", nb_pacing_name(pc->mode));
	if (pc->mode == NB_PACING_TXTIME)
		printf(" (the kernel releases each datagram at its time: %s qdisc %s)", pc->ifname,
		       pc->qdisc);
	else if (pc->mode == NB_PACING_BURST)
		printf(" (about 1 ms per wake-up unless --burst%s%s)",
		       pc->why[0] ? "; no kernel pacing: " : "", pc->why);
	else if (pc->mode == NB_PACING_SPIN)
		printf(" (exact gaps; at short intervals it costs a whole CPU)");
	printf("\n");
}

void stream_print_agent_head(const char *host, const struct nb_sysinfo *si)
{
	printf("\nagent %s: %s, %s %s, %u CPU%s%s%s%s\n", host, si->hostname, si->arch, si->kernel,
	       si->ncpu, si->cpu_model[0] ? ", " : "", si->cpu_model,
	       si->driver[0] ? ", driver " : "", si->driver);
	virt_note_print(stdout, "agent", si);
}

void stream_print_prof(const struct nb_stream_rx *rx, struct nb_prof_result *const *prof)
{
	bool head = false;
	if (!prof)
		return;
	for (size_t i = 0; i < rx->nsteps && i < NB_STREAM_MAX_STEPS; i++) {
		const struct nb_stream_step *s = &rx->steps[i];
		struct nb_prof_summary sum;
		char line[512], out[600];
		size_t o = 0;
		if (!head)
			printf(
			    "where it went (kernel profile over each step's window, every CPU; ns "
			    "per datagram received):\n");
		head = true;
		if (!prof[i]) {
			printf("%8.2f   no profile: the step's window did not open\n",
			       (double)s->rate_bps_asked / 1e6);
			continue;
		}
		nb_stream_prof_summary(s, prof[i], &sum);
		nb_prof_line(prof[i], &sum, 5, line, sizeof(line));
		/* The profile counts frames; here a frame is a datagram received. */
		for (const char *c = line; *c && o + 1 < sizeof(out);) {
			if (!strncmp(c, "ns/frame", 8) && o + 12 < sizeof(out)) {
				memcpy(out + o, "ns/datagram", 11);
				o += 11;
				c += 8;
			} else {
				out[o++] = *c++;
			}
		}
		out[o] = '\0';
		if (prof[i]->available)
			printf("%8.2f   %.0f %% of a CPU busy, %llu samples: %s\n",
			       (double)s->rate_bps_asked / 1e6, sum.busy_share * 100 * sum.ncpu,
			       (unsigned long long)sum.samples, out);
		else
			printf("%8.2f   %s\n", (double)s->rate_bps_asked / 1e6, out);
	}
}
