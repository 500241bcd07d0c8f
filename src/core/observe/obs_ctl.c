/* SPDX-License-Identifier: BSD-2-Clause */
/* Observer sessions from the controller: TEST_REQ + START at a trial's start, STOP at its end. */
#include "core/observe/obs_ctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/base/hostport.h"
#include "core/session/ctl.h"

struct nb_obs_ctl {
	char spec[300];
	struct nb_ctl *ctl;
	struct nb_msg *req, *ack;
	bool running;
};

int nb_obs_parse_target(const char *spec, char *host, size_t hostlen, uint16_t *port,
			uint16_t def_port)
{
	const char *h, *p;
	size_t n;
	*port = def_port;
	if (nb_hostport_split(spec, &h, &n, &p) || n >= hostlen)
		return -EINVAL;
	memcpy(host, h, n);
	host[n] = '\0';
	if (p) {
		char *e;
		unsigned long v = strtoul(p, &e, 10);
		if (*e || v < 1 || v > 65535)
			return -EINVAL;
		*port = (uint16_t)v;
	}
	return 0;
}

int nb_obs_ctl_open(struct nb_obs_ctl **out, const char *spec, uint16_t def_port,
		    const uint8_t *psk, size_t psk_len, char *err, size_t errlen)
{
	struct nb_obs_ctl *o = calloc(1, sizeof(*o));
	char host[256];
	uint16_t port;
	int ret = -ENOMEM;
	if (!o)
		return ret;
	snprintf(o->spec, sizeof(o->spec), "%s", spec);
	if (nb_obs_parse_target(spec, host, sizeof(host), &port, def_port)) {
		snprintf(err, errlen, "'%s' is not HOST[:PORT]", spec);
		ret = -EINVAL;
		goto fail;
	}
	if (!(o->req = nb_msg_new(NB_MSG_TEST_REQ)) || !(o->ack = nb_msg_new(0)))
		goto fail;
	if ((ret = nb_ctl_open(&o->ctl, host, port, AF_UNSPEC, psk_len ? psk : NULL, psk_len, err,
			       errlen)))
		goto fail;
	*out = o;
	return 0;
fail:
	nb_obs_ctl_free(o);
	return ret;
}

void nb_obs_ctl_free(struct nb_obs_ctl *o)
{
	if (!o)
		return;
	if (o->ctl && o->running) {
		char e[64];
		(void)nb_ctl_stop(o->ctl, o->ack, 2000, e, sizeof(e));
	}
	nb_ctl_free(o->ctl);
	nb_msg_free(o->req);
	nb_msg_free(o->ack);
	free(o);
}

const char *nb_obs_ctl_name(const struct nb_obs_ctl *o)
{
	return o->spec;
}

const struct nb_sysinfo *nb_obs_ctl_remote(const struct nb_obs_ctl *o)
{
	return &o->ctl->remote;
}

int nb_obs_ctl_begin(struct nb_obs_ctl *o, uint64_t duration_ns, const struct nb_obs_req *req,
		     char *note, size_t notelen, bool *have_freq, char *err, size_t errlen)
{
	uint32_t hf = 1;
	int ret;
	nb_msg_reset(o->req, NB_MSG_TEST_REQ);
	if ((ret = nb_msg_put_u32(o->req, NB_T_TEST_TYPE, NB_TEST_OBSERVE)) ||
	    (ret = nb_msg_put_u64(o->req, NB_T_DURATION_NS, duration_ns)) ||
	    (ret = nb_obs_req_put(o->req, req)))
		return ret;
	if ((ret = nb_ctl_request(o->ctl, o->req, o->ack, err, errlen)))
		return ret;
	if (note && notelen) {
		note[0] = '\0';
		(void)nb_msg_get_str(o->ack, NB_T_OBS_CLOCK_NOTE, note, notelen);
	}
	if (have_freq) {
		(void)nb_msg_get_u32(o->ack, NB_T_OBS_HAVE_FREQ, &hf);
		*have_freq = hf == 1;
	}
	if ((ret = nb_ctl_start(o->ctl, err, errlen)))
		return ret;
	o->running = true;
	return 0;
}

int nb_obs_ctl_end(struct nb_obs_ctl *o, struct nb_obs_snap *w, struct nb_prof_result *prof,
		   char *err, size_t errlen)
{
	int ret;
	if (!o->running) {
		snprintf(err, errlen, "no window begun");
		return -EINVAL;
	}
	o->running = false;
	if ((ret = nb_ctl_stop(o->ctl, o->ack, 5000, err, errlen)))
		return ret;
	if ((ret = nb_obs_window_get(o->ack, w))) {
		snprintf(err, errlen, "malformed observer window");
		return ret;
	}
	if (!prof)
		return 0;
	ret = nb_prof_get(o->ack, prof);
	if (ret < 0) {
		snprintf(err, errlen, "malformed kernel profile");
		return ret;
	}
	if (ret == 0) {
		prof->hz = 1;
		snprintf(prof->why, sizeof(prof->why),
			 "the agent sent none (a netbench without the kernel profile)");
	}
	return 0;
}
