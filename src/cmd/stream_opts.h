/* SPDX-License-Identifier: BSD-2-Clause */
/* netbench stream's options: the help text, the parsing, and every impossible combination
 * refused with exit 2 (stream.c runs the sender, the receiver or the agents and prints). */
#ifndef NB_STREAM_OPTS_H
#define NB_STREAM_OPTS_H

#include <stdbool.h>

#include "cmd/observe_cli.h"
#include "cmd/save.h"
#include "core/stream/stream_ctl.h"

/* What the command line gave beyond the parameters: options checked once all are read. */
struct stream_given {
	const char *block, *omit; /* -b and -O as typed */
	bool time, rate, pacing;  /* -t; -r or --rates; --pacing or --burst */
};

/* The front end's options: the run's parameters and what only the front end uses. */
struct stream_opts {
	struct nb_stream_params p;
	bool json;
	const char *connect;	/* -c: the agents, comma-separated */
	const char *times_path; /* --recv --timestamps */
	const char *psk_path;
	uint16_t ctl_port;    /* --ctl-port: the agents' without a port of their own */
	struct cli_save save; /* --save, --label, --tag, -o */
	struct obs_cli obs;   /* --observe: a box in the path, over each step's window */
	struct stream_given given;
};

/* Fills o from the command line: the parameters with the stream's address resolved and checked.
 * Exits 2 on a usage error, 0 after printing --help. */
void stream_parse_opts(int argc, char **argv, struct stream_opts *o);

#endif
