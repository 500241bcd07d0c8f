/* SPDX-License-Identifier: BSD-2-Clause */
/* The platform facts of the end that was measured, read from a result document: env.remote when
 * the document has one (the agent: the board), else env.local; a receiver of a multi-agent
 * stream run has its own env. A fact the document lacks stays unknown: it is never filled from
 * the other end. */
#ifndef NB_FACTS_H
#define NB_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/store/jdoc.h"

struct nb_facts {
	bool known; /* an env object was found */
	char host[64], kernel[96], arch[32], cpu_model[96], iface[32], driver[64];
	double cpu_mhz; /* NAN when unknown */
	/* env.virtualization: "none", "qemu-user ppc on x86_64", "vm kvm", ...; "" when the
	 * document does not say (older agents): unknown. */
	char virt[64];
};

enum nb_virt { NB_VIRT_UNKNOWN, NB_VIRT_NONE, NB_VIRT_YES };

/* Facts of one env object (NULL or not an object: nothing known). */
void nb_facts_of_env(const struct nb_jdoc *d, const struct nb_jnode *env, struct nb_facts *f);
/* The document's measured end: env.remote when it is an object, else env.local. */
void nb_facts_measured(const struct nb_jdoc *d, struct nb_facts *f);
enum nb_virt nb_facts_virt(const struct nb_facts *f);
/* "6.1.0, eth0 gianfar"; an unknown fact says so: "kernel unknown, driver unknown". */
void nb_facts_text(const struct nb_facts *f, char *buf, size_t len);

#endif
