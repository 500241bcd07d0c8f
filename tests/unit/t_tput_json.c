/* SPDX-License-Identifier: BSD-2-Clause */
/* tput's JSON document from a filled sweep result: it parses, holds the parameters and one step
 * per size and direction measured (none of the sizes after an interruption), each step only its
 * own direction's intervals, nulls for what an invalid step or an unpaced one does not have, and
 * the mode of each kind of sweep. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store/jdoc.h"
#include "core/tput/tput_json.h"
#include "tap.h"

/* Two writes of one document differ only in time_utc when a second boundary falls between them
 * (a slow emulated run does that): the value is blanked in both before the bytes are compared. */
static void blank_time(char *t, size_t len)
{
	static const char key[] = "\"time_utc\":\"";
	size_t k = sizeof(key) - 1;
	for (size_t i = 0; i + k <= len; i++)
		if (!memcmp(t + i, key, k)) {
			for (size_t j = i + k; j < len && t[j] != '"'; j++)
				t[j] = '#';
			return;
		}
}

static struct nb_jdoc *doc_of(const struct nb_tput_sweep_params *sp, const struct nb_tput_sweep *s)
{
	char *text = NULL, err[128] = "";
	size_t len = 0;
	struct nb_jdoc *d = NULL;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	nb_tput_sweep_json(f, sp, s);
	fclose(f);
	/* The text -J, -o and --save take is the writer's bytes. */
	char *doc = NULL;
	size_t doc_len = 0;
	bool same = nb_tput_sweep_doc_text(sp, s, &doc, &doc_len) == 0 && doc_len == len;
	char *a = same ? malloc(len) : NULL, *b = same ? malloc(len) : NULL;
	if (a && b) {
		memcpy(a, doc, len);
		memcpy(b, text, len);
		blank_time(a, len);
		blank_time(b, len);
		same = !memcmp(a, b, len);
	}
	CHECK(same && a && b,
	      "nb_tput_sweep_doc_text gives the document's bytes, time_utc aside (%zu of %zu)",
	      doc_len, len);
	free(a);
	free(b);
	free(doc);
	if (nb_jdoc_parse(text, len, &d, err, sizeof(err)))
		CHECK(0, "the document parses: %s", err);
	free(text);
	return d;
}

static size_t count(const struct nb_jnode *v)
{
	return v ? v->count : (size_t)-1;
}

static void add_iv(struct nb_tput_sweep *s, size_t size_index, double start_s, double tx, double rx)
{
	struct nb_tput_interval iv = {
	    .start_s = start_s, .end_s = start_s + 0.1, .tx_kbyte_per_s = tx, .rx_kbyte_per_s = rx};
	CHECK(nb_tput_sweep_add_interval(s, size_index, &iv) == 0, "interval kept");
}

int main(void)
{
	static const uint64_t sizes[] = {1024, 8192, 32768};
	struct nb_sysinfo local = {0}, remote = {0};
	struct nb_tput_params p = {.proto = NB_TPUT_UDP,
				   .streams = 2,
				   .rate_bps = 50000000,
				   .time_ns = 300000000,
				   .warmup_ns = 100000000};
	struct nb_tput_sweep_params sp = {
	    .agent = "127.0.0.1", .port = 5301, .p = &p, .local = &local, .remote = &remote};
	struct nb_tput_sweep s;

	CHECK(nb_tput_sweep_init(&s, sizes, 3, true, true, false, false) == 0, "sweep set up");
	CHECK(!nb_tput_sweep_obs(&s, 0, true), "no observers: no observers' window");
	for (size_t i = 0; i < 2; i++) {
		s.res[i].tx.valid = true;
		s.res[i].tx.kbyte_per_s = 1000.0 * (double)(i + 1);
		s.res[i].tx.bytes = 300000;
		s.res[i].rx.valid = i == 0;
		snprintf(s.res[i].rx.invalid_reason, sizeof(s.res[i].rx.invalid_reason),
			 "sent and received do not reconcile");
	}
	for (int k = 0; k < 3; k++) {
		add_iv(&s, 0, 0.1 * k, 1000, NAN); /* size 0's Tx step */
		add_iv(&s, 0, 0.1 * k, NAN, 900);  /* its Rx step */
	}
	add_iv(&s, 1, 0, 2000, NAN);
	s.ndone = 2; /* the third size was cut short */
	s.interrupted = true;

	struct nb_jdoc *d = doc_of(&sp, &s);
	const struct nb_jnode *r = d ? nb_jdoc_root(d) : NULL;
	CHECK(r && !strcmp(nb_jstr(nb_jget(d, r, "test")), "tput"), "test is tput");
	CHECK(r && !strcmp(nb_jstr(nb_jpath(d, r, "parameters.agent")), "127.0.0.1") &&
		  nb_jnum(nb_jpath(d, r, "parameters.port")) == 5301 &&
		  !strcmp(nb_jstr(nb_jpath(d, r, "parameters.protocol")), "udp") &&
		  nb_jnum(nb_jpath(d, r, "parameters.streams")) == 2 &&
		  nb_jnum(nb_jpath(d, r, "parameters.rate_per_stream_bps")) == 50e6 &&
		  nb_jnum(nb_jpath(d, r, "parameters.time_s")) == 0.3 &&
		  nb_jnum(nb_jpath(d, r, "parameters.warmup_s")) == 0.1,
	      "the parameters are the settings");
	CHECK(r && !strcmp(nb_jstr(nb_jpath(d, r, "parameters.mode")), "tx_then_rx"), "Tx then Rx");
	CHECK(r && nb_jtrue(nb_jget(d, r, "interrupted")), "interrupted");
	CHECK(r && nb_jget(d, r, "cpu_baseline") && nb_jget(d, r, "cpu_baseline")->type == NB_JNULL,
	      "no baseline measured: null");
	const struct nb_jnode *steps = r ? nb_jget(d, r, "steps") : NULL;
	CHECK(count(steps) == 4, "two sizes measured, Tx and Rx each: 4 steps (got %zu)",
	      count(steps));
	const struct nb_jnode *tx0 = steps ? nb_jfirst(d, steps) : NULL;
	const struct nb_jnode *rx0 = tx0 ? nb_jnext(d, tx0) : NULL;
	const struct nb_jnode *tx1 = rx0 ? nb_jnext(d, rx0) : NULL;
	const struct nb_jnode *rx1 = tx1 ? nb_jnext(d, tx1) : NULL;
	CHECK(rx1 && nb_jnum(nb_jget(d, tx0, "block_bytes")) == 1024 &&
		  !strcmp(nb_jstr(nb_jget(d, tx0, "direction")), "tx") &&
		  !strcmp(nb_jstr(nb_jget(d, rx0, "direction")), "rx") &&
		  nb_jnum(nb_jget(d, rx1, "block_bytes")) == 8192,
	      "steps in order: size, then Tx before Rx");
	CHECK(tx1 && nb_jnum(nb_jget(d, tx1, "kbyte_per_s")) == 2000 &&
		  nb_jnum(nb_jget(d, tx1, "window_bytes")) == 300000,
	      "a valid step's rate and bytes");
	CHECK(rx1 && !nb_jtrue(nb_jget(d, rx1, "valid")) &&
		  nb_jget(d, rx1, "kbyte_per_s")->type == NB_JNULL &&
		  !strcmp(nb_jstr(nb_jget(d, rx1, "invalid_reason")),
			  "sent and received do not reconcile"),
	      "an invalid step: its reason, and no rate");
	CHECK(rx1 && count(nb_jget(d, tx0, "intervals")) == 3 &&
		  count(nb_jget(d, rx0, "intervals")) == 3 &&
		  count(nb_jget(d, tx1, "intervals")) == 1 &&
		  count(nb_jget(d, rx1, "intervals")) == 0,
	      "each step holds its own size's and direction's intervals");
	CHECK(rx0 && nb_jnum(nb_jget(d, nb_jfirst(d, nb_jget(d, rx0, "intervals")),
				     "kbyte_per_s")) == 900,
	      "an Rx interval's rate is the Rx rate");
	CHECK(tx0 && !strcmp(nb_jstr(nb_jpath(d, tx0, "pacing.mode")), "burst") &&
		  nb_jget(d, tx0, "loss_pct"),
	      "a paced UDP step: pacing and loss");
	nb_jdoc_free(d);

	/* Unpaced TCP, both directions at once, nothing cut short. */
	p.proto = NB_TPUT_TCP;
	p.rate_bps = 0;
	nb_tput_sweep_free(&s);
	CHECK(nb_tput_sweep_init(&s, sizes, 1, true, true, true, false) == 0, "bidir sweep");
	s.ndone = 1;
	memcpy(s.res[0].tx.congestion, "cubic", 6); /* the Rx sender's is not known */
	memcpy(p.congestion, "cubic", 6);
	d = doc_of(&sp, &s);
	r = d ? nb_jdoc_root(d) : NULL;
	CHECK(r && !strcmp(nb_jstr(nb_jpath(d, r, "parameters.mode")), "bidir") &&
		  !nb_jtrue(nb_jget(d, r, "interrupted")) && count(nb_jget(d, r, "steps")) == 2,
	      "bidir: one size, its Tx and Rx");
	steps = r ? nb_jget(d, r, "steps") : NULL;
	CHECK(steps && nb_jget(d, nb_jfirst(d, steps), "pacing")->type == NB_JNULL &&
		  !nb_jget(d, nb_jfirst(d, steps), "loss_pct"),
	      "unpaced TCP: pacing null, no loss");
	CHECK(r && !strcmp(nb_jstr(nb_jpath(d, r, "parameters.congestion")), "cubic") && steps &&
		  !strcmp(nb_jstr(nb_jget(d, nb_jfirst(d, steps), "congestion")), "cubic") &&
		  nb_jget(d, nb_jnext(d, nb_jfirst(d, steps)), "congestion")->type == NB_JNULL,
	      "TCP: the congestion control asked, and each sender's (null when not known)");
	nb_jdoc_free(d);
	nb_tput_sweep_free(&s);
	p.congestion[0] = '\0';

	CHECK(nb_tput_sweep_init(&s, sizes, 2, false, true, false, false) == 0, "Rx only");
	s.ndone = 2;
	d = doc_of(&sp, &s);
	r = d ? nb_jdoc_root(d) : NULL;
	CHECK(r && !strcmp(nb_jstr(nb_jpath(d, r, "parameters.mode")), "rx") &&
		  count(nb_jget(d, r, "steps")) == 2,
	      "Rx only: one step per size");
	nb_jdoc_free(d);
	nb_tput_sweep_free(&s);
	return tap_done();
}
