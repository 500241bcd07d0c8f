/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the crypto test's decoders: the request (as a TEST_REQ payload), the
 * head, one algorithm's result and one point's kernel profile against a fixed run's options;
 * what decodes is printed as JSON, as the controller would. Built with -DFUZZ_SEED it instead
 * writes a valid algorithm item to stdout, the seed of the corpus: its CPU loads as the shared
 * record, or with the argument "tlv" as the nested TLVs an agent before the record sends. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto/crypto_json.h"
#include "core/crypto/crypto_run.h"
#include "core/crypto/crypto_wire.h"
#include "core/session/proto.h"

static struct nb_crypto_result *result(void)
{
	struct nb_crypto_params o;
	char bad[64];
	nb_crypto_params_default(&o);
	nb_crypto_select_algos(&o, "aes-128-cbc,aes-128-gcm", bad, sizeof(bad));
	o.nsizes = 2;
	o.sizes[0] = 64;
	o.sizes[1] = 1420;
	return nb_crypto_result_new(&o);
}

#ifdef FUZZ_SEED
int main(int argc, char **argv)
{
	/* "tlv": the CPU load in the nested TLVs an agent before the shared record sends. */
	enum nb_crypto_load_form form =
	    argc > 1 && !strcmp(argv[1], "tlv") ? NB_CRYPTO_LOAD_TLV : NB_CRYPTO_LOAD_RECORD;
	struct nb_crypto_result *r = result();
	uint8_t *buf;
	size_t len, ai;
	struct nb_crypto_cell *c = nb_crypto_cell_at(r, 1, 0);
	c->status = NB_CRYPTO_OK;
	c->have_driver = true;
	c->points[0].valid = true;
	c->points[0].ops = 10;
	c->points[0].window_s = 0.1;
	snprintf(c->points[1].invalid_reason, sizeof(c->points[1].invalid_reason), "interrupted");
	if (!r || nb_crypto_algo_encode(r, 1, form, &buf, &len))
		return 1;
	struct nb_crypto_result *back = result();
	if (!back || nb_crypto_algo_decode(back, buf, len, &ai) || ai != 1)
		return 1; /* a seed the decoder refuses would fuzz nothing past the first field */
	nb_crypto_result_free(back);
	fwrite(buf, 1, len, stdout);
	free(buf);
	nb_crypto_result_free(r);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	struct nb_crypto_result *r = result();
	struct nb_crypto_params o;
	char err[256], *text = NULL;
	size_t ai, len;

	if (!r)
		return 0;
	if (nb_crypto_head_decode(r, data, size) == 0 ||
	    nb_crypto_algo_decode(r, data, size, &ai) == 0) {
		if (nb_crypto_result_json_text(r, NB_CRYPTO_JSON_ALL, &text, &len) == 0)
			free(text);
	}
	nb_crypto_result_free(r);
	/* A point's kernel profile (--profile): into a run that asked for one. */
	if ((r = result())) {
		r->opts.profile_hz = 997;
		if (nb_crypto_prof_decode(r, data, size) == 0 &&
		    nb_crypto_result_json_text(r, NB_CRYPTO_JSON_ALL, &text, &len) == 0)
			free(text);
		nb_crypto_result_free(r);
	}
	if (size <= NB_MSG_MAX) {
		m.type = NB_MSG_TEST_REQ;
		m.len = (uint32_t)size;
		memcpy(m.data, data, size);
		if (nb_msg_validate(&m) == 0 &&
		    nb_crypto_get_request(&m, &o, err, sizeof(err)) == 0)
			(void)nb_crypto_bound_ns(&o);
	}
	return 0;
}
#endif
