/* SPDX-License-Identifier: BSD-2-Clause */
/* The lab's state file: read and written whole (through a temporary file and rename, so that a
 * reader never sees half of it). */
#include "core/lab/lab_state.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/atomicfile.h"
#include "core/lab/lab_board.h"

void nb_lab_state_read(struct nb_lab *lab, struct nb_lab_state *s)
{
	FILE *f = fopen(lab->state_path, "re");
	char line[256], val[128];

	memset(s, 0, sizeof(*s));
	s->board_role = -1;
	s->board2_role = -1;
	if (!f)
		return;
	s->found = true;
	while (fgets(line, sizeof(line), f)) {
		unsigned long v = 0;
		if (sscanf(line, "phase %127s", val) == 1)
			s->complete = !strcmp(val, "up");
		else if (sscanf(line, "ipv6 %lu", &v) == 1)
			s->ipv6 = v != 0;
		else if (sscanf(line, "mtu %lu", &v) == 1)
			s->mtu = (unsigned)v;
		else if (sscanf(line, "dut_cpus %lu", &v) == 1)
			s->dut_cpus = (unsigned)v;
		else if (sscanf(line, "port %lu", &v) == 1)
			s->port = (unsigned)v;
		else if (sscanf(line, "agent %lu", &v) == 1)
			s->agent = (unsigned)v;
		else if (sscanf(line, "creator %lu", &v) == 1)
			s->creator = (long)v;
		else if (sscanf(line, "vpn %39s", s->vpn) == 1)
			;
		else if (sscanf(line, "board2 sink %15s %255s", s->board2_arch, s->board2_dir) == 2)
			s->board2_role = NB_LAB_SINK; /* before "board", which would take it too */
		else if (sscanf(line, "board %15s %15s %255s", val, s->board_arch, s->board_dir) ==
			 3)
			s->board_role = !strcmp(val, "dut") ? NB_LAB_DUT : NB_LAB_SINK;
		else if (sscanf(line, "crypto_driver %63s %d", s->crypto_driver,
				&s->crypto_old_prio) == 2)
			;
		else if (sscanf(line, "ruleset %15s %lu %127s", s->kind, &v, val) >= 2) {
			s->rules_n = v;
			s->ruleset = true;
			s->rules_ipv6 = strstr(line, " ipv6") != NULL;
		}
	}
	fclose(f);
}

int nb_lab_state_write(struct nb_lab *lab, const struct nb_lab_state *s)
{
	struct nb_atomic_file a;
	FILE *f;
	int ret = nb_atomic_open(&a, lab->state_path, 0644);

	if (ret)
		return ret;
	f = a.f;
	fprintf(f, "# netbench lab: what `lab up` created; `lab down` removes it\n");
	fprintf(f,
		"phase %s\nnamespaces %s %s %s\nipv6 %d\nmtu %u\ndut_cpus %u\nport %u\n"
		"agent %u\n",
		s->complete ? "up" : "creating", lab->ns[0], lab->ns[1], lab->ns[2], s->ipv6,
		s->mtu, s->dut_cpus, s->port, s->agent);
	if (s->ruleset)
		fprintf(f, "ruleset %s %zu%s\n", s->kind, s->rules_n, s->rules_ipv6 ? " ipv6" : "");
	if (s->vpn[0])
		fprintf(f, "vpn %s\n", s->vpn);
	if (!s->complete)
		fprintf(f, "creator %ld\n", (long)getpid());
	if (s->board_role >= 0)
		fprintf(f, "board %s %s %s\n", s->board_role == NB_LAB_DUT ? "dut" : "sink",
			s->board_arch, s->board_dir);
	if (s->board2_role >= 0)
		fprintf(f, "board2 sink %s %s\n", s->board2_arch, s->board2_dir);
	if (s->crypto_driver[0])
		fprintf(f, "crypto_driver %s %d\n", s->crypto_driver, s->crypto_old_prio);
	return nb_atomic_commit(&a);
}

void nb_lab_board_from_state(struct nb_lab *lab)
{
	struct nb_lab_state s;

	nb_lab_state_read(lab, &s);
	if (s.board_role < 0 || lab->board.role >= 0)
		return;
	lab->board.role = s.board_role;
	snprintf(lab->board.arch, sizeof(lab->board.arch), "%s", s.board_arch);
	snprintf(lab->board.dir, sizeof(lab->board.dir), "%s", s.board_dir);
	nb_lab_board_image(lab); /* its kernel's name and console for status */
	if (s.board2_role >= 0) {
		lab->board2.role = s.board2_role;
		snprintf(lab->board2.arch, sizeof(lab->board2.arch), "%s", s.board2_arch);
		snprintf(lab->board2.dir, sizeof(lab->board2.dir), "%s", s.board2_dir);
		nb_lab_board_swap(lab);
		nb_lab_board_image(lab);
		nb_lab_board_swap(lab);
	}
	lab->err[0] = '\0';
}
