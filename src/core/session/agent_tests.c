/* SPDX-License-Identifier: BSD-2-Clause */
/* The table of test kinds the agent can run: one nb_test_ops per measurement. */
#include "core/session/agent.h"

extern const struct nb_test_ops nb_tput_ops;
extern const struct nb_test_ops nb_crypto_ops;
extern const struct nb_test_ops nb_mem_ops;
extern const struct nb_test_ops nb_rate_ops;
extern const struct nb_test_ops nb_stream_ops;
extern const struct nb_test_ops nb_observe_ops;

const struct nb_test_ops *const nb_agent_tests[] = {
    &nb_tput_ops, &nb_crypto_ops, &nb_mem_ops, &nb_rate_ops, &nb_stream_ops, &nb_observe_ops, NULL,
};
