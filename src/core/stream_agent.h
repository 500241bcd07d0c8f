/* The agent's test kind for netbench stream, for the table in core/agent_tests.c. */
#ifndef NB_STREAM_AGENT_H
#define NB_STREAM_AGENT_H

#include "core/agent.h"

extern const struct nb_test_ops nb_stream_test_ops;

#endif
