/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's emulated board: finds its image, starts qemu inside the namespace of the board's
 * role (so that `lab down`, which stops every process in the lab's namespaces, powers it off,
 * and the taps qemu created vanish with it), moves the taps into the neighbouring namespaces,
 * waits for the board's init, and talks to the board's control port. */
#include "core/lab/lab_board.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/base/timeutil.h"
#include "core/lab/lab_board_arch.h"
#include "core/lab/lab_board_dir.h"
#include "core/lab/lab_exec.h"
#include "core/lab/lab_proc.h"

const char *nb_lab_board_cache(void)
{
	const char *env = getenv("NB_BOARD_CACHE");
	return env && env[0] == '/' ? env : NB_LAB_BOARD_CACHE;
}

void nb_lab_board_default_dir(const char *arch, char *buf, size_t len)
{
	snprintf(buf, len, "%s/board-%s", nb_lab_board_cache(), arch);
}

int nb_lab_board_spec(const char *spec, char *arch, size_t len, char *nic, size_t nic_len)
{
	const struct nb_lab_board_arch *a;
	char name[16];
	const char *comma;
	size_t n;

	if (!spec || strncmp(spec, "vm:", 3))
		return -EINVAL;
	comma = strchr(spec + 3, ',');
	n = comma ? (size_t)(comma - spec - 3) : strlen(spec + 3);
	if (n >= sizeof(name))
		return -EINVAL;
	memcpy(name, spec + 3, n);
	name[n] = '\0';
	if (!(a = nb_lab_board_arch(name)))
		return -EINVAL;
	nic[0] = '\0';
	if (comma) {
		if (strncmp(comma + 1, "nic=", 4) || !a->nic_alt || strcmp(comma + 5, a->nic_alt))
			return -ENOTSUP;
		snprintf(nic, nic_len, "%s", a->nic_alt);
	}
	snprintf(arch, len, "%s", a->name);
	return 0;
}

void nb_lab_board_path(const struct nb_lab *lab, const char *name, char *buf, size_t len)
{
	/* The second board (the sink, swapped in) has files of its own. */
	bool second = lab->board.role == NB_LAB_SINK && lab->board2.role == NB_LAB_DUT;
	snprintf(buf, len, "%s/board%s-%s", lab->run_dir, second ? "-sink" : "", name);
}

void nb_lab_board_swap(struct nb_lab *lab)
{
	struct nb_lab_board t = lab->board;
	lab->board = lab->board2;
	lab->board2 = t;
}

long nb_lab_board_pid(const struct nb_lab *lab)
{
	char path[192];

	nb_lab_board_path(lab, "qemu.pid", path, sizeof(path));
	return nb_lab_read_pid(path);
}

/* The first line of DIR/name into buf; false when the file is missing or empty. */
static bool read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[320];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && *buf;
}

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[512];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

int nb_lab_board_image(struct nb_lab *lab)
{
	struct nb_lab_board *b = &lab->board;
	static const char *const files[] = {"kernel", "initrd.gz", NULL};
	const struct nb_lab_board_arch *a = nb_lab_board_arch(b->arch);
	char path[320];
	struct stat st;
	int ret;

	if (!a) {
		snprintf(lab->err, sizeof(lab->err), "no emulated board of architecture '%s'",
			 b->arch);
		return -EINVAL;
	}
	if (!b->dir[0])
		nb_lab_board_default_dir(b->arch, b->dir, sizeof(b->dir));
	for (size_t i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", b->dir, files[i]);
		if (stat(path, &st) == 0 && st.st_size > 0)
			continue;
		snprintf(
		    lab->err, sizeof(lab->err),
		    "no board image for %s: %s is missing (make one with `tests/board/build.sh "
		    "%s %s` from netbench's source tree or the package's "
		    "/usr/share/netbench/board/build.sh, which %s; `lab up` does that itself "
		    "for its default image directory when it finds either)",
		    b->arch, path, b->arch, nb_lab_board_cache(),
		    a->from_source ? "builds its kernel and user space from Debian's sources"
				   : "downloads Debian's kernel for it");
		return -ENOENT;
	}
	/* Root boots what is in it: refuse what another user could have put there. */
	ret = nb_lab_board_dir_trusted(b->dir, files, getuid(), lab->err, sizeof(lab->err));
	if (ret)
		return ret;
	if (!read_line(b->dir, "kernel.version", b->kernel, sizeof(b->kernel)))
		snprintf(b->kernel, sizeof(b->kernel), "unknown");
	if (!in_path(a->qemu)) {
		snprintf(lab->err, sizeof(lab->err),
			 "%s is not installed (Debian package %s): it runs the %s board", a->qemu,
			 a->package, b->arch);
		return -ENOENT;
	}
	return 0;
}

/* qemu runs as this user once its taps and files are open (-runas), where it exists. */
#define QEMU_USER "nobody"

static bool user_exists(const char *name)
{
	char line[512];
	size_t n = strlen(name);
	bool found = false;
	FILE *f = fopen("/etc/passwd", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, n) && line[n] == ':';
	fclose(f);
	return found;
}

#define QEMU_ARGS 80

/* qemu's command line and the strings it points into. */
struct qemu_cmd {
	char kernel[320], initrd[320], console[200], pidf[200], ctl[200], qlog[200], serial[210],
	    chardev[240], append[512], nd[2][64], dev[2][96], port[8];
	char *argv[QEMU_ARGS];
};

/* The board kernel's command line: its addresses, its routes or forwarding, and its agent. */
static void kernel_cmdline(const struct nb_lab *lab, const struct nb_lab_board_arch *a,
			   const char *sink_mac, struct qemu_cmd *q)
{
	snprintf(q->port, sizeof(q->port), "%u", lab->port);
	if (lab->board.role == NB_LAB_DUT)
		snprintf(q->append, sizeof(q->append),
			 "console=%s quiet panic=-1 nb.virt=tcg nb.if=" NB_LAB_BOARD_MAC_GEN
			 "," NB_LAB_DUT_A_ADDR "/24 nb.if=" NB_LAB_BOARD_MAC_SINK
			 "," NB_LAB_DUT_B_ADDR "/24 nb.fwd=1%s%s",
			 a->console, lab->agent ? " nb.serve=" NB_LAB_DUT_A_ADDR "," : "",
			 lab->agent ? q->port : "");
	else
		snprintf(q->append, sizeof(q->append),
			 "console=%s quiet panic=-1 nb.virt=tcg nb.if=%s," NB_LAB_SINK_ADDR
			 "/24 nb.route=198.18.0.0/16," NB_LAB_DUT_B_ADDR "%s%s",
			 a->console, sink_mac,
			 /* With --vpn the agent answers on the tunnel's address too (the
			  * control port adds it after boot; a receiver binds to the control
			  * connection's address). */
			 !lab->agent   ? ""
			 : lab->vpn[0] ? " nb.serve=0.0.0.0,"
				       : " nb.serve=" NB_LAB_SINK_ADDR ",",
			 lab->agent ? q->port : "");
}

/* The board's files (removed, for qemu to write anew), its kernel command line, and its
 * NICs: the one on the generator's side (DUT only) and the one on the sink's side. */
static void qemu_strings(struct nb_lab *lab, const struct nb_lab_board_arch *a, const char *nic,
			 const char *sink_mac, struct qemu_cmd *q)
{
	const struct nb_lab_board *b = &lab->board;

	snprintf(q->kernel, sizeof(q->kernel), "%s/kernel", b->dir);
	snprintf(q->initrd, sizeof(q->initrd), "%s/initrd.gz", b->dir);
	nb_lab_board_path(lab, "console.log", q->console, sizeof(q->console));
	nb_lab_board_path(lab, "qemu.pid", q->pidf, sizeof(q->pidf));
	nb_lab_board_path(lab, "ctl.sock", q->ctl, sizeof(q->ctl));
	nb_lab_board_path(lab, "qemu.log", q->qlog, sizeof(q->qlog));
	unlink(q->console);
	unlink(q->pidf);
	unlink(q->ctl);
	unlink(q->qlog);
	kernel_cmdline(lab, a, sink_mac, q);
	snprintf(q->serial, sizeof(q->serial), "file:%s", q->console);
	snprintf(q->chardev, sizeof(q->chardev), "socket,id=ctl,path=%s,server=on,wait=off",
		 q->ctl);
	snprintf(q->nd[0], sizeof(q->nd[0]), "tap,id=n0,ifname=nbb0,script=no,downscript=no");
	snprintf(q->dev[0], sizeof(q->dev[0]), "%s,netdev=n0,mac=" NB_LAB_BOARD_MAC_GEN, nic);
	snprintf(q->nd[1], sizeof(q->nd[1]), "tap,id=n1,ifname=nbb1,script=no,downscript=no");
	snprintf(q->dev[1], sizeof(q->dev[1]), "%s,netdev=n1,mac=%s", nic,
		 b->role == NB_LAB_DUT ? NB_LAB_BOARD_MAC_SINK : sink_mac);
}

/* ip netns exec NS qemu ...: the machine, the board's files, its sandbox, its crypto engine,
 * its user, its NICs. */
static void qemu_argv(const struct nb_lab *lab, const char *ns, const struct nb_lab_board_arch *a,
		      struct qemu_cmd *q)
{
	char **argv = q->argv;
	int n = 0;

	argv[n++] = "ip";
	argv[n++] = "netns";
	argv[n++] = "exec";
	argv[n++] = (char *)ns;
	argv[n++] = (char *)a->qemu;
	for (size_t i = 0; a->machine[i]; i++)
		argv[n++] = (char *)a->machine[i];
	/* A guest that escapes the emulator meets a seccomp filter (no obsolete system calls, no
	 * scheduler or resource changes; spawn=deny would stop -daemonize's fork) ... */
	const char *fixed[] = {"-nodefaults",
			       "-no-user-config",
			       "-display",
			       "none",
			       "-no-reboot",
			       "-kernel",
			       q->kernel,
			       "-initrd",
			       q->initrd,
			       "-append",
			       q->append,
			       "-serial",
			       q->serial,
			       "-chardev",
			       q->chardev,
			       "-device",
			       a->serial,
			       "-device",
			       "virtserialport,chardev=ctl,name=nb.ctl",
			       "-sandbox",
			       "on,obsolete=deny,resourcecontrol=deny",
			       "-pidfile",
			       q->pidf,
			       "-daemonize"};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		argv[n++] = (char *)fixed[i];
	/* A crypto engine the board's kernel drives (virtio_crypto), as a SoC's would be. */
	if (a->crypto) {
		argv[n++] = "-object";
		argv[n++] = "cryptodev-backend-builtin,id=c0";
		argv[n++] = "-device";
		argv[n++] = (char *)a->crypto;
	}
	/* ... in a process that is not root: qemu opens its taps, files and sockets as root,
	 * then becomes QEMU_USER with no capabilities left. */
	if (geteuid() == 0 && user_exists(QEMU_USER)) {
		argv[n++] = "-runas";
		argv[n++] = QEMU_USER;
	}
	for (int i = lab->board.role == NB_LAB_DUT ? 0 : 1; i < 2; i++) {
		argv[n++] = "-netdev";
		argv[n++] = q->nd[i];
		argv[n++] = "-device";
		argv[n++] = q->dev[i];
	}
	argv[n] = NULL;
}

/* lab->err for a qemu that did not start: its error, or its log's first line. */
static int start_failed(struct nb_lab *lab, const struct nb_lab_board_arch *a, const char *qlog,
			int ret)
{
	char first[256] = "";
	FILE *f = fopen(qlog, "re");

	if (f) {
		if (!fgets(first, sizeof(first), f))
			first[0] = '\0';
		fclose(f);
	}
	first[strcspn(first, "\n")] = '\0';
	snprintf(lab->err, sizeof(lab->err), "%s did not start the %s board: %s", a->qemu,
		 lab->board.arch,
		 ret	  ? strerror(-ret)
		 : *first ? first
			  : "failed");
	return ret ? ret : -EIO;
}

/* The taps exist once -daemonize returned; move each to its neighbour's namespace under the
 * lab's link name. With a board sink too, the DUT board's sink side stays in the DUT
 * namespace, where a bridge joins it to the sink board's tap (lab.c). */
static int taps_move(struct nb_lab *lab, const char *ns)
{
	bool dut = lab->board.role == NB_LAB_DUT;
	int ret;

	for (int i = dut ? 0 : 1; i < 2; i++) {
		const char *to =
		    dut ? lab->ns[i ? (lab->board2.role == NB_LAB_SINK ? NB_LAB_DUT : NB_LAB_SINK)
				    : NB_LAB_GEN]
			: lab->ns[NB_LAB_DUT];
		const char *name = dut ? (i ? "sink0" : "gen0") : "dut1";
		const char *tap = i ? "nbb1" : "nbb0";
		char *mv[] = {"ip",	   "-n",    (char *)ns, "link", "set",
			      (char *)tap, "netns", (char *)to, NULL};
		char *rn[] = {"ip",	   "-n",   (char *)to,	 "link", "set",
			      (char *)tap, "name", (char *)name, NULL};
		if ((ret = nb_lab_cmd(lab, mv, NULL, NULL)) ||
		    (ret = nb_lab_cmd(lab, rn, NULL, NULL)))
			return ret;
	}
	return 0;
}

int nb_lab_board_start(struct nb_lab *lab)
{
	struct nb_lab_board *b = &lab->board;
	const char *ns = lab->ns[b->role];
	const struct nb_lab_board_arch *a = nb_lab_board_arch(b->arch);
	/* A sink board behind a board DUT shares a wire with the DUT board's sink side. */
	const char *sink_mac =
	    lab->board2.role == NB_LAB_DUT ? NB_LAB_BOARD_MAC_SINK2 : NB_LAB_BOARD_MAC_SINK;
	struct qemu_cmd q;
	int status = 0, ret;

	if (!a)
		return -EINVAL;
	qemu_strings(lab, a, b->nic[0] ? b->nic : a->nic, sink_mac, &q);
	qemu_argv(lab, ns, a, &q);
	ret = nb_lab_exec_logged(q.argv, q.qlog, &status);
	if (ret == -ENOENT || (!ret && status))
		ret = start_failed(lab, a, q.qlog, ret);
	if (ret)
		return ret;
	return taps_move(lab, ns);
}

void nb_lab_board_console_tail(const struct nb_lab *lab, unsigned lines, char *buf, size_t len)
{
	char path[200], line[160], ring[8][160], panic[160] = "";
	unsigned n = 0, panic_at = 0;
	size_t o = 0;
	FILE *f;

	buf[0] = '\0';
	if (lines > 8)
		lines = 8;
	nb_lab_board_path(lab, "console.log", path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!*line)
			continue;
		snprintf(ring[n % lines], sizeof(ring[0]), "%s", line);
		n++;
		/* A panic's reason comes before its backtrace: keep it in view. */
		if (strstr(line, "Kernel panic")) {
			snprintf(panic, sizeof(panic), "%s", line);
			panic_at = n;
		}
	}
	fclose(f);
	if (panic[0] && n > lines && panic_at <= n - lines) {
		int w = snprintf(buf, len, "\n  %s\n  ...", panic);
		o = w > 0 ? (size_t)w : 0;
	}
	for (unsigned i = n > lines ? n - lines : 0; i < n && o < len; i++) {
		int w = snprintf(buf + o, len - o, "\n  %s", ring[i % lines]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

static bool console_says_up(const struct nb_lab *lab)
{
	char path[200], line[256];
	bool up = false;
	FILE *f;

	nb_lab_board_path(lab, "console.log", path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!up && fgets(line, sizeof(line), f))
		up = strstr(line, "netbench-board: up") != NULL;
	fclose(f);
	return up;
}

int nb_lab_board_wait(struct nb_lab *lab)
{
	struct nb_lab_board *b = &lab->board;
	uint64_t t0 = nb_mono_ns(), deadline = t0 + (uint64_t)NB_LAB_BOARD_BOOT_S * NB_NS_PER_S;
	bool dut = b->role == NB_LAB_DUT;
	/* Where the board's agent is reached from: the generator (DUT, or a sink behind a board
	 * DUT) or the DUT (sink). */
	const char *from = lab->ns[dut || lab->board2.role == NB_LAB_DUT ? NB_LAB_GEN : NB_LAB_DUT];
	const char *addr = dut ? NB_LAB_DUT_A_ADDR : NB_LAB_SINK_ADDR;
	char tail[600], why[80] = "";

	while (!(lab->stop && *lab->stop)) {
		if (!nb_lab_pid_alive(nb_lab_board_pid(lab))) {
			snprintf(why, sizeof(why), "qemu exited while the board booted");
			break;
		}
		if (console_says_up(lab) &&
		    (!lab->agent || nb_lab_port_answers(from, addr, lab->port, 300)))
			return 0;
		if (nb_mono_ns() > deadline) {
			snprintf(why, sizeof(why), "the board did not come up within %d s",
				 NB_LAB_BOARD_BOOT_S);
			break;
		}
		nb_sleep_until_ns(nb_mono_ns() + 200 * NB_NS_PER_MS);
	}
	if (!*why)
		return -EINTR;
	nb_lab_board_console_tail(lab, 6, tail, sizeof(tail));
	snprintf(lab->err, sizeof(lab->err), "%s (%s, kernel %s); the last lines of its console:%s",
		 why, b->arch, b->kernel, *tail ? tail : " (nothing)");
	return -ETIMEDOUT;
}

/* Reads until a full "NBCTL rc=R bytes=N" header and N bytes arrived, or the deadline. */
static int ctl_read(int fd, char **out, int *rc, uint64_t deadline)
{
	size_t cap = 4096, len = 0, want = 0;
	char *buf = malloc(cap), *body = NULL;
	int ret = -ETIMEDOUT;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		uint64_t now = nb_mono_ns();
		ssize_t n;
		if (!body) {
			char *nl = memchr(buf, '\n', len);
			unsigned long long bytes;
			if (nl) {
				*nl = '\0';
				if (sscanf(buf, "NBCTL rc=%d bytes=%llu", rc, &bytes) != 2) {
					ret = -EPROTO;
					break;
				}
				want = (size_t)bytes;
				body = nl + 1;
			}
		}
		if (body && (size_t)(buf + len - body) >= want) {
			memmove(buf, body, want);
			buf[want] = '\0';
			*out = buf;
			return 0;
		}
		if (now >= deadline || poll(&p, 1, (int)((deadline - now) / NB_NS_PER_MS) + 1) <= 0)
			break;
		if (len + 1024 >= cap) {
			size_t off = body ? (size_t)(body - buf) : 0;
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
			if (body)
				body = buf + off;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0) {
			ret = n < 0 ? -errno : -ECONNRESET;
			break;
		}
		len += (size_t)n;
		buf[len] = '\0';
	}
	free(buf);
	return ret;
}

int nb_lab_board_ctl(struct nb_lab *lab, const char *req, const char *payload, char **out, int *rc)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char head[64];
	size_t plen = payload ? strlen(payload) : 0;
	int fd, ret = 0;

	char path[200];

	*out = NULL;
	nb_lab_board_path(lab, "ctl.sock", path, sizeof(path));
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(lab->err, sizeof(lab->err), "the control port's path is too long: %s",
			 path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		snprintf(lab->err, sizeof(lab->err), "the board's control port %s: %s", sa.sun_path,
			 strerror(-ret));
		goto out;
	}
	snprintf(head, sizeof(head), "%s %zu\n", req, plen);
	for (size_t k = 0; k < 2 && !ret; k++) {
		const char *p = k ? payload : head;
		size_t len = k ? plen : strlen(head), off = 0;
		while (off < len) {
			ssize_t n = send(fd, p + off, len - off, MSG_NOSIGNAL);
			if (n < 0) {
				ret = -errno;
				break;
			}
			off += (size_t)n;
		}
	}
	/* 1000 rules take nft a few seconds under emulation. */
	if (!ret)
		ret = ctl_read(fd, out, rc, nb_mono_ns() + 60 * NB_NS_PER_S);
	if (ret)
		snprintf(lab->err, sizeof(lab->err),
			 "the board's control port did not answer '%s': %s", req, strerror(-ret));
out:
	close(fd);
	return ret;
}
