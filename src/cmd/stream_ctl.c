/* netbench stream, controller mode: the agents given with -c receive (several may join one
 * group; each reports its own table), this host sends; with --reverse the one agent sends and
 * this host receives. Per-step counters and CPU loads come from the receiving side's own step
 * windows; the agents' CPU samples at the MARKs around the sweep bound the whole run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "cmd/stream.h"
#include "core/session/auth.h"
#include "core/session/ctl.h"
#include "core/base/result.h"
#include "core/stream/stream_msg.h"
#include "core/base/timeutil.h"

#define MAX_AGENTS  16
#define JOIN_SETTLE (300 * NB_NS_PER_MS) /* membership reports reach the switch/bridge */
#define DRAIN_NS    (300 * NB_NS_PER_MS)
#define CTL_TIMEOUT 10000

struct agent {
	char host[256];
	struct nb_ctl *ctl;
	struct nb_msg *msg;
	struct nb_stream_rx *rx;
	enum nb_stream_end end;
	struct nb_cpu_sample *mark0, *mark1;
	struct nb_cpu_load run_cpu;
};

static size_t split_hosts(const char *list, struct agent *a, size_t max)
{
	size_t n = 0;
	const char *p = list;

	while (*p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (!len || len >= sizeof(a[0].host))
			cli_usage_error("-c: '%s' is not a comma-separated list of hosts", list);
		if (n == max)
			cli_usage_error("-c: at most %zu agents", max);
		memcpy(a[n].host, p, len);
		a[n].host[len] = '\0';
		n++;
		p += len + (c ? 1 : 0);
		if (c && !*p)
			cli_usage_error("-c: '%s' is not a comma-separated list of hosts", list);
	}
	return n;
}

static void fill_req(const struct stream_opts *o, struct nb_stream_req *r, uint32_t role,
		     uint32_t stream_id)
{
	memset(r, 0, sizeof(*r));
	r->role = role;
	/* "" asks the agent for the controller's own address. */
	snprintf(r->addr, sizeof(r->addr), "%s", o->to_controller ? "" : o->sock.addr);
	if (o->sock.iface && role == NB_STREAM_AGENT_RECV)
		snprintf(r->iface, sizeof(r->iface), "%s", o->sock.iface);
	if (o->sock.source)
		snprintf(r->source, sizeof(r->source), "%s", o->sock.source);
	r->port = o->sock.port;
	r->ttl = o->sock.ttl;
	r->flags = (o->sock.loop ? NB_STR_F_LOOP : 0) | (o->sock.reuse ? NB_STR_F_REUSE : 0);
	r->block = (uint32_t)o->block;
	for (size_t i = 0; i < o->nrates; i++)
		r->rates_bps[i] = o->rates[i];
	r->nrates = (uint32_t)o->nrates;
	r->step_ns = o->time_ns;
	r->omit_ns = o->omit_ns;
	r->stream_id = stream_id;
	r->pacing = o->pacing.asked;
	r->burst = o->pacing.burst_asked;
}

static void agents_free(struct agent *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		nb_ctl_free(a[i].ctl);
		nb_msg_free(a[i].msg);
		nb_stream_rx_free(a[i].rx);
		free(a[i].mark0);
		free(a[i].mark1);
	}
}

static void agent_open(struct agent *a, const struct stream_opts *o,
		       const struct nb_stream_req *req)
{
	char err[512];
	struct nb_msg *m;
	int ret;

	a->msg = nb_msg_new(NB_MSG_TEST_REQ);
	a->mark0 = calloc(1, sizeof(*a->mark0));
	a->mark1 = calloc(1, sizeof(*a->mark1));
	if (!a->msg || !a->mark0 || !a->mark1 || nb_stream_rx_new(&a->rx) < 0)
		cli_fail(-ENOMEM, "agent %s", a->host);
	ret = nb_ctl_open(&a->ctl, a->host, o->ctl_port, o->family, o->psk, o->psk_len, err,
			  sizeof(err));
	if (ret < 0)
		cli_fail(0, "agent %s: %s", a->host, err);
	m = a->msg;
	nb_msg_reset(m, NB_MSG_TEST_REQ);
	if (nb_stream_req_put(m, req) < 0)
		cli_fail(-EMSGSIZE, "request");
	ret = nb_ctl_request(a->ctl, m, m, err, sizeof(err));
	if (ret < 0)
		cli_fail(0, "agent %s: %s", a->host, err);
}

static void agent_mark(struct agent *a, uint32_t id, struct nb_cpu_sample *s)
{
	char err[512];

	if (nb_ctl_mark(a->ctl, id, a->msg, err, sizeof(err)) < 0)
		cli_fail(0, "agent %s: %s", a->host, err);
	if (nb_proto_get_cpu(a->msg, s) < 0)
		memset(s, 0, sizeof(*s));
}

static void print_agent_head(const struct agent *a)
{
	const struct nb_sysinfo *si = &a->ctl->remote;
	printf("\nagent %s: %s, %s %s, %u CPU%s%s%s%s\n", a->host, si->hostname, si->arch,
	       si->kernel, si->ncpu, si->cpu_model[0] ? ", " : "", si->cpu_model,
	       si->driver[0] ? ", driver " : "", si->driver);
}

/* The sender's plan and the receiver's expectation must agree step by step: the same window
 * and warm-up, and no more distinct datagrams counted in the window than were sent in it. */
static void reconcile(struct nb_stream_rx *rx, const struct nb_stream_send_step *sent, size_t n)
{
	for (size_t i = 0; i < rx->nsteps; i++) {
		struct nb_stream_step *s = &rx->steps[i];
		if (s->step >= n || s->step_count != sent[s->step].count ||
		    s->omit_count != sent[s->step].omit_count ||
		    s->unique > sent[s->step].datagrams)
			s->unreconciled = true;
	}
}

static int run_forward(struct stream_opts *o, struct agent *a, size_t n,
		       volatile sig_atomic_t *stop)
{
	struct nb_stream_send_step *sent = calloc(o->nrates, sizeof(*sent));
	struct nb_stream_send_opts so;
	struct nb_stream_sock_opts send_sock;
	struct nb_stream_req req;
	struct nb_sysinfo si;
	char err[512];
	uint32_t id = stream_random_id();
	int fd = -1, ret;

	if (!sent)
		cli_fail(-ENOMEM, "sender");
	/* --iface and --source belong to the agents' join; this host sends by its routes. */
	send_sock = o->sock;
	send_sock.iface = NULL;
	send_sock.source = NULL;
	ret = nb_stream_open_send(&send_sock, &fd, err, sizeof(err));
	if (ret < 0)
		cli_usage_error("%s", err);
	if (nb_stream_pacing_setup(fd, NULL, &o->pacing, err, sizeof(err)) < 0)
		cli_fail(0, "%s", err);
	fill_req(o, &req, NB_STREAM_AGENT_RECV, id);
	for (size_t i = 0; i < n; i++)
		agent_open(&a[i], o, &req);
	for (size_t i = 0; i < n; i++)
		if (nb_ctl_start(a[i].ctl, err, sizeof(err)) < 0)
			cli_fail(0, "agent %s: %s", a[i].host, err);
	nb_sleep_until_ns(nb_mono_ns() + JOIN_SETTLE);
	for (size_t i = 0; i < n; i++)
		agent_mark(&a[i], 1, a[i].mark0);
	{
		struct stream_opts local = *o;
		local.sock = send_sock;
		stream_local_sysinfo(&local, &si);
	}
	memset(&so, 0, sizeof(so));
	so.fd = fd;
	so.block = o->block;
	so.rates_bps = o->rates;
	so.nrates = o->nrates;
	so.step_ns = o->time_ns;
	so.omit_ns = o->omit_ns;
	so.stream_id = id;
	so.stop = stop;
	so.pacing = o->pacing.mode;
	so.burst = o->pacing.burst_asked;
	if (!o->json)
		printf("netbench stream: sending to %s port %u, %zu-byte datagrams, %zu step%s of "
		       "%.1f s after %.2f s warm-up; %zu agent%s receiving\n",
		       o->sock.addr, o->sock.port, o->block, o->nrates, o->nrates == 1 ? "" : "s",
		       (double)o->time_ns / 1e9, (double)o->omit_ns / 1e9, n, n == 1 ? "" : "s");
	fflush(stdout);
	ret = nb_stream_send_run(&so, sent);
	if (ret < 0)
		cli_fail(ret, "sending");
	nb_sleep_until_ns(nb_mono_ns() + DRAIN_NS);
	for (size_t i = 0; i < n; i++) {
		agent_mark(&a[i], 2, a[i].mark1);
		nb_cpu_load(a[i].mark0, a[i].mark1, &a[i].run_cpu);
		if (nb_ctl_stop(a[i].ctl, a[i].msg, CTL_TIMEOUT, err, sizeof(err)) < 0)
			cli_fail(0, "agent %s: %s", a[i].host, err);
		if (nb_stream_rx_get(a[i].msg, a[i].rx, &a[i].end) < 0)
			cli_fail(-EBADMSG, "agent %s: counters", a[i].host);
		reconcile(a[i].rx, sent, o->nrates);
	}
	if (o->json) {
		struct nb_json j;
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "stream", &si, n == 1 ? &a[0].ctl->remote : NULL);
		stream_json_params(&j, o, "agents-receive");
		nb_json_bool(&j, "interrupted", *stop != 0);
		stream_json_pacing(&j, &o->pacing);
		stream_json_send(&j, "sent", sent, o->nrates, o->block);
		nb_json_arr_begin(&j, "receivers");
		for (size_t i = 0; i < n; i++) {
			nb_json_obj_begin(&j, NULL);
			nb_json_str(&j, "agent", a[i].host);
			nb_sysinfo_json(&j, "env", &a[i].ctl->remote);
			stream_json_rx(&j, a[i].rx);
			nb_result_cpu(&j, "run_cpu", &a[i].run_cpu);
			nb_json_obj_end(&j);
		}
		nb_json_arr_end(&j);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	} else {
		char who[300];
		snprintf(who, sizeof(who), "\nsent from %s", si.hostname);
		stream_print_send_head(who);
		for (size_t i = 0; i < o->nrates; i++)
			stream_print_send_row(&sent[i], o->block);
		stream_print_pacing(&o->pacing);
		for (size_t i = 0; i < n; i++) {
			print_agent_head(&a[i]);
			stream_print_rx(NULL, a[i].rx);
		}
	}
	close(fd);
	free(sent);
	return 0;
}

static int run_reverse(const struct stream_opts *o, struct agent *a, volatile sig_atomic_t *stop)
{
	struct nb_stream_send_step *sent = calloc(o->nrates, sizeof(*sent));
	struct nb_stream_recv *r = NULL;
	struct nb_stream_rx *rx = NULL;
	struct nb_stream_sock_opts recv_sock;
	struct nb_stream_req req;
	struct nb_sysinfo si;
	char err[512];
	int fd = -1, ret, nsent;
	struct nb_stream_pacing pc;

	if (!sent)
		cli_fail(-ENOMEM, "receiver");
	fill_req(o, &req, NB_STREAM_AGENT_SEND, stream_random_id());
	/* The local socket is checked before the agent is asked, so that bad input is named
	 * here; only "this host" needs the control connection's family first. The agent sends
	 * once started, and the socket is ready before that. */
	recv_sock = o->sock;
	if (o->to_controller) {
		agent_open(a, o, &req);
		recv_sock.addr = a->ctl->local.ss_family == AF_INET6 ? "::" : "0.0.0.0";
	}
	ret = nb_stream_open_recv(&recv_sock, &fd, err, sizeof(err));
	if (ret < 0)
		cli_usage_error("%s", err);
	if (!o->to_controller)
		agent_open(a, o, &req);
	if (nb_stream_recv_new(&r, fd) < 0 || nb_stream_rx_new(&rx) < 0)
		cli_fail(-ENOMEM, "receiver");
	stream_local_sysinfo(o, &si);
	r->end_mono_ns = nb_mono_ns() + (o->time_ns + o->omit_ns) * o->nrates + 5 * NB_NS_PER_S;
	r->idle_ns = o->idle_ns;
	r->stop_on_fin = true;
	r->ext_stop = stop;
	if (nb_ctl_start(a->ctl, err, sizeof(err)) < 0)
		cli_fail(0, "agent %s: %s", a->host, err);
	if (!o->json) {
		printf("netbench stream: agent %s sends to %s port %u, %zu step%s of %.1f s after "
		       "%.2f s warm-up; receiving here\n",
		       a->host, o->to_controller ? "this host" : o->sock.addr, o->sock.port,
		       o->nrates, o->nrates == 1 ? "" : "s", (double)o->time_ns / 1e9,
		       (double)o->omit_ns / 1e9);
		fflush(stdout);
	}
	ret = nb_stream_recv_run(r);
	if (ret < 0)
		cli_fail(ret, "receiving");
	nb_stream_recv_copy(r, rx);
	if (nb_ctl_stop(a->ctl, a->msg, CTL_TIMEOUT, err, sizeof(err)) < 0)
		cli_fail(0, "agent %s: %s", a->host, err);
	nsent = nb_stream_sent_get(a->msg, sent, o->nrates);
	pc = o->pacing;
	if (nsent >= 0 && nb_stream_pacing_get(a->msg, &pc) < 0)
		nsent = -EBADMSG;
	if (nsent < 0)
		cli_fail(-EBADMSG, "agent %s: counters", a->host);
	reconcile(rx, sent, (size_t)nsent);
	if (o->json) {
		struct nb_json j;
		nb_json_init(&j, stdout);
		nb_result_begin(&j, "stream", &si, &a->ctl->remote);
		stream_json_params(&j, o, "agent-sends");
		stream_json_pacing(&j, &pc);
		stream_json_send(&j, "sent", sent, (size_t)nsent, o->block);
		nb_json_arr_begin(&j, "receivers");
		nb_json_obj_begin(&j, NULL);
		nb_json_null(&j, "agent");
		nb_sysinfo_json(&j, "env", &si);
		stream_json_rx(&j, rx);
		nb_json_obj_end(&j);
		nb_json_arr_end(&j);
		nb_json_obj_end(&j);
		fputc('\n', stdout);
	} else {
		print_agent_head(a);
		stream_print_send_head("sent");
		for (int i = 0; i < nsent; i++)
			stream_print_send_row(&sent[i], o->block);
		stream_print_pacing(&pc);
		printf("\nreceived here (%s):\n", si.hostname);
		stream_print_rx(NULL, rx);
	}
	nb_stream_recv_free(r);
	nb_stream_rx_free(rx);
	close(fd);
	free(sent);
	return 0;
}

int stream_run_ctl(struct stream_opts *o, volatile sig_atomic_t *stop)
{
	static struct agent a[MAX_AGENTS];
	size_t n = split_hosts(o->connect, a, MAX_AGENTS);
	int ret;

	if (o->psk_path)
		cli_psk(o->psk_path, o->psk, &o->psk_len);
	if (o->reverse && n > 1)
		cli_usage_error("--reverse takes one agent (the sender), not %zu", n);
	if (!o->multicast && n > 1)
		cli_usage_error(
		    "-a %s is unicast: one agent receives it; use a multicast group for "
		    "%zu agents",
		    o->sock.addr, n);
	ret = o->reverse ? run_reverse(o, &a[0], stop) : run_forward(o, a, n, stop);
	agents_free(a, n);
	return ret;
}
