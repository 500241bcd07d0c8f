/* SPDX-License-Identifier: BSD-2-Clause */
/* Text inside XML 1.0 (the JUnit file, the HTML report's SVG and attributes), whatever the
 * bytes: the five special characters as entities, and what XML 1.0 forbids (C0 controls but
 * tab, newline and carriage return; U+FFFE and U+FFFF; surrogates; bytes that are not UTF-8)
 * replaced by U+FFFD, so that the file is well-formed. */
#ifndef NB_XMLTEXT_H
#define NB_XMLTEXT_H

#include <stdio.h>

void nb_xml_write(FILE *f, const char *s);

#endif
