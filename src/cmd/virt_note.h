/* SPDX-License-Identifier: BSD-2-Clause */
/* The line under a platform header that says when the measured end is not a board's own
 * silicon: emulated instructions (qemu-user) or a virtual machine's CPUs. */
#ifndef NB_VIRT_NOTE_H
#define NB_VIRT_NOTE_H

#include <stdio.h>

#include "core/base/sysinfo.h"

/* Prints nothing for native or unknown platforms. who: "agent", "DUT", "this host". */
void virt_note_print(FILE *f, const char *who, const struct nb_sysinfo *si);

#endif
