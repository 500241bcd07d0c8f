/* SPDX-License-Identifier: BSD-2-Clause */
/* What compare and report draw from a result document: per test, one or more views, each a set
 * of named series of (x, y) points with the axes' names and units, marks on the x axis (cache
 * steps, crossover sizes) and notes (verdicts, fits). One extractor per test reads the
 * document's own fields; nothing else knows them. */
#ifndef NB_VIEWS_H
#define NB_VIEWS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store/jdoc.h"

#define NB_VIEW_MAX_POINTS 64
#define NB_VIEW_MAX_SERIES 16
#define NB_VIEW_MAX_MARKS  8
#define NB_VIEW_MAX	   8

struct nb_series {
	char name[48];
	bool model; /* a computed curve (line rate, fitted cost): drawn dashed, not compared */
	size_t n;
	double x[NB_VIEW_MAX_POINTS], y[NB_VIEW_MAX_POINTS];
	bool polluted[NB_VIEW_MAX_POINTS]; /* the point's CPU window was polluted (cpu_polluted) */
	double facet; /* rate.rules: the frame size (the report draws one chart per size); else 0 */
};

struct nb_mark {
	double x;
	char text[40];
};

enum nb_xfmt { NB_XFMT_NUM, NB_XFMT_BYTES };

struct nb_view {
	char id[32]; /* "tput.kbyte", "stream.cpu", ...: views with one id are compared */
	char title[96];
	char x_name[32], x_unit[16], y_name[48], y_unit[24];
	enum nb_xfmt x_fmt;
	bool x_log, y_log;
	bool by_result; /* compared as rows = results, columns = x (seed 002's table) */
	bool lower_is_better;
	size_t nseries;
	struct nb_series s[NB_VIEW_MAX_SERIES];
	size_t nmarks;
	struct nb_mark marks[NB_VIEW_MAX_MARKS];
	char note[200];
};

enum nb_stream_cpu { NB_STREAM_CPU_TOTAL, NB_STREAM_CPU_SOFTIRQ, NB_STREAM_CPU_PROCESS };

struct nb_view_opts {
	enum nb_stream_cpu stream_cpu;
	const char *algo; /* crypto: the algorithm drawn; NULL: the one most engines ran */
};

/* Fills up to max views from a document; *n = 0 for a test without views (lab). Returns 0 or
 * -EINVAL when the document is not a netbench result. */
int nb_views_extract(const struct nb_jdoc *d, const struct nb_view_opts *o, struct nb_view *views,
		     size_t max, size_t *n);

/* Appends a point; false when the series is full. */
bool nb_series_add(struct nb_series *s, double x, double y);

/* Formats an x value as the view shows it: "8k" for 8192 bytes, "4" for 4 Mbit/s. */
void nb_view_fmt_x(const struct nb_view *v, double x, char *buf, size_t len);

#endif
