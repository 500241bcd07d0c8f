/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the observe test's decoders: the bytes are a FINAL payload (a window) and,
 * as well, a TEST_REQ payload (the options); a window that decodes is summarized and judged as
 * the controller would. Built with -DFUZZ_SEED it writes a valid window payload to stdout, the
 * seed of the corpus. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe/obs_wire.h"
#include "core/observe/verdict.h"
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
	if (nb_obs_window_put(m, w) || nb_obs_window_get(m, back))
		return 1; /* a seed the decoder refuses would fuzz nothing past the first item */
	fwrite(m->data, 1, m->len, stdout);
	nb_msg_free(m);
	free(w);
	free(back);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	static struct nb_obs_snap w;
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
	m.type = NB_MSG_TEST_REQ;
	(void)nb_obs_req_get(&m, &r, err, sizeof(err));
	return 0;
}
#endif
