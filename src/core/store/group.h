/* SPDX-License-Identifier: BSD-2-Clause */
/* Which results are repeated runs of one another: those of one test with the same label and the
 * same tags.
 * A label whose runs differ in a tag (rules=0, rules=100, ...) is split into one group per tag
 * value, named "label [rules=100]", so that different settings are never averaged. */
#ifndef NB_GROUP_H
#define NB_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "core/store/store.h"

#define NB_GROUP_NAME_MAX 192

struct nb_group_in {
	int64_t id;
	const char *test;  /* runs of different tests are never grouped together */
	const char *label; /* "" or NULL: the result is a group of its own, "#ID" */
	const struct nb_store_tag *tags;
	size_t ntags;
};

/* Names the group of each result into out[i]. Returns how many labels were split by their
 * tags; when split is not NULL, it gets "label (differs in key, key)" for the first of them. */
size_t nb_group_names(const struct nb_group_in *in, size_t n, char (*out)[NB_GROUP_NAME_MAX],
		      char *split, size_t splitlen);

#endif
