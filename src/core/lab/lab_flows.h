/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's destination ranges for flows spread by destination address (rate --flow-fields
 * dst-ip, docs/lab.md): the sink owns them through a local route, the DUT routes them to it. */
#ifndef NB_LAB_FLOWS_H
#define NB_LAB_FLOWS_H

#define NB_LAB_FLOWS_DST  "198.19.128.0/17" /* 32768 addresses: 198.19.128.0 to .255.255 */
#define NB_LAB_FLOWS_DST6 "2001:2:0:3::/64"

struct nb_lab;
/* Sets the ranges up in a lab whose namespaces and addresses exist (IPv6 with lab->ipv6); a
 * board in the lab keeps its own routes. 0 or -errno with lab->err saying which command. */
int nb_lab_flows_up(struct nb_lab *lab);

#endif
