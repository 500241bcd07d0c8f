/* SPDX-License-Identifier: BSD-2-Clause */
/* Starting the lab's agents: `netbench serve` in the sink and the observer in the DUT. */
#ifndef NB_LAB_AGENTS_H
#define NB_LAB_AGENTS_H

#include "core/lab/lab_base.h"

/* The agent in the sink and the observer in the DUT, each waited for until it answers; a
 * board runs its own (its init starts it). */
int nb_lab_agents_start(struct nb_lab *lab);

#endif
