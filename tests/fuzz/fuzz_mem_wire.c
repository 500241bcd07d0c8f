/* SPDX-License-Identifier: BSD-2-Clause */
/* libFuzzer harness for the mem test's records: the options an agent reads from a request (and
 * the range check that follows) and the result a controller reads back. */
#include <stdint.h>
#include <string.h>

#include "core/mem/mem.h"
#include "core/mem/mem_wire.h"
#include "core/session/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nb_msg m;
	struct nb_mem_params o;
	struct nb_mem_result *r = NULL;
	char err[256];

	if (size > NB_MSG_MAX)
		return 0;
	m.type = NB_MSG_FINAL;
	m.len = (uint32_t)size;
	memcpy(m.data, data, size);
	if (nb_msg_validate(&m))
		return 0;
	if (nb_mem_get_params(&m, &o) == 0) {
		nb_mem_params_check(&o, err, sizeof(err));
		(void)nb_mem_budget_ns(&o);
	}
	if (nb_mem_get_result(&m, &r) == 0)
		nb_mem_result_free(r);
	return 0;
}
