/* SPDX-License-Identifier: BSD-2-Clause */
/* Emulation and VM detection: the decision on facts as qemu-user, KVM, TCG, a QEMU ARM board
 * and real boards show them, and the reader on captured /proc and /sys files in a directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/virt.h"
#include "tap.h"

static const char *classify(const struct nb_virt_facts *f)
{
	static char out[64];
	nb_virt_classify(f, out, sizeof(out));
	return out;
}

static struct nb_virt_facts facts(const char *binary, const char *kernel, const char *isa)
{
	struct nb_virt_facts f;
	memset(&f, 0, sizeof(f));
	snprintf(f.binary_arch, sizeof(f.binary_arch), "%s", binary);
	snprintf(f.kernel_arch, sizeof(f.kernel_arch), "%s", kernel);
	snprintf(f.cpuinfo_isa, sizeof(f.cpuinfo_isa), "%s", isa);
	return f;
}

static void put(const char *root, const char *path, const char *text, size_t len)
{
	char p[512], dir[512];
	FILE *f;
	snprintf(p, sizeof(p), "%s%s", root, path);
	for (char *s = strchr(p + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(s - p), p);
		mkdir(dir, 0700);
	}
	f = fopen(p, "w");
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

/* Captured: an MPC8313-class PowerPC board, qemu's ARM virt board (armmp kernel), an x86 VM. */
static const char cpuinfo_ppc[] = "processor\t: 0\ncpu\t\t: e300c3\nclock\t\t: 333.333333MHz\n"
				  "revision\t: 2.0 (pvr 8085 0020)\nbogomips\t: 66.66\n"
				  "timebase\t: 41666666\nplatform\t: MPC831x RDB\n";
static const char cpuinfo_arm[] = "processor\t: 0\nmodel name\t: ARMv7 Processor rev 1 (v7l)\n"
				  "BogoMIPS\t: 125.00\nFeatures\t: half thumb fastmult vfp edsp "
				  "thumbee neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae evtstrm\n"
				  "CPU implementer\t: 0x41\nCPU architecture: 7\n";
static const char cpuinfo_x86_vm[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
				     "model name\t: AMD EPYC 7B13\ncpu MHz\t\t: 2596.000\n"
				     "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep "
				     "hypervisor lahf_lm\n";

int main(void)
{
	struct nb_virt_facts f;
	char root[] = "/tmp/t_virt.XXXXXX", out[64];

	f = facts("ppc", "x86_64", "x86");
	CHECK(!strcmp(classify(&f), "qemu-user ppc on x86_64"),
	      "ppc binary on an x86-64 kernel: %s", classify(&f));
	f = facts("arm", "", "x86");
	CHECK(!strcmp(classify(&f), "qemu-user arm on x86"),
	      "without kernel.arch, /proc/cpuinfo's ISA decides: %s", classify(&f));
	f = facts("arm", "aarch64", "arm");
	CHECK(!strcmp(classify(&f), "none"), "armhf on an arm64 kernel runs natively: %s",
	      classify(&f));
	f = facts("i386", "x86_64", "x86");
	CHECK(!strcmp(classify(&f), "none"), "i386 on x86-64 runs natively");
	f = facts("ppc", "ppc", "ppc");
	CHECK(!strcmp(classify(&f), "none"), "a PowerPC board is a board");
	f = facts("x86_64", "x86_64", "x86");
	f.hypervisor_flag = true;
	snprintf(f.cpuid_vendor, sizeof(f.cpuid_vendor), "KVMKVMKVM");
	CHECK(!strcmp(classify(&f), "vm kvm"), "KVM's CPUID signature: %s", classify(&f));
	snprintf(f.cpuid_vendor, sizeof(f.cpuid_vendor), "TCGTCGTCGTCG");
	CHECK(!strcmp(classify(&f), "vm tcg"), "TCG's CPUID signature");
	snprintf(f.cpuid_vendor, sizeof(f.cpuid_vendor), "SomethingNew");
	CHECK(!strcmp(classify(&f), "vm"), "an unknown hypervisor is still a VM: %s", classify(&f));
	f.cpuid_vendor[0] = '\0';
	CHECK(!strcmp(classify(&f), "vm"), "the hypervisor flag alone: a VM");
	snprintf(f.dmi_vendor, sizeof(f.dmi_vendor), "QEMU");
	f.hypervisor_flag = false;
	CHECK(!strcmp(classify(&f), "vm qemu"), "DMI says QEMU: %s", classify(&f));
	f = facts("arm", "armv7l", "arm");
	snprintf(f.dt_compatible, sizeof(f.dt_compatible), "linux,dummy-virt");
	CHECK(!strcmp(classify(&f), "vm qemu"), "qemu's ARM virt board: %s", classify(&f));
	snprintf(f.cmdline_virt, sizeof(f.cmdline_virt), "tcg");
	CHECK(!strcmp(classify(&f), "vm tcg"), "the accelerator named on the kernel command line");
	f = facts("arm", "ppc", "ppc");
	snprintf(f.cmdline_virt, sizeof(f.cmdline_virt), "tcg");
	CHECK(!strncmp(classify(&f), "qemu-user", 9), "emulation outranks the command line");
	f = facts("arm", "", "");
	CHECK(!strcmp(classify(&f), ""), "nothing readable: unknown, not none");
	CHECK(!nb_virt_is_emulated("none") && !nb_virt_is_emulated("") &&
		  !nb_virt_is_emulated(NULL) && nb_virt_is_emulated("vm kvm") &&
		  nb_virt_is_emulated("qemu-user ppc on x86_64"),
	      "only a named virtualization marks figures as not a board's");

	/* The reader, on captured files below a root. */
	if (!mkdtemp(root)) {
		CHECK(0, "mkdtemp");
		return tap_done();
	}
	put(root, "/proc/cpuinfo", cpuinfo_arm, sizeof(cpuinfo_arm) - 1);
	put(root, "/proc/sys/kernel/arch", "armv7l\n", 7);
	put(root, "/proc/device-tree/compatible", "linux,dummy-virt\0", 17);
	put(root, "/proc/cmdline", "console=ttyAMA0 nb.virt=tcg quiet\n", 34);
	nb_virt_facts_read(root, &f);
	CHECK(!strcmp(f.cpuinfo_isa, "arm") && !strcmp(f.kernel_arch, "armv7l") &&
		  !strcmp(f.dt_compatible, "linux,dummy-virt") && !strcmp(f.cmdline_virt, "tcg") &&
		  !f.hypervisor_flag,
	      "ARM board files: isa %s, arch %s, dt %s, cmdline %s", f.cpuinfo_isa, f.kernel_arch,
	      f.dt_compatible, f.cmdline_virt);
	put(root, "/proc/cpuinfo", cpuinfo_x86_vm, sizeof(cpuinfo_x86_vm) - 1);
	put(root, "/proc/sys/kernel/arch", "x86_64\n", 7);
	put(root, "/proc/cmdline", "console=ttyS0 xnb.virt=kvm\n", 27);
	put(root, "/proc/device-tree/compatible", "", 0);
	nb_virt_facts_read(root, &f);
	CHECK(!strcmp(f.cpuinfo_isa, "x86") && f.hypervisor_flag && !f.cmdline_virt[0],
	      "x86 VM files: the hypervisor flag; 'xnb.virt=' is not the option");
	snprintf(f.binary_arch, sizeof(f.binary_arch), "ppc");
	nb_virt_classify(&f, out, sizeof(out));
	CHECK(!strcmp(out, "qemu-user ppc on x86_64"), "a ppc binary reading them: %s", out);
	put(root, "/proc/cpuinfo", cpuinfo_ppc, sizeof(cpuinfo_ppc) - 1);
	put(root, "/proc/sys/kernel/arch", "ppc\n", 4);
	nb_virt_facts_read(root, &f);
	snprintf(f.binary_arch, sizeof(f.binary_arch), "ppc");
	nb_virt_classify(&f, out, sizeof(out));
	CHECK(!strcmp(f.cpuinfo_isa, "ppc") && !strcmp(out, "none"), "the PowerPC board: %s", out);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "captured files removed");
	return tap_done();
}
