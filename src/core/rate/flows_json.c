/* SPDX-License-Identifier: BSD-2-Clause */
/* The spread-flows parts of a rate run's JSON (docs/schema.md): which fields make flows differ
 * and the first source and destination addresses, and with --per-flow each trial's counts per flow.
 */
#include <arpa/inet.h>

#include "core/base/json.h"
#include "core/rate/rate_run.h"

void nb_rate_json_flows(struct nb_json *j, const struct nb_rate_run *r)
{
	const struct nb_rate_params *p = r->p;
	char buf[64], a[INET6_ADDRSTRLEN] = "";

	nb_json_str(
	    j, "flow_fields",
	    nb_flow_fields_str(p->flow_fields ? p->flow_fields : NB_FLOW_SPORT, buf, sizeof(buf)));
	for (int k = 0; k < 2; k++) {
		const struct sockaddr_storage *s = k ? &r->dst : &r->src_first;
		if (!(p->flow_fields & (k ? NB_FLOW_DST_IP : NB_FLOW_SRC_IP)))
			continue;
		inet_ntop(s->ss_family,
			  s->ss_family == AF_INET6
			      ? (const void *)&((const struct sockaddr_in6 *)s)->sin6_addr
			      : (const void *)&((const struct sockaddr_in *)s)->sin_addr,
			  a, sizeof(a));
		nb_json_str(j, k ? "flow_dst_first" : "flow_src_first", a);
	}
	nb_json_bool(j, "per_flow", p->per_flow);
}

void nb_rate_json_trial_flows(struct nb_json *j, const struct nb_rate_params *p,
			      const struct nb_rate_trial *t)
{
	if (!p->per_flow || !t->flow_tx)
		return;
	nb_json_obj_begin(j, "per_flow");
	nb_json_arr_begin(j, "tx_frames");
	for (uint32_t f = 0; f < p->flows; f++)
		nb_json_u64(j, NULL, t->flow_tx[f]);
	nb_json_arr_end(j);
	nb_json_arr_begin(j, "rx_frames");
	for (uint32_t f = 0; f < p->flows; f++)
		nb_json_u64(j, NULL, t->flow_rx[f]);
	nb_json_arr_end(j);
	nb_json_obj_end(j);
}
