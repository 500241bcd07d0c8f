/* SPDX-License-Identifier: BSD-2-Clause */
/* An emulated board in the lab (`lab up --dut vm:ARCH` or `--sink vm:ARCH`): qemu booting a
 * board image (tests/board/build.sh: a stock kernel, a busybox initramfs with the static
 * netbench) with virtio-net NICs whose host ends are taps in the lab's namespaces, and the lab's
 * control port (a virtio-serial port, never the network) that loads the board's rulesets. */
#ifndef NB_LAB_BOARD_H
#define NB_LAB_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/lab/lab_base.h"

/* Where `lab up` looks for the image of ARCH without --board-dir: DIR/board-ARCH, which
 * `tests/board/build.sh ARCH DIR` writes. */
#define NB_LAB_BOARD_CACHE "/var/cache/netbench-board"
/* How long a board may take to boot before `lab up` gives up (TCG: about 5 to 20 s). */
#define NB_LAB_BOARD_BOOT_S 90
/* The largest nft file sent to a board's control port (its /tmp is in RAM). */
#define NB_LAB_BOARD_RULESET_MAX (16 << 20)

/* The board's NICs by MAC: on the generator's side and on the sink's (virtio-mmio NICs
 * enumerate in reverse order: the board's init finds them by address, never by name). */
#define NB_LAB_BOARD_MAC_GEN  "52:54:00:6e:62:01"
#define NB_LAB_BOARD_MAC_SINK "52:54:00:6e:62:02"
/* A board sink behind a board DUT: the two share a wire, so not the DUT's sink-side MAC. */
#define NB_LAB_BOARD_MAC_SINK2 "52:54:00:6e:62:03"

/* Where board images and their packages are kept: $NB_BOARD_CACHE (an absolute path; the
 * builder, tests/board/build.sh, reads it too) or NB_LAB_BOARD_CACHE. */
const char *nb_lab_board_cache(void);
/* The default image directory of arch: nb_lab_board_cache()/board-ARCH. */
void nb_lab_board_default_dir(const char *arch, char *buf, size_t len);

/* "vm:armhf", "vm:x86_64" or "vm:ppc" -> arch, nic ""; "vm:ARCH,nic=NAME" -> nic NAME where
 * NAME is the architecture's other NIC (vm:x86_64,nic=e1000e). -EINVAL for an unknown
 * architecture, -ENOTSUP for a NIC option the architecture does not take. */
int nb_lab_board_spec(const char *spec, char *arch, size_t len, char *nic, size_t nic_len);

/* lab->board's image on first use: when its kernel or initrd.gz is missing in the default image
 * directory (no --board-dir: an explicit one is used as it is) and lab->board_builder names a
 * builder, runs it
 * (`sh BUILDER ARCH PARENT DIR`, its progress on stderr) to make the image there. The builder's
 * folder must be owned by root or the user and writable by no one else. Returns 0 (built, or
 * nothing to do), -ENOENT when the builder cannot build it here (lab->err its reason), -EIO
 * when the build failed, -EINTR when interrupted. */
int nb_lab_board_build(struct nb_lab *lab);

/* Finds and checks lab->board's image (lab->board.dir, or the default under
 * NB_LAB_BOARD_CACHE) and its qemu binary. -ENOENT with lab->err naming the missing file or
 * package and how to get it. */
int nb_lab_board_image(struct nb_lab *lab);

/* Boots the board in its role's namespace and puts its NICs' host ends in place as gen0 and
 * sink0 (DUT) or dut1 (sink), down; returns when qemu runs. nb_lab_board_wait then waits for
 * the board's init to report "up". */
int nb_lab_board_start(struct nb_lab *lab);
int nb_lab_board_wait(struct nb_lab *lab);

/* Exchanges lab->board and lab->board2 (a lab with two boards: the functions here act on
 * lab->board). */
void nb_lab_board_swap(struct nb_lab *lab);

/* Files of the running board under the lab's run directory. */
void nb_lab_board_path(const struct nb_lab *lab, const char *name, char *buf, size_t len);
long nb_lab_board_pid(const struct nb_lab *lab);

/* One request on the control port ("ruleset", "list", "status") with an optional payload;
 * *out (malloc'ed, NUL-terminated) holds the board's reply and *rc its exit status. */
int nb_lab_board_ctl(struct nb_lab *lab, const char *req, const char *payload, char **out, int *rc);

/* The last lines of the board's console, each prefixed with two blanks. */
void nb_lab_board_console_tail(const struct nb_lab *lab, unsigned lines, char *buf, size_t len);

#endif
