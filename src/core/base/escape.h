/* SPDX-License-Identifier: BSD-2-Clause */
/* Terminal-safe text: strings that came from an agent, a result document or a results store are
 * escaped where they enter, so that no printer can pass a control sequence (ESC, CSI, BEL,
 * carriage return) to the user's terminal. docs/security.md states the rule. */
#ifndef NB_ESCAPE_H
#define NB_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

enum nb_esc_mode {
	NB_ESC_LINE, /* one line: every C0, DEL and C1 control becomes \xNN */
	NB_ESC_TEXT, /* a table: as LINE, but newline and tab are kept */
	NB_ESC_JSON, /* a JSON document: \u00NN, valid inside a JSON string; newline and tab kept */
};

/* True when s (n bytes) holds a byte that mode escapes: a C0 control, DEL, a C1 control
 * (U+0080..U+009F in UTF-8) or a byte that is not part of valid UTF-8. */
bool nb_esc_needed(const char *s, size_t n, enum nb_esc_mode mode);

/* Writes the escaped form of in (n bytes) to out (cap > 0 bytes, always NUL-terminated);
 * a character is never cut in half. Returns the length the whole escaped form needs. */
size_t nb_esc(char *out, size_t cap, const char *in, size_t n, enum nb_esc_mode mode);

/* Escapes a NUL-terminated string in its own buffer of cap bytes (cut to fit). */
void nb_esc_inplace(char *buf, size_t cap, enum nb_esc_mode mode);

/* A malloc'd escaped copy of s (NULL when out of memory). */
char *nb_esc_dup(const char *s, enum nb_esc_mode mode);

#endif
