/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's driver of a mem run: here (nb_mem_run) or on an agent (request, start, marks
 * until the agent's job is done, stop, decode), with the same result either way. */
#ifndef NB_MEM_CTL_H
#define NB_MEM_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem/mem.h"
#include "core/session/ctl.h"

/* Runs p here (rm NULL or rm->host NULL) or on the agent rm names; *ctl keeps the session for the
 * document (NULL for a run here; free it with nb_ctl_free, also after a failure). p->stop set
 * ends a run here at its next point with what it measured (r->interrupted); on an agent it
 * abandons the run (-EINTR: the agent cancels it and keeps nothing). Returns 0 with *out (free
 * with nb_mem_result_free), or a negative errno with the reason in err. */
int nb_mem_ctl_run(const struct nb_mem_params *p, const struct nb_ctl_target *rm,
		   struct nb_ctl **ctl, struct nb_mem_result **out, char *err, size_t errlen);

#endif
