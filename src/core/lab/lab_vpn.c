/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's VPN between the DUT and the sink (`lab up --vpn`): kernel IPsec (ESP in tunnel mode,
 * xfrm states and policies through iproute2's ip) or WireGuard (ip and wg), with keys drawn at
 * random for each lab. Traffic from gen to NB_LAB_VPN_ADDR, the sink's address at the tunnel's
 * end, is encrypted by the DUT, which is what a VPN gateway board does; traffic to the sink's
 * own address stays clear. Everything lives in the lab's namespaces and goes with them, except
 * a crypto driver's priority (global), which `lab down` restores from the state file. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/base/crypto_proc.h"
#include "core/lab/lab_base.h"
#include "core/lab/lab_board.h"
#include "core/lab/lab_vpn.h"
#include "core/lab/lab_cryptoprio.h"
#include "core/lab/lab_exec.h"

#define WG_PORT	 "51820"
#define WG_TABLE "51820" /* the sink's replies from the tunnel address go into the tunnel */

/* ESP transforms as ip xfrm names them; key bytes include RFC 4106/7634's 4-byte salt. algos:
 * the crypto API algorithms the SA's transform is built of (the kernel's name of the whole, then
 * its parts), one of which --crypto-driver's driver must implement. */
static const struct esp_algo {
	const char *name;
	const char *kind; /* "enc" (with HMAC-SHA1-96) or "aead" */
	const char *xfrm_name;
	unsigned key_bytes;
	const char *const algos[6];
} esp_algos[] = {
    {"aes-cbc-hmac-sha1",
     "enc",
     "cbc(aes)",
     16,
     {"authenc(hmac(sha1),cbc(aes))", "cbc(aes)", "hmac(sha1)", "aes", "sha1", NULL}},
    {"aes-gcm",
     "aead",
     "rfc4106(gcm(aes))",
     20,
     {"rfc4106(gcm(aes))", "gcm(aes)", "ctr(aes)", "ghash", "aes", NULL}},
    {"chacha20-poly1305",
     "aead",
     "rfc7539esp(chacha20,poly1305)",
     36,
     {"rfc7539esp(chacha20,poly1305)", "chacha20", "poly1305", NULL}},
};

static const struct esp_algo *esp_find(const char *name)
{
	for (size_t i = 0; i < sizeof(esp_algos) / sizeof(esp_algos[0]); i++)
		if (!strcmp(esp_algos[i].name, name))
			return &esp_algos[i];
	return NULL;
}

int nb_lab_vpn_parse(const char *spec, struct nb_lab_vpn_spec *v)
{
	memset(v, 0, sizeof(*v));
	if (!strcmp(spec, "wireguard")) {
		snprintf(v->kind, sizeof(v->kind), "wireguard");
		return 0;
	}
	if (strncmp(spec, "esp", 3) || (spec[3] && spec[3] != ':'))
		return -EINVAL;
	const char *algo = spec[3] ? spec + 4 : "aes-cbc-hmac-sha1";
	if (!esp_find(algo))
		return -EINVAL;
	snprintf(v->kind, sizeof(v->kind), "esp");
	snprintf(v->algo, sizeof(v->algo), "%s", algo);
	return 0;
}

static int random_hex(char *hex, unsigned bytes)
{
	unsigned char buf[64];
	if (bytes > sizeof(buf) || getrandom(buf, bytes, 0) != (ssize_t)bytes)
		return -EIO;
	hex[0] = '0';
	hex[1] = 'x';
	for (unsigned i = 0; i < bytes; i++)
		sprintf(hex + 2 + 2 * i, "%02x", buf[i]);
	memset(buf, 0, sizeof(buf));
	return 0;
}

/* The ESP lines of one end of the tunnel, for ip -batch: its SAs (the same on both ends) and
 * policies, then its address (sink) or route (DUT) of the tunnel. */
struct esp_script {
	char text[2048];
	size_t len;
};

static void esp_line(struct esp_script *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void esp_line(struct esp_script *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(e->text + e->len, sizeof(e->text) - e->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		e->len += (size_t)n < sizeof(e->text) - e->len ? (size_t)n : 0;
}

static void esp_state(struct esp_script *e, const struct esp_algo *a, const char *src,
		      const char *dst, const char *spi, const char *reqid, const char *key,
		      const char *auth_key)
{
	if (!strcmp(a->kind, "aead"))
		esp_line(e,
			 "xfrm state add src %s dst %s proto esp spi %s reqid %s mode tunnel "
			 "aead %s %s 128\n",
			 src, dst, spi, reqid, a->xfrm_name, key);
	else
		esp_line(e,
			 "xfrm state add src %s dst %s proto esp spi %s reqid %s mode tunnel "
			 "enc %s %s auth-trunc hmac(sha1) %s 96\n",
			 src, dst, spi, reqid, a->xfrm_name, key, auth_key);
}

static void esp_policy(struct esp_script *e, const char *dir, const char *sel_src,
		       const char *sel_dst, const char *src, const char *dst, const char *reqid)
{
	esp_line(e,
		 "xfrm policy add src %s dst %s dir %s tmpl src %s dst %s proto esp reqid %s "
		 "mode tunnel\n",
		 sel_src, sel_dst, dir, src, dst, reqid);
}

void nb_lab_redact_keys(char *s)
{
	for (char *p = s; (p = strstr(p, "0x")) != NULL;) {
		size_t n = strspn(p + 2, "0123456789abcdefABCDEF");
		if (n >= 16) {
			memcpy(p + 2, "...", 3);
			memmove(p + 5, p + 2 + n, strlen(p + 2 + n) + 1);
		}
		p += 2;
	}
}

/* Whether the end in role is an emulated board (lab_board.c) rather than a namespace here. */
static bool end_is_board(const struct nb_lab *lab, int role)
{
	return lab->board.role == role || lab->board2.role == role;
}

/* --crypto-driver at a board's end: `netbench lab crypto-driver DRIVER ALGO...` in the board
 * (its control port's "crypto-driver" request), before its SAs exist, since a transform keeps
 * the driver it was built with. The board's reply goes into lab->board_crypto[role]. */
static int esp_board_driver(struct nb_lab *lab, int role, const struct esp_algo *a)
{
	const char *who = role == NB_LAB_DUT ? "DUT" : "sink";
	char args[512], *out = NULL;
	size_t used;
	int rc = 0, ret;

	used = (size_t)snprintf(args, sizeof(args), "%s", lab->crypto_driver);
	for (unsigned i = 0; a->algos[i] && used < sizeof(args); i++)
		used += (size_t)snprintf(args + used, sizeof(args) - used, " %s", a->algos[i]);
	ret = nb_lab_board_ctl(lab, "crypto-driver", args, &out, &rc);
	if (!ret && rc && out && !strncmp(out, "unknown request", 15)) {
		snprintf(lab->err, sizeof(lab->err),
			 "--crypto-driver %s: the %s board's image (%s) is older than this "
			 "netbench and takes no crypto-driver request: build it again "
			 "(tests/board/build.sh %s DIR, or remove it for lab up to build it)",
			 lab->crypto_driver, who, lab->board.dir, lab->board.arch);
		ret = -ENOTSUP;
	} else if (!ret && rc) {
		snprintf(lab->err, sizeof(lab->err),
			 "--crypto-driver %s: the %s board (kernel %s) refused it: %.300s",
			 lab->crypto_driver, who, lab->board.kernel,
			 out ? out : "(no reason given)");
		/* one line: the board's message ends with its newline */
		lab->err[strcspn(lab->err, "\n")] = '\0';
		ret = -ENOENT;
	} else if (!ret) {
		snprintf(lab->board_crypto[role], sizeof(lab->board_crypto[role]), "%.*s",
			 (int)strcspn(out ? out : "", "\n"), out ? out : "");
	}
	free(out);
	return ret;
}

/* Loads one end's script: ip -batch - in its namespace, or the board's control port ("xfrm",
 * ip -batch - in the board). Either way the keys travel on a standard input or the serial
 * port, never on a command line (any local user can read /proc/PID/cmdline), and an error
 * quotes ip's words, never the script. */
static int esp_apply(struct nb_lab *lab, int role, const struct esp_algo *a,
		     const struct esp_script *e)
{
	const char *who = role == NB_LAB_DUT ? "DUT" : "sink";
	char *out = NULL;
	int rc = 0, ret;
	bool swapped;

	if (!end_is_board(lab, role)) {
		/* The first line (the first SA) alone: where it fails, ESP itself is missing. */
		struct esp_script first = {0};
		size_t n = strcspn(e->text, "\n") + 1;
		memcpy(first.text, e->text, n < sizeof(first.text) ? n : sizeof(first.text) - 1);
		ret = nb_lab_runl(lab, first.text, NULL, "ip", "-n", lab->ns[role], "-batch", "-",
				  NULL);
		explicit_bzero(&first, sizeof(first));
		nb_lab_redact_keys(lab->err);
		if (ret == -EIO) {
			char ip_err[sizeof(lab->err)];
			snprintf(ip_err, sizeof(ip_err), "%s", lab->err);
			snprintf(lab->err, sizeof(lab->err),
				 "this kernel has no ESP %s (modules xfrm_user, esp4; "
				 "CONFIG_XFRM_USER, CONFIG_INET_ESP): %.300s",
				 a->xfrm_name, ip_err);
			return -EPROTONOSUPPORT;
		}
		if (!ret && e->text[n - 1])
			ret = nb_lab_runl(lab, e->text + n, NULL, "ip", "-n", lab->ns[role],
					  "-batch", "-", NULL);
		nb_lab_redact_keys(lab->err);
		return ret;
	}
	swapped = lab->board.role != role;
	if (swapped)
		nb_lab_board_swap(lab);
	ret = lab->crypto_driver[0] ? esp_board_driver(lab, role, a) : 0;
	if (!ret)
		ret = nb_lab_board_ctl(lab, "xfrm", e->text, &out, &rc);
	if (!ret && rc) {
		if (out)
			nb_lab_redact_keys(out);
		snprintf(lab->err, sizeof(lab->err),
			 "the %s board (kernel %s) refused the tunnel's ESP %s (ip -batch in the "
			 "board): %.300s",
			 who, lab->board.kernel, a->xfrm_name, out ? out : "");
		ret = -EPROTONOSUPPORT;
	}
	if (swapped)
		nb_lab_board_swap(lab);
	free(out);
	return ret;
}

static int esp_up(struct nb_lab *lab, const struct esp_algo *a)
{
	const char *d = NB_LAB_DUT_B_ADDR, *s = NB_LAB_SINK_ADDR, *gen_net = "198.18.0.0/16",
		   *vpn = NB_LAB_VPN_ADDR "/32";
	char k1[2 + 2 * 64 + 1], k2[sizeof(k1)], h1[sizeof(k1)], h2[sizeof(k1)], spi1[12], spi2[12];
	struct esp_script *e = calloc(2, sizeof(*e)); /* [0] the DUT's, [1] the sink's */
	unsigned char r[8];
	int ret;

	if (!e)
		return -ENOMEM;
	if (random_hex(k1, a->key_bytes) || random_hex(k2, a->key_bytes) || random_hex(h1, 20) ||
	    random_hex(h2, 20) || getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		snprintf(lab->err, sizeof(lab->err), "no random bytes for the ESP keys");
		free(e);
		return -EIO;
	}
	/* SPIs below 256 are reserved (RFC 4303). */
	snprintf(spi1, sizeof(spi1), "0x%08x",
		 (unsigned)(r[0] << 24 | r[1] << 16 | r[2] << 8 | r[3]) | 0x1000u);
	snprintf(spi2, sizeof(spi2), "0x%08x",
		 (unsigned)(r[4] << 24 | r[5] << 16 | r[6] << 8 | r[7]) | 0x1000u);
	for (int i = 0; i < 2; i++) {
		esp_state(&e[i], a, d, s, spi1, "1", k1, h1);
		esp_state(&e[i], a, s, d, spi2, "2", k2, h2);
	}
	explicit_bzero(k1, sizeof(k1));
	explicit_bzero(k2, sizeof(k2));
	explicit_bzero(h1, sizeof(h1));
	explicit_bzero(h2, sizeof(h2));
	esp_policy(&e[0], "out", gen_net, vpn, d, s, "1");
	esp_policy(&e[0], "fwd", vpn, gen_net, s, d, "2");
	esp_policy(&e[1], "in", gen_net, vpn, d, s, "1");
	esp_policy(&e[1], "out", vpn, gen_net, s, d, "2");
	/* The tunnel's end on the sink: an address of its own, routed through the DUT, on the
	 * sink's NIC that the tunnel's packets cross (a sink board's only NIC is eth0), so that
	 * the agent answering there names that NIC and its driver as its platform, not lo. */
	esp_line(&e[1], "addr add %s dev %s\n", vpn,
		 end_is_board(lab, NB_LAB_SINK) ? "eth0" : "sink0");
	esp_line(&e[0], "route add %s via %s\n", vpn, s);
	/* A namespace end first: where this host's kernel lacks ESP, no board is asked. */
	ret = 0;
	for (int pass = 0; pass < 2 && !ret; pass++)
		for (int i = 0; i < 2 && !ret; i++)
			if (end_is_board(lab, i ? NB_LAB_SINK : NB_LAB_DUT) == (pass == 1))
				ret = esp_apply(lab, i ? NB_LAB_SINK : NB_LAB_DUT, a, &e[i]);
	explicit_bzero(e, 2 * sizeof(*e));
	free(e);
	return ret;
}

/* A WireGuard key pair from wg: private into the file at path (0600), public into pub. */
static int wg_keys(struct nb_lab *lab, const char *path, char *pub, size_t len)
{
	struct nb_lab_run *r = nb_lab_run_new(), *p = nb_lab_run_new();
	int ret = -ENOMEM, fd = -1;

	if (!r || !p)
		goto out;
	if ((ret = nb_lab_runl(lab, NULL, r, "wg", "genkey", NULL)) ||
	    (ret = nb_lab_runl(lab, r->out, p, "wg", "pubkey", NULL)))
		goto out;
	unlink(path); /* a killed run's; created anew, never followed */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, r->out, r->out_len) != (ssize_t)r->out_len) {
		ret = -errno;
		snprintf(lab->err, sizeof(lab->err), "cannot write %s", path);
		goto out;
	}
	snprintf(pub, len, "%.*s", (int)strcspn(p->out, "\n"), p->out);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (r && r->out)
		memset(r->out, 0, r->out_len);
	nb_lab_run_free(r);
	nb_lab_run_free(p);
	return ret;
}

static int wg_up(struct nb_lab *lab)
{
	const char *dut = lab->ns[NB_LAB_DUT], *sink = lab->ns[NB_LAB_SINK];
	char kd[192], ks[192], pd[64], ps[64];
	int ret;

	/* The first interface tells whether the kernel has WireGuard at all. */
	ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "link", "add", "wgdut", "type",
			  "wireguard", NULL);
	if (ret) {
		char ip_err[sizeof(lab->err)];
		snprintf(ip_err, sizeof(ip_err), "%s", lab->err);
		snprintf(
		    lab->err, sizeof(lab->err),
		    "this kernel has no WireGuard (module wireguard, CONFIG_WIREGUARD): %.300s",
		    ip_err);
		return -EPROTONOSUPPORT;
	}
	snprintf(kd, sizeof(kd), "%s/wg-dut.key", lab->run_dir);
	snprintf(ks, sizeof(ks), "%s/wg-sink.key", lab->run_dir);
	ret = wg_keys(lab, kd, pd, sizeof(pd));
	if (!ret)
		ret = wg_keys(lab, ks, ps, sizeof(ps));
	if (!ret)
		ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "link", "add", "wgsink",
				  "type", "wireguard", NULL);
	if (!ret)
		ret = nb_lab_runl(lab, NULL, NULL, "ip", "netns", "exec", dut, "wg", "set", "wgdut",
				  "private-key", kd, "listen-port", WG_PORT, "peer", ps,
				  "allowed-ips", NB_LAB_VPN_ADDR "/32", "endpoint",
				  NB_LAB_SINK_ADDR ":" WG_PORT, NULL);
	if (!ret)
		ret = nb_lab_runl(lab, NULL, NULL, "ip", "netns", "exec", sink, "wg", "set",
				  "wgsink", "private-key", ks, "listen-port", WG_PORT, "peer", pd,
				  "allowed-ips", "198.18.0.0/16", "endpoint",
				  NB_LAB_DUT_B_ADDR ":" WG_PORT, NULL);
	unlink(kd);
	unlink(ks);
	if (ret)
		return ret;
	if ((ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "link", "set", "wgdut", "up",
			       NULL)) ||
	    (ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", dut, "route", "add",
			       NB_LAB_VPN_ADDR "/32", "dev", "wgdut", NULL)) ||
	    (ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "addr", "add",
			       NB_LAB_VPN_ADDR "/32", "dev", "wgsink", NULL)) ||
	    (ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "link", "set", "wgsink", "up",
			       NULL)) ||
	    (ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "rule", "add", "from",
			       NB_LAB_VPN_ADDR, "table", WG_TABLE, NULL)) ||
	    (ret = nb_lab_runl(lab, NULL, NULL, "ip", "-n", sink, "route", "add", "198.18.0.0/16",
			       "dev", "wgsink", "table", WG_TABLE, NULL)))
		return ret;
	return 0;
}

int nb_lab_vpn_host_check(struct nb_lab *lab)
{
	struct nb_lab_vpn_spec v;
	const struct esp_algo *a;
	struct esp_script e = {0};
	char zero[2 + 2 * 64 + 1] = "0x";
	int ns_end, ret;

	if (nb_lab_vpn_parse(lab->vpn, &v) || strcmp(v.kind, "esp") || lab->board.role < 0)
		return 0;
	ns_end = !end_is_board(lab, NB_LAB_DUT)	   ? NB_LAB_DUT
		 : !end_is_board(lab, NB_LAB_SINK) ? NB_LAB_SINK
						   : -1;
	if (ns_end < 0)
		return 0;
	a = esp_find(v.algo);
	/* A throwaway SA with a key of zeros (no secret) in the generator's namespace. */
	for (unsigned i = 0; i < a->key_bytes; i++)
		strcat(zero, "00");
	esp_state(&e, a, "192.0.2.1", "192.0.2.2", "0x1000", "1", zero,
		  "0x0000000000000000000000000000000000000000");
	esp_line(&e, "xfrm state flush\n");
	ret = nb_lab_runl(lab, e.text, NULL, "ip", "-n", lab->ns[NB_LAB_GEN], "-batch", "-", NULL);
	if (ret) {
		char ip_err[sizeof(lab->err)];
		snprintf(ip_err, sizeof(ip_err), "%s", lab->err);
		snprintf(
		    lab->err, sizeof(lab->err),
		    "--vpn %s: the tunnel's %s end (%s) is a namespace on this host, whose "
		    "kernel has no ESP %s (modules xfrm_user, esp4; CONFIG_XFRM_USER, "
		    "CONFIG_INET_ESP): %.300s; with a board at both ends (--dut vm:ARCH --sink "
		    "vm:ARCH) the host's kernel needs none",
		    lab->vpn, ns_end == NB_LAB_DUT ? "DUT" : "sink", lab->ns[ns_end], a->xfrm_name,
		    ip_err);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

int nb_lab_vpn_up(struct nb_lab *lab)
{
	struct nb_lab_vpn_spec v;
	if (nb_lab_vpn_parse(lab->vpn, &v)) {
		snprintf(lab->err, sizeof(lab->err), "unknown VPN '%s'", lab->vpn);
		return -EINVAL;
	}
	if (!strcmp(v.kind, "wireguard"))
		return wg_up(lab);
	return esp_up(lab, esp_find(v.algo));
}

int nb_lab_crypto_driver_set(struct nb_lab *lab, int *old_priority)
{
	struct nb_lab_vpn_spec v;
	struct nb_crypto_raise r;
	const struct esp_algo *a = NULL;
	char why[300];
	int ret;

	if (!nb_lab_vpn_parse(lab->vpn, &v) && !strcmp(v.kind, "esp"))
		a = esp_find(v.algo);
	ret = nb_crypto_driver_raise(lab->crypto_driver, a ? a->algos : NULL, &r, why, sizeof(why));
	if (ret) {
		snprintf(lab->err, sizeof(lab->err), "--crypto-driver %s: %s", lab->crypto_driver,
			 why);
		return ret;
	}
	*old_priority = r.old_priority;
	return 0;
}
