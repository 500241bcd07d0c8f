/* SPDX-License-Identifier: BSD-2-Clause */
/* Emulation and virtual-machine detection (virt.h). qemu-user rewrites uname's machine and
 * /proc/self/{maps,auxv,exe} for the guest, but not /proc/sys/kernel/arch or /proc/cpuinfo:
 * the binary's compile-time architecture against those two is the tell. A VM shows itself in
 * the x86 hypervisor flag and CPUID leaf 0x40000000, DMI, or a device tree made by QEMU. */
#include "core/base/virt.h"

#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#if defined(__x86_64__)
#define NB_BINARY_ARCH "x86_64"
#elif defined(__i386__)
#define NB_BINARY_ARCH "i386"
#elif defined(__aarch64__)
#define NB_BINARY_ARCH "aarch64"
#elif defined(__arm__)
#define NB_BINARY_ARCH "arm"
#elif defined(__powerpc64__)
#define NB_BINARY_ARCH "ppc64"
#elif defined(__powerpc__)
#define NB_BINARY_ARCH "ppc"
#elif defined(__mips__)
#define NB_BINARY_ARCH "mips"
#elif defined(__riscv)
#define NB_BINARY_ARCH "riscv"
#else
#define NB_BINARY_ARCH ""
#endif

static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
	while (n && (dst[n - 1] == '\n' || dst[n - 1] == ' '))
		dst[--n] = '\0';
}

/* The first line (or, for device-tree strings, the first NUL-ended string) of root/path. */
static void read_first(const char *root, const char *path, char *out, size_t len)
{
	char p[512], buf[256];
	size_t n;
	FILE *f;

	out[0] = '\0';
	snprintf(p, sizeof(p), "%s%s", root, path);
	f = fopen(p, "re");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	copy(out, len, buf);
}

/* The ISA family /proc/cpuinfo describes, from keys only one family prints. */
static void cpuinfo_read(const char *root, struct nb_virt_facts *f)
{
	char p[512], line[1024];
	FILE *in;

	snprintf(p, sizeof(p), "%s/proc/cpuinfo", root);
	in = fopen(p, "re");
	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		const char *isa = NULL;
		if (!strncmp(line, "vendor_id", 9))
			isa = "x86";
		else if (!strncmp(line, "flags", 5) && line[5] != '\0' && strchr(" \t:", line[5])) {
			isa = "x86";
			if (strstr(line, " hypervisor"))
				f->hypervisor_flag = true;
		} else if (!strncmp(line, "CPU implementer", 15) || !strncmp(line, "Features", 8))
			isa = "arm";
		else if (!strncmp(line, "timebase", 8))
			isa = "ppc";
		else if (!strncmp(line, "isa", 3) && strstr(line, "rv"))
			isa = "riscv";
		else if (!strncmp(line, "cpu model", 9) && strstr(line, "MIPS"))
			isa = "mips";
		if (isa && !f->cpuinfo_isa[0])
			copy(f->cpuinfo_isa, sizeof(f->cpuinfo_isa), isa);
	}
	fclose(in);
}

static void cmdline_read(const char *root, struct nb_virt_facts *f)
{
	char line[1024], p[512];
	const char *v;
	size_t n;
	FILE *in;

	snprintf(p, sizeof(p), "%s/proc/cmdline", root);
	in = fopen(p, "re");
	if (!in)
		return;
	n = fread(line, 1, sizeof(line) - 1, in);
	fclose(in);
	line[n] = '\0';
	for (v = strstr(line, "nb.virt="); v; v = strstr(v + 1, "nb.virt="))
		if (v == line || v[-1] == ' ') {
			v += strlen("nb.virt=");
			n = strcspn(v, " \n");
			if (n >= sizeof(f->cmdline_virt))
				n = sizeof(f->cmdline_virt) - 1;
			memcpy(f->cmdline_virt, v, n);
			f->cmdline_virt[n] = '\0';
			break;
		}
}

static void cpuid_read(struct nb_virt_facts *f)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char sig[13];

	/* Leaf 0x40000000 is only meaningful with the hypervisor bit (CPUID.1:ECX bit 31). */
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	f->hypervisor_flag = true;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (int i = 0; i < 12; i++)
		if (sig[i] != '\0' && (sig[i] < 0x20 || sig[i] > 0x7e))
			return;
	copy(f->cpuid_vendor, sizeof(f->cpuid_vendor), sig);
#else
	(void)f;
#endif
}

void nb_virt_facts_read(const char *root, struct nb_virt_facts *f)
{
	memset(f, 0, sizeof(*f));
	copy(f->binary_arch, sizeof(f->binary_arch), NB_BINARY_ARCH);
	read_first(root, "/proc/sys/kernel/arch", f->kernel_arch, sizeof(f->kernel_arch));
	cpuinfo_read(root, f);
	read_first(root, "/sys/class/dmi/id/sys_vendor", f->dmi_vendor, sizeof(f->dmi_vendor));
	read_first(root, "/proc/device-tree/compatible", f->dt_compatible,
		   sizeof(f->dt_compatible));
	cmdline_read(root, f);
	/* CPUID is this process's own: only when reading this system and running natively. */
	if (!root[0])
		cpuid_read(f);
}

/* "x86_64", "i686" -> "x86"; "armv7l", "aarch64" -> "arm"; "ppc", "ppc64le" -> "ppc" ... A
 * 32-bit binary on its 64-bit sibling kernel runs natively (compat mode): same family. */
static const char *family(const char *arch)
{
	static const struct {
		const char *prefix, *family;
	} map[] = {{"x86", "x86"},     {"i386", "x86"},		  {"i486", "x86"},
		   {"i586", "x86"},    {"i686", "x86"},		  {"amd64", "x86"},
		   {"arm", "arm"},     {"aarch64", "arm"},	  {"ppc", "ppc"},
		   {"powerpc", "ppc"}, {"mips", "mips"},	  {"riscv", "riscv"},
		   {"s390", "s390"},   {"loongarch", "loongarch"}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(arch, map[i].prefix, strlen(map[i].prefix)))
			return map[i].family;
	return arch;
}

static const char *hypervisor_name(const char *sig)
{
	static const struct {
		const char *sig, *name;
	} map[] = {{"KVMKVMKVM", "kvm"},       {"TCGTCGTCGTCG", "tcg"},	   {"XenVMMXenVMM", "xen"},
		   {"Microsoft Hv", "hyperv"}, {"VMwareVMware", "vmware"}, {"bhyve bhyve", "bhyve"},
		   {"QNXQVMBSQG", "qnx"},      {"ACRNACRNACRN", "acrn"}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(sig, map[i].sig))
			return map[i].name;
	return NULL;
}

void nb_virt_classify(const struct nb_virt_facts *f, char *out, size_t len)
{
	const char *host = f->kernel_arch[0] ? f->kernel_arch : f->cpuinfo_isa;
	const char *hv;

	if (len == 0)
		return;
	out[0] = '\0';
	if (f->binary_arch[0] && host[0] && strcmp(family(f->binary_arch), family(host))) {
		snprintf(out, len, "qemu-user %s on %s", f->binary_arch, host);
		return;
	}
	if (f->cmdline_virt[0]) {
		snprintf(out, len, "vm %s", f->cmdline_virt);
		return;
	}
	hv = f->cpuid_vendor[0] ? hypervisor_name(f->cpuid_vendor) : NULL;
	if (hv) {
		snprintf(out, len, "vm %s", hv);
		return;
	}
	if (!strncmp(f->dmi_vendor, "QEMU", 4) || !strcmp(f->dt_compatible, "linux,dummy-virt") ||
	    !strncmp(f->dt_compatible, "qemu,", 5)) {
		snprintf(out, len, "vm qemu");
		return;
	}
	if (!strncmp(f->dmi_vendor, "Xen", 3)) {
		snprintf(out, len, "vm xen");
		return;
	}
	/* A hypervisor that gives no name we know (or leaf 0x40000000 unanswered: TCG). */
	if (f->hypervisor_flag || f->cpuid_vendor[0]) {
		snprintf(out, len, "vm");
		return;
	}
	/* Nothing read at all: unknown, not "none". */
	if (host[0])
		snprintf(out, len, "none");
}

void nb_virt_detect(char *out, size_t len)
{
	struct nb_virt_facts f;

	nb_virt_facts_read("", &f);
	nb_virt_classify(&f, out, len);
}

bool nb_virt_is_emulated(const char *virtualization)
{
	return virtualization && virtualization[0] && strcmp(virtualization, "none");
}
