/* SPDX-License-Identifier: BSD-2-Clause */
/* `netbench lab crypto-driver DRIVER [ALGO...]`: what a board runs, through its control port,
 * to put its tunnel on a chosen kernel crypto driver (`lab up --crypto-driver` with boards). */
#ifndef NB_CMD_LAB_CRYPTO_DRIVER_H
#define NB_CMD_LAB_CRYPTO_DRIVER_H

/* argv[0] is "crypto-driver". Prints one line saying what changed; exit 1 with the reason when
 * the kernel has no such driver or the driver implements none of the ALGOs. */
int lab_crypto_driver(int argc, char **argv);

#endif
