/* SPDX-License-Identifier: BSD-2-Clause */
/* The tables `netbench rate` prints (cmd/rate_print.c). */
#ifndef NB_CMD_RATE_PRINT_H
#define NB_CMD_RATE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/rate/rate_run.h"

/* Each renders what the run decided and stored (the verdicts, fits): nothing is decided here. */
void rate_print_table(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n,
		      const struct nb_rate_overall *v);
/* ndrpdr: each size's loss ratios, one sentence each (rate_ndrpdr_print.c). */
void rate_print_ratios(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n);
/* --imix: what the table's one row is (rate_mix_print.c). */
void rate_print_mix(const struct nb_rate_run *r);
/* --bidir (rate_bidir_print.c): a trial's reverse line (progress), each size's direction. */
void rate_print_bidir_trial(FILE *f, const struct nb_rate_trial *t);
void rate_print_bidir(const struct nb_rate_run *r, const struct nb_rate_size *s, size_t n);
void rate_print_sweep(const struct nb_rate_run *r, const struct nb_rate_sweep_point *pt, size_t np,
		      const struct nb_rate_sweep_fits *fits);
/* have_freq false: the DUT has no cpufreq, one point at the clock it has, no fit. */
void rate_print_clocks(const struct nb_rate_run *r, const struct nb_rate_clock_point *pt, size_t np,
		       bool have_freq, const struct nb_rate_clock_fits *fits);

#endif
