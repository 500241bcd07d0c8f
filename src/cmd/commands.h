/* SPDX-License-Identifier: BSD-2-Clause */
/* The subcommands' entry points, one per front end (cmd_<name> in src/cmd/<name>.c); the table
 * that names them with their one-line summaries is in src/main.c. */
#ifndef NB_COMMANDS_H
#define NB_COMMANDS_H

struct nb_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary; /* its line in `netbench --help`; a '\n' goes on under it */
};

int cmd_serve(int argc, char **argv);
int cmd_tput(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_crypto(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_stream(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
