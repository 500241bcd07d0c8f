/* SPDX-License-Identifier: BSD-2-Clause */
/* The settings of a stored run that shape its figures: the scalar members of its document's
 * "parameters" (a trial's or step's time, the protocol, the engine, ...) and whether it was
 * interrupted. Runs of one label that differ in one are not repeated runs of one another:
 * compare and report group them apart, as they do runs whose tags differ (core/store/group.h),
 * and the group's name says what differs. */
#ifndef NB_SETTINGS_H
#define NB_SETTINGS_H

#include <stddef.h>

#include "core/store/jdoc.h"
#include "core/store/store.h"

#define NB_SETTINGS_MAX 48

/* Fills out (at most max) with "key=value" pairs; returns how many. Left out: where the run was
 * aimed (agent, address, port), descriptions of what was measured (engine_detail,
 * receiver_detail), lists (the x values: sizes, rates) and objects. */
size_t nb_doc_settings(const struct nb_jdoc *d, struct nb_store_tag *out, size_t max);

#endif
