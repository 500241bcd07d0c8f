/* SPDX-License-Identifier: BSD-2-Clause */
/* Platform facts out of a document's env objects (docs/results.md, "measured end"). */
#include "core/store/facts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/escape.h"

/* A fact from a document is foreign text: escaped where it enters, as the store's rows are. */
static void str(const struct nb_jdoc *d, const struct nb_jnode *env, const char *key, char *dst,
		size_t len)
{
	const char *s = nb_jstr(nb_jget(d, env, key));
	nb_esc(dst, len, s ? s : "", s ? strlen(s) : 0, NB_ESC_LINE);
}

void nb_facts_of_env(const struct nb_jdoc *d, const struct nb_jnode *env, struct nb_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->cpu_mhz = NAN;
	if (!env || env->type != NB_JOBJ)
		return;
	f->known = true;
	str(d, env, "hostname", f->host, sizeof(f->host));
	str(d, env, "kernel", f->kernel, sizeof(f->kernel));
	str(d, env, "arch", f->arch, sizeof(f->arch));
	str(d, env, "cpu_model", f->cpu_model, sizeof(f->cpu_model));
	str(d, env, "iface", f->iface, sizeof(f->iface));
	str(d, env, "driver", f->driver, sizeof(f->driver));
	str(d, env, "virtualization", f->virt, sizeof(f->virt));
	f->cpu_mhz = nb_jnum(nb_jget(d, env, "cpu_mhz"));
}

void nb_facts_measured(const struct nb_jdoc *d, struct nb_facts *f)
{
	const struct nb_jnode *root = nb_jdoc_root(d), *remote = nb_jpath(d, root, "env.remote");
	const struct nb_jnode *dut = nb_jpath(d, root, "env.dut");
	if (dut && dut->type == NB_JOBJ)
		nb_facts_of_env(d, dut, f);
	else if (remote && remote->type == NB_JOBJ)
		nb_facts_of_env(d, remote, f);
	else
		nb_facts_of_env(d, nb_jpath(d, root, "env.local"), f);
}

enum nb_virt nb_facts_virt(const struct nb_facts *f)
{
	if (!*f->virt)
		return NB_VIRT_UNKNOWN;
	return strcmp(f->virt, "none") ? NB_VIRT_YES : NB_VIRT_NONE;
}

void nb_facts_text(const struct nb_facts *f, char *buf, size_t len)
{
	const char *k = *f->kernel ? f->kernel : "kernel unknown";
	if (*f->iface && *f->driver)
		snprintf(buf, len, "%s, %s %s", k, f->iface, f->driver);
	else if (*f->driver)
		snprintf(buf, len, "%s, %s", k, f->driver);
	else if (*f->iface)
		snprintf(buf, len, "%s, %s driver unknown", k, f->iface);
	else
		snprintf(buf, len, "%s, driver unknown", k);
}
