/* SPDX-License-Identifier: BSD-2-Clause */
/* A small streaming JSON writer: results are written as they are produced, indented, with keys
 * in the order the caller gives. A key of NULL is for array elements and the top level. */
#ifndef NB_JSON_H
#define NB_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NB_JSON_MAX_DEPTH 32

struct nb_json {
	FILE *f;
	int depth;
	bool need_comma[NB_JSON_MAX_DEPTH];
};

void nb_json_init(struct nb_json *j, FILE *f);
void nb_json_obj_begin(struct nb_json *j, const char *key);
void nb_json_obj_end(struct nb_json *j);
void nb_json_arr_begin(struct nb_json *j, const char *key);
void nb_json_arr_end(struct nb_json *j);
void nb_json_str(struct nb_json *j, const char *key, const char *v);
void nb_json_u64(struct nb_json *j, const char *key, uint64_t v);
void nb_json_i64(struct nb_json *j, const char *key, int64_t v);
/* Non-finite values are written as null: JSON has no NaN. */
void nb_json_double(struct nb_json *j, const char *key, double v, int decimals);
void nb_json_bool(struct nb_json *j, const char *key, bool v);
void nb_json_null(struct nb_json *j, const char *key);

/* One JSON object in a malloc'd string (free it): fill writes the members into the open
 * object. For a result sent over the wire or compared in a test. Returns 0 or -ENOMEM. */
typedef void (*nb_json_fill_fn)(struct nb_json *j, const void *arg);
int nb_json_text(nb_json_fill_fn fill, const void *arg, char **text, size_t *len);
/* A whole document the same way: fill writes the top-level object itself; a newline ends it. */
int nb_json_doc_text(nb_json_fill_fn fill, const void *arg, char **text, size_t *len);
/* The bytes a writer of a whole document to a stream writes, in a malloc'd string (free it):
 * for the tests whose document writers take a FILE. Returns 0 or -ENOMEM. */
typedef void (*nb_json_write_fn)(FILE *f, const void *arg);
int nb_json_write_text(nb_json_write_fn write, const void *arg, char **text, size_t *len);

#endif
