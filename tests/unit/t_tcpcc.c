/* SPDX-License-Identifier: BSD-2-Clause */
/* TCP congestion control: names, the kernel's lists, and a socket set and read back. */
#include <errno.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/base/tcpcc.h"
#include "tap.h"

int main(void)
{
	char list[512], name[NB_TCPCC_NAME_MAX];

	CHECK(nb_tcpcc_name_ok("cubic") && nb_tcpcc_name_ok("bbr") && nb_tcpcc_name_ok("tcp_x-1"),
	      "algorithms' names accepted");
	CHECK(!nb_tcpcc_name_ok("") && !nb_tcpcc_name_ok("Cubic") && !nb_tcpcc_name_ok("a b") &&
		  !nb_tcpcc_name_ok("../x") && !nb_tcpcc_name_ok("aaaaaaaaaaaaaaaa"),
	      "empty, capitals, a space, a path and 16 characters refused");
	CHECK(nb_tcpcc_name_ok("aaaaaaaaaaaaaaa"), "15 characters accepted");

	CHECK(nb_tcpcc_in_list("reno bbr cubic", "reno") &&
		  nb_tcpcc_in_list("reno bbr cubic", "bbr") &&
		  nb_tcpcc_in_list("reno bbr cubic", "cubic") && nb_tcpcc_in_list("bbr", "bbr"),
	      "a word of the list is found first, inside, last and alone");
	CHECK(!nb_tcpcc_in_list("reno bbr2 cubic", "bbr") && !nb_tcpcc_in_list("xbbr", "bbr") &&
		  !nb_tcpcc_in_list("reno", "") && !nb_tcpcc_in_list("", "reno") &&
		  !nb_tcpcc_in_list("renobbr bbrx", "bbr"),
	      "a part of a word is not a word");

	int ret = nb_tcpcc_read_list(NB_TCPCC_AVAILABLE, list, sizeof(list));
	if (ret) {
		tap_skip("the kernel's list: this kernel does not list its congestion controls");
		tap_skip("names not loaded: (the same)");
		tap_skip("set and read back: (the same)");
		return tap_done();
	}
	/* reno is built into every kernel with TCP, and nobody may be refused it. */
	CHECK(nb_tcpcc_in_list(list, "reno") && !strchr(list, '\n'),
	      "the kernel's available list holds reno, newline removed");
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(fd >= 0 && nb_tcpcc_set(fd, "nosuchcc") == -ENOENT &&
		  nb_tcpcc_set(fd, "No!") == -EINVAL,
	      "a name not loaded (-ENOENT, the kernel never asked) and a malformed one (-EINVAL)");
	/* qemu-user passes TCP_CONGESTION as an int, 4 bytes in the guest's byte order (qemu-ppc:
	 * setsockopt(3,6,13,...,4) = ENOENT for "reno"): the round trip is the host build's. */
	if (getenv("NB_EMULATED")) {
		tap_skip("set and read back: qemu-user does not pass TCP_CONGESTION's name");
	} else {
		CHECK(fd >= 0 && nb_tcpcc_set(fd, "reno") == 0 &&
			  nb_tcpcc_get(fd, name, sizeof(name)) == 0 && !strcmp(name, "reno") &&
			  nb_tcpcc_set(fd, "nosuchcc") == -ENOENT &&
			  nb_tcpcc_get(fd, name, sizeof(name)) == 0 && !strcmp(name, "reno"),
		      "a socket set to reno reads back reno, and a name not loaded leaves it");
	}
	if (fd >= 0)
		close(fd);
	return tap_done();
}
