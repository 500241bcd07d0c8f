/* SPDX-License-Identifier: BSD-2-Clause */
/* Grouping results by label and tags (docs/results.md, "repeated runs"). */
#include "core/store/group.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *tag_value(const struct nb_group_in *r, const char *key)
{
	for (size_t k = 0; k < r->ntags; k++)
		if (!strcmp(r->tags[k].key, key))
			return r->tags[k].value;
	return NULL;
}

static bool same_label(const struct nb_group_in *a, const struct nb_group_in *b)
{
	return a->label && b->label && *a->label && !strcmp(a->label, b->label) &&
	       !strcmp(a->test ? a->test : "", b->test ? b->test : "");
}

/* Does key take more than one value (absent counts as one) among the runs labelled like r? */
static bool key_differs(const struct nb_group_in *in, size_t n, size_t r, const char *key)
{
	const char *v0 = tag_value(&in[r], key);
	for (size_t i = 0; i < n; i++) {
		if (!same_label(&in[i], &in[r]))
			continue;
		const char *v = tag_value(&in[i], key);
		if ((v == NULL) != (v0 == NULL) || (v && strcmp(v, v0)))
			return true;
	}
	return false;
}

size_t nb_group_names(const struct nb_group_in *in, size_t n, char (*out)[NB_GROUP_NAME_MAX],
		      char *split, size_t splitlen)
{
	size_t nsplit = 0;
	if (split && splitlen)
		*split = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!in[i].label || !*in[i].label) {
			snprintf(out[i], NB_GROUP_NAME_MAX, "#%lld", (long long)in[i].id);
			continue;
		}
		/* Every key that any run of this label has, in the order the runs bring them. */
		char name[NB_GROUP_NAME_MAX * 2], keys[NB_GROUP_NAME_MAX] = "";
		size_t len = (size_t)snprintf(name, sizeof(name), "%s", in[i].label), nk = 0;
		size_t klen = 0;
		for (size_t j = 0; j < n; j++) {
			if (!same_label(&in[j], &in[i]))
				continue;
			for (size_t k = 0; k < in[j].ntags; k++) {
				const char *key = in[j].tags[k].key;
				bool seen = false;
				for (size_t q = 0; q < j && !seen; q++)
					seen = same_label(&in[q], &in[i]) && tag_value(&in[q], key);
				for (size_t q = 0; q < k && !seen; q++)
					seen = !strcmp(in[j].tags[q].key, key);
				if (seen || !key_differs(in, n, i, key))
					continue;
				const char *v = tag_value(&in[i], key);
				if (len < sizeof(name))
					len += (size_t)snprintf(name + len, sizeof(name) - len,
								"%s%s=%s", nk ? ", " : " [", key,
								v ? v : "-");
				if (klen < sizeof(keys))
					klen += (size_t)snprintf(keys + klen, sizeof(keys) - klen,
								 "%s%s", nk ? ", " : "", key);
				nk++;
			}
		}
		if (nk && len < sizeof(name))
			snprintf(name + len, sizeof(name) - len, "]");
		size_t nl = strlen(name) < NB_GROUP_NAME_MAX ? strlen(name) : NB_GROUP_NAME_MAX - 1;
		memcpy(out[i], name, nl);
		out[i][nl] = '\0';
		if (!nk)
			continue;
		bool first = true;
		for (size_t q = 0; q < i && first; q++)
			first = !same_label(&in[q], &in[i]);
		if (!first)
			continue;
		if (!nsplit && split && splitlen)
			snprintf(split, splitlen, "%s (its runs differ in %s)", in[i].label, keys);
		nsplit++;
	}
	return nsplit;
}
