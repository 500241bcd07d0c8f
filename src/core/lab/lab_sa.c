/* SPDX-License-Identifier: BSD-2-Clause */
/* A board's tunnel counters through its control port ("xfrm-stat", tests/board/init): the SAs'
 * byte and packet counts of `ip -s xfrm state` (the keys stay in the board), the nonzero
 * counters of /proc/net/xfrm_stat, which say why a packet was dropped at the tunnel, and the
 * ESP transforms of /proc/crypto, whose drivers say what the SAs run on. */
#include "core/lab/lab_sa.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lab/lab_board.h"

int nb_lab_sa_parse(const char *text, int board, struct nb_lab_sa_list *l)
{
	const char *p = text;
	unsigned n_sa = l->n_sa, n_err = l->n_err, n_tf = l->n_tf, per_sa = 0, per_err = 0,
		 per_tf = 0;

	while (p && *p) {
		size_t len = strcspn(p, "\n");
		char line[320];
		if (len >= sizeof(line))
			return -EPROTO;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (!len)
			continue;
		struct nb_lab_sa sa = {.board = board};
		struct nb_lab_xfrm_err e = {.board = board};
		struct nb_lab_transform tf = {.board = board};
		char tail;
		if (sscanf(line, "sa %47s %47s %15s %" SCNu64 " %" SCNu64 " %c", sa.src, sa.dst,
			   sa.spi, &sa.bytes, &sa.packets, &tail) == 5) {
			if (per_sa++ >= NB_LAB_SA_MAX)
				return -ENOSPC;
			l->sa[n_sa++] = sa;
		} else if (sscanf(line, "xfrm_stat %39s %" SCNu64 " %c", e.name, &e.count, &tail) ==
			   2) {
			if (per_err++ >= NB_LAB_XERR_MAX)
				return -ENOSPC;
			l->err[n_err++] = e;
		} else if (sscanf(line, "transform %127s %127s %" SCNu64 " %c", tf.name, tf.driver,
				  &tf.refcnt, &tail) == 3) {
			if (per_tf++ >= NB_LAB_TF_MAX)
				return -ENOSPC;
			l->tf[n_tf++] = tf;
		} else {
			return -EPROTO;
		}
	}
	l->n_sa = n_sa;
	l->n_err = n_err;
	l->n_tf = n_tf;
	return 0;
}

int nb_lab_sa_read(struct nb_lab *lab, struct nb_lab_sa_list *l)
{
	memset(l, 0, sizeof(*l));
	if (strncmp(lab->vpn, "esp", 3))
		return 0;
	for (int k = 0; k < 2; k++) {
		struct nb_lab_board *b = k ? &lab->board2 : &lab->board;
		int role = b->role, rc = 1, ret;
		char *out = NULL;
		if (role < 0)
			continue;
		if (k)
			nb_lab_board_swap(lab);
		ret = nb_lab_board_ctl(lab, "xfrm-stat", NULL, &out, &rc);
		if (k)
			nb_lab_board_swap(lab);
		if (!ret && rc)
			ret = -EIO;
		if (!ret)
			ret = nb_lab_sa_parse(out, role, l);
		if (ret == -EIO || ret == -EPROTO || ret == -ENOSPC)
			snprintf(lab->err, sizeof(lab->err),
				 "the %s board's tunnel counters (xfrm-stat): %s%.200s",
				 role == NB_LAB_DUT ? "DUT" : "sink",
				 ret == -ENOSPC ? "more SAs or counters than a lab makes: "
						: "an unexpected reply: ",
				 out ? out : "");
		free(out);
		if (ret)
			return ret;
	}
	return 0;
}
