/* SPDX-License-Identifier: BSD-2-Clause */
/* Parsers of the kernel's text files the observer reads: /proc/stat (per CPU),
 * /proc/net/softnet_stat, /proc/interrupts and /proc/net/stat/nf_conntrack. Each takes the text
 * as read, so tests drive them with recorded files; no line may overflow a field or the arrays. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/cpu.h"
#include "core/observe/obs.h"

/* Next line of text into line (truncated to len-1); returns the text after it, NULL at end. */
static const char *next_line(const char *p, char *line, size_t len)
{
	size_t n;
	const char *e;
	if (!p || !*p)
		return NULL;
	e = strchr(p, '\n');
	n = e ? (size_t)(e - p) : strlen(p);
	if (n >= len)
		n = len - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	return e ? e + 1 : p + strlen(p);
}

/* The per-CPU lines, through the one /proc/stat line parser (core/base/cpu.c). */
int nb_obs_parse_stat(const char *text, struct nb_obs_snap *s)
{
	char line[512];
	const char *p = text;
	s->ncpu = 0;
	/* The CPU lines come first; the rest (interrupts, context switches, softirqs) is not
	 * the sample's, and the interrupt line alone is most of the file: stop before it. */
	while (!strncmp(p, "cpu", 3) && (p = next_line(p, line, sizeof(line)))) {
		struct nb_cpu_ticks t;
		long id;
		if (nb_cpu_parse_stat_line(line, &id, &t, NULL) || id < 0 || s->ncpu >= NB_OBS_CPUS)
			continue;
		s->cpu[s->ncpu++] =
		    (struct nb_obs_cpu){(uint32_t)id, t.user, t.nice,	 t.system, t.idle,
					t.iowait,     t.irq,  t.softirq, t.steal};
	}
	return s->ncpu ? 0 : -EINVAL;
}

int nb_obs_parse_softnet(const char *text, struct nb_obs_snap *s)
{
	char line[512];
	const char *p = text;
	uint32_t row = 0;
	s->nsoftnet = 0;
	while ((p = next_line(p, line, sizeof(line)))) {
		unsigned long v[16];
		int n = 0;
		char *q = line;
		while (n < 16) {
			char *e;
			v[n] = strtoul(q, &e, 16);
			if (e == q)
				break;
			n++;
			q = e;
		}
		if (n < 3)
			return -EINVAL;
		if (s->nsoftnet < NB_OBS_CPUS) {
			struct nb_obs_softnet *r = &s->softnet[s->nsoftnet++];
			/* Since Linux 5.10 the 13th column is the CPU id; before, rows are the
			 * online CPUs in order, which is the row number on a box without offline
			 * CPUs. */
			r->cpu = n >= 13 ? (uint32_t)v[12] : row;
			r->processed = v[0];
			r->dropped = v[1];
			r->squeezed = v[2];
		}
		row++;
	}
	return s->nsoftnet ? 0 : -EINVAL;
}

int nb_obs_parse_interrupts(const char *text, struct nb_obs_irq *irq, uint32_t nirq_max,
			    uint32_t *nirq)
{
	char line[1024];
	const char *p = text;
	int ncols = 0;
	*nirq = 0;
	p = next_line(p, line, sizeof(line));
	if (!p)
		return -EINVAL;
	for (char *q = line; (q = strstr(q, "CPU")); q += 3)
		ncols++;
	if (!ncols)
		return -EINVAL;
	while ((p = next_line(p, line, sizeof(line)))) {
		char *q = line, *colon = strchr(line, ':');
		uint64_t sum = 0;
		int i;
		if (!colon)
			continue;
		*colon = '\0';
		while (*q == ' ')
			q++;
		char label[16];
		size_t ll = strnlen(q, sizeof(label) - 1);
		memcpy(label, q, ll);
		label[ll] = '\0';
		q = colon + 1;
		for (i = 0; i < ncols; i++) {
			char *e;
			unsigned long long v = strtoull(q, &e, 10);
			if (e == q)
				break;
			sum += v;
			q = e;
		}
		if (i == 0)
			continue;
		/* The rest: chip, hw irq, trigger, then the action names. Numbered lines are named
		 * by their last word (the NIC queue, "eth0-rx-0"); named lines (NMI, LOC, RES) by
		 * label. */
		while (*q == ' ')
			q++;
		const char *name = label;
		if (isdigit((unsigned char)label[0])) {
			char *last = q + strlen(q);
			while (last > q && last[-1] == ' ')
				*--last = '\0';
			char *sp = strrchr(q, ' ');
			name = sp ? sp + 1 : q;
			if (!*name)
				name = label;
		}
		if (*nirq >= nirq_max)
			continue;
		struct nb_obs_irq *r = &irq[(*nirq)++];
		if (name == label)
			snprintf(r->name, sizeof(r->name), "%s", label);
		else
			snprintf(r->name, sizeof(r->name), "%s:%.*s", label,
				 (int)(sizeof(r->name) - strlen(label) - 2), name);
		r->count = sum;
	}
	return 0;
}

int nb_obs_parse_ct_stat(const char *text, uint64_t *insert_failed, uint64_t *drop,
			 uint64_t *early_drop)
{
	char line[1024];
	const char *p = text;
	int col_if = -1, col_drop = -1, col_edrop = -1, ncol = 0;
	char *tok, *save;
	*insert_failed = *drop = *early_drop = 0;
	p = next_line(p, line, sizeof(line));
	if (!p)
		return -EINVAL;
	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), ncol++) {
		if (!strcmp(tok, "insert_failed"))
			col_if = ncol;
		else if (!strcmp(tok, "drop"))
			col_drop = ncol;
		else if (!strcmp(tok, "early_drop"))
			col_edrop = ncol;
	}
	if (col_if < 0 && col_drop < 0)
		return -EINVAL;
	while ((p = next_line(p, line, sizeof(line)))) {
		int c = 0;
		for (tok = strtok_r(line, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save), c++) {
			char *e;
			uint64_t v = strtoull(tok, &e, 16);
			if (*e)
				return -EINVAL;
			if (c == col_if)
				*insert_failed += v;
			else if (c == col_drop)
				*drop += v;
			else if (c == col_edrop)
				*early_drop += v;
		}
	}
	return 0;
}

bool nb_obs_eth_interesting(const char *name)
{
	static const char *const words[] = {"drop",   "miss",  "err",	  "fifo", "over", "discard",
					    "no_buf", "nobuf", "no_desc", "full", NULL};
	char low[NB_OBS_NAME * 2];
	size_t i;
	for (i = 0; name[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	if (strstr(low, "ifindex"))
		return false;
	for (i = 0; words[i]; i++)
		if (strstr(low, words[i]))
			return true;
	return false;
}

int nb_obs_parse_cpumask(const char *text, uint64_t *mask)
{
	uint64_t m = 0;
	const char *p = text;
	int digits = 0;
	for (; *p && *p != '\n'; p++) {
		int v;
		if (*p == ',')
			continue;
		if (*p >= '0' && *p <= '9')
			v = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			v = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			v = *p - 'A' + 10;
		else
			return -EINVAL;
		m = (m << 4) | (uint64_t)v; /* higher groups shift out: CPUs >= 64 */
		digits++;
	}
	if (!digits)
		return -EINVAL;
	*mask = m;
	return 0;
}

int nb_obs_parse_cpulist(const char *text, uint64_t *mask)
{
	const char *p = text;
	uint64_t m = 0;
	if (!p || !*p)
		return -EINVAL;
	while (*p) {
		char *e;
		unsigned long a, b;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &e, 10);
		b = a;
		if (*e == '-') {
			if (e[1] < '0' || e[1] > '9')
				return -EINVAL;
			b = strtoul(e + 1, &e, 10);
		}
		if (a > 63 || b > 63 || b < a)
			return -EINVAL;
		for (unsigned long c = a; c <= b; c++)
			m |= 1ULL << c;
		if (*e == ',' && e[1])
			e++;
		else if (*e)
			return -EINVAL;
		p = e;
	}
	*mask = m;
	return 0;
}
