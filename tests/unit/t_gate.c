/* SPDX-License-Identifier: BSD-2-Clause */
/* The gate's admission policy (nb_gate_admit): per-source bound, fair shares among sources
 * when every slot is taken, connections not yet looked at never evicted, an unproven
 * connection never kept over a newcomer. Then a flood of 64 sources, simulated. */
#include <string.h>

#include "core/session/gate.h"
#include "tap.h"

#define N 8

static void fill(struct nb_gate_slot *s, size_t n, const uint32_t *src, const int *state)
{
	for (size_t i = 0; i < n; i++)
		s[i] = (struct nb_gate_slot){.state = state ? state[i] : 1,
					     .source = src[i],
					     .accepted_ns = 100 + i,
					     .looked = true};
}

int main(void)
{
	struct nb_gate_slot s[N];
	const uint32_t src_a[N] = {1, 1, 1, 1, 1, 2, 2, 3};

	fill(s, N, src_a, NULL);
	s[3].state = -1;
	CHECK(nb_gate_admit(s, N, 9, 16) == NB_GATE_ADMIT, "a free slot takes the newcomer");
	CHECK(nb_gate_admit(s, N, 1, 4) == 0,
	      "a source at its bound makes room from its own oldest");
	s[0].looked = s[1].looked = s[2].looked = s[4].looked = false;
	CHECK(nb_gate_admit(s, N, 1, 4) == NB_GATE_REFUSE,
	      "... and none of its own looked at yet: the newcomer is refused, nobody evicted");

	fill(s, N, src_a, NULL);
	CHECK(nb_gate_admit(s, N, 9, 16) == 0,
	      "full: a new source takes the oldest slot of the source holding the most (5 of 8)");
	CHECK(nb_gate_admit(s, N, 3, 16) == 0, "... also for a source holding one");
	CHECK(nb_gate_admit(s, N, 1, 16) == 0, "the biggest holder itself gives way from its own");
	{
		const uint32_t src[N] = {1, 1, 2, 2, 3, 3, 4, 4};
		fill(s, N, src, NULL);
		CHECK(nb_gate_admit(s, N, 2, 16) == 2,
		      "a tie among holders: the newcomer's own source gives way");
		CHECK(nb_gate_admit(s, N, 9, 16) == 0,
		      "a tie, newcomer's source new: the oldest among the holders of the most");
	}
	{
		const uint32_t src[N] = {1, 2, 3, 4, 5, 6, 7, 8};
		fill(s, N, src, NULL);
		s[0].looked = false;
		CHECK(
		    nb_gate_admit(s, N, 9, 16) == 1,
		    "every source holds one: the oldest looked-at slot gives way, not a fresh one");
		fill(s, N, src, NULL);
		CHECK(nb_gate_admit(s, N, 8, 16) == 7,
		      "a source at its share where every other holds one replaces its own");
		s[7].looked = false;
		CHECK(nb_gate_admit(s, N, 8, 16) == NB_GATE_REFUSE,
		      "... and when its own was not looked at yet it may not evict the others");
	}
	{
		const uint32_t src[N] = {1, 1, 1, 1, 2, 2, 2, 2};
		const int st[N] = {0, 1, 2, 1, 2, 2, 2, 2};
		fill(s, N, src, st);
		s[0].accepted_ns = 900; /* the freshest, still expecting HELLO */
		CHECK(nb_gate_admit(s, N, 9, 16) == 1,
		      "within a source, age decides among the unproven, not the step reached");
		for (int i = 0; i < 4; i++)
			s[i].state = 2;
		CHECK(nb_gate_admit(s, N, 9, 16) == 1,
		      "proven and waiting: they too give way, the oldest first");
		s[2].state = 1;
		CHECK(nb_gate_admit(s, N, 9, 16) == 2, "... but the unproven before the proven");
	}
	for (int i = 0; i < N; i++)
		s[i].looked = false;
	CHECK(nb_gate_admit(s, N, 9, 16) == NB_GATE_REFUSE,
	      "no slot looked at yet: the newcomer is refused, no one is evicted");

	/* 64 sources, each coming back with a new connection as soon as one is dropped, on the
	 * agent's real bounds; a controller from a 65th source arrives: it is admitted and not
	 * evicted while 10,000 more flood connections arrive. */
	{
		static struct nb_gate_slot g[NB_GATE_MAX_PENDING];
		int ctl = -1, evicted = 0, refused = 0;
		uint64_t t = 1;
		memset(g, 0, sizeof(g));
		for (int i = 0; i < NB_GATE_MAX_PENDING; i++)
			g[i].state = -1;
		for (int k = 0; k < 20000; k++) {
			uint32_t src = (uint32_t)(k % 64);
			bool is_ctl = k == 10000;
			if (is_ctl)
				src = 1000;
			int v = nb_gate_admit(g, NB_GATE_MAX_PENDING, src, NB_GATE_MAX_PER_SOURCE);
			if (v == NB_GATE_REFUSE) {
				refused++;
				continue;
			}
			if (v >= 0 && v == ctl)
				evicted++;
			if (v == NB_GATE_ADMIT)
				for (v = 0; g[v].state >= 0; v++)
					;
			g[v] = (struct nb_gate_slot){
			    .state = 1, .source = src, .accepted_ns = t++, .looked = !is_ctl};
			if (is_ctl)
				ctl = v;
			if (k == 10001)
				g[ctl].looked = true; /* the gate polled it; it may give way now */
		}
		size_t held[64] = {0}, lo = NB_GATE_MAX_PENDING, hi = 0;
		for (int i = 0; i < NB_GATE_MAX_PENDING; i++)
			if (g[i].source < 64)
				held[g[i].source]++;
		for (int i = 0; i < 64; i++) {
			lo = held[i] < lo ? held[i] : lo;
			hi = held[i] > hi ? held[i] : hi;
		}
		CHECK(ctl >= 0 && !evicted && g[ctl].source == 1000,
		      "a controller from a 65th source keeps its slot through 10,000 flood "
		      "connections from 64 sources");
		CHECK(hi - lo <= 1 && refused == 0,
		      "the 64 flooding sources share the slots within one of each other (%zu to "
		      "%zu), "
		      "nobody refused",
		      lo, hi);
	}
	return tap_done();
}
