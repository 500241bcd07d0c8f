/* SPDX-License-Identifier: BSD-2-Clause */
/* What compare and report draw from a result document: per test, one or more views, each a set
 * of named series of (x, y) points with the axes' names and units, marks on the x axis (cache
 * steps, crossover sizes) and notes (verdicts, fits). One extractor per test reads the
 * document's own fields; nothing else knows them. */
#ifndef NB_VIEWS_H
#define NB_VIEWS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store/facts.h"
#include "core/store/jdoc.h"

#define NB_VIEW_MAX_POINTS 64
#define NB_VIEW_MAX_SERIES 16
#define NB_VIEW_MAX_MARKS  8
#define NB_VIEW_MAX	   8

/* A series name as stored and compared: names that fit are kept whole; a longer one keeps its
 * first 38 bytes (never half a UTF-8 character) and "~" and 8 hex digits of a hash of the whole
 * name, so two long names that share a beginning stay two series (docs/results.md). */
#define NB_SERIES_NAME_MAX 48
void nb_series_name(char out[NB_SERIES_NAME_MAX], const char *name);

struct nb_series {
	char name[NB_SERIES_NAME_MAX];
	bool model; /* a computed curve (line rate, fitted cost): drawn dashed, not compared */
	size_t n;
	double x[NB_VIEW_MAX_POINTS], y[NB_VIEW_MAX_POINTS];
	/* The point's CPU window was polluted by other processes (the document's cpu_polluted). */
	bool polluted[NB_VIEW_MAX_POINTS];
	/* A series measured on an end of its own (a receiver of a multi-agent stream run): its
	 * facts; otherwise the result's measured end holds for it. */
	bool own_env;
	struct nb_facts env;
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
	/* The series are parts of one whole at each x (a kernel profile's categories): the
	 * report draws a stacked bar per x and result. */
	bool stacked;
	size_t nseries;
	struct nb_series s[NB_VIEW_MAX_SERIES];
	size_t nmarks;
	struct nb_mark marks[NB_VIEW_MAX_MARKS];
	char note[200];
	size_t lost_points; /* valid points of the document that did not fit in the series */
};

/* The series name of a stream run's only receiver; several receivers are named by their agent. */
#define NB_VIEW_ONE_RECEIVER "receiver"

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
/* Appends a point with its CPU window's pollution mark. */
bool nb_series_add_marked(struct nb_series *s, double x, double y, bool polluted);

/* Formats an x value as the view shows it: "8k" for 8192 bytes, "4" for 4 Mbit/s. */
void nb_view_fmt_x(const struct nb_view *v, double x, char *buf, size_t len);

#endif
