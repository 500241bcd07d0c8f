/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the observe test's decoders: the bytes are a FINAL payload (a window and
 * its kernel profile) and, as well, a TEST_REQ payload (the options); a window that decodes is
 * summarized and judged as the controller would, a profile summarized, lined and written as
 * JSON. Built with -DFUZZ_SEED it writes a valid window payload to stdout, the
 * seed of the corpus. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe/obs_wire.h"
#include "core/observe/verdict.h"
#include "core/profile/prof.h"
#include "core/session/proto.h"

#ifdef FUZZ_SEED
int main(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	struct nb_obs_snap *w = calloc(1, sizeof(*w)), *back = calloc(1, sizeof(*back));
	if (!m || !w || !back)
		return 1;
	w->mono_ns = 1000000000;
	w->clk_tck = 100;
	w->peak_cpu = 0;
	w->ncpu = 1;
	w->cpu[0].softirq = 99;
	w->cpu[0].idle = 1;
	w->nsoftnet = 1;
	w->softnet[0].dropped = 10;
	w->nirq = 1;
	strcpy(w->irq[0].name, "41:eth0-rx-0");
	w->irq[0].count = 5;
	w->nif = 1;
	strcpy(w->ifs[0].name, "eth0");
	w->ifs[0].rx_packets = 100;
	w->ifs[0].neth = 1;
	strcpy(w->ifs[0].eth[0].name, "rx_missed");
	w->ifs[0].eth[0].value = 1;
	w->nfreq = 1;
	w->freq_khz[0] = 1000000;
	struct nb_prof_result *r = calloc(1, sizeof(*r)), *rb = calloc(1, sizeof(*rb));
	if (!r || !rb)
		return 1;
	r->available = true;
	r->hz = 997;
	r->window_ns = 1000000000;
	r->ncpu = 1;
	r->cpu[0].samples = 10;
	r->cpu[0].cat[NB_PC_NETFILTER] = 7;
	r->cpu[0].cat[NB_PC_IDLE] = 3;
	r->nfunc = 1;
	strcpy(r->func[0].name, "nft_do_chain");
	r->func[0].count = 7;
	r->func_samples = 10;
	strcpy(r->folded, "ip_forward;nft_do_chain 7\n");
	r->folded_len = strlen(r->folded);
	if (nb_obs_window_put(m, w) || nb_obs_window_get(m, back) || nb_prof_put(m, r) ||
	    nb_prof_get(m, rb) != 1)
		return 1; /* a seed the decoder refuses would fuzz nothing past the first item */
	free(r);
	free(rb);
	fwrite(m->data, 1, m->len, stdout);
	nb_msg_free(m);
	free(w);
	free(back);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nb_prof_result pr;

static void prof_json(struct nb_json *j, const void *arg)
{
	nb_prof_json(j, "profile", &pr, arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	static struct nb_obs_snap w;
	struct nb_prof_summary ps;
	struct nb_obs_summary s;
	struct nb_obs_req r;
	struct nb_verdict v;
	char err[128];

	if (size > NB_MSG_MAX)
		return 0;
	m.type = NB_MSG_FINAL;
	m.len = (uint32_t)size;
	memcpy(m.data, data, size);
	if (nb_msg_validate(&m))
		return 0;
	if (nb_obs_window_get(&m, &w) == 0) {
		struct nb_verdict_in in = {.offered = 1000, .received = 10, .dut = &s, .win = &w};
		nb_obs_summarize(&w, 0, &s);
		nb_obs_summarize(&w, 3, &s);
		nb_verdict_decide(&in, &v);
		if (!memchr(v.text, '\0', sizeof(v.text)))
			abort();
	}
	if (nb_prof_get(&m, &pr) == 1) {
		char line[400], *text;
		size_t len;
		nb_prof_summarize(&pr, 2, 0, 0, &ps);
		nb_prof_summarize(&pr, 0, 0.5, 1000, &ps);
		nb_prof_line(&pr, &ps, 6, line, sizeof(line));
		if (!memchr(line, '\0', sizeof(line)))
			abort();
		if (nb_json_text(prof_json, &ps, &text, &len) == 0)
			free(text);
	}
	m.type = NB_MSG_TEST_REQ;
	(void)nb_obs_req_get(&m, &r, err, sizeof(err));
	return 0;
}
#endif
