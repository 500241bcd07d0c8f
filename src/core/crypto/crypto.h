/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench crypto: cipher and MAC throughput, per-request latency and CPU cost by request size,
 * per engine (OpenSSL in process, /dev/crypto, AF_ALG). Every engine's output is checked against a
 * reference before it is timed. Core API: no printing; the front end and the agent share it. */
#ifndef NB_CRYPTO_H
#define NB_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/cpu.h"
#include "core/base/json.h"
#include "core/base/result.h"
#include "core/session/job.h"

#define NB_CRYPTO_MAX_ALGOS 8
#define NB_CRYPTO_MAX_SIZES 16
/* The three engines, or afalg once per kernel driver; one algorithm of a remote run (every
 * engine at 16 sizes) must fit one 64 KB protocol message beside a CPU sample. */
#define NB_CRYPTO_MAX_ENGINES  6
#define NB_CRYPTO_MAX_INFLIGHT 64
#define NB_CRYPTO_MAX_SIZE     65536u
#define NB_CRYPTO_MAX_AAD      64u
#define NB_CRYPTO_MAX_TAG      32u
#define NB_CRYPTO_MAX_KEY      64u

enum nb_crypto_kind {
	NB_CRYPTO_CIPHER,     /* out = ciphertext */
	NB_CRYPTO_AEAD,	      /* out = ciphertext || tag; AAD authenticated */
	NB_CRYPTO_MAC,	      /* out = tag */
	NB_CRYPTO_CIPHER_MAC, /* ESP-style: out = C || HMAC(C), C = CBC(P) */
};

struct nb_crypto_algo {
	const char *name; /* as the user types it: "aes-128-gcm" */
	enum nb_crypto_kind kind;
	uint32_t key_len, mac_key_len, iv_len, tag_len;
	uint32_t block_len;	 /* requests are padded to this (CBC), 1 otherwise */
	const char *kernel_name; /* crypto API name, as /proc/crypto lists it */
	const char *kernel_type; /* AF_ALG socket type */
};

extern const struct nb_crypto_algo nb_crypto_algos[];
extern const size_t nb_crypto_nalgos;
const struct nb_crypto_algo *nb_crypto_algo_find(const char *name);
/* Bytes the engine processes for a request of size bytes (CBC pads to the block, as ESP does). */
uint32_t nb_crypto_padded_len(const struct nb_crypto_algo *a, uint32_t size);
/* Bytes the engine writes for len input bytes: the tag sits at the end. */
uint32_t nb_crypto_out_len(const struct nb_crypto_algo *a, uint32_t len);

/* One request. out holds nb_crypto_out_len(len) bytes. */
struct nb_crypto_req {
	const uint8_t *in;
	uint8_t *out;
	uint32_t len;
	const uint8_t *iv;
	const uint8_t *aad; /* AEAD only */
	uint32_t aad_len;
};

/* Keys for a session; mac_key only for MAC and CIPHER_MAC. */
struct nb_crypto_keys {
	const uint8_t *key, *mac_key;
	uint32_t key_len, mac_key_len;
};

/* Which kernel driver serves a session, where the engine can tell. */
struct nb_crypto_driver {
	char name[64];	 /* crypto API name, e.g. "cbc(aes)" */
	char driver[64]; /* implementation, e.g. "cbc-aes-talitos" */
	char module[32];
	int priority;	     /* -1 when unknown */
	int hw;		     /* 1 hardware, 0 CPU, -1 unknown */
	char mac_driver[64]; /* second transform (devcrypto's HMAC half) */
};

/* An engine: one file each (crypto_soft.c, crypto_devcrypto.c, crypto_afalg.c). Callbacks
 * return 0 or a negative errno and put a reason into why on failure. A session belongs to one
 * thread. -EOPNOTSUPP from session_new means the engine does not offer the algorithm. */
struct nb_crypto_engine {
	const char *name;
	const char *summary;
	bool kernel;
	int (*probe)(char *why, size_t len);
	int (*session_new)(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a,
			   const struct nb_crypto_keys *k, void **sess, char *why, size_t len);
	/* Fills drv (kernel engines; NULL callback for soft). */
	int (*driver)(void *sess, struct nb_crypto_driver *drv);
	int (*run)(void *sess, const struct nb_crypto_req *req);
	void (*session_free)(void *sess);
	/* afalg:DRIVER: bind this implementation (a driver name as /proc/crypto lists it) instead
	 * of the kernel's choice for the algorithm; NULL for the kernel's choice. */
	const char *kernel_driver;
};

extern const struct nb_crypto_engine nb_crypto_soft, nb_crypto_devcrypto, nb_crypto_afalg;
/* The built-in reference (portable C, crypto_ref.c): the comparison where soft is absent. Not in
 * the engine table: it is never timed. */
extern const struct nb_crypto_engine nb_crypto_ref;
/* Every engine, soft first (it is the reference). NULL-terminated. */
extern const struct nb_crypto_engine *const nb_crypto_engines[];
const struct nb_crypto_engine *nb_crypto_engine_find(const char *name);

/* A published known-answer vector for an algorithm (NIST SP 800-38A, the GCM specification,
 * RFC 8439, RFC 2202/4231). Built in so that a board without OpenSSL can still check its
 * kernel engines. */
struct nb_crypto_kat {
	const char *algo;
	const char *source;
	const char *key, *mac_key, *iv, *aad, *in, *out; /* hex */
};
extern const struct nb_crypto_kat nb_crypto_kats[];
const struct nb_crypto_kat *nb_crypto_kat_find(const char *algo);
/* Decodes hex into buf; returns the byte count or -EINVAL / -E2BIG. */
int nb_crypto_hex(const char *hex, uint8_t *buf, size_t cap);
/* Runs the algorithm's vector through sess. Returns 0, -EBADMSG on a wrong answer (why names
 * the first differing byte), or the engine's error. */
int nb_crypto_kat_check(const struct nb_crypto_engine *e, const struct nb_crypto_algo *a, char *why,
			size_t len);

struct nb_crypto_params {
	const struct nb_crypto_algo *algos[NB_CRYPTO_MAX_ALGOS];
	size_t nalgos;
	uint32_t sizes[NB_CRYPTO_MAX_SIZES];
	size_t nsizes;
	const struct nb_crypto_engine *engines[NB_CRYPTO_MAX_ENGINES];
	size_t nengines;
	uint64_t time_ns;   /* measurement window per point */
	uint64_t warmup_ns; /* excluded before each window */
	uint32_t inflight;  /* threads, each with one request in flight */
	uint32_t aad_len;   /* AEAD associated data per request (ESP: 8) */
	/* Ends the run early: the front end's stop flag, or the agent's job cancel flag; may be
	 * NULL. */
	const nb_cancel_t *stop;
	/* Storage of the afalg:DRIVER engines that engines[] points at (nb_crypto_select_engines
	 * fills it; copy opts with nb_crypto_params_copy, which keeps the pointers inside). */
	struct nb_crypto_engine drv_engines[NB_CRYPTO_MAX_ENGINES];
	char drv_names[NB_CRYPTO_MAX_ENGINES][2][80]; /* "afalg:DRIVER", "DRIVER" */
	size_t ndrv;
};

/* Copies src into dst with the afalg:DRIVER engines pointing into dst's own storage. */
void nb_crypto_params_copy(struct nb_crypto_params *dst, const struct nb_crypto_params *src);
/* The kernel drivers of a's transform, best priority first, after instantiating the template
 * over every implementation of its innermost part (cbc(aes-generic) beside cbc(aes)'s
 * hardware driver). Returns the count (0 without AF_ALG). */
size_t nb_crypto_afalg_drivers(const struct nb_crypto_algo *a, char (*drivers)[80], size_t max);

/* Every algorithm, the default sizes, every engine, 0.5 s windows, one in flight, 8 AAD bytes. */
void nb_crypto_params_default(struct nb_crypto_params *o);
/* Fills o->engines from a comma-separated list ("all" for every engine; "afalg:DRIVER" for
 * one kernel driver; "afalg:all" for every driver of the selected algorithms, so select the
 * algorithms first). Returns 0 or -ENOENT with the unknown name in bad, -E2BIG for too many. */
int nb_crypto_select_engines(struct nb_crypto_params *o, const char *list, char *bad, size_t len);
int nb_crypto_select_algos(struct nb_crypto_params *o, const char *list, char *bad, size_t len);

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
};

struct nb_crypto_result *nb_crypto_result_new(const struct nb_crypto_params *o);
void nb_crypto_result_free(struct nb_crypto_result *r);
struct nb_crypto_cell *nb_crypto_cell_at(const struct nb_crypto_result *r, size_t algo,
					 size_t engine);

/* Called after each algorithm, every engine done, with the result so far (for output as the
 * run goes; the agent can report progress from it). May be NULL. */
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
/* Crossover: the first size index from which e beats ref at every larger size; -1 if none. */
int nb_crypto_crossover(const struct nb_crypto_cell *e, const struct nb_crypto_cell *ref,
			size_t nsizes);

/* Writes the result's members (config, engines, results) into the open object j. */
void nb_crypto_result_json(struct nb_json *j, const struct nb_crypto_result *r);
/* Writes one algorithm's entries of "results" (one object per engine) into the open array j. */
void nb_crypto_algo_json(struct nb_json *j, const struct nb_crypto_result *r, size_t algo);
/* The result as one JSON object in a malloc'd string (free it): the whole result
 * (NB_CRYPTO_JSON_ALL), everything but "results" (NB_CRYPTO_JSON_HEAD), or
 * {"algo": ..., "results": [...]} for one algorithm (algo >= 0). A whole run with several kernel
 * engines exceeds one protocol message (64 KB); the head and one algorithm (about 1 KB per
 * point) each fit, so the agent can send each algorithm as the progress callback reports it. */
#define NB_CRYPTO_JSON_ALL  (-1)
#define NB_CRYPTO_JSON_HEAD (-2)
int nb_crypto_result_json_text(const struct nb_crypto_result *r, int algo, char **text,
			       size_t *len);
/* The whole document, top-level object opened and closed: frame (nb_result_begin with local and,
 * for a remote run, the agent's platform), "agent" where there is one, the result. */
void nb_crypto_doc_json(struct nb_json *j, const struct nb_crypto_result *r,
			const struct nb_sysinfo *local, const struct nb_result_agent *agent);

/* /proc/crypto: one entry per registered implementation. */
struct nb_proc_crypto_alg {
	char name[64], driver[64], module[32], type[24];
	int priority;
	bool selftest_passed, internal, async;
};
/* Parses /proc/crypto text into algs (at most max); returns the count or -EINVAL. */
int nb_proc_crypto_parse(const char *text, struct nb_proc_crypto_alg *algs, size_t max);
/* The implementation the kernel would pick for name: highest priority, passed its self-test,
 * not internal. NULL if none. */
const struct nb_proc_crypto_alg *nb_proc_crypto_best(const struct nb_proc_crypto_alg *algs,
						     size_t n, const char *name);
const struct nb_proc_crypto_alg *nb_proc_crypto_by_driver(const struct nb_proc_crypto_alg *algs,
							  size_t n, const char *driver);
/* Reads /proc/crypto (path for tests; NULL for the real one) and fills drv for name or driver. */
int nb_proc_crypto_lookup(const char *path, const char *name, const char *driver,
			  struct nb_crypto_driver *drv);
/* 0 when the driver name is a CPU implementation (generic C, AES-NI, ARM CE/NEON...), 1 when
 * it names no known CPU implementation (a hardware engine such as talitos or caam), as a
 * hint; -1 when empty. */
int nb_crypto_driver_is_hw(const char *driver);

#endif
