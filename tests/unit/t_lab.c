/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's names from a prefix, the refused prefixes, the RPS masks of --dut-cpus, and the
 * files and state of a lab with two boards. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lab/lab.h"
#include "core/lab/lab_board.h"
#include "core/lab/lab_board_arch.h"
#include "core/lab/lab_board_dir.h"
#include "core/lab/lab_list.h"
#include "core/lab/lab_state.h"
#include "tap.h"

int main(void)
{
	struct nb_lab *lab = nb_lab_new();
	char mask[160];

	CHECK(lab && !strcmp(lab->ns[NB_LAB_GEN], "nbgen") &&
		  !strcmp(lab->ns[NB_LAB_DUT], "nbdut") && !strcmp(lab->ns[NB_LAB_SINK], "nbsink"),
	      "default names are docs/design.md's");
	CHECK(!strcmp(lab->pid_path, "/run/netbench-lab/agent.pid") &&
		  !strcmp(lab->state_path, "/run/netbench-lab/state"),
	      "default agent pid file and state");
	CHECK(lab->port == 5301 && lab->agent, "agent on port 5301 by default");
	CHECK(nb_lab_set_prefix(lab, "nbtlab42") == 0 &&
		  !strcmp(lab->ns[NB_LAB_DUT], "nbtlab42-dut") &&
		  !strcmp(lab->pid_path, "/run/netbench-lab/nbtlab42/agent.pid"),
	      "prefix names namespaces and state");
	CHECK(nb_lab_set_prefix(lab, "a b") == -EINVAL, "space refused");
	CHECK(nb_lab_set_prefix(lab, "../x") == -EINVAL, "path refused");
	CHECK(nb_lab_set_prefix(lab, "1ab") == -EINVAL, "leading digit refused");
	CHECK(nb_lab_set_prefix(lab, "abcdefghijklmnopq") == -EINVAL, "17 characters refused");
	CHECK(nb_lab_set_prefix(lab, "abcdefghijklmnop") == 0, "16 characters taken");
	CHECK(nb_lab_set_prefix(lab, "") == 0 && !strcmp(lab->ns[NB_LAB_GEN], "nbgen"),
	      "empty prefix: default names");

	{
		/* The labs up, from their state files: the default's first, names that are no
		 * prefix and directories without a state file are no lab. */
		char dir[] = "/tmp/t_lab_list-XXXXXX", path[256];
		char up[4][NB_LAB_PREFIX_MAX + 1];
		size_t n = 99;
		CHECK(mkdtemp(dir) != NULL, "temporary run directory");
		CHECK(nb_lab_list(dir, up, 4, &n) == 0 && n == 0, "no state file: no lab (n %zu)",
		      n);
		snprintf(path, sizeof(path), "%s/nope", dir);
		CHECK(nb_lab_list(path, up, 4, &n) == 0 && n == 0, "no run directory: no lab");
		static const char *const subs[] = {"zeta", "alpha", "no.prefix", "empty"};
		for (int i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, subs[i]);
			mkdir(path, 0755);
			if (i == 3)
				continue;
			snprintf(path, sizeof(path), "%s/%s/state", dir, subs[i]);
			fclose(fopen(path, "w"));
		}
		CHECK(nb_lab_list(dir, up, 4, &n) == 0 && n == 2 && !strcmp(up[0], "alpha") &&
			  !strcmp(up[1], "zeta"),
		      "two prefixed labs, sorted (n %zu)", n);
		snprintf(path, sizeof(path), "%s/state", dir);
		fclose(fopen(path, "w"));
		CHECK(nb_lab_list(dir, up, 4, &n) == 0 && n == 3 && !up[0][0] &&
			  !strcmp(up[1], "alpha"),
		      "the default lab first (n %zu)", n);
		CHECK(nb_lab_list(dir, up, 1, &n) == 0 && n == 3, "counted past max (n %zu)", n);
		unlink(path);
		for (int i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s/%s/state", dir, subs[i]);
			unlink(path);
			snprintf(path, sizeof(path), "%s/%s", dir, subs[i]);
			rmdir(path);
		}
		rmdir(dir);
	}

	nb_lab_rps_mask(1, 2, mask, sizeof(mask));
	CHECK(!strcmp(mask, "00000002"), "1 of 2 CPUs: the last (got %s)", mask);
	nb_lab_rps_mask(2, 2, mask, sizeof(mask));
	CHECK(!strcmp(mask, "00000003"), "2 of 2 CPUs (got %s)", mask);
	nb_lab_rps_mask(4, 8, mask, sizeof(mask));
	CHECK(!strcmp(mask, "000000f0"), "4 of 8 CPUs (got %s)", mask);
	nb_lab_rps_mask(2, 40, mask, sizeof(mask));
	CHECK(!strcmp(mask, "000000c0,00000000"), "2 of 40 CPUs: two groups (got %s)", mask);
	nb_lab_rps_mask(34, 64, mask, sizeof(mask));
	CHECK(!strcmp(mask, "ffffffff,c0000000"), "34 of 64 CPUs (got %s)", mask);
	nb_lab_free(lab);
	nb_lab_free(NULL);
	{
		char arch[16] = "", nic[16] = "x";
		int ret = nb_lab_board_spec("vm:armhf", arch, sizeof(arch), nic, sizeof(nic));
		CHECK(ret == 0 && !strcmp(arch, "armhf") && !nic[0], "board: vm:armhf, its NIC");
		ret = nb_lab_board_spec("vm:x86_64", arch, sizeof(arch), nic, sizeof(nic));
		CHECK(ret == 0 && !strcmp(arch, "x86_64"), "board: vm:x86_64");
		ret = nb_lab_board_spec("vm:ppc", arch, sizeof(arch), nic, sizeof(nic));
		CHECK(ret == 0 && !strcmp(arch, "ppc"), "board: vm:ppc");
		CHECK(nb_lab_board_spec("vm:ppc64", arch, sizeof(arch), nic, sizeof(nic)) ==
			      -EINVAL &&
			  nb_lab_board_spec("vm:arm64", arch, sizeof(arch), nic, sizeof(nic)) ==
			      -EINVAL &&
			  nb_lab_board_spec("armhf", arch, sizeof(arch), nic, sizeof(nic)) ==
			      -EINVAL &&
			  nb_lab_board_spec("vm:", arch, sizeof(arch), nic, sizeof(nic)) ==
			      -EINVAL &&
			  nb_lab_board_spec(NULL, arch, sizeof(arch), nic, sizeof(nic)) == -EINVAL,
		      "board: anything else refused");
		ret =
		    nb_lab_board_spec("vm:x86_64,nic=e1000e", arch, sizeof(arch), nic, sizeof(nic));
		CHECK(ret == 0 && !strcmp(arch, "x86_64") && !strcmp(nic, "e1000e"),
		      "board: vm:x86_64,nic=e1000e");
		CHECK(nb_lab_board_spec("vm:armhf,nic=e1000e", arch, sizeof(arch), nic,
					sizeof(nic)) == -ENOTSUP &&
			  nb_lab_board_spec("vm:x86_64,nic=e1000", arch, sizeof(arch), nic,
					    sizeof(nic)) == -ENOTSUP &&
			  nb_lab_board_spec("vm:x86_64,", arch, sizeof(arch), nic, sizeof(nic)) ==
			      -ENOTSUP &&
			  nb_lab_board_spec("vm:x86_64nic=e1000e", arch, sizeof(arch), nic,
					    sizeof(nic)) == -EINVAL,
		      "board: a NIC its architecture does not take refused");
		CHECK(nb_lab_link_in_board(NB_LAB_DUT, 1) && nb_lab_link_in_board(NB_LAB_DUT, 2) &&
			  !nb_lab_link_in_board(NB_LAB_DUT, 0) &&
			  !nb_lab_link_in_board(NB_LAB_DUT, 3),
		      "board DUT: dut0 and dut1 are inside it, gen0 and sink0 its taps");
		CHECK(nb_lab_link_in_board(NB_LAB_SINK, 3) &&
			  !nb_lab_link_in_board(NB_LAB_SINK, 2) && !nb_lab_link_in_board(-1, 1),
		      "board sink: sink0 inside it; no board: none");
		CHECK(nb_lab_link_in_board(NB_LAB_BOTH, 1) &&
			  nb_lab_link_in_board(NB_LAB_BOTH, 2) &&
			  nb_lab_link_in_board(NB_LAB_BOTH, 3) &&
			  !nb_lab_link_in_board(NB_LAB_BOTH, 0),
		      "two boards: every link but gen0 inside one");
	}
	{
		struct nb_lab *two = nb_lab_new();
		/* Two boards: the sink's files apart from the DUT's, and the state file keeps both
		 * (its "board2" line is not read as a "board" line). */
		struct nb_lab_state s = {0}, r;
		char a[200], b[200];
		two->board.role = NB_LAB_DUT;
		two->board2.role = NB_LAB_SINK;
		CHECK(nb_lab_board_roles(two) == NB_LAB_BOTH, "two boards: roles BOTH");
		nb_lab_board_path(two, "qemu.pid", a, sizeof(a));
		nb_lab_board_swap(two);
		nb_lab_board_path(two, "qemu.pid", b, sizeof(b));
		CHECK(two->board.role == NB_LAB_SINK &&
			  !strcmp(a, "/run/netbench-lab/board-qemu.pid") &&
			  !strcmp(b, "/run/netbench-lab/board-sink-qemu.pid"),
		      "two boards: board-* and board-sink-* files");
		nb_lab_board_swap(two);
		snprintf(two->state_path, sizeof(two->state_path), "/tmp/t_lab_state.%d",
			 (int)getpid());
		s.board_role = NB_LAB_DUT;
		snprintf(s.board_arch, sizeof(s.board_arch), "armhf");
		snprintf(s.board_dir, sizeof(s.board_dir), "/img/a");
		s.board2_role = NB_LAB_SINK;
		snprintf(s.board2_arch, sizeof(s.board2_arch), "x86_64");
		snprintf(s.board2_dir, sizeof(s.board2_dir), "/img/b");
		s.ruleset = s.rules_ipv6 = true;
		snprintf(s.kind, sizeof(s.kind), "linear");
		s.rules_n = 20;
		CHECK(nb_lab_state_write(two, &s) == 0, "state with two boards written");
		nb_lab_state_read(two, &r);
		CHECK(
		    r.ruleset && r.rules_ipv6 && !strcmp(r.kind, "linear") && r.rules_n == 20,
		    "the recorded ruleset read back with its family (a sweep on a board generates "
		    "it again)");
		s.rules_ipv6 = false;
		nb_lab_state_write(two, &s);
		nb_lab_state_read(two, &r);
		CHECK(r.ruleset && !r.rules_ipv6 && r.rules_n == 20,
		      "an IPv4 ruleset's record read back as IPv4");
		unlink(two->state_path);
		CHECK(r.board_role == NB_LAB_DUT && !strcmp(r.board_arch, "armhf") &&
			  !strcmp(r.board_dir, "/img/a") && r.board2_role == NB_LAB_SINK &&
			  !strcmp(r.board2_arch, "x86_64") && !strcmp(r.board2_dir, "/img/b"),
		      "state with two boards read back: each board its own");
		nb_lab_free(two);
	}
	{
		const struct nb_lab_board_arch *a = nb_lab_board_arch("x86_64");
		char list[128];
		CHECK(a && !strcmp(a->qemu, "qemu-system-x86_64") && !strcmp(a->machine[0], "-M") &&
			  !strcmp(a->console, "ttyS0") && !nb_lab_board_arch("sh"),
		      "board architectures: the emulator and machine come from the table");
		nb_lab_board_arch_list("vm:", list, sizeof(list));
		CHECK(!strncmp(list, "vm:armhf, ", 10) || !strcmp(list, "vm:armhf or vm:x86_64"),
		      "board architectures listed for a usage error (%s)", list);
	}
	{
		/* The board directory's modes (the owners need root: hostile_board_dir.sh). */
		static const char *const files[] = {"kernel", "initrd.gz", NULL};
		char dir[64] = "/tmp/t_lab_board.XXXXXX", path[128], err[600];
		uid_t me = getuid();
		FILE *f;
		CHECK(mkdtemp(dir) != NULL, "a board directory");
		chmod(dir, 0755);
		for (int i = 0; files[i]; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			if ((f = fopen(path, "w")))
				fclose(f);
			chmod(path, 0644);
		}
		err[0] = '\0';
		CHECK(nb_lab_board_dir_trusted(dir, files, me, err, sizeof(err)) == 0,
		      "the owner's 0755 directory of 0644 files is taken (%s)", err);
		chmod(dir, 0775);
		CHECK(nb_lab_board_dir_trusted(dir, files, me, err, sizeof(err)) == -EPERM &&
			  strstr(err, "writable by group or others"),
		      "a group-writable directory is refused: %s", err);
		chmod(dir, 0755);
		snprintf(path, sizeof(path), "%s/kernel", dir);
		chmod(path, 0646);
		CHECK(nb_lab_board_dir_trusted(dir, files, me, err, sizeof(err)) == -EPERM &&
			  strstr(err, "/kernel (owner uid"),
		      "a world-writable kernel is refused: %s", err);
		unlink(path);
		CHECK(symlink("/etc/hostname", path) == 0 &&
			  nb_lab_board_dir_trusted(dir, files, me, err, sizeof(err)) == -EPERM &&
			  strstr(err, "not a regular file"),
		      "a kernel that is a symlink is refused: %s", err);
		unlink(path);
		CHECK(nb_lab_board_dir_trusted(dir, files, me, err, sizeof(err)) == -ENOENT,
		      "a missing kernel: -ENOENT (%s)", err);
		snprintf(path, sizeof(path), "%s/initrd.gz", dir);
		unlink(path);
		rmdir(dir);
	}
	return tap_done();
}
