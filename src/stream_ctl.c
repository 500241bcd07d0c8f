/* netbench stream, controller mode: being written (needs the agent's control protocol). */
#include <stdio.h>

#include "cli.h"
#include "cmd_stream.h"

int stream_run_ctl(const struct stream_opts *o, volatile sig_atomic_t *stop)
{
	(void)o;
	(void)stop;
	cli_fail(0, "agent mode is not available in this build yet: use --send/--recv");
}
