/* SPDX-License-Identifier: BSD-2-Clause */
/* One sentence per kind of virtualization (docs/design.md, "Emulated and virtual platforms"):
 * what the CPU figures of such an end are, so nobody reads them as a board's. */
#include "cmd/virt_note.h"

#include <string.h>

#include "core/base/virt.h"

void virt_note_print(FILE *f, const char *who, const struct nb_sysinfo *si)
{
	if (!nb_virt_is_emulated(si->virt))
		return;
	if (!strncmp(si->virt, "qemu-user", 9))
		fprintf(
		    f,
		    "note: the %s runs under a user-mode emulator (%s): its instructions are "
		    "translated and its /proc figures (CPU, softirq) are the host kernel's, not a "
		    "board's\n",
		    who, si->virt);
	else
		fprintf(f,
			"note: the %s runs in a virtual machine (%s): its CPUs are virtual, its "
			"figures are not a board's silicon\n",
			who, si->virt);
}
