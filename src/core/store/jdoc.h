/* SPDX-License-Identifier: BSD-2-Clause */
/* A small JSON reader for stored result documents: parses a whole document into a tree of
 * nodes held in one array, with bounded depth and size, so compare and report can walk what
 * the tests wrote. Strings keep their escapes decoded; numbers are doubles. */
#ifndef NB_JDOC_H
#define NB_JDOC_H

#include <stdbool.h>
#include <stddef.h>

#define NB_JDOC_MAX_DEPTH 64
#define NB_JDOC_MAX_BYTES (64u << 20)
/* Values (nodes) in one document: 56 bytes each, so a parse holds at most 56 MiB of them. A
 * netbench result has a few thousand. */
#define NB_JDOC_MAX_VALUES (1u << 20)

enum nb_jtype { NB_JNULL, NB_JBOOL, NB_JNUM, NB_JSTR, NB_JARR, NB_JOBJ };

struct nb_jnode {
	enum nb_jtype type;
	const char *key; /* member name inside an object, else NULL */
	const char *str; /* NB_JSTR */
	double num;	 /* NB_JNUM; NB_JBOOL as 0/1 */
	size_t first;	 /* NB_JARR/NB_JOBJ: index of the first child, 0 if none */
	size_t next;	 /* next sibling's index, 0 at the end */
	size_t count;	 /* children */
};

struct nb_jdoc {
	struct nb_jnode *n; /* n[0] is the root */
	size_t nn, cap;
	char *strings; /* decoded keys and strings, NUL-terminated */
	size_t slen, scap;
};

/* Parses text (len bytes). Returns 0, -EINVAL for malformed JSON (err names the byte offset),
 * -E2BIG past the limits (NB_JDOC_MAX_BYTES, NB_JDOC_MAX_VALUES, NB_JDOC_MAX_DEPTH), -ENOMEM. */
int nb_jdoc_parse(const char *text, size_t len, struct nb_jdoc **out, char *err, size_t errlen);
void nb_jdoc_free(struct nb_jdoc *d);

const struct nb_jnode *nb_jdoc_root(const struct nb_jdoc *d);
/* Member of an object by name (NULL when absent or v is not an object). */
const struct nb_jnode *nb_jget(const struct nb_jdoc *d, const struct nb_jnode *v, const char *key);
/* Follows a dotted path of member names: "env.remote.kernel". */
const struct nb_jnode *nb_jpath(const struct nb_jdoc *d, const struct nb_jnode *v,
				const char *path);
/* Child iteration: first child, next sibling (NULL at the end). */
const struct nb_jnode *nb_jfirst(const struct nb_jdoc *d, const struct nb_jnode *v);
const struct nb_jnode *nb_jnext(const struct nb_jdoc *d, const struct nb_jnode *v);
/* A number, or NAN when v is absent, null or not a number. */
double nb_jnum(const struct nb_jnode *v);
/* A string, or NULL. */
const char *nb_jstr(const struct nb_jnode *v);
bool nb_jtrue(const struct nb_jnode *v);

#endif
