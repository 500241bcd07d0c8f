/* SPDX-License-Identifier: BSD-2-Clause */
/* The live progress line: state set by the front end's callbacks, drawn by a small thread (so
 * the time left counts down while a trial runs) and taken off before any other output. */
#include "cmd/progress.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/base/eta.h"
#include "core/base/timeutil.h"

#define DRAW_GAP_NS (150 * NB_NS_PER_MS) /* at most about 6 redraws a second */
#define TICK_NS	    (250 * NB_NS_PER_MS)

/* One terminal line per process: the one piece of state shared with the drawing thread. */
static struct {
	bool on;     /* begun, on a terminal */
	bool hidden; /* cleared; drawn again after the next step or result */
	bool shown;  /* the line is on the screen now */
	bool quit;
	pid_t owner; /* a forked child never touches the parent's line */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	const char *command;
	size_t nsteps, step;
	bool stepped;
	double plan_step_s;
	double left_s; /* progress_left's estimate at left_ns (negative: none) */
	uint64_t left_ns;
	const char *left_suffix;
	uint64_t t0_ns, step_t0_ns, drawn_ns;
	char what[96], last[96];
} pg = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void say(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void erase_locked(void)
{
	if (pg.shown)
		say("\r\033[K", 4);
	pg.shown = false;
}

static void format_left(char *buf, size_t len, double s)
{
	if (s < 0)
		buf[0] = '\0';
	else if (s < 100)
		snprintf(buf, len, ", ~%.0f s left", ceil(s));
	else if (s < 6000)
		snprintf(buf, len, ", ~%.0f min left", s / 60);
	else
		snprintf(buf, len, ", ~%.1f h left", s / 3600);
}

static void draw_locked(uint64_t now_ns)
{
	char line[320], left[64];
	struct winsize ws;
	size_t cols = 80, n;
	double now_s = (double)(now_ns - pg.t0_ns) / 1e9;
	double step_s = (double)(pg.step_t0_ns - pg.t0_ns) / 1e9;

	if (pg.left_s >= 0) {
		double s = pg.left_s - (double)(now_ns - pg.left_ns) / 1e9;
		size_t k;
		format_left(left, sizeof(left), s > 0 ? s : 0);
		k = strlen(left);
		if (pg.left_suffix && k)
			snprintf(left + k, sizeof(left) - k, " %s", pg.left_suffix);
	} else
		format_left(left, sizeof(left),
			    pg.stepped && pg.plan_step_s >= 0
				? nb_eta_s(pg.nsteps, pg.step, pg.plan_step_s, step_s, now_s)
				: -1);
	/* Where the run is and how long it has to go first: a narrow terminal cuts the end. */
	n = (size_t)snprintf(line, sizeof(line), "\rnetbench %s: step %zu of %zu%s%s%s%s%s%s",
			     pg.command, pg.stepped ? pg.step + 1 : 0, pg.nsteps, left,
			     pg.what[0] ? " (" : "", pg.what, pg.what[0] ? ")" : "",
			     pg.last[0] ? "; " : "", pg.last);
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	/* A line that wraps cannot be taken back with \r: keep it inside the terminal. */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8)
		cols = ws.ws_col;
	if (n > cols) /* the leading \r takes no column */
		n = cols;
	say(line, n);
	say("\033[K", 3);
	pg.shown = true;
	pg.drawn_ns = now_ns;
}

static void *drawer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pg.lock);
	while (!pg.quit) {
		uint64_t now = nb_mono_ns(), until;
		struct timespec ts;
		if (cli_stop) /* Ctrl-C: the front end prints what it has next */
			pg.hidden = true;
		if (pg.hidden)
			erase_locked();
		else if (now - pg.drawn_ns >= DRAW_GAP_NS)
			draw_locked(now);
		until = now + (pg.hidden || now - pg.drawn_ns >= DRAW_GAP_NS
				   ? TICK_NS
				   : DRAW_GAP_NS - (now - pg.drawn_ns));
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += (time_t)((until - now) / NB_NS_PER_S);
		ts.tv_nsec += (long)((until - now) % NB_NS_PER_S);
		if (ts.tv_nsec >= (long)NB_NS_PER_S) {
			ts.tv_sec++;
			ts.tv_nsec -= (long)NB_NS_PER_S;
		}
		pthread_cond_timedwait(&pg.wake, &pg.lock, &ts);
	}
	erase_locked();
	pthread_mutex_unlock(&pg.lock);
	return NULL;
}

void progress_left(double s, const char *suffix)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.left_s = s;
	pg.left_ns = nb_mono_ns();
	pg.left_suffix = suffix;
	pthread_mutex_unlock(&pg.lock);
}

void progress_begin(const char *command, size_t nsteps, double plan_step_s)
{
	const char *term = getenv("TERM");
	sigset_t all, old;

	if (pg.on || !nsteps || !isatty(STDERR_FILENO) || (term && !strcmp(term, "dumb")))
		return;
	pg.command = command;
	pg.nsteps = nsteps;
	pg.plan_step_s = plan_step_s;
	pg.left_s = -1;
	pg.left_suffix = NULL;
	pg.t0_ns = pg.step_t0_ns = nb_mono_ns();
	pg.hidden = true; /* until the first step */
	pg.quit = pg.shown = pg.stepped = false;
	pg.what[0] = pg.last[0] = '\0';
	pg.drawn_ns = 0;
	pg.owner = getpid();
	if (pthread_cond_init(&pg.wake, NULL))
		return;
	/* The drawing thread takes no signal: Ctrl-C must reach the thread that runs the test,
	 * whose blocked poll it interrupts. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pg.on = !pthread_create(&pg.thread, NULL, drawer, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pg.on)
		atexit(progress_end);
}

static void update(void)
{
	fflush(stdout); /* whatever the front end printed goes before the line */
	pg.hidden = false;
	pthread_cond_signal(&pg.wake);
	pthread_mutex_unlock(&pg.lock);
}

void progress_step(size_t step, const char *fmt, ...)
{
	va_list ap;

	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.step = step;
	pg.stepped = true;
	pg.step_t0_ns = nb_mono_ns();
	va_start(ap, fmt);
	vsnprintf(pg.what, sizeof(pg.what), fmt, ap);
	va_end(ap);
	update();
}

void progress_result(const char *fmt, ...)
{
	va_list ap;

	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	va_start(ap, fmt);
	vsnprintf(pg.last, sizeof(pg.last), fmt, ap);
	va_end(ap);
	update();
}

void progress_clear(void)
{
	if (!pg.on || pg.owner != getpid())
		return;
	pthread_mutex_lock(&pg.lock);
	pg.hidden = true;
	erase_locked();
	pthread_mutex_unlock(&pg.lock);
}

void progress_end(void)
{
	if (!pg.on || pg.owner != getpid())
		return;
	pthread_mutex_lock(&pg.lock);
	pg.quit = true;
	pg.hidden = true;
	erase_locked();
	pthread_cond_signal(&pg.wake);
	pthread_mutex_unlock(&pg.lock);
	pthread_join(pg.thread, NULL);
	pg.on = false;
}
