/* SPDX-License-Identifier: BSD-2-Clause */
/* A board's tunnel counters (`lab up --vpn esp` with a board): its SAs' bytes and packets and
 * the nonzero xfrm error counters, as its control port's "xfrm-stat" reply gives them. */
#ifndef NB_LAB_SA_H
#define NB_LAB_SA_H

#include <stdint.h>

#include "core/lab/lab_base.h"

#define NB_LAB_SA_MAX	4  /* per board: the lab's two, with room */
#define NB_LAB_XERR_MAX 16 /* per board */
#define NB_LAB_TF_MAX	8  /* per board: ESP transforms in /proc/crypto */

struct nb_lab_sa {
	int board; /* NB_LAB_DUT or NB_LAB_SINK: whose counters */
	char src[48], dst[48], spi[16];
	uint64_t bytes, packets; /* what passed the SA (inner packets) */
};

struct nb_lab_xfrm_err {
	int board;
	char name[40]; /* a counter of /proc/net/xfrm_stat, e.g. XfrmInNoStates */
	uint64_t count;
};

/* An ESP transform the board's kernel built (/proc/crypto): which drivers its SAs run on. */
struct nb_lab_transform {
	int board;
	char name[128];	  /* e.g. authenc(hmac(sha1),cbc(aes)) */
	char driver[128]; /* e.g. authenc(hmac(sha1-neon),cbc(aes-generic)) */
	uint64_t refcnt;  /* the kernel's references: each SA on it holds one */
};

struct nb_lab_sa_list {
	struct nb_lab_sa sa[2 * NB_LAB_SA_MAX];
	unsigned n_sa;
	struct nb_lab_xfrm_err err[2 * NB_LAB_XERR_MAX];
	unsigned n_err;
	struct nb_lab_transform tf[2 * NB_LAB_TF_MAX];
	unsigned n_tf;
};

/* Appends the lines of one board's reply ("sa SRC DST SPI BYTES PACKETS", "xfrm_stat NAME N",
 * "transform NAME DRIVER REFCNT")
 * to l. -EPROTO for any other line, -ENOSPC past the room above; l keeps what came before. */
int nb_lab_sa_parse(const char *text, int board, struct nb_lab_sa_list *l);

/* Asks each board of the lab for its counters (nothing for a lab without a board or --vpn
 * esp). -errno with lab->err when a board does not answer or answers something else. */
int nb_lab_sa_read(struct nb_lab *lab, struct nb_lab_sa_list *l);

#endif
