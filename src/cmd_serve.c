/* netbench serve: being written. */
#include <stdio.h>
#include "commands.h"
int cmd_serve(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netbench serve: not yet\n");
	return 1;
}
