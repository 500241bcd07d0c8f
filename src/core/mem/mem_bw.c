/* SPDX-License-Identifier: BSD-2-Clause */
/* Memory bandwidth: read, write and copy over a buffer well beyond the last-level cache, split
 * between worker threads that start together at a barrier. A trial's time runs from the first
 * thread's start to the last thread's end, so a slow thread is not hidden by fast ones. */
#include "core/mem/mem_int.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/timeutil.h"

enum bw_op { BW_READ, BW_WRITE, BW_COPY, BW_NOPS };

#define BW_MAX_TRIALS 64

struct bw_shared {
	pthread_barrier_t start, end;
	pthread_mutex_t lock; /* with go: holds the workers until all of them exist */
	pthread_cond_t go;
	int state; /* 0 wait, 1 run, -1 quit (a thread could not be created) */
	bool quit; /* set before a start barrier: the workers leave instead of running a trial */
	const nb_cancel_t *cancel;
	uint32_t threads, trials;
	uint64_t (*t0)[BW_MAX_TRIALS], (*t1)[BW_MAX_TRIALS]; /* [op * threads + thread][trial] */
	bool (*pre)[BW_MAX_TRIALS]; /* the thread was preempted during the trial */
};

struct bw_worker {
	struct bw_shared *sh;
	uint32_t id;
	uint64_t *src, *dst;
	size_t words;
	uint64_t sum; /* the read kernel's result, kept so its loads are live */
	pthread_t tid;
};

/* Four independent sums so the adds never limit the loads. */
static uint64_t read_words(const uint64_t *p, size_t n)
{
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	for (size_t i = 0; i + 4 <= n; i += 4) {
		s0 += p[i];
		s1 += p[i + 1];
		s2 += p[i + 2];
		s3 += p[i + 3];
	}
	return s0 + s1 + s2 + s3;
}

static void *bw_thread(void *arg)
{
	struct bw_worker *w = arg;
	struct bw_shared *sh = w->sh;
	size_t bytes = w->words * sizeof(uint64_t);
	int state;

	pthread_mutex_lock(&sh->lock);
	while (!(state = sh->state))
		pthread_cond_wait(&sh->go, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	if (state < 0)
		return NULL;
	for (int op = 0; op < BW_NOPS; op++)
		for (uint32_t t = 0; t < sh->trials; t++) {
			size_t slot = (size_t)op * sh->threads + w->id;
			pthread_barrier_wait(&sh->start);
			if (sh->quit) /* written before the barrier, which orders it */
				return NULL;
			long before = nb_mem_preemptions();
			sh->t0[slot][t] = nb_mono_ns();
			/* libc's memset and memcpy: the routines a real program's copies use,
			 * in slices with a look at the cancel flag between them (a trial
			 * over a large buffer must not hold a cancel for seconds). */
			for (size_t off = 0; off < bytes; off += NB_MEM_CANCEL_BYTES) {
				size_t len = bytes - off < NB_MEM_CANCEL_BYTES
						 ? bytes - off
						 : NB_MEM_CANCEL_BYTES;
				if (nb_mem_cancelled(sh->cancel))
					break;
				if (op == BW_READ)
					w->sum += read_words(w->src + off / sizeof(uint64_t),
							     len / sizeof(uint64_t));
				else if (op == BW_WRITE)
					/* Never zero: some cores (AMD Zen 4 seen) store
					 * zeros over twice as fast, and packets are not
					 * zeros. */
					memset((char *)w->dst + off, (int)(1 + t % 0x7f), len);
				else
					memcpy((char *)w->dst + off, (char *)w->src + off, len);
			}
			NB_MEM_KEEP(w->dst);
			sh->t1[slot][t] = nb_mono_ns();
			sh->pre[slot][t] = before >= 0 && nb_mem_preemptions() != before;
			pthread_barrier_wait(&sh->end);
		}
	NB_MEM_KEEP(w->sum);
	return NULL;
}

/* One operation (read, write or copy), its trials run by every thread together; its best
 * and median MB/s into pt. As for latency: a trial in which any thread was preempted is set
 * aside, unless every trial was. -ECANCELED once cancelled, the threads joined. */
static int op_trials(struct bw_shared *sh, struct bw_worker *w, int op, size_t words_each,
		     struct nb_mem_bw_point *pt)
{
	double mb[BW_MAX_TRIALS], mb_pre[BW_MAX_TRIALS];
	uint32_t nclean = 0, npre = 0;
	for (uint32_t t = 0; t < sh->trials; t++) {
		if (nb_mem_cancelled(sh->cancel)) {
			sh->quit = true;
			pthread_barrier_wait(&sh->start);
			for (uint32_t i = 0; i < sh->threads; i++)
				pthread_join(w[i].tid, NULL);
			return -ECANCELED;
		}
		pthread_barrier_wait(&sh->start);
		pthread_barrier_wait(&sh->end);
		uint64_t first = UINT64_MAX, last = 0;
		bool preempted = false;
		for (uint32_t i = 0; i < sh->threads; i++) {
			size_t slot = (size_t)op * sh->threads + i;
			first = sh->t0[slot][t] < first ? sh->t0[slot][t] : first;
			last = sh->t1[slot][t] > last ? sh->t1[slot][t] : last;
			preempted |= sh->pre[slot][t];
		}
		uint64_t moved = (uint64_t)words_each * sh->threads * sizeof(uint64_t);
		double v = last > first ? (double)moved * 1e3 / (double)(last - first) : 0;
		if (preempted)
			mb_pre[npre++] = v;
		else
			mb[nclean++] = v;
	}
	pt->trials_preempted += npre;
	if (!nclean) {
		memcpy(mb, mb_pre, npre * sizeof(*mb));
		nclean = npre;
	}
	double med = nb_mem_median(mb, nclean); /* sorts ascending */
	double best = mb[nclean - 1];
	if (op == BW_READ) {
		pt->read_mbyte_per_s = best;
		pt->read_median_mbyte_per_s = med;
	} else if (op == BW_WRITE) {
		pt->write_mbyte_per_s = best;
		pt->write_median_mbyte_per_s = med;
	} else {
		pt->copy_mbyte_per_s = best;
		pt->copy_median_mbyte_per_s = med;
	}
	return 0;
}

int nb_mem_bandwidth(void *a, void *b, uint64_t bytes, uint32_t threads, uint32_t trials,
		     struct nb_mem_bw_point *pt, const nb_cancel_t *cancel)
{
	struct bw_shared sh = {.threads = threads,
			       .trials = trials,
			       .cancel = cancel,
			       .lock = PTHREAD_MUTEX_INITIALIZER,
			       .go = PTHREAD_COND_INITIALIZER};
	struct bw_worker *w = NULL;
	size_t words_each =
	    (size_t)(bytes / sizeof(uint64_t) / (threads ? threads : 1)) & ~(size_t)7;
	uint32_t started = 0;
	bool barriers = false;
	int ret = -EINVAL;

	if (!threads || threads > NB_MEM_MAX_THREADS || !trials || trials > BW_MAX_TRIALS ||
	    !words_each)
		goto out;
	ret = -ENOMEM;
	w = calloc(threads, sizeof(*w));
	sh.t0 = calloc((size_t)BW_NOPS * threads, sizeof(*sh.t0));
	sh.t1 = calloc((size_t)BW_NOPS * threads, sizeof(*sh.t1));
	sh.pre = calloc((size_t)BW_NOPS * threads, sizeof(*sh.pre));
	if (!w || !sh.t0 || !sh.t1 || !sh.pre)
		goto out;
	ret = -pthread_barrier_init(&sh.start, NULL, threads + 1);
	if (ret)
		goto out;
	ret = -pthread_barrier_init(&sh.end, NULL, threads + 1);
	if (ret) {
		pthread_barrier_destroy(&sh.start);
		goto out;
	}
	barriers = true;
	for (uint32_t i = 0; i < threads; i++) {
		w[i] = (struct bw_worker){.sh = &sh,
					  .id = i,
					  .src = (uint64_t *)a + (size_t)i * words_each,
					  .dst = (uint64_t *)b + (size_t)i * words_each,
					  .words = words_each};
		ret = -pthread_create(&w[i].tid, NULL, bw_thread, &w[i]);
		if (ret)
			break;
		started++;
	}
	/* The barriers count every thread, so a run with fewer threads than asked would hang:
	 * the workers start only once all exist, and quit if one could not be created. */
	pthread_mutex_lock(&sh.lock);
	sh.state = started < threads ? -1 : 1;
	pthread_cond_broadcast(&sh.go);
	pthread_mutex_unlock(&sh.lock);
	if (started < threads) {
		for (uint32_t i = 0; i < started; i++)
			pthread_join(w[i].tid, NULL);
		goto out;
	}
	for (int op = 0; op < BW_NOPS; op++)
		if ((ret = op_trials(&sh, w, op, words_each, pt)))
			goto out;
	for (uint32_t i = 0; i < threads; i++)
		pthread_join(w[i].tid, NULL);
	/* The flag stays set once raised: a trial it cut short is not a measurement. */
	if (nb_mem_cancelled(cancel)) {
		ret = -ECANCELED;
		goto out;
	}
	pt->threads = threads;
	pt->trials = trials;
	ret = 0;
out:
	if (barriers) {
		pthread_barrier_destroy(&sh.start);
		pthread_barrier_destroy(&sh.end);
	}
	free(sh.t0);
	free(sh.t1);
	free(sh.pre);
	free(w);
	return ret;
}
