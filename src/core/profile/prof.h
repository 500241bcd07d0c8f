/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel profile of a measurement window: where a box's CPU time went, by subsystem and per
 * frame, with no tool on the box (docs/design.md, "The kernel profile").
 *
 * How a test uses it (the observer does exactly this, core/observe/obs_agent.c):
 *
 *   struct nb_prof *p;
 *   char why[NB_PROF_WHY];
 *   nb_prof_open(&p, hz, buf_kib, cpu_mask, why, sizeof(why));  before the window: opens one
 *         perf event per CPU (disabled) and loads the kernel's symbols; on failure p is still
 *         a profiler that reports "unavailable: WHY" (never an empty profile)
 *   nb_prof_start(p);   right after the window's opening instant: sampling starts
 *   ...                 the test runs; a thread drains the ring buffers
 *   nb_prof_stop(p);    right before the window's closing instant: sampling stops, rings drained
 *   nb_prof_result(p, r);  the window's counts: per CPU samples, lost and categories, the top
 *         functions and folded stacks over cpu_mask's CPUs (names and counts only, never an
 *         address)
 *   nb_prof_free(p);
 *
 * The agent sends r with nb_prof_put (prof_wire.c) and the controller reads it with nb_prof_get;
 * nb_prof_summarize turns it into shares with 95 % intervals and ns per frame over the DUT's
 * CPUs, nb_prof_json writes the "profile" object and nb_prof_line the terminal's one line.
 * Core code: returns 0 or -errno with a reason, never prints. */
#ifndef NB_PROF_H
#define NB_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/json.h"

/* The default rate per CPU: not a divisor of the kernel's tick rates, and low enough that the
 * samples' timer interrupts and the reader cost each CPU of an emulated board under 1 %
 * (bench/profile-cost). */
#define NB_PROF_HZ_DEFAULT  49u
#define NB_PROF_HZ_MAX	    4999u  /* the agent refuses more, whatever is asked */
#define NB_PROF_KIB_DEFAULT 128u   /* ring buffer per CPU */
#define NB_PROF_KIB_MAX	    1024u  /* the agent refuses more */
#define NB_PROF_CPUS	    64u	   /* CPUs profiled (as the observer's NB_OBS_CPUS) */
#define NB_PROF_DEPTH	    32u	   /* frames kept per sample, innermost first */
#define NB_PROF_FUNCS	    24u	   /* top functions sent */
#define NB_PROF_NAME	    64u	   /* a function's name, NUL included */
#define NB_PROF_MOD	    32u	   /* a module's name, NUL included */
#define NB_PROF_FOLDED_MAX  16384u /* folded stacks sent per window, bytes */
#define NB_PROF_WHY	    200u

/* The categories a sample goes to (prof_cat.c; the rules: docs/design.md). The order is the
 * wire's. */
enum nb_prof_cat {
	NB_PC_DRIVER,	 /* the NIC driver (and its virtio ring) */
	NB_PC_DMA,	 /* DMA mapping and cache maintenance */
	NB_PC_NETCORE,	 /* NAPI, backlog, GRO, qdiscs, dev_queue_xmit, skb helpers */
	NB_PC_NETFILTER, /* nf_tables, x_tables: the rule walk and its sets */
	NB_PC_CONNTRACK, /* connection tracking and NAT */
	NB_PC_IP,	 /* IPv4/IPv6 input, forwarding, routing, neighbours, ICMP */
	NB_PC_SOCKET,	 /* UDP, TCP and the socket layer */
	NB_PC_COPY,	 /* copies to and from user space */
	NB_PC_CRYPTO,	 /* ciphers and hashes, by driver (the top functions name it) */
	NB_PC_XFRM,	 /* xfrm and ESP/AH */
	NB_PC_MEMORY,	 /* allocation and freeing (slab, pages, skb buffers) */
	NB_PC_IRQ,	 /* interrupt entry, softirq dispatch */
	NB_PC_SCHED,	 /* the scheduler, timers, RCU, wake-ups */
	NB_PC_USER,	 /* user space (any process's own code) */
	NB_PC_OTHER,	 /* kernel code no rule decides */
	NB_PC_IDLE,	 /* the idle loop: not busy */
	NB_PC_N
};
const char *nb_prof_cat_name(enum nb_prof_cat c);

/* ---- symbols (prof_sym.c) ---- */
struct nb_prof_syms;
/* Parses /proc/kallsyms text: text symbols (t, T, w, W) with their [module]. -ENOENT when it
 * holds no non-zero address (kptr_restrict, no root): the profile is then unavailable. */
int nb_prof_syms_parse(struct nb_prof_syms **s, const char *text, size_t len);
/* Reads /proc/kallsyms (root: "" or a stand-in directory) a line at a time. */
int nb_prof_syms_load(struct nb_prof_syms **s, const char *root);
void nb_prof_syms_free(struct nb_prof_syms *s);
size_t nb_prof_syms_count(const struct nb_prof_syms *s);
/* The index of the function holding addr, -1 when none does (before the first symbol). */
long nb_prof_syms_find(const struct nb_prof_syms *s, uint64_t addr);
const char *nb_prof_syms_name(const struct nb_prof_syms *s, long i);
const char *nb_prof_syms_module(const struct nb_prof_syms *s, long i); /* "" when built in */

/* ---- categories (prof_cat.c): pure ---- */
/* The NIC drivers of the box's interfaces as ethtool names them (ETHTOOL_GDRVINFO: virtio_net,
 * gfar-enet, e1000e, veth, ...): their module and symbol prefixes are the driver category's
 * before the fixed rules (docs/design.md). */
#define NB_PROF_DRIVERS 8u
struct nb_prof_drivers {
	uint32_t n;
	char name[NB_PROF_DRIVERS][NB_PROF_MOD]; /* as ethtool gives it */
};
/* Keeps an ethtool driver name: false (not kept) when it is empty, not a module's name
 * (a-z, 0-9, '_', '-'), a subsystem's module (bridge: netcore), already kept or one too many. */
bool nb_prof_drivers_add(struct nb_prof_drivers *d, const char *ethtool_name);
/* Whether a frame (its name with a GCC clone suffix or not, its module) is one of d's. */
bool nb_prof_drivers_match(const struct nb_prof_drivers *d, const char *name, const char *module);
/* The category one frame decides, or -1 when the frame decides nothing (locks, thunks, memcpy,
 * RCU read sides, unknown): the caller's frame then decides. GCC's clone suffixes (.isra.0,
 * .constprop.0, .part.0, .cold, ...) are dropped first. */
int nb_prof_cat_frame(const char *name, const char *module);
/* The same, the interfaces' drivers d (may be NULL) deciding "driver" before the fixed rules. */
int nb_prof_cat_frame_drv(const char *name, const char *module, const struct nb_prof_drivers *d);
/* A sample's category: its innermost kernel frame that decides, walking outwards (names and
 * modules, innermost first; nk kernel frames); a sample with no kernel frame but user ones is
 * user time; kernel frames none of which decides are other. */
enum nb_prof_cat nb_prof_cat_stack(const char *const *names, const char *const *modules, size_t nk,
				   bool user);
enum nb_prof_cat nb_prof_cat_stack_drv(const char *const *names, const char *const *modules,
				       size_t nk, bool user, const struct nb_prof_drivers *d);

/* ---- one window's counts (what goes on the wire) ---- */
struct nb_prof_func {
	char name[NB_PROF_NAME];
	char module[NB_PROF_MOD];
	uint64_t count;
};

struct nb_prof_cpu {
	uint32_t cpu;
	uint64_t samples, lost;
	uint64_t cat[NB_PC_N];
};

struct nb_prof_result {
	bool available;
	char why[NB_PROF_WHY]; /* unavailable: the reason ("perf_event_paranoid is 2 ...") */
	uint32_t hz;	       /* per CPU */
	uint64_t cpu_ns;       /* the profiler's own CPU time in the window: its reader
				* thread and the last drain at the window's end */
	uint64_t window_ns;    /* from start to stop */
	uint64_t func_mask;    /* CPUs of funcs and folded (0: all) */
	uint64_t throttled;    /* the kernel throttled sampling this many times */
	uint32_t ncpu;
	struct nb_prof_cpu cpu[NB_PROF_CPUS];
	uint32_t nfunc; /* the busiest first, self time (innermost frame) */
	struct nb_prof_func func[NB_PROF_FUNCS];
	uint64_t func_samples; /* samples on func_mask's CPUs (the functions' denominator) */
	size_t folded_len;     /* "outer;...;inner COUNT\n" lines, the busiest first */
	char folded[NB_PROF_FOLDED_MAX];
};

/* ---- the sampler (prof_sampler.c) ---- */
struct nb_prof;
/* hz 1..NB_PROF_HZ_MAX, buf_kib 8..NB_PROF_KIB_MAX (rounded down to pages, a power of two);
 * cpu_mask: the CPUs whose functions and stacks are kept (0: all). Returns 0 with a profiler,
 * or -errno with why set; on -errno other than -ENOMEM/-EINVAL *p is still set: a profiler
 * whose result says "unavailable: why". */
int nb_prof_open(struct nb_prof **p, uint32_t hz, uint32_t buf_kib, uint64_t cpu_mask, char *why,
		 size_t whylen);
int nb_prof_start(struct nb_prof *p);
void nb_prof_stop(struct nb_prof *p);
/* The last window's counts (after nb_prof_stop). */
void nb_prof_result(struct nb_prof *p, struct nb_prof_result *r);
void nb_prof_free(struct nb_prof *p);

/* ---- what a window says (prof_summary.c): pure ---- */
/* A share and its 95 % interval (Wilson score); established when the interval's half-width is
 * at most half the share (about 16 samples or more). */
struct nb_prof_share {
	enum nb_prof_cat cat;
	uint64_t n;
	double share, lo, hi; /* of all samples on the selected CPUs, 0..1 */
	bool established;
	double ns_per_frame, ns_lo, ns_hi; /* NaN: frames or busy time unknown, or idle */
};
struct nb_prof_summary {
	bool available;
	uint32_t ncpu; /* selected CPUs profiled */
	uint64_t samples, lost, busy;
	uint64_t expected; /* hz x the window x the selected CPUs: what a timer that never
			      slips would have taken (an idle virtual CPU's fires late) */
	double busy_share; /* busy samples of all */
	size_t n;	   /* every category (NB_PC_N), the most samples first */
	struct nb_prof_share cat[NB_PC_N];
};
void nb_prof_wilson(uint64_t k, uint64_t n, double *lo, double *hi);
/* Over the CPUs of mask (0: all): busy_cpu_s the busy CPU-seconds /proc/stat gave for those
 * CPUs over the same window (NaN or <= 0: unknown), frames the window's frames (0: unknown).
 * ns per frame = the category's share of the busy samples x busy_cpu_s / frames. */
void nb_prof_summarize(const struct nb_prof_result *r, uint64_t mask, double busy_cpu_s,
		       uint64_t frames, struct nb_prof_summary *s);
/* The category with the most samples other than idle (user time included: on a DUT that
 * forwards, that is other processes on its CPUs), NULL when none has a sample. */
const struct nb_prof_share *nb_prof_top(const struct nb_prof_summary *s);
/* "netfilter 61 % (312 ns/frame), driver 14 %, ip 9 %, ..." (at most max categories, shares
 * not established marked "?"), or "unavailable: WHY". */
void nb_prof_line(const struct nb_prof_result *r, const struct nb_prof_summary *s, size_t max,
		  char *buf, size_t len);
/* The "profile" object (docs/schema.md); r NULL: null. */
void nb_prof_json(struct nb_json *j, const char *key, const struct nb_prof_result *r,
		  const struct nb_prof_summary *s);

/* ---- wire (prof_wire.c) ---- */
struct nb_msg;
int nb_prof_put(struct nb_msg *m, const struct nb_prof_result *r);
/* 1 with a profile decoded into r, 0 when m holds none, -EBADMSG on anything malformed (r is
 * then zeroed). */
int nb_prof_get(const struct nb_msg *m, struct nb_prof_result *r);
/* Whether a tag is one of the profile's (the observer's decoder leaves them to nb_prof_get). */
bool nb_prof_tag(uint16_t tag);

#endif
