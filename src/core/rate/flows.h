/* SPDX-License-Identifier: BSD-2-Clause */
/* Which header fields make `netbench rate`'s flows differ (--flow-fields), and the source
 * addresses flows take when it is the source address: the upper half of the generator's own
 * network (its interface's prefix), so that a NIC's RSS or a kernel's RPS on the DUT spreads
 * them by address as it would real hosts. */
#ifndef NB_FLOWS_H
#define NB_FLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define NB_FLOW_SRC_IP 1u
#define NB_FLOW_SPORT  2u
#define NB_FLOW_DST_IP 4u
#define NB_FLOW_DPORT  8u

/* "src-ip,sport" (any of src-ip, dst-ip, sport, dport, comma-separated) into a mask of
 * NB_FLOW_*. 0, or -EINVAL with err naming the word and the accepted ones. */
int nb_flow_fields_parse(const char *s, uint32_t *mask, char *err, size_t errlen);
/* The mask as the option spells it, into buf. */
const char *nb_flow_fields_str(uint32_t mask, char *buf, size_t len);

/* The first of flows source addresses for addr's network of prefix length plen: the upper half
 * of its host part (IPv4 without the broadcast address; IPv6: the upper half of the lowest 32
 * bits when the host part is longer), none of them equal to avoid[0..navoid) (this host's
 * address, the next hop). 0 with *first and *avail (addresses in the range), or -ERANGE when
 * flows do not fit / an address to avoid lies among them, with err saying which. */
int nb_flow_src_range(const struct sockaddr *addr, unsigned plen, uint32_t flows,
		      const struct sockaddr_storage *avoid, size_t navoid,
		      struct sockaddr_storage *first, uint64_t *avail, char *err, size_t errlen);
/* addr + k (IPv4, or IPv6 on its lowest 32 bits), in place. */
void nb_flow_addr_add(struct sockaddr_storage *addr, uint32_t k);
/* The prefix length of the interface address equal to addr on this host (getifaddrs):
 * 0, or -ENOENT. */
int nb_flow_prefix_len(const struct sockaddr *addr, unsigned *plen);

/* --flow-fields dst-ip (flows_dst.c): flow f goes to first + f (nb_flow_addr_add). Where the
 * receiver runs: 0 when the kernel routes every one of the n addresses to this host (route
 * type local: an interface's address, or one a local route gives it; never a broadcast or a
 * group), else -EADDRNOTAVAIL naming the first that is not, or -ERANGE when the range runs
 * past the address space, with err saying so. */
int nb_flow_dst_owned(const struct sockaddr_storage *first, uint32_t n, char *err, size_t errlen);
/* The wildcard address of addr's family (port and scope kept): where a receiver of a
 * destination range binds, once the range is shown to be its own. */
void nb_flow_dst_any(struct sockaddr_storage *addr);
/* Whether first + n - 1 runs past the lowest 32 bits (the part flows vary). */
bool nb_flow_range_wraps(const struct sockaddr_storage *first, uint32_t n);

struct nb_json;
struct nb_rate_run;
struct nb_rate_params;
struct nb_rate_trial;
/* The JSON (flows_json.c): parameters' flow_fields, flow_src_first and per_flow; a trial's
 * per_flow counts. */
void nb_rate_json_flows(struct nb_json *j, const struct nb_rate_run *r);
void nb_rate_json_trial_flows(struct nb_json *j, const struct nb_rate_params *p,
			      const struct nb_rate_trial *t);

#endif
