/* SPDX-License-Identifier: BSD-2-Clause */
/* The live progress line of long runs: one line on stderr, redrawn in place at most a few times
 * a second, on a terminal only (stderr a tty, TERM not dumb), with --json too (stdout is the
 * document, stderr the terminal). Whatever a
 * front end prints while it runs goes after progress_clear() (cli_warn and cli_fail call it), so
 * a table on the same terminal is never mixed with it; the line is gone at the end, on Ctrl-C
 * and at exit. The core only reports events through callbacks; this file alone draws. */
#ifndef NB_PROGRESS_H
#define NB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/* A run of nsteps steps of about plan_step_s seconds each (0: unknown, the time left then
 * comes from the steps finished; negative: steps too unequal to tell, no time left shown).
 * Does nothing off a terminal. */
void progress_begin(const char *command, size_t nsteps, double plan_step_s);
/* Step `step` (0-based) begins; what says what it is ("4k Tx", "64-byte frames"). */
void progress_step(size_t step, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The current or last trial's figures ("941.2 Mbit/s, loss 0.00 %"). */
void progress_result(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The front end's own estimate of the seconds left now (for steps too unequal for the pace
 * of progress_begin: negative there), counted down until the next call; s negative: none.
 * suffix follows it ("+ bandwidth": what the estimate leaves out), or NULL. */
void progress_left(double s, const char *suffix);
/* Takes the line off the screen until the next progress_step/progress_result: call it before
 * printing anything while the run goes. Flushes stdout too. */
void progress_clear(void);
/* Takes the line off for good (before the results are printed; also run at exit). */
void progress_end(void);

#endif
