/* SPDX-License-Identifier: BSD-2-Clause */
/* HOST:PORT split once (hostport.h). */
#include "core/base/hostport.h"

#include <errno.h>
#include <string.h>

int nb_hostport_split(const char *spec, const char **host, size_t *host_len, const char **port)
{
	const char *colon;

	*host = spec;
	*host_len = spec ? strlen(spec) : 0;
	*port = NULL;
	if (!spec || !*spec)
		return -EINVAL;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close == spec + 1 || (close[1] && close[1] != ':'))
			return -EINVAL;
		*host = spec + 1;
		*host_len = (size_t)(close - *host);
		colon = close[1] == ':' ? close + 1 : NULL;
	} else {
		colon = strchr(spec, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL; /* several colons: a bare IPv6 address, no port */
		else if (colon)
			*host_len = (size_t)(colon - spec);
	}
	if (!*host_len || (colon && !colon[1]))
		return -EINVAL;
	*port = colon ? colon + 1 : NULL;
	return 0;
}
