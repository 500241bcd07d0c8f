/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel profile's pure parts: /proc/kallsyms parsed from recorded text, the category rules
 * on real kernel symbol names (x86-64 host, ARM and PowerPC boards, modules), the Wilson
 * interval's known answers, shares and ns per frame of a window with known counts, the one
 * line, and the wire codec: a result survives encoding whole, and malformed ones are refused. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/observe/obs_wire.h"
#include "core/profile/prof.h"
#include "core/session/proto.h"
#include "tap.h"

static const char kallsyms[] = "0000000000000000 A fixed_percpu_data\n"
			       "ffffffff81000000 T _stext\n"
			       "ffffffff81001000 T nft_do_chain\n"
			       "ffffffff81001400 t __nft_trace_packet\n"
			       "ffffffff81002000 D some_data\n"
			       "ffffffff81003000 T _raw_spin_lock\n"
			       "ffffffff81004000 W weak_fn\n"
			       "ffffffffc0a01000 t veth_xmit\t[veth]\n"
			       "ffffffffc0b00000 t e1000_clean_rx_irq\t[e1000e]\n"
			       "ffffffffc0c00000 t aes_encrypt\t[aes_generic]\n"
			       "not a symbol line\n";

static int cat(const char *name, const char *mod)
{
	return nb_prof_cat_frame(name, mod);
}

/* One sample's category from innermost-first names (modules all built in). */
static enum nb_prof_cat stack(const char *a, const char *b, const char *c)
{
	const char *n[3] = {a, b, c};
	size_t k = c ? 3 : b ? 2 : a ? 1 : 0;
	return nb_prof_cat_stack(n, NULL, k, false);
}

static void test_syms(void)
{
	struct nb_prof_syms *s = NULL;
	CHECK(nb_prof_syms_parse(&s, kallsyms, sizeof(kallsyms) - 1) == 0, "kallsyms parsed");
	CHECK(nb_prof_syms_count(s) == 8, "text symbols only (t, T, w, W): %zu",
	      nb_prof_syms_count(s));
	long i = nb_prof_syms_find(s, 0xffffffff81001234ull);
	CHECK(!strcmp(nb_prof_syms_name(s, i), "nft_do_chain") && !*nb_prof_syms_module(s, i),
	      "an address inside nft_do_chain: built in (%s)", nb_prof_syms_name(s, i));
	i = nb_prof_syms_find(s, 0xffffffffc0a01010ull);
	CHECK(!strcmp(nb_prof_syms_name(s, i), "veth_xmit") &&
		  !strcmp(nb_prof_syms_module(s, i), "veth"),
	      "module from the [module] column");
	CHECK(nb_prof_syms_find(s, 0xffffffff80000000ull) == -1 &&
		  !strcmp(nb_prof_syms_name(s, -1), "[unknown]"),
	      "below the first symbol: unknown");
	nb_prof_syms_free(s);
	/* A module's symbols on Debian's armmp kernel (6.1, /proc/kallsyms on the emulated armhf
	 * board): ARM's mapping symbols ($a code, $d data) inside nf_tables' functions. */
	static const char arm[] = "c0100000 T _stext\n"
				  "bf0f2000 t $a\t[nf_tables]\n"
				  "bf0f2000 t nft_do_chain\t[nf_tables]\n"
				  "bf0f2380 t $d\t[nf_tables]\n"
				  "bf0f2388 t $a\t[nf_tables]\n"
				  "bf0f2600 t nft_meta_get_eval\t[nf_tables]\n"
				  "bf0f2a10 t $a.3\t[nf_tables]\n"
				  "bf100000 t start_xmit\t[virtio_net]\n";
	s = NULL;
	int rc = nb_prof_syms_parse(&s, arm, sizeof(arm) - 1);
	CHECK(rc == 0 && nb_prof_syms_count(s) == 4,
	      "ARM mapping symbols ($a, $d, $a.3) are not functions: 4 symbols (%zu)",
	      nb_prof_syms_count(s));
	i = nb_prof_syms_find(s, 0xbf0f2390ull);
	CHECK(!strcmp(nb_prof_syms_name(s, i), "nft_do_chain") &&
		  !strcmp(nb_prof_syms_module(s, i), "nf_tables"),
	      "past nft_do_chain's literal pool ($d, then $a): still nft_do_chain [nf_tables] (%s)",
	      nb_prof_syms_name(s, i));
	i = nb_prof_syms_find(s, 0xbf0f2a20ull);
	CHECK(!strcmp(nb_prof_syms_name(s, i), "nft_meta_get_eval"),
	      "past $a.3: nft_meta_get_eval (%s)", nb_prof_syms_name(s, i));
	nb_prof_syms_free(s);
	static const char zeros[] = "0000000000000000 T _stext\n0000000000000000 t nft_do_chain\n";
	s = NULL;
	CHECK(nb_prof_syms_parse(&s, zeros, sizeof(zeros) - 1) == -ENOENT && !s,
	      "kptr_restrict (every address 0): -ENOENT, no symbols");
}

static void test_categories(void)
{
	/* Real names from Linux 6.x x86-64, and ARM/PowerPC board kernels. */
	CHECK(cat("nft_do_chain", "") == NB_PC_NETFILTER, "nft_do_chain: netfilter");
	CHECK(cat("nft_meta_get_eval", "") == NB_PC_NETFILTER, "nft_meta_get_eval: netfilter");
	CHECK(cat("nft_rhash_lookup", "nf_tables") == NB_PC_NETFILTER, "set lookup: netfilter");
	CHECK(cat("nf_hook_slow", "") == NB_PC_NETFILTER, "nf_hook_slow: netfilter");
	CHECK(cat("ipt_do_table", "ip_tables") == NB_PC_NETFILTER, "ipt_do_table: netfilter");
	CHECK(cat("nf_conntrack_in", "nf_conntrack") == NB_PC_CONNTRACK, "nf_conntrack_in");
	CHECK(cat("ipv4_conntrack_in", "") == NB_PC_CONNTRACK, "ipv4_conntrack_in: conntrack");
	CHECK(cat("__nf_conntrack_find_get", "") == NB_PC_CONNTRACK, "conntrack lookup");
	CHECK(cat("nf_nat_inet_fn", "") == NB_PC_CONNTRACK, "NAT with conntrack");
	CHECK(cat("ip_forward", "") == NB_PC_IP, "ip_forward: ip");
	CHECK(cat("fib_table_lookup", "") == NB_PC_IP, "fib_table_lookup: ip");
	CHECK(cat("ip_rcv_core", "") == NB_PC_IP && cat("ip6_forward", "") == NB_PC_IP,
	      "ip_rcv_core, ip6_forward: ip");
	CHECK(cat("__netif_receive_skb_core.constprop.0", "") == NB_PC_NETCORE,
	      "__netif_receive_skb_core: netcore");
	CHECK(cat("net_rx_action", "") == NB_PC_NETCORE &&
		  cat("__dev_queue_xmit", "") == NB_PC_NETCORE,
	      "net_rx_action, __dev_queue_xmit: netcore");
	CHECK(cat("udp_recvmsg", "") == NB_PC_SOCKET && cat("__udp4_lib_rcv", "") == NB_PC_SOCKET,
	      "udp_recvmsg, __udp4_lib_rcv: socket");
	CHECK(cat("tcp_sendmsg_locked", "") == NB_PC_SOCKET, "tcp_sendmsg_locked: socket");
	CHECK(cat("__sys_sendmmsg", "") == NB_PC_SOCKET, "__sys_sendmmsg: socket");
	CHECK(cat("_copy_to_user", "") == NB_PC_COPY &&
		  cat("__copy_tofrom_user", "") == NB_PC_COPY &&
		  cat("arm_copy_to_user", "") == NB_PC_COPY &&
		  cat("skb_copy_datagram_iter", "") == NB_PC_COPY &&
		  cat("rep_movs_alternative", "") == NB_PC_COPY,
	      "copies to and from user (x86, ppc, arm): copy");
	CHECK(cat("veth_xmit", "veth") == NB_PC_DRIVER && cat("veth_poll", "") == NB_PC_DRIVER,
	      "veth: driver, module or built in");
	CHECK(cat("virtnet_poll", "") == NB_PC_DRIVER &&
		  cat("virtqueue_get_buf_ctx", "") == NB_PC_DRIVER,
	      "virtio_net and its ring: driver");
	CHECK(cat("gfar_clean_rx_ring", "") == NB_PC_DRIVER, "gianfar: driver");
	CHECK(cat("e1000_clean_rx_irq", "e1000e") == NB_PC_DRIVER, "e1000e module: driver");
	CHECK(cat("stmmac_napi_poll_rx", "") == NB_PC_DRIVER, "stmmac: driver");
	CHECK(cat("some_driver_fn", "mydriver") == NB_PC_DRIVER, "an unknown module: driver");
	CHECK(cat("aes_encrypt", "aes_generic") == NB_PC_CRYPTO &&
		  cat("crypto_aes_encrypt", "") == NB_PC_CRYPTO,
	      "aes_generic: crypto");
	CHECK(cat("talitos_submit", "talitos") == NB_PC_CRYPTO &&
		  cat("talitos_submit", "") == NB_PC_CRYPTO,
	      "talitos: crypto");
	CHECK(cat("virtio_crypto_skcipher_encrypt", "") == NB_PC_CRYPTO, "virtio_crypto: crypto");
	CHECK(cat("esp_output", "esp4") == NB_PC_XFRM && cat("xfrm_output", "") == NB_PC_XFRM &&
		  cat("esp_output_tail", "") == NB_PC_XFRM,
	      "esp, xfrm: xfrm");
	CHECK(cat("kmem_cache_alloc_node", "") == NB_PC_MEMORY &&
		  cat("__alloc_skb", "") == NB_PC_MEMORY &&
		  cat("kfree_skb_reason", "") == NB_PC_MEMORY &&
		  cat("skb_release_data", "") == NB_PC_MEMORY,
	      "allocation and freeing, skb buffers: memory");
	CHECK(cat("v7_dma_inv_range", "") == NB_PC_DMA &&
		  cat("dma_sync_single_for_cpu", "") == NB_PC_DMA &&
		  cat("flush_dcache_range", "") == NB_PC_DMA,
	      "DMA cache maintenance (ARM v7, ppc): dma");
	CHECK(cat("exc_page_fault", "") == NB_PC_MEMORY &&
		  cat("do_anonymous_page", "") == NB_PC_MEMORY &&
		  cat("unmap_page_range", "") == NB_PC_MEMORY,
	      "page faults and unmapping: memory");
	CHECK(cat("__check_object_size", "") == NB_PC_COPY &&
		  cat("copy_iovec_from_user", "") == NB_PC_COPY,
	      "hardened usercopy checks, iovec copies: copy");
	CHECK(cat("irqentry_exit_to_user_mode", "") == NB_PC_IRQ &&
		  cat("__list_del_entry_valid_or_report", "") == -1,
	      "irqentry: irq; list debugging decides nothing");
	CHECK(cat("__do_softirq", "") == NB_PC_IRQ && cat("handle_softirqs", "") == NB_PC_IRQ &&
		  cat("asm_common_interrupt", "") == NB_PC_IRQ &&
		  cat("gic_handle_irq", "") == NB_PC_IRQ,
	      "interrupt entry, softirq dispatch: irq");
	CHECK(cat("__schedule", "") == NB_PC_SCHED && cat("try_to_wake_up", "") == NB_PC_SCHED &&
		  cat("hrtimer_interrupt", "") == NB_PC_SCHED,
	      "scheduler, wake-ups, timers: sched");
	CHECK(cat("default_idle_call", "") == NB_PC_IDLE && cat("do_idle", "") == NB_PC_IDLE &&
		  cat("cpu_v7_do_idle", "") == NB_PC_IDLE &&
		  cat("pv_native_safe_halt", "") == NB_PC_IDLE,
	      "idle loops (x86, ARM): idle");
	CHECK(cat("_raw_spin_lock", "") == -1 &&
		  cat("native_queued_spin_lock_slowpath", "") == -1 && cat("memcpy", "") == -1 &&
		  cat("__x86_indirect_thunk_rax", "") == -1 &&
		  cat("_raw_spin_lock", "nf_tables") == -1,
	      "locks, thunks, memcpy decide nothing (in a module neither)");
	CHECK(stack("_raw_spin_lock", "nft_do_chain", "nf_hook_slow") == NB_PC_NETFILTER,
	      "a lock under nft_do_chain: netfilter (innermost frame that decides)");
	CHECK(stack("nft_do_chain", "ip_forward", "__do_softirq") == NB_PC_NETFILTER,
	      "nft_do_chain inside forwarding inside softirq: netfilter");
	CHECK(stack("veth_xmit", "nft_do_chain", NULL) == NB_PC_DRIVER,
	      "innermost decides: veth_xmit under a hook is the driver's");
	CHECK(stack("memcpy", "[unknown]", NULL) == NB_PC_OTHER, "no frame decides: other");
	/* GCC's clone suffixes */
	CHECK(cat("finish_task_switch.isra.0", "") == NB_PC_SCHED &&
		  cat("tcp_ack.constprop.0", "") == NB_PC_SOCKET &&
		  cat("__dev_queue_xmit.part.0", "") == NB_PC_NETCORE &&
		  cat("nft_do_chain.cold", "nf_tables") == NB_PC_NETFILTER &&
		  cat("_raw_spin_lock.cold", "") == -1,
	      "clone suffixes (.isra.0, .constprop.0, .part.0, .cold) dropped before the rules");
	CHECK(nb_prof_cat_stack(NULL, NULL, 0, true) == NB_PC_USER, "user frames only: user");
	CHECK(nb_prof_cat_stack(NULL, NULL, 0, false) == NB_PC_OTHER, "no frame at all: other");
	CHECK(!strcmp(nb_prof_cat_name(NB_PC_NETFILTER), "netfilter") &&
		  !strcmp(nb_prof_cat_name(NB_PC_IDLE), "idle"),
	      "category names");
}

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void fill(struct nb_prof_result *r)
{
	memset(r, 0, sizeof(*r));
	r->available = true;
	r->hz = 997;
	r->cpu_ns = 2000000;
	r->window_ns = 1000000000;
	r->func_mask = 2;
	r->ncpu = 2;
	r->cpu[0].cpu = 0;
	r->cpu[0].samples = 997;
	r->cpu[0].cat[NB_PC_IDLE] = 997;
	r->cpu[1].cpu = 1;
	r->cpu[1].samples = 1000;
	r->cpu[1].lost = 3;
	r->cpu[1].cat[NB_PC_NETFILTER] = 600;
	r->cpu[1].cat[NB_PC_DRIVER] = 290;
	r->cpu[1].cat[NB_PC_IP] = 10;
	r->cpu[1].cat[NB_PC_IDLE] = 100;
	r->nfunc = 2;
	strcpy(r->func[0].name, "nft_do_chain");
	r->func[0].count = 550;
	strcpy(r->func[1].name, "veth_xmit");
	strcpy(r->func[1].module, "veth");
	r->func[1].count = 200;
	r->func_samples = 1000;
	const char f[] =
	    "__do_softirq;ip_forward;nft_do_chain 550\nveth_poll;veth_xmit [veth] 200\n";
	memcpy(r->folded, f, sizeof(f) - 1);
	r->folded_len = sizeof(f) - 1;
}

static int dcat(const struct nb_prof_drivers *d, const char *name, const char *mod)
{
	return nb_prof_cat_frame_drv(name, mod, d);
}

/* The NIC driver category from the drivers ethtool names (ETHTOOL_GDRVINFO's driver field). */
static void test_drivers(void)
{
	struct nb_prof_drivers d = {0}, none = {0};
	CHECK(nb_prof_drivers_add(&d, "ena") && nb_prof_drivers_add(&d, "net_failover") &&
		  nb_prof_drivers_add(&d, "bnxt_en") && nb_prof_drivers_add(&d, "gfar-enet") &&
		  nb_prof_drivers_add(&d, "virtio_net") && nb_prof_drivers_add(&d, "hv_netvsc") &&
		  d.n == 6,
	      "drivers kept as ethtool names them");
	CHECK(!nb_prof_drivers_add(&d, "ena") && !nb_prof_drivers_add(&d, "bridge") &&
		  !nb_prof_drivers_add(&d, "802.1Q VLAN Support") && !nb_prof_drivers_add(&d, "") &&
		  !nb_prof_drivers_add(&d, NULL) && d.n == 6,
	      "a driver twice, a subsystem's module (bridge), a name no module has: not kept");
	nb_prof_drivers_add(&d, "veth");
	nb_prof_drivers_add(&d, "e1000e");
	CHECK(!nb_prof_drivers_add(&d, "igb") && d.n == NB_PROF_DRIVERS, "at most 8 drivers");
	/* AWS ena's poll loop is in no fixed rule: other without the interface's driver */
	CHECK(dcat(&d, "ena_io_poll", "") == NB_PC_DRIVER &&
		  dcat(&d, "ena_clean_rx_irq.constprop.0", "") == NB_PC_DRIVER &&
		  dcat(&none, "ena_io_poll", "") == -1 && cat("ena_io_poll", "") == -1,
	      "ena_io_poll: the driver with ena's interface, undecided without");
	CHECK(dcat(&d, "net_failover_start_xmit", "") == NB_PC_DRIVER &&
		  cat("net_failover_start_xmit", "") == NB_PC_NETCORE,
	      "net_failover_start_xmit: the driver before the fixed net_ rule (netcore)");
	CHECK(dcat(&d, "bnxt_poll", "") == NB_PC_DRIVER && cat("bnxt_poll", "") == -1,
	      "bnxt_en: bnxt_poll (the name without _en)");
	CHECK(dcat(&d, "gfar_poll_rx_sq", "") == NB_PC_DRIVER, "gfar-enet: gfar_poll_rx_sq");
	CHECK(dcat(&d, "virtnet_poll", "") == NB_PC_DRIVER &&
		  dcat(&d, "virtqueue_get_buf_ctx", "") == NB_PC_DRIVER &&
		  dcat(&d, "virtnet_poll", "virtio_net") == NB_PC_DRIVER,
	      "virtio_net: virtnet_ and its ring, built in or a module");
	CHECK(dcat(&d, "virtio_crypto_skcipher_encrypt", "") == NB_PC_CRYPTO &&
		  dcat(&d, "virtio_crypto_skcipher_encrypt", "virtio_crypto") == NB_PC_CRYPTO,
	      "virtio_net's drivers do not take virtio_crypto's symbols");
	CHECK(dcat(&d, "netvsc_poll", "") == NB_PC_DRIVER &&
		  dcat(&d, "netvsc_poll", "hv_netvsc") == NB_PC_DRIVER,
	      "hv_netvsc: netvsc_poll, built in or its module");
	CHECK(dcat(&d, "veth_xmit", "") == NB_PC_DRIVER && dcat(&d, "vethx_fn", "") == -1,
	      "veth: veth_xmit, not a name that only starts with its letters");
	CHECK(dcat(&d, "e1000_clean_rx_irq", "e1000e") == NB_PC_DRIVER,
	      "e1000e's module: the driver");
	CHECK(dcat(&d, "_raw_spin_lock", "") == -1 &&
		  dcat(&d, "nft_do_chain", "") == NB_PC_NETFILTER &&
		  dcat(&d, "ena_fn", "nf_tables") == NB_PC_NETFILTER,
	      "locks still decide nothing, other subsystems and their modules stay theirs");
	const char *n[3] = {"_raw_spin_lock", "ena_start_xmit", "dev_hard_start_xmit"};
	CHECK(nb_prof_cat_stack_drv(n, NULL, 3, false, &d) == NB_PC_DRIVER &&
		  nb_prof_cat_stack_drv(n, NULL, 3, false, NULL) == NB_PC_NETCORE,
	      "a stack: a lock in ena_start_xmit is the driver's (netcore's without it)");
}

static void test_summary(void)
{
	double lo, hi;
	struct nb_prof_result *r = malloc(sizeof(*r));
	struct nb_prof_summary s;
	char line[300];
	nb_prof_wilson(5, 10, &lo, &hi);
	CHECK(near(lo, 0.2366, 1e-4) && near(hi, 0.7634, 1e-4), "Wilson 5 of 10: 0.2366-0.7634");
	nb_prof_wilson(0, 10, &lo, &hi);
	CHECK(lo == 0 && near(hi, 0.2775, 1e-4), "Wilson 0 of 10: 0-0.2775");
	nb_prof_wilson(0, 0, &lo, &hi);
	CHECK(lo == 0 && hi == 1, "no samples: 0-1");

	fill(r);
	/* CPU 1 alone: 900 busy samples of 1000, 0.9 busy CPU-seconds for 1,000,000 frames:
	 * 900 ns of busy time per frame, netfilter 600/900 of it = 600 ns. */
	nb_prof_summarize(r, 2, 0.9, 1000000, &s);
	CHECK(s.available && s.samples == 1000 && s.lost == 3 && s.busy == 900 && s.ncpu == 1 &&
		  s.expected == 997,
	      "CPU 1 selected: 1000 samples, 900 busy, 3 lost, 997 expected in 1 s at 997 Hz");
	CHECK(s.n == NB_PC_N && s.cat[0].cat == NB_PC_NETFILTER && near(s.cat[0].share, 0.6, 1e-9),
	      "every category listed, netfilter first at 60 %%");
	CHECK(near(s.cat[0].ns_per_frame, 600, 1e-6) && s.cat[0].ns_lo < 600 &&
		  s.cat[0].ns_hi > 600,
	      "netfilter 600 ns per frame, within its interval (%.1f)", s.cat[0].ns_per_frame);
	CHECK(s.cat[0].established, "600 of 1000: established");
	const struct nb_prof_share *ip = NULL, *idle = NULL, *ct = NULL;
	for (size_t i = 0; i < s.n; i++) {
		if (s.cat[i].cat == NB_PC_IP)
			ip = &s.cat[i];
		if (s.cat[i].cat == NB_PC_IDLE)
			idle = &s.cat[i];
		if (s.cat[i].cat == NB_PC_CONNTRACK)
			ct = &s.cat[i];
	}
	CHECK(ip && !ip->established && near(ip->ns_per_frame, 10.0 / 900 * 900, 1e-6),
	      "10 of 1000: not established, 10 ns per frame");
	CHECK(idle && isnan(idle->ns_per_frame), "idle has no ns per frame");
	CHECK(ct && ct->n == 0 && ct->lo == 0 && ct->hi > 0 && ct->hi < 0.01 && ct->ns_hi > 0,
	      "no conntrack sample: bounded by its interval (%.4f)", ct ? ct->hi : -1);
	CHECK(nb_prof_top(&s)->cat == NB_PC_NETFILTER, "the largest busy share: netfilter");
	nb_prof_line(r, &s, 3, line, sizeof(line));
	CHECK(!strcmp(line,
		      "netfilter 60 % (600 ns/frame), driver 29 % (290 ns/frame), ip 1 % (not "
		      "established)"),
	      "line: %s", line);
	nb_prof_summarize(r, 0, 0.9, 0, &s);
	CHECK(s.samples == 1997 && isnan(s.cat[0].ns_per_frame),
	      "all CPUs: 1997 samples; frames unknown: no ns per frame");
	nb_prof_summarize(r, 1, 0.9, 1000, &s);
	CHECK(s.busy == 0 && !nb_prof_top(&s), "an idle CPU: no busy category");
	nb_prof_line(r, &s, 3, line, sizeof(line));
	CHECK(!strcmp(line, "idle"), "an idle CPU's line: idle");
	r->available = false;
	strcpy(r->why, "perf events refused");
	nb_prof_summarize(r, 2, 0.9, 1000, &s);
	nb_prof_line(r, &s, 3, line, sizeof(line));
	CHECK(!s.available && !strcmp(line, "unavailable: perf events refused"),
	      "unavailable says why: %s", line);
	free(r);
}

static void test_wire(void)
{
	struct nb_msg *m = nb_msg_new(NB_MSG_FINAL);
	struct nb_prof_result *r = malloc(sizeof(*r)), *b = malloc(sizeof(*b));
	uint8_t *raw;
	fill(r);
	CHECK(nb_prof_put(m, r) == 0, "profile encodes");
	CHECK(nb_prof_get(m, b) == 1, "profile decodes");
	CHECK(b->available && b->hz == 997 && b->ncpu == 2 &&
		  b->cpu[1].cat[NB_PC_NETFILTER] == 600 && b->cpu[1].lost == 3 && b->nfunc == 2 &&
		  !strcmp(b->func[1].module, "veth") && b->folded_len == r->folded_len &&
		  !memcmp(b->folded, r->folded, r->folded_len) && b->func_mask == 2 &&
		  b->cpu_ns == 2000000,
	      "round trip whole");
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_prof_get(m, b) == 0, "no profile items: 0");

	/* Categories that do not add up to the samples. */
	fill(r);
	r->cpu[1].cat[NB_PC_IP] = 11;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	CHECK(nb_prof_get(m, b) == -EBADMSG && !b->available, "categories not summing: refused");
	/* Twice the same CPU. */
	fill(r);
	r->cpu[0].cpu = 1;
	r->cpu[0].samples = 0;
	r->cpu[0].cat[NB_PC_IDLE] = 0;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	CHECK(nb_prof_get(m, b) == -EBADMSG, "a CPU twice: refused");
	/* A rate past the cap, a function counted more than the samples, bad stacks. */
	fill(r);
	r->hz = NB_PROF_HZ_MAX + 1;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	CHECK(nb_prof_get(m, b) == -EBADMSG, "rate past the cap: refused");
	fill(r);
	r->func[0].count = 1001;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	CHECK(nb_prof_get(m, b) == -EBADMSG, "a function above the samples: refused");
	fill(r);
	strcpy(r->folded, "a;b;c\n");
	r->folded_len = 6;
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	CHECK(nb_prof_get(m, b) == -EBADMSG, "a stack without its count: refused");
	fill(r);
	r->func[0].name[3] = '\n';
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	CHECK(nb_prof_get(m, b) == -EBADMSG, "a name with a control byte: refused");
	/* Unavailable: the reason travels, nothing else. */
	memset(r, 0, sizeof(*r));
	r->hz = 997;
	strcpy(r->why, "perf events refused (perf_event_paranoid is 3)");
	nb_msg_reset(m, NB_MSG_FINAL);
	CHECK(nb_prof_put(m, r) == 0 && nb_prof_get(m, b) == 1 && !b->available &&
		  !strcmp(b->why, r->why),
	      "unavailable: its reason decodes");
	/* A head alone, unavailable and without a reason: refused. */
	nb_msg_reset(m, NB_MSG_FINAL);
	nb_prof_put(m, r);
	m->len = 4 + 48;
	CHECK(nb_prof_get(m, b) == -EBADMSG, "unavailable without a reason: refused");
	/* A truncated head. */
	raw = m->data;
	raw[3] = 40; /* the item's length: 40 instead of 48 */
	m->len = 4 + 40;
	CHECK(nb_prof_get(m, b) == -EBADMSG, "a short head: refused");

	/* The request: rate and buffer bounded by the agent. */
	struct nb_obs_req q = {.sample_hz = 10, .profile_hz = NB_PROF_HZ_DEFAULT}, back;
	char err[200];
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	CHECK(nb_obs_req_put(m, &q) == 0 && nb_obs_req_get(m, &back, err, sizeof(err)) == 0 &&
		  back.profile_hz == NB_PROF_HZ_DEFAULT && back.profile_kib == NB_PROF_KIB_DEFAULT,
	      "profile request: default buffer");
	q.profile_hz = NB_PROF_HZ_MAX + 1;
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_obs_req_put(m, &q);
	CHECK(nb_obs_req_get(m, &back, err, sizeof(err)) == -EINVAL && strstr(err, "4999"),
	      "5000 Hz refused: %s", err);
	q.profile_hz = 997;
	q.profile_kib = NB_PROF_KIB_MAX * 2;
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_obs_req_put(m, &q);
	CHECK(nb_obs_req_get(m, &back, err, sizeof(err)) == -EINVAL && strstr(err, "KiB"),
	      "2 MiB of buffer refused: %s", err);
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	nb_msg_put_u32(m, NB_T_OBS_PROFILE_KIB, 64);
	CHECK(nb_obs_req_get(m, &back, err, sizeof(err)) == -EINVAL, "a buffer without a rate");
	nb_msg_free(m);
	free(r);
	free(b);
}

int main(void)
{
	test_syms();
	test_categories();
	test_drivers();
	test_summary();
	test_wire();
	return tap_done();
}
