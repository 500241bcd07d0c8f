/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether this code runs on the silicon it describes: natively, under a user-mode emulator
 * (qemu-user: the instructions are translated, every /proc file is the host kernel's) or in a
 * virtual machine (the CPUs are a hypervisor's). Recorded in every result's env as
 * "virtualization", so that no view passes an emulated platform for a board (docs/design.md). */
#ifndef NB_VIRT_H
#define NB_VIRT_H

#include <stdbool.h>
#include <stddef.h>

/* What the detection reads, gathered apart from the decision so that a test can feed captured
 * samples. Empty strings are unknown. */
struct nb_virt_facts {
	char binary_arch[16]; /* what this binary was compiled for: "arm", "ppc", "x86_64" ... */
	char
	    kernel_arch[16]; /* /proc/sys/kernel/arch (Linux 6.1+; qemu-user does not rewrite it) */
	char cpuinfo_isa[16]; /* the ISA /proc/cpuinfo describes: "x86", "arm", "ppc" ... */
	bool hypervisor_flag; /* x86 "hypervisor" CPU flag */
	char
	    cpuid_vendor[16]; /* x86 CPUID leaf 0x40000000 signature: "KVMKVMKVM", "TCGTCGTCGTCG" */
	char dmi_vendor[64];  /* /sys/class/dmi/id/sys_vendor ("QEMU") */
	char dt_compatible[64]; /* the device tree's root compatible ("linux,dummy-virt") */
	char cmdline_virt[16];	/* "nb.virt=tcg" on the kernel command line: what started the VM
				   knows its accelerator, the guest cannot tell TCG from KVM */
};

/* Reads the facts below root ("" for this system; a test passes a directory of captured
 * files). The compile-time architecture and CPUID are this process's own. */
void nb_virt_facts_read(const char *root, struct nb_virt_facts *f);

/* The decision, pure: "none", "qemu-user ARCH on KERNEL_ARCH", "vm kvm", "vm tcg", "vm xen",
 * "vm hyperv", "vm vmware", "vm qemu" (a QEMU machine whose accelerator is not stated), "vm"
 * (a hypervisor that names itself to no one), or "" when nothing could be read. */
void nb_virt_classify(const struct nb_virt_facts *f, char *out, size_t len);

/* Both, for this system. */
void nb_virt_detect(char *out, size_t len);

/* True when a virtualization value means the CPU figures are not a board's own silicon. */
bool nb_virt_is_emulated(const char *virtualization);

#endif
