/* SPDX-License-Identifier: BSD-2-Clause */
/* A stored run's settings, for grouping (core/store/settings.h). */
#include "core/store/settings.h"

#include <stdio.h>
#include <string.h>

#include "core/base/escape.h"

/* Members that say where a run was aimed or describe it, not what shapes its figures. */
static const char *const ignored[] = {"agent",	       "address",	  "port",   "ctl_port",
				      "engine_detail", "receiver_detail", "source", NULL};

static bool is_ignored(const char *key)
{
	for (size_t i = 0; ignored[i]; i++)
		if (!strcmp(key, ignored[i]))
			return true;
	return false;
}

size_t nb_doc_settings(const struct nb_jdoc *d, struct nb_store_tag *out, size_t max)
{
	const struct nb_jnode *root = nb_jdoc_root(d);
	const struct nb_jnode *p = nb_jget(d, root, "parameters");
	size_t n = 0;
	if (!p)
		p = nb_jget(d, root, "params");
	for (const struct nb_jnode *m = p ? nb_jfirst(d, p) : NULL; m && n < max;
	     m = nb_jnext(d, m)) {
		if (!m->key || is_ignored(m->key) || strlen(m->key) >= sizeof(out->key))
			continue;
		struct nb_store_tag *t = &out[n];
		switch (m->type) {
		case NB_JNUM:
			snprintf(t->value, sizeof(t->value), "%.10g", m->num);
			break;
		case NB_JBOOL:
			snprintf(t->value, sizeof(t->value), "%s", m->num ? "true" : "false");
			break;
		case NB_JSTR:
			snprintf(t->value, sizeof(t->value), "%s", m->str);
			break;
		default: /* null (absent), lists and objects */
			continue;
		}
		snprintf(t->key, sizeof(t->key), "%s", m->key);
		nb_esc_inplace(t->key, sizeof(t->key), NB_ESC_LINE); /* foreign text */
		nb_esc_inplace(t->value, sizeof(t->value), NB_ESC_LINE);
		n++;
	}
	/* A run cut short is not a repeat of one that ran whole. */
	if (n < max && nb_jtrue(nb_jget(d, root, "interrupted"))) {
		snprintf(out[n].key, sizeof(out[n].key), "interrupted");
		snprintf(out[n].value, sizeof(out[n].value), "true");
		n++;
	}
	return n;
}
