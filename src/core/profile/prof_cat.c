/* SPDX-License-Identifier: BSD-2-Clause */
/* Which subsystem a kernel frame belongs to. The rules, in the order they are tried (the same
 * list is in docs/design.md, "The kernel profile"):
 *
 *  0. GCC's clone suffixes are dropped (finish_task_switch.isra.0 is finish_task_switch).
 *  1. A frame that decides nothing: locks, retpoline and return thunks, memcpy/memset, the RCU
 *     and bottom-half read sides, preemption and debugging hooks, an address with no symbol. Its
 *     caller decides.
 *  1b. The drivers ethtool names for the box's interfaces: their module, and their symbols by
 *     the driver's name as a prefix ('-' read as '_'; veth_xmit for veth; the name without a
 *     trailing _enet, _eth or _en too: gfar_ for gfar-enet, bnxt_ for bnxt_en; virtnet_ and the
 *     virtio ring for virtio_net, e1000_ for e1000e: a short table of drivers whose symbols go
 *     by another name): the driver. A subsystem's module (bridge) is no NIC driver.
 *  2. The module column: a module of a known subsystem (nf_tables, nft_*, x_tables, *_tables,
 *     xt_*: netfilter; nf_conntrack*, nf_nat*, nf_defrag*: conntrack; esp4/6, xfrm*, ah4/6:
 *     xfrm; aes*, sha*, cryptd, gcm, talitos, caam*, virtio_crypto, *_crypto: crypto; any other
 *     module: a driver (a board's NIC driver is a module or built in, and then rule 3 names it).
 *  3. The symbol's name, leading underscores dropped, by prefix (the table below): idle before
 *     the scheduler, copies and memory before the skb helpers, conntrack before netfilter and
 *     IP, xfrm before IP, the socket layer before IP.
 *
 * A sample's category is the innermost frame that decides, walking outwards: a sample in
 * _raw_spin_lock called by nft_do_chain is netfilter's. */
#include <string.h>

#include "core/profile/prof.h"

static const char *const cat_names[NB_PC_N] = {
    [NB_PC_DRIVER] = "driver",	     [NB_PC_DMA] = "dma",
    [NB_PC_NETCORE] = "netcore",     [NB_PC_NETFILTER] = "netfilter",
    [NB_PC_CONNTRACK] = "conntrack", [NB_PC_IP] = "ip",
    [NB_PC_SOCKET] = "socket",	     [NB_PC_COPY] = "copy",
    [NB_PC_CRYPTO] = "crypto",	     [NB_PC_XFRM] = "xfrm",
    [NB_PC_MEMORY] = "memory",	     [NB_PC_IRQ] = "irq",
    [NB_PC_SCHED] = "sched",	     [NB_PC_USER] = "user",
    [NB_PC_OTHER] = "other",	     [NB_PC_IDLE] = "idle",
};

const char *nb_prof_cat_name(enum nb_prof_cat c)
{
	return (unsigned)c < NB_PC_N ? cat_names[c] : "?";
}

#define UNDECIDED (-1)

struct rule {
	const char *prefix;
	int cat;
};

/* Tried in order on the name without its leading underscores; the first prefix that matches
 * decides. */
static const struct rule rules[] = {
    /* 1. frames that decide nothing */
    {"raw_spin_", UNDECIDED},
    {"raw_read_", UNDECIDED},
    {"raw_write_", UNDECIDED},
    {"spin_", UNDECIDED},
    {"queued_spin", UNDECIDED},
    {"queued_read", UNDECIDED},
    {"queued_write", UNDECIDED},
    {"native_queued_spin", UNDECIDED},
    {"pv_queued_spin", UNDECIDED},
    {"x86_indirect_", UNDECIDED},
    {"x86_return_thunk", UNDECIDED},
    {"srso_", UNDECIDED},
    {"retbleed_", UNDECIDED},
    {"entry_untrain_ret", UNDECIDED},
    {"memcpy", UNDECIDED},
    {"memmove", UNDECIDED},
    {"memset", UNDECIDED},
    {"memcmp", UNDECIDED},
    {"bcmp", UNDECIDED},
    {"strlen", UNDECIDED},
    {"rcu_read_", UNDECIDED},
    {"local_bh_", UNDECIDED},
    {"preempt_", UNDECIDED},
    {"this_cpu_preempt_check", UNDECIDED},
    {"check_preemption_disabled", UNDECIDED},
    {"lock_acquire", UNDECIDED},
    {"lock_release", UNDECIDED},
    {"lockdep_", UNDECIDED},
    {"kasan_", UNDECIDED},
    {"asan_", UNDECIDED},
    {"kcsan_", UNDECIDED},
    {"fentry__", UNDECIDED},
    {"mcount", UNDECIDED},
    {"[unknown]", UNDECIDED},
    {"list_del_entry_valid", UNDECIDED},
    {"list_add_valid", UNDECIDED},
    /* idle, before the scheduler's tick_ and the interrupt rules */
    {"default_idle", NB_PC_IDLE},
    {"do_idle", NB_PC_IDLE},
    {"cpu_idle", NB_PC_IDLE},
    {"cpuidle_", NB_PC_IDLE},
    {"intel_idle", NB_PC_IDLE},
    {"acpi_idle", NB_PC_IDLE},
    {"acpi_safe_halt", NB_PC_IDLE},
    {"arch_cpu_idle", NB_PC_IDLE},
    {"poll_idle", NB_PC_IDLE},
    {"mwait_idle", NB_PC_IDLE},
    {"native_safe_halt", NB_PC_IDLE},
    {"pv_native_safe_halt", NB_PC_IDLE},
    {"safe_halt", NB_PC_IDLE},
    {"cpu_startup_entry", NB_PC_IDLE},
    {"cpu_do_idle", NB_PC_IDLE},
    {"cpu_v7_do_idle", NB_PC_IDLE},
    {"tick_nohz_idle_", NB_PC_IDLE},
    {"e500_idle", NB_PC_IDLE},
    {"ppc6xx_idle", NB_PC_IDLE},
    {"power4_idle", NB_PC_IDLE},
    {"psci_", NB_PC_IDLE},
    {"wfi", NB_PC_IDLE},
    /* copies to and from user space, before the skb helpers and memory */
    {"copy_user", NB_PC_COPY},
    {"copy_to_user", NB_PC_COPY},
    {"copy_from_user", NB_PC_COPY},
    {"copy_tofrom_user", NB_PC_COPY},
    {"arch_copy_", NB_PC_COPY},
    {"arm_copy_", NB_PC_COPY},
    {"raw_copy_", NB_PC_COPY},
    {"copy_to_iter", NB_PC_COPY},
    {"copy_from_iter", NB_PC_COPY},
    {"copy_page_to_iter", NB_PC_COPY},
    {"copy_page_from_iter", NB_PC_COPY},
    {"copy_mc_", NB_PC_COPY},
    {"skb_copy_datagram", NB_PC_COPY},
    {"csum_and_copy", NB_PC_COPY},
    {"csum_partial_copy", NB_PC_COPY},
    {"rep_movs_alternative", NB_PC_COPY},
    {"clear_user", NB_PC_COPY},
    {"strncpy_from_user", NB_PC_COPY},
    {"simple_copy_to_iter", NB_PC_COPY},
    {"import_iovec", NB_PC_COPY},
    {"iovec_from_user", NB_PC_COPY},
    {"copy_iovec", NB_PC_COPY},
    {"check_object_size", NB_PC_COPY},
    {"check_heap_object", NB_PC_COPY},
    /* DMA mapping and cache maintenance */
    {"dma_", NB_PC_DMA},
    {"arch_sync_dma", NB_PC_DMA},
    {"arch_dma_", NB_PC_DMA},
    {"swiotlb_", NB_PC_DMA},
    {"iommu_", NB_PC_DMA},
    {"v7_dma_", NB_PC_DMA},
    {"v6_dma_", NB_PC_DMA},
    {"v4wb_dma_", NB_PC_DMA},
    {"arm_dma_", NB_PC_DMA},
    {"xscale_dma_", NB_PC_DMA},
    {"feroceon_dma_", NB_PC_DMA},
    {"flush_dcache", NB_PC_DMA},
    {"invalidate_dcache", NB_PC_DMA},
    {"clean_dcache", NB_PC_DMA},
    {"inval_dcache", NB_PC_DMA},
    {"dcache_", NB_PC_DMA},
    {"v7_flush_", NB_PC_DMA},
    /* memory: allocation and freeing, skb buffers included */
    {"kmem_cache_", NB_PC_MEMORY},
    {"kmalloc", NB_PC_MEMORY},
    {"kfree", NB_PC_MEMORY},
    {"kmem_", NB_PC_MEMORY},
    {"krealloc", NB_PC_MEMORY},
    {"slab_", NB_PC_MEMORY},
    {"alloc_pages", NB_PC_MEMORY},
    {"free_pages", NB_PC_MEMORY},
    {"free_unref_page", NB_PC_MEMORY},
    {"free_pcppages", NB_PC_MEMORY},
    {"rmqueue", NB_PC_MEMORY},
    {"get_page_from_freelist", NB_PC_MEMORY},
    {"page_frag_", NB_PC_MEMORY},
    {"page_pool_", NB_PC_MEMORY},
    {"mempool_", NB_PC_MEMORY},
    {"alloc_skb", NB_PC_MEMORY},
    {"napi_alloc_skb", NB_PC_MEMORY},
    {"netdev_alloc_skb", NB_PC_MEMORY},
    {"napi_build_skb", NB_PC_MEMORY},
    {"build_skb", NB_PC_MEMORY},
    {"skb_free_head", NB_PC_MEMORY},
    {"skb_release_data", NB_PC_MEMORY},
    {"napi_consume_skb", NB_PC_MEMORY},
    {"napi_skb_cache", NB_PC_MEMORY},
    {"consume_skb", NB_PC_MEMORY},
    {"put_page", NB_PC_MEMORY},
    {"folio_", NB_PC_MEMORY},
    /* page faults and the mappings they fill */
    {"exc_page_fault", NB_PC_MEMORY},
    {"do_page_fault", NB_PC_MEMORY},
    {"do_user_addr_fault", NB_PC_MEMORY},
    {"handle_mm_fault", NB_PC_MEMORY},
    {"handle_pte_fault", NB_PC_MEMORY},
    {"do_anonymous_page", NB_PC_MEMORY},
    {"do_fault", NB_PC_MEMORY},
    {"do_wp_page", NB_PC_MEMORY},
    {"do_read_fault", NB_PC_MEMORY},
    {"filemap_map_pages", NB_PC_MEMORY},
    {"next_uptodate_folio", NB_PC_MEMORY},
    {"unmap_page_range", NB_PC_MEMORY},
    {"zap_", NB_PC_MEMORY},
    {"clear_page", NB_PC_MEMORY},
    {"mem_cgroup_", NB_PC_MEMORY},
    {"get_mem_cgroup", NB_PC_MEMORY},
    {"lru_", NB_PC_MEMORY},
    /* crypto, before IP and the driver prefixes (talitos_, caam_ are drivers of engines) */
    {"aes", NB_PC_CRYPTO},
    {"crypto_", NB_PC_CRYPTO},
    {"skcipher_", NB_PC_CRYPTO},
    {"aead_", NB_PC_CRYPTO},
    {"ahash_", NB_PC_CRYPTO},
    {"shash_", NB_PC_CRYPTO},
    {"sha1_", NB_PC_CRYPTO},
    {"sha256", NB_PC_CRYPTO},
    {"sha512", NB_PC_CRYPTO},
    {"sha224", NB_PC_CRYPTO},
    {"ghash", NB_PC_CRYPTO},
    {"gcm_", NB_PC_CRYPTO},
    {"chacha", NB_PC_CRYPTO},
    {"poly1305", NB_PC_CRYPTO},
    {"cbc_", NB_PC_CRYPTO},
    {"ctr_", NB_PC_CRYPTO},
    {"ecb_", NB_PC_CRYPTO},
    {"hmac_", NB_PC_CRYPTO},
    {"authenc_", NB_PC_CRYPTO},
    {"cryptd_", NB_PC_CRYPTO},
    {"talitos", NB_PC_CRYPTO},
    {"caam", NB_PC_CRYPTO},
    {"virtio_crypto", NB_PC_CRYPTO},
    {"safexcel_", NB_PC_CRYPTO},
    {"mv_cesa", NB_PC_CRYPTO},
    {"crypto4xx", NB_PC_CRYPTO},
    {"sun4i_ss", NB_PC_CRYPTO},
    {"af_alg", NB_PC_CRYPTO},
    {"alg_", NB_PC_CRYPTO},
    {"scatterwalk_", NB_PC_CRYPTO},
    {"gf128mul", NB_PC_CRYPTO},
    /* xfrm and ESP/AH, before IP */
    {"xfrm", NB_PC_XFRM},
    {"esp_", NB_PC_XFRM},
    {"esp4_", NB_PC_XFRM},
    {"esp6_", NB_PC_XFRM},
    {"ah_", NB_PC_XFRM},
    {"ah4_", NB_PC_XFRM},
    {"ah6_", NB_PC_XFRM},
    {"ipcomp", NB_PC_XFRM},
    /* conntrack and NAT, before netfilter and IP */
    {"nf_conntrack", NB_PC_CONNTRACK},
    {"nf_ct_", NB_PC_CONNTRACK},
    {"nf_nat", NB_PC_CONNTRACK},
    {"nf_confirm", NB_PC_CONNTRACK},
    {"nf_defrag", NB_PC_CONNTRACK},
    {"ipv4_confirm", NB_PC_CONNTRACK},
    {"ipv6_confirm", NB_PC_CONNTRACK},
    {"ipv4_conntrack", NB_PC_CONNTRACK},
    {"ipv6_conntrack", NB_PC_CONNTRACK},
    {"hash_conntrack", NB_PC_CONNTRACK},
    {"resolve_normal_ct", NB_PC_CONNTRACK},
    {"init_conntrack", NB_PC_CONNTRACK},
    {"tcp_in_window", NB_PC_CONNTRACK},
    {"nf_tcp_", NB_PC_CONNTRACK},
    {"nf_udp_", NB_PC_CONNTRACK},
    {"nf_icmp", NB_PC_CONNTRACK},
    {"get_l4proto", NB_PC_CONNTRACK},
    /* netfilter: nf_tables and x_tables */
    {"nft_", NB_PC_NETFILTER},
    {"nf_tables", NB_PC_NETFILTER},
    {"nf_hook", NB_PC_NETFILTER},
    {"nf_iterate", NB_PC_NETFILTER},
    {"nf_queue", NB_PC_NETFILTER},
    {"nf_reinject", NB_PC_NETFILTER},
    {"nf_log", NB_PC_NETFILTER},
    {"nf_reject", NB_PC_NETFILTER},
    {"nf_", NB_PC_NETFILTER},
    {"nfnl", NB_PC_NETFILTER},
    {"nfnetlink", NB_PC_NETFILTER},
    {"ipt_", NB_PC_NETFILTER},
    {"ip6t_", NB_PC_NETFILTER},
    {"xt_", NB_PC_NETFILTER},
    {"ebt_", NB_PC_NETFILTER},
    {"arpt_", NB_PC_NETFILTER},
    {"iptable_", NB_PC_NETFILTER},
    {"ip6table_", NB_PC_NETFILTER},
    {"nft", NB_PC_NETFILTER},
    /* the socket layer, UDP and TCP, before IP (inet_sendmsg is the socket's) */
    {"udp", NB_PC_SOCKET},
    {"tcp", NB_PC_SOCKET},
    {"sock_", NB_PC_SOCKET},
    {"sk_", NB_PC_SOCKET},
    {"sys_send", NB_PC_SOCKET},
    {"sys_recv", NB_PC_SOCKET},
    {"sys_socket", NB_PC_SOCKET},
    {"sys_connect", NB_PC_SOCKET},
    {"sys_bind", NB_PC_SOCKET},
    {"sys_accept", NB_PC_SOCKET},
    {"sys_setsockopt", NB_PC_SOCKET},
    {"sys_getsockopt", NB_PC_SOCKET},
    {"x64_sys_send", NB_PC_SOCKET},
    {"x64_sys_recv", NB_PC_SOCKET},
    {"arm64_sys_send", NB_PC_SOCKET},
    {"arm64_sys_recv", NB_PC_SOCKET},
    {"se_sys_send", NB_PC_SOCKET},
    {"se_sys_recv", NB_PC_SOCKET},
    {"do_sys_send", NB_PC_SOCKET},
    {"do_sys_recv", NB_PC_SOCKET},
    {"inet_sendmsg", NB_PC_SOCKET},
    {"inet_recvmsg", NB_PC_SOCKET},
    {"inet6_sendmsg", NB_PC_SOCKET},
    {"inet6_recvmsg", NB_PC_SOCKET},
    {"inet_send_prepare", NB_PC_SOCKET},
    {"skb_recv_", NB_PC_SOCKET},
    {"skb_consume_udp", NB_PC_SOCKET},
    {"skb_set_owner", NB_PC_SOCKET},
    {"sockfd_lookup", NB_PC_SOCKET},
    {"raw_v4_", NB_PC_SOCKET},
    {"raw_v6_", NB_PC_SOCKET},
    {"raw_local_deliver", NB_PC_SOCKET},
    {"packet_", NB_PC_SOCKET},
    {"tpacket_", NB_PC_SOCKET},
    {"move_addr_to", NB_PC_SOCKET},
    {"ip_make_skb", NB_PC_SOCKET},
    {"ip_append_data", NB_PC_SOCKET},
    {"ip6_make_skb", NB_PC_SOCKET},
    {"ip6_append_data", NB_PC_SOCKET},
    /* IP: input, forwarding, output, routing, neighbours, ICMP */
    {"ip_", NB_PC_IP},
    {"ip6_", NB_PC_IP},
    {"ipv4_", NB_PC_IP},
    {"ipv6_", NB_PC_IP},
    {"ip4_", NB_PC_IP},
    {"fib", NB_PC_IP},
    {"inet_", NB_PC_IP},
    {"inet6_", NB_PC_IP},
    {"dst_", NB_PC_IP},
    {"rt_", NB_PC_IP},
    {"rt6_", NB_PC_IP},
    {"icmp", NB_PC_IP},
    {"neigh_", NB_PC_IP},
    {"arp_", NB_PC_IP},
    {"ndisc_", NB_PC_IP},
    {"raw_icmp", NB_PC_IP},
    {"l3mdev_", NB_PC_IP},
    /* the network core: NAPI, backlog, GRO, qdiscs, transmit, skb helpers */
    {"net_rx_action", NB_PC_NETCORE},
    {"napi_", NB_PC_NETCORE},
    {"netif_", NB_PC_NETCORE},
    {"process_backlog", NB_PC_NETCORE},
    {"enqueue_to_backlog", NB_PC_NETCORE},
    {"get_rps_cpu", NB_PC_NETCORE},
    {"rps_", NB_PC_NETCORE},
    {"dev_", NB_PC_NETCORE},
    {"netdev_", NB_PC_NETCORE},
    {"sch_", NB_PC_NETCORE},
    {"qdisc_", NB_PC_NETCORE},
    {"pfifo_", NB_PC_NETCORE},
    {"fq_codel_", NB_PC_NETCORE},
    {"fq_", NB_PC_NETCORE},
    {"noqueue_", NB_PC_NETCORE},
    {"validate_xmit", NB_PC_NETCORE},
    {"gro_", NB_PC_NETCORE},
    {"skb_", NB_PC_NETCORE},
    {"eth_", NB_PC_NETCORE},
    {"packet_rcv", NB_PC_NETCORE},
    {"net_", NB_PC_NETCORE},
    {"deliver_skb", NB_PC_NETCORE},
    {"bpf_", NB_PC_NETCORE},
    {"tc_", NB_PC_NETCORE},
    {"tcf_", NB_PC_NETCORE},
    /* NIC drivers by symbol prefix (built in or named by their module in rule 2) */
    {"veth_", NB_PC_DRIVER},
    {"virtnet_", NB_PC_DRIVER},
    {"virtqueue_", NB_PC_DRIVER},
    {"vring_", NB_PC_DRIVER},
    {"vp_", NB_PC_DRIVER},
    {"virtio_net", NB_PC_DRIVER},
    {"gfar_", NB_PC_DRIVER},
    {"gianfar", NB_PC_DRIVER},
    {"e1000", NB_PC_DRIVER},
    {"igb_", NB_PC_DRIVER},
    {"igc_", NB_PC_DRIVER},
    {"ixgbe", NB_PC_DRIVER},
    {"i40e_", NB_PC_DRIVER},
    {"ice_", NB_PC_DRIVER},
    {"mlx5", NB_PC_DRIVER},
    {"rtl8169", NB_PC_DRIVER},
    {"rtl_", NB_PC_DRIVER},
    {"r8169_", NB_PC_DRIVER},
    {"stmmac_", NB_PC_DRIVER},
    {"dwmac", NB_PC_DRIVER},
    {"fec_", NB_PC_DRIVER},
    {"mvneta_", NB_PC_DRIVER},
    {"mvpp2_", NB_PC_DRIVER},
    {"bcmgenet_", NB_PC_DRIVER},
    {"tg3_", NB_PC_DRIVER},
    {"macb_", NB_PC_DRIVER},
    {"cpsw_", NB_PC_DRIVER},
    {"am65_cpsw", NB_PC_DRIVER},
    {"dpaa", NB_PC_DRIVER},
    {"ucc_geth", NB_PC_DRIVER},
    {"mtk_", NB_PC_DRIVER},
    {"sky2_", NB_PC_DRIVER},
    {"bnx2", NB_PC_DRIVER},
    {"vmxnet3_", NB_PC_DRIVER},
    {"xennet_", NB_PC_DRIVER},
    {"smsc", NB_PC_DRIVER},
    {"usbnet_", NB_PC_DRIVER},
    {"ixp4xx_", NB_PC_DRIVER},
    {"npe_", NB_PC_DRIVER},
    {"qmgr_", NB_PC_DRIVER},
    {"tun_", NB_PC_DRIVER},
    {"e100_", NB_PC_DRIVER},
    {"rtl8139_", NB_PC_DRIVER},
    {"loopback_", NB_PC_DRIVER},
    {"dummy_", NB_PC_DRIVER},
    {"br_", NB_PC_NETCORE},
    /* interrupt entry and softirq dispatch */
    {"asm_common_interrupt", NB_PC_IRQ},
    {"irqentry_", NB_PC_IRQ},
    {"common_interrupt", NB_PC_IRQ},
    {"asm_sysvec_", NB_PC_IRQ},
    {"sysvec_", NB_PC_IRQ},
    {"handle_irq", NB_PC_IRQ},
    {"handle_edge_irq", NB_PC_IRQ},
    {"handle_level_irq", NB_PC_IRQ},
    {"handle_fasteoi_irq", NB_PC_IRQ},
    {"handle_percpu", NB_PC_IRQ},
    {"handle_IRQ", NB_PC_IRQ},
    {"handle_softirqs", NB_PC_IRQ},
    {"generic_handle", NB_PC_IRQ},
    {"irq_", NB_PC_IRQ},
    {"do_IRQ", NB_PC_IRQ},
    {"asm_do_IRQ", NB_PC_IRQ},
    {"gic_", NB_PC_IRQ},
    {"irq_svc", NB_PC_IRQ},
    {"irq_usr", NB_PC_IRQ},
    {"do_softirq", NB_PC_IRQ},
    {"run_ksoftirqd", NB_PC_IRQ},
    {"softirq", NB_PC_IRQ},
    {"ret_from_intr", NB_PC_IRQ},
    {"native_irq_return", NB_PC_IRQ},
    {"note_interrupt", NB_PC_IRQ},
    {"apic_", NB_PC_IRQ},
    {"lapic_", NB_PC_IRQ},
    {"x2apic_", NB_PC_IRQ},
    {"native_apic", NB_PC_IRQ},
    {"msi_", NB_PC_IRQ},
    {"mpic_", NB_PC_IRQ},
    {"ipic_", NB_PC_IRQ},
    {"cpm_", NB_PC_IRQ},
    {"vgic_", NB_PC_IRQ},
    {"arch_irq", NB_PC_IRQ},
    {"ret_from_except", NB_PC_IRQ},
    /* the scheduler, timers, RCU, wake-ups */
    {"schedule", NB_PC_SCHED},
    {"pick_next", NB_PC_SCHED},
    {"finish_task_switch", NB_PC_SCHED},
    {"context_switch", NB_PC_SCHED},
    {"switch_to", NB_PC_SCHED},
    {"try_to_wake_up", NB_PC_SCHED},
    {"wake_up", NB_PC_SCHED},
    {"ttwu_", NB_PC_SCHED},
    {"enqueue_", NB_PC_SCHED},
    {"dequeue_", NB_PC_SCHED},
    {"update_curr", NB_PC_SCHED},
    {"update_load", NB_PC_SCHED},
    {"update_rq_clock", NB_PC_SCHED},
    {"update_process_times", NB_PC_SCHED},
    {"sched_", NB_PC_SCHED},
    {"native_sched_clock", NB_PC_SCHED},
    {"hrtimer_", NB_PC_SCHED},
    {"tick_", NB_PC_SCHED},
    {"ktime_", NB_PC_SCHED},
    {"timerqueue_", NB_PC_SCHED},
    {"run_timer", NB_PC_SCHED},
    {"rcu_", NB_PC_SCHED},
    {"load_balance", NB_PC_SCHED},
    {"run_rebalance", NB_PC_SCHED},
    {"task_tick", NB_PC_SCHED},
    {"scheduler_tick", NB_PC_SCHED},
    {"psi_", NB_PC_SCHED},
    {"account_", NB_PC_SCHED},
    {"irqtime_account", NB_PC_SCHED},
    {"vtime_", NB_PC_SCHED},
    {"do_nanosleep", NB_PC_SCHED},
    {"futex_", NB_PC_SCHED},
    {"prepare_to_wait", NB_PC_SCHED},
    {"finish_wait", NB_PC_SCHED},
    {"add_wait_queue", NB_PC_SCHED},
    {"remove_wait_queue", NB_PC_SCHED},
    {"autoremove_wake", NB_PC_SCHED},
    {"default_wake_function", NB_PC_SCHED},
    {"wait_woken", NB_PC_SCHED},
    {"smp_call_function", NB_PC_SCHED},
    {"flush_smp_call", NB_PC_SCHED},
    {"generic_smp_call", NB_PC_SCHED},
    {"clockevents_", NB_PC_SCHED},
    {"timekeeping_", NB_PC_SCHED},
};

/* Module column (rule 2): subsystem modules by prefix, any other module a driver's. */
static const struct rule mod_rules[] = {
    {"nf_conntrack", NB_PC_CONNTRACK},
    {"nf_nat", NB_PC_CONNTRACK},
    {"nf_defrag", NB_PC_CONNTRACK},
    {"nft_", NB_PC_NETFILTER},
    {"nf_", NB_PC_NETFILTER},
    {"x_tables", NB_PC_NETFILTER},
    {"ip_tables", NB_PC_NETFILTER},
    {"ip6_tables", NB_PC_NETFILTER},
    {"iptable_", NB_PC_NETFILTER},
    {"ip6table_", NB_PC_NETFILTER},
    {"xt_", NB_PC_NETFILTER},
    {"ebt", NB_PC_NETFILTER},
    {"esp4", NB_PC_XFRM},
    {"esp6", NB_PC_XFRM},
    {"ah4", NB_PC_XFRM},
    {"ah6", NB_PC_XFRM},
    {"xfrm", NB_PC_XFRM},
    {"aes", NB_PC_CRYPTO},
    {"sha", NB_PC_CRYPTO},
    {"ghash", NB_PC_CRYPTO},
    {"gcm", NB_PC_CRYPTO},
    {"cbc", NB_PC_CRYPTO},
    {"ctr", NB_PC_CRYPTO},
    {"ecb", NB_PC_CRYPTO},
    {"cryptd", NB_PC_CRYPTO},
    {"authenc", NB_PC_CRYPTO},
    {"talitos", NB_PC_CRYPTO},
    {"caam", NB_PC_CRYPTO},
    {"virtio_crypto", NB_PC_CRYPTO},
    {"af_alg", NB_PC_CRYPTO},
    {"algif_", NB_PC_CRYPTO},
    {"chacha", NB_PC_CRYPTO},
    {"poly1305", NB_PC_CRYPTO},
    {"crypto", NB_PC_CRYPTO},
    {"des", NB_PC_CRYPTO},
    {"udp_tunnel", NB_PC_SOCKET},
    {"ipv6", NB_PC_IP},
    {"bridge", NB_PC_NETCORE},
    {"sch_", NB_PC_NETCORE},
    {"cls_", NB_PC_NETCORE},
    {"act_", NB_PC_NETCORE},
    {"virtio_ring", NB_PC_DRIVER},
};

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Drivers whose symbols go by another name than ethtool's (ethtool name with '-' as '_'). */
static const struct {
	const char *driver, *prefix[4];
} drv_alias[] = {
    {"virtio_net", {"virtnet_", "virtqueue_", "vring_", "vp_"}},
    {"e1000e", {"e1000_"}},
    {"e1000", {"e1000_"}},
    {"r8169", {"rtl8169", "rtl_", "r8169_"}},
    {"st_gmac", {"stmmac_", "dwmac"}},
    {"stmmac", {"stmmac_", "dwmac"}},
    {"gianfar", {"gfar_"}},
    {"ixp4xx_eth", {"ixp4xx_", "npe_", "qmgr_"}},
    {"mv643xx_eth", {"mv643xx_eth", "txq_", "rxq_"}},
    {"hv_netvsc", {"netvsc_", "rndis_filter_"}},
};

static bool drv_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

static int module_cat(const char *module);

bool nb_prof_drivers_add(struct nb_prof_drivers *d, const char *name)
{
	char m[NB_PROF_MOD];
	size_t i;
	if (!name || strlen(name) >= NB_PROF_MOD || !drv_name_ok(name))
		return false;
	for (i = 0; name[i]; i++)
		m[i] = name[i] == '-' ? '_' : name[i];
	m[i] = '\0';
	if (module_cat(m) != NB_PC_DRIVER || d->n >= NB_PROF_DRIVERS)
		return false;
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->name[i], name))
			return false;
	memcpy(d->name[d->n++], name, strlen(name) + 1);
	return true;
}

/* name starts with p and then ends or goes on with '_' */
static bool word_prefix(const char *name, const char *p, size_t len)
{
	return !strncmp(name, p, len) && (name[len] == '\0' || name[len] == '_');
}

static bool one_driver(const char *drv, const char *name, const char *module)
{
	static const char *const tails[] = {"_enet", "_eth", "_en"};
	char m[NB_PROF_MOD];
	size_t len = strlen(drv);
	for (size_t i = 0; i <= len; i++)
		m[i] = drv[i] == '-' ? '_' : drv[i];
	if (module && *module)
		return word_prefix(module, m, len); /* e1000e; gianfar_driver for gianfar */
	if (word_prefix(name, m, len))
		return true;
	/* gfar-enet: gfar_*, bnxt_en: bnxt_*; what is left must still say something (3 bytes) */
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		size_t t = strlen(tails[i]);
		if (len >= t + 3 && !strcmp(m + len - t, tails[i]) && !strncmp(name, m, len - t) &&
		    name[len - t] == '_')
			return true;
	}
	for (size_t i = 0; i < sizeof(drv_alias) / sizeof(drv_alias[0]); i++) {
		if (strcmp(drv_alias[i].driver, m))
			continue;
		for (size_t k = 0; k < 4 && drv_alias[i].prefix[k]; k++)
			if (has_prefix(name, drv_alias[i].prefix[k]))
				return true;
	}
	return false;
}

/* The name without its leading underscores and GCC's clone suffixes (from the first '.': the
 * kernel's own names have none). */
static const char *bare(const char *name, char *buf, size_t len)
{
	const char *n = name, *dot;
	while (*n == '_')
		n++;
	if (!(dot = strchr(n, '.')))
		return n;
	size_t l = (size_t)(dot - n) < len - 1 ? (size_t)(dot - n) : len - 1;
	memcpy(buf, n, l);
	buf[l] = '\0';
	return buf;
}

bool nb_prof_drivers_match(const struct nb_prof_drivers *d, const char *name, const char *module)
{
	char buf[NB_PROF_NAME];
	if (!d || !name || !*name)
		return false;
	const char *n = bare(name, buf, sizeof(buf));
	for (uint32_t i = 0; i < d->n && i < NB_PROF_DRIVERS; i++)
		if (one_driver(d->name[i], n, module))
			return true;
	return false;
}

static int module_cat(const char *module)
{
	for (size_t i = 0; i < sizeof(mod_rules) / sizeof(mod_rules[0]); i++)
		if (has_prefix(module, mod_rules[i].prefix))
			return mod_rules[i].cat;
	return NB_PC_DRIVER;
}

int nb_prof_cat_frame_drv(const char *name, const char *module, const struct nb_prof_drivers *d)
{
	char buf[NB_PROF_NAME];
	if (!name || !*name)
		return UNDECIDED;
	const char *n = bare(name, buf, sizeof(buf));
	/* Rule 1 before rule 2: a lock taken inside a module decides nothing either. */
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rules[i].cat != UNDECIDED)
			break;
		if (has_prefix(n, rules[i].prefix))
			return UNDECIDED;
	}
	if (nb_prof_drivers_match(d, n, module))
		return NB_PC_DRIVER;
	if (module && *module)
		return module_cat(module);
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (has_prefix(n, rules[i].prefix))
			return rules[i].cat;
	return UNDECIDED;
}

int nb_prof_cat_frame(const char *name, const char *module)
{
	return nb_prof_cat_frame_drv(name, module, NULL);
}

enum nb_prof_cat nb_prof_cat_stack_drv(const char *const *names, const char *const *modules,
				       size_t nk, bool user, const struct nb_prof_drivers *d)
{
	for (size_t i = 0; i < nk; i++) {
		int c = nb_prof_cat_frame_drv(names[i], modules ? modules[i] : NULL, d);
		if (c != UNDECIDED)
			return (enum nb_prof_cat)c;
	}
	return nk ? NB_PC_OTHER : user ? NB_PC_USER : NB_PC_OTHER;
}

enum nb_prof_cat nb_prof_cat_stack(const char *const *names, const char *const *modules, size_t nk,
				   bool user)
{
	return nb_prof_cat_stack_drv(names, modules, nk, user, NULL);
}
