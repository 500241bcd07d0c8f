/* SPDX-License-Identifier: BSD-2-Clause */
/* nb_hostport_split: the four forms it accepts, where it puts the host and the port's text, and
 * every malformed spec refused. */
#include <errno.h>
#include <string.h>

#include "core/base/hostport.h"
#include "tap.h"

/* spec splits into want_host and want_port (NULL: no port). */
static void splits(const char *spec, const char *want_host, const char *want_port)
{
	const char *h, *p;
	size_t n;
	int ret = nb_hostport_split(spec, &h, &n, &p);
	CHECK(ret == 0 && n == strlen(want_host) && !strncmp(h, want_host, n) &&
		  (want_port ? p && !strcmp(p, want_port) : !p),
	      "'%s' -> host '%.*s' port '%s' (ret %d)", spec, ret ? 0 : (int)n, h, p ? p : "(none)",
	      ret);
}

static void refused(const char *spec)
{
	const char *h, *p;
	size_t n;
	CHECK(nb_hostport_split(spec, &h, &n, &p) == -EINVAL, "'%s' refused", spec ? spec : "NULL");
}

int main(void)
{
	splits("board", "board", NULL);
	splits("192.0.2.1", "192.0.2.1", NULL);
	splits("192.0.2.1:5201", "192.0.2.1", "5201");
	splits("board.example:80", "board.example", "80");
	splits("::1", "::1", NULL);
	splits("fe80::1%eth0", "fe80::1%eth0", NULL);
	splits("[::1]", "::1", NULL);
	splits("[2001:db8::1]:5201", "2001:db8::1", "5201");
	/* The port's text is the caller's to judge: split, not checked. */
	splits("board:0", "board", "0");
	splits("board:http", "board", "http");
	refused(NULL);
	refused("");
	refused(":80");
	refused("board:");
	refused("[]");
	refused("[]:80");
	refused("[::1");
	refused("[::1]x");
	refused("[::1]:");
	refused("[::1]5201");
	return tap_done();
}
