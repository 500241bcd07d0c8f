/* netbench tput: being written. */
#include <stdio.h>
#include "commands.h"
int cmd_tput(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netbench tput: not yet\n");
	return 1;
}
