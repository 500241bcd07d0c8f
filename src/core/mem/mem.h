/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench mem: the memory system behind the frame rate. Load latency by working-set size
 * (dependent loads through a cyclic chain of cache lines), read/write/copy bandwidth for a buffer
 * well beyond the last-level cache, and cache sizes inferred from the latency curve's steps. */
#ifndef NB_MEM_H
#define NB_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cpu.h"
#include "core/base/json.h"
#include "core/base/result.h"
#include "core/session/job.h"

struct nb_ctl;

enum nb_mem_pattern {
	NB_MEM_RANDOM = 0, /* a random single cycle over the lines: defeats prefetchers */
	NB_MEM_SEQ,	   /* line after line: what the prefetcher hides */
};

#define NB_MEM_MIN_SET_BYTES	 1024ULL
#define NB_MEM_DEFAULT_MAX_BYTES (256ULL << 20)
#define NB_MEM_MAX_THREADS	 256
#define NB_MEM_MAX_CACHES	 8
#define NB_MEM_MAX_POINTS	 96
#define NB_MEM_BW_DEFAULT_BYTES	 (64ULL << 20) /* bandwidth buffer when no cache size is known */
#define NB_MEM_BW_MIN_BYTES	 (1ULL << 20)
/* --quick's bandwidth buffer at most: keeps it to seconds on a host with a large L3 */
#define NB_MEM_BW_QUICK_CAP_BYTES (64ULL << 20)

/* Where a run is: step (0-based) of nsteps, the latency points then the bandwidth rounds. */
struct nb_mem_progress {
	size_t step, nsteps;
	bool bandwidth;		      /* false: a latency point */
	uint64_t set_bytes;	      /* the working set, or the bandwidth buffer */
	uint32_t threads;	      /* bandwidth: threads of this round */
	double last_ns_per_load;      /* the latest latency point, NaN before the first */
	double last_read_mbyte_per_s; /* the latest bandwidth round, NaN before the first */
	/* Every latency point's working set in order (latency steps 0 .. n_lat_sizes - 1; the
	 * bandwidth rounds follow them), for a front end's time left; NULL in bandwidth steps. */
	const uint64_t *lat_sizes;
	size_t n_lat_sizes;
};

struct nb_mem_params {
	uint64_t min_bytes; /* smallest working set; 0 = 1 KiB */
	uint64_t max_bytes; /* largest; 0 = 256 MiB. Capped at half of the available memory */
	enum nb_mem_pattern pattern;
	uint32_t threads;  /* bandwidth also with this many threads; 0 = the online CPUs */
	uint64_t bw_bytes; /* bandwidth buffer; 0 = 4x the last-level cache (STREAM's rule) */
	bool quick;	   /* fewer points and shorter trials: a few seconds in all */
	uint32_t
	    cpu_mhz; /* core clock for cycles/load; 0 = look it up (sysinfo), unknown stays 0 */
	/* NULL, or set by another thread to end the run early (the agent, when its controller
	 * goes away): checked between latency points and between bandwidth rounds. */
	const nb_cancel_t *stop;
	/* NULL, or called before each latency point and each bandwidth round (the front end's
	 * progress line: nb_mem_ctl_run sets it from its callbacks); never sent to an agent. */
	void (*progress)(void *arg, const struct nb_mem_progress *ev);
	void *progress_arg;
};

/* Largest size any option accepts (as the command line does): 64 GiB. */
#define NB_MEM_MAX_OPT_BYTES (1ULL << 36)

struct nb_mem_lat_point {
	uint64_t set_bytes;
	double ns_per_load;	   /* best trial the thread was not preempted in */
	double ns_per_load_median; /* of those trials */
	double cycles_per_load;	   /* NaN when the clock is unknown */
	uint64_t loads_per_trial;
	uint32_t trials_preempted; /* set aside; all of them when equal to the trial count */
};

/* A step of the latency curve: the largest working set still on the lower plateau. */
struct nb_mem_step {
	uint64_t size_bytes;
	double ns_below; /* plateau level up to size_bytes */
	double ns_above; /* level of the next plateau */
};

/* One cache as the kernel describes it in /sys/devices/system/cpu/cpu0/cache/index<N>. */
struct nb_mem_cache {
	uint32_t level;
	char type[16]; /* Data, Instruction, Unified */
	uint64_t size_bytes;
	uint32_t line_bytes; /* 0 when unknown */
	char shared_cpus[32];
};

struct nb_mem_bw_point {
	uint32_t threads;
	double read_mbyte_per_s; /* MB = 10^6 bytes; best trial */
	double write_mbyte_per_s;
	double copy_mbyte_per_s; /* bytes copied (each counted once, as mbw does) per second */
	double read_median_mbyte_per_s, write_median_mbyte_per_s, copy_median_mbyte_per_s;
	uint32_t trials;	   /* per operation */
	uint32_t trials_preempted; /* all operations; set aside unless all of one op's were */
	struct nb_cpu_load cpu;	   /* over this thread count's whole window */
};

struct nb_mem_result {
	struct nb_mem_params opts; /* as run: defaults filled in, max_bytes after the cap */
	uint64_t requested_max_bytes;
	uint64_t avail_bytes; /* available memory at the start; 0 when unknown */
	bool capped;	      /* max_bytes was lowered to half of the available memory */
	bool interrupted;     /* opts.stop ended the run: only the points measured are here */
	uint32_t line_bytes;  /* chain stride: the L1 data cache line */
	uint32_t trials;
	bool hugepages; /* transparent huge pages were requested for the buffers */

	size_t n_lat;
	struct nb_mem_lat_point lat[NB_MEM_MAX_POINTS];
	struct nb_cpu_load lat_cpu;

	size_t n_steps;
	struct nb_mem_step steps[NB_MEM_MAX_CACHES];
	size_t n_sysfs;
	struct nb_mem_cache sysfs[NB_MEM_MAX_CACHES];

	double mem_latency_ns;	   /* at the largest working set */
	double mem_latency_cycles; /* NaN when the clock is unknown */

	uint64_t bw_bytes;
	const char *bw_bytes_from; /* "option", "sysfs", "latency curve", "default", "quick cap" */
	size_t n_bw;
	struct nb_mem_bw_point bw[2];
	/* A run on an agent (nb_mem_ctl_run): the session, for the document; NULL for a run here
	 * and on the agent's side. */
	struct nb_ctl *ctl;
};

/* Checks options as nb_mem_run will take them (zeros are defaults): 0, or -EINVAL with the
 * reason in err. What the agent applies to a controller's request before it starts a run. */
int nb_mem_params_check(const struct nb_mem_params *opts, char *err, size_t errlen);
/* Runs the whole probe: latency sweep, then bandwidth. Returns 0, -EINVAL for bad options,
 * -ECANCELED when opts->stop was set, -ENOMEM, or another negative errno; *out is set only
 * on success. Takes the calling thread
 * (and opts->threads more for bandwidth) for several seconds. */
int nb_mem_run(const struct nb_mem_params *opts, struct nb_mem_result **out);
void nb_mem_result_free(struct nb_mem_result *r);
/* Writes the result's fields into the JSON object the caller has open. */
void nb_mem_result_json(struct nb_json *j, const struct nb_mem_result *r);
/* The same fields as one JSON object in a new string (free() it): what the agent sends back to
 * the controller in a text item. Returns 0 or -ENOMEM. */
int nb_mem_result_json_text(const struct nb_mem_result *r, char **text, size_t *len);
/* The whole document (schema netbench/1) as text ending in a newline, malloc'd (free it): the
 * frame, "agent" for a run on one (agent NULL for a run here), the result. 0 or -ENOMEM. */
int nb_mem_doc_text(const struct nb_mem_result *r, const struct nb_sysinfo *local,
		    const struct nb_result_agent *agent, char **text, size_t *len);
const char *nb_mem_pattern_name(enum nb_mem_pattern p);
/* "random" or "seq"; returns 0 or -EINVAL. */
int nb_mem_pattern_parse(const char *s, enum nb_mem_pattern *p);

/* Helpers, exposed for the unit tests and the front end. */

/* Working-set sizes from min to max: powers of two and (unless quick) the 1.5x points between
 * them, always ending at max. Returns the count (at most cap). */
size_t nb_mem_sweep_sizes(uint64_t min_bytes, uint64_t max_bytes, bool quick, uint64_t *sizes,
			  size_t cap);
/* Lays a chain of n lines of line_bytes each in buf: each line's first word points at the next
 * line. RANDOM makes one random cycle through all lines (Sattolo's algorithm, seeded), SEQ goes
 * line after line. idx is scratch space for n entries. */
void nb_mem_chain_build(void *buf, size_t n, size_t line_bytes, enum nb_mem_pattern pattern,
			uint32_t *idx, uint64_t seed);
/* The same, giving up with -ECANCELED soon after *cancel (may be NULL) is set: it looks at the
 * flag every NB_MEM_CANCEL_LINES lines, so a cancel is seen within milliseconds on any set. */
#define NB_MEM_CANCEL_LINES (1u << 16)
int nb_mem_chain_build_c(void *buf, size_t n, size_t line_bytes, enum nb_mem_pattern pattern,
			 uint32_t *idx, uint64_t seed, const nb_cancel_t *cancel);
/* Follows the chain for loads dependent loads (a multiple of 16) and returns where it ended. */
void *nb_mem_chase(void *p, uint64_t loads);
/* Finds the steps of a latency curve (sizes ascending). Returns the count (at most cap). */
size_t nb_mem_infer_steps(const uint64_t *sizes, const double *ns, size_t n,
			  struct nb_mem_step *steps, size_t cap);
/* Reads the caches sysfs lists under dir (normally /sys/devices/system/cpu/cpu0/cache).
 * Returns the count; 0 when the directory is missing. */
size_t nb_mem_sysfs_caches(const char *dir, struct nb_mem_cache *c, size_t cap);
/* "32K", "8M", "1024" as sysfs prints cache sizes; returns 0 or -EINVAL. */
int nb_mem_parse_cache_size(const char *s, uint64_t *bytes);
/* MemAvailable (else MemFree) from a /proc/meminfo text, in bytes; 0 when absent. */
uint64_t nb_mem_parse_meminfo(const char *text);
/* The bandwidth buffer: --bw-size, else 4x the last-level cache (sysfs, else the latency
 * curve's last step), else NB_MEM_BW_DEFAULT_BYTES; quick mode caps a derived size at
 * NB_MEM_BW_QUICK_CAP_BYTES ("quick cap"); at least NB_MEM_BW_MIN_BYTES, at most limit_bytes
 * (then *capped_by_memory). *from names the origin. */
uint64_t nb_mem_bw_pick(const struct nb_mem_params *o, uint64_t sysfs_llc_bytes,
			uint64_t curve_llc_bytes, uint64_t limit_bytes, const char **from,
			bool *capped_by_memory);
/* The last-level cache the buffer rule compares with: sysfs, else the latency curve's last
 * step; 0 when unknown. */
uint64_t nb_mem_bw_llc_bytes(const struct nb_mem_result *r);
/* The largest data/unified cache in the list (the last-level cache); 0 when none. */
uint64_t nb_mem_llc_bytes(const struct nb_mem_cache *c, size_t n);

#endif
