/* SPDX-License-Identifier: BSD-2-Clause */
/* The one check of what enters a results store (store.h: nb_store_entry_check). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/store/jdoc.h"
#include "core/store/store.h"

int nb_store_entry_check(const char *doc, size_t len, const char *label,
			 const struct nb_store_tag *tags, size_t ntags, char *err, size_t errlen)
{
	struct nb_jdoc *d = NULL;
	char why[256] = "";
	int ret;

	if ((ret = nb_jdoc_parse(doc, len, &d, why, sizeof(why)))) {
		snprintf(err, errlen, "is not a JSON document: %s", why);
		return ret == -E2BIG ? -E2BIG : -EINVAL;
	}
	const char *schema = nb_jstr(nb_jget(d, nb_jdoc_root(d), "schema"));
	bool result = schema && !strncmp(schema, "netbench/", 9) &&
		      nb_jstr(nb_jget(d, nb_jdoc_root(d), "test"));
	nb_jdoc_free(d);
	if (!result) {
		snprintf(err, errlen,
			 "is not a netbench result (no \"schema\": \"netbench/...\" and \"test\")");
		return -EINVAL;
	}
	if (label && strlen(label) >= NB_STORE_LABEL_MAX) {
		snprintf(err, errlen, "has a label of %zu bytes (at most %d)", strlen(label),
			 NB_STORE_LABEL_MAX - 1);
		return -EINVAL;
	}
	if (ntags > NB_STORE_MAX_TAGS) {
		snprintf(err, errlen, "has more than %d tags", NB_STORE_MAX_TAGS);
		return -EINVAL;
	}
	for (size_t i = 0; i < ntags; i++) {
		char text[NB_STORE_TAG_KEY_MAX + NB_STORE_TAG_VALUE_MAX + 2];
		struct nb_store_tag t;
		snprintf(text, sizeof(text), "%s=%s", tags[i].key, tags[i].value);
		if (strlen(tags[i].key) >= sizeof(t.key) || strchr(tags[i].key, '=') ||
		    nb_store_tag_parse(text, &t) || strcmp(t.key, tags[i].key) ||
		    strcmp(t.value, tags[i].value)) {
			snprintf(err, errlen,
				 "has a tag (%zu of %zu) that is not KEY=VALUE (key: 1 to %d of "
				 "letters, digits, _ - .; value: 1 to %d printable characters, no "
				 "comma)",
				 i + 1, ntags, NB_STORE_TAG_KEY_MAX - 1,
				 NB_STORE_TAG_VALUE_MAX - 1);
			return -EINVAL;
		}
	}
	return 0;
}
