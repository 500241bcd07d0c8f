/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto's run: every engine checked against the reference, then the good ones timed at
 * every size; the result (one cell per algorithm and engine) and the crossover sizes. Core API:
 * no printing; the front end and the agent share it. */
#ifndef NB_CRYPTO_RUN_H
#define NB_CRYPTO_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cpu.h"
#include "core/crypto/crypto_params.h"
#include "core/profile/prof.h"

struct nb_ctl;

enum nb_crypto_status {
	NB_CRYPTO_OK,
	NB_CRYPTO_UNAVAILABLE, /* the engine cannot run here at all */
	NB_CRYPTO_UNSUPPORTED, /* the engine does not offer this algorithm */
	NB_CRYPTO_BROKEN,      /* wrong output: never timed */
	NB_CRYPTO_FAILED,      /* an error while setting up or checking */
};
const char *nb_crypto_status_name(enum nb_crypto_status s);

struct nb_crypto_point {
	uint32_t size_bytes;   /* request size as asked */
	uint32_t padded_bytes; /* what the engine processed per request */
	bool valid;
	char invalid_reason[96];
	uint64_t ops; /* requests completed in the window */
	double window_s;
	double mbyte_per_s; /* request bytes, 10^6 */
	double ops_per_s;
	double lat_p50_us, lat_p99_us;
	uint64_t lat_samples;
	struct nb_cpu_load cpu;
	double proc_us_per_kbyte; /* this process's CPU time per KByte */
	double sys_us_per_kbyte;  /* the whole system's busy CPU time per KByte */
	/* The window as consecutive equal parts (the run's repeat): the half-width of the 95 %
	 * interval of MB/s from the parts' rates (Student's t); NaN with one part, or from an
	 * agent before it (windows 0). */
	uint32_t windows;
	double mbyte_ci95;
};

/* One engine running one algorithm. */
struct nb_crypto_cell {
	const struct nb_crypto_engine *engine;
	const struct nb_crypto_algo *algo;
	enum nb_crypto_status status;
	char reason[200]; /* why not OK; or what the check compared */
	char check[96];	  /* "matches soft at 7 sizes", "known-answer vector (RFC 8439)" */
	bool have_driver;
	struct nb_crypto_driver driver;
	struct nb_crypto_point points[NB_CRYPTO_MAX_SIZES];
	int crossover_index; /* first size from which it beats soft; -1 none, -2 no soft reference
			      */
	/* What crossover_index compares with: soft, or (without soft) the fastest CPU driver of
	 * the same algorithm when this cell is a hardware driver. NULL: no reference. */
	const struct nb_crypto_engine *crossover_ref;
};

struct nb_crypto_result {
	struct nb_crypto_params opts;
	bool engine_ok[NB_CRYPTO_MAX_ENGINES];
	char engine_reason[NB_CRYPTO_MAX_ENGINES][200];
	size_t ncells; /* nalgos * nengines, algorithm-major */
	struct nb_crypto_cell *cells;
	bool interrupted;
	/* With opts.profile_hz: each point's kernel profile (nb_crypto_point_prof), NULL where the
	 * point was not timed; ncells x NB_CRYPTO_MAX_SIZES entries, each malloc'd. */
	struct nb_prof_result **prof;
	/* A run on an agent (nb_crypto_ctl_run): the session, for the document's agent and
	 * env.remote; NULL for a run here and on the agent's side. */
	struct nb_ctl *ctl;
};

struct nb_crypto_result *nb_crypto_result_new(const struct nb_crypto_params *o);
void nb_crypto_result_free(struct nb_crypto_result *r);
struct nb_crypto_cell *nb_crypto_cell_at(const struct nb_crypto_result *r, size_t algo,
					 size_t engine);

/* The kernel profile of a point (size index si of a cell), NULL when none was taken. */
struct nb_prof_result *nb_crypto_point_prof(const struct nb_crypto_result *r,
					    const struct nb_crypto_cell *c, size_t si);
/* Stores pr (malloc'd, taken over; NULL frees the point's) as the point's profile. */
void nb_crypto_point_prof_set(struct nb_crypto_result *r, const struct nb_crypto_cell *c, size_t si,
			      struct nb_prof_result *pr);
/* A point's profile over every CPU: ns per frame is ns per request, from the point's busy
 * CPU-seconds (/proc/stat, same window) and its requests. */
void nb_crypto_prof_summary(const struct nb_crypto_point *p, const struct nb_prof_result *pr,
			    struct nb_prof_summary *s);
/* The crypto category by driver: the top functions the crypto category decides, grouped by
 * their module ("built-in" for the kernel's own), the most samples first; share of the
 * functions' samples with its 95 % interval. Returns how many (at most max). */
struct nb_crypto_prof_driver {
	char module[NB_PROF_MOD];
	uint64_t samples;
	double share, lo, hi;
};
size_t nb_crypto_prof_drivers(const struct nb_prof_result *pr, struct nb_crypto_prof_driver *d,
			      size_t max);

/* What a point or cell not measured to its end says: never reached, or cut by a stop. */
#define NB_CRYPTO_NOT_RUN "not run"
#define NB_CRYPTO_CUT	  "interrupted"
/* A point measured to its end: valid, or invalid for a reason of its own. A stopped run keeps
 * (prints, documents) only these, as every test keeps only whole steps. */
bool nb_crypto_point_whole(const struct nb_crypto_point *p);
/* A cell the run reached (checked, timed or found unusable); not one a stop left untouched. */
bool nb_crypto_cell_reached(const struct nb_crypto_cell *c);
/* Whether algorithm algo has a whole point in any engine (a stopped run reports it then). */
bool nb_crypto_algo_any_whole(const struct nb_crypto_result *r, size_t algo);

/* Called after each algorithm, every engine done, with the result so far (for output as the
 * run goes; the agent can report progress from it), and once for the algorithm a stop cut
 * when it has a whole point (its crossovers are then not computed). May be NULL. */
typedef void (*nb_crypto_progress_fn)(void *arg, const struct nb_crypto_result *r, size_t algo);

/* Probes the engines, checks each engine and algorithm against the reference, then times the
 * good ones. *out is allocated here (free with nb_crypto_result_free). Returns 0 or a negative
 * errno for a failure of the run itself (memory, threads); engine trouble lands in the cells. */
int nb_crypto_run(const struct nb_crypto_params *o, nb_crypto_progress_fn progress, void *arg,
		  struct nb_crypto_result **out);
/* Correctness of one cell: the known-answer vector, then ref (soft, or the built-in reference
 * where soft is absent) at every size; ref NULL for the vector alone. Exposed for tests. */
int nb_crypto_check_cell(const struct nb_crypto_params *o, struct nb_crypto_cell *c,
			 const struct nb_crypto_engine *ref);
/* Student's t quantile for a two-sided 95 % interval, 1 to NB_CRYPTO_MAX_REPEAT - 1 degrees of
 * freedom (a table); NaN outside. */
double nb_crypto_t95(size_t dof);
/* Half-width of the 95 % interval of the mean of n values (Student's t, n - 1 dof); NaN for
 * fewer than two or more than NB_CRYPTO_MAX_REPEAT. */
double nb_crypto_ci95(const double *x, size_t n);
/* Whether point p is faster than q beyond their intervals: the difference of MB/s exceeds the
 * root of the sum of the squared 95 % half-widths. Without an interval on either (one window,
 * an older agent) the larger mean counts, as before intervals. */
bool nb_crypto_faster(const struct nb_crypto_point *p, const struct nb_crypto_point *q);
/* Whether two valid points' MB/s differ by more than their intervals allow (false without an
 * interval: not known). */
bool nb_crypto_differ(const struct nb_crypto_point *p, const struct nb_crypto_point *q);
/* Crossover: the first size index from which e beats ref (nb_crypto_faster) at every larger
 * size; -1 if none. */
int nb_crypto_crossover(const struct nb_crypto_cell *e, const struct nb_crypto_cell *ref,
			size_t nsizes);

#endif
