/* SPDX-License-Identifier: BSD-2-Clause */
/* The namespace lab on one Linux host: gen --veth-- DUT (kernel forwarding, nftables) --veth--
 * sink, with the agent in sink and an observer agent in the DUT (docs/design.md, "The lab").
 * Bringing it up and down (lab.c); this header gathers the lab's parts for the front end. A
 * small state file under /run records what was created so that an interrupted run is cleaned
 * by the next one. */
#ifndef NB_LAB_H
#define NB_LAB_H

#include <stddef.h>

#include "core/base/lab_rules.h"
#include "core/lab/lab_base.h"
#include "core/lab/lab_board.h"
#include "core/lab/lab_keep.h"
#include "core/lab/lab_ruleset.h"
#include "core/lab/lab_status.h"
#include "core/lab/lab_vpn.h"

/* The rps_cpus mask of the highest n of ncpu CPUs, in sysfs's comma-separated 32-bit groups
 * (most significant first), e.g. n=1, ncpu=2: "00000002". */
void nb_lab_rps_mask(unsigned n, unsigned ncpu, char *buf, size_t len);

/* Brings the lab up; removes leftovers of an earlier run first (with a note). On failure or
 * *stop, removes what it created and returns the error (-EINTR when stopped). */
int nb_lab_up(struct nb_lab *lab);
/* Removes processes in the lab's namespaces, the namespaces and the state. Idempotent;
 * *found counts the objects that existed. */
int nb_lab_down(struct nb_lab *lab, unsigned *found);

#endif
