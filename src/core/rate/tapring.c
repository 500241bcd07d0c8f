/* SPDX-License-Identifier: BSD-2-Clause */
/* Reads a tap's identity and transmit drops from sysfs (tapring.h). */
#include "core/rate/tapring.h"

#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool name_ok(const char *ifname)
{
	return *ifname && strlen(ifname) < 16 && !strchr(ifname, '/') && strcmp(ifname, ".") &&
	       strcmp(ifname, "..");
}

bool nb_tapring_is_tap(const char *root, const char *ifname)
{
	char path[320];

	if (!name_ok(ifname))
		return false;
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/tun_flags", root, ifname);
	return access(path, F_OK) == 0;
}

int nb_tapring_dropped(const char *root, const char *ifname, uint64_t *dropped)
{
	char path[320], buf[32], *end;
	FILE *f;
	int ret = 0;

	if (!name_ok(ifname))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/statistics/tx_dropped", root, ifname);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		ret = -EIO;
	fclose(f);
	if (ret)
		return ret;
	errno = 0;
	*dropped = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* Whether the open file fdinfo/NAME of a process is the tap ifname. */
static bool fd_is_tap(const char *dir, const char *fd, const char *ifname)
{
	char path[600], line[128];
	bool found = false;
	snprintf(path, sizeof(path), "%s/%s", dir, fd);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		size_t l = strlen(ifname);
		found = !strncmp(line, "iff:\t", 5) && !strncmp(line + 5, ifname, l) &&
			(line[5 + l] == '\n' || line[5 + l] == '\0');
	}
	fclose(f);
	return found;
}

size_t nb_tapring_owners(const char *root, const char *ifname, long *pids, size_t max)
{
	char path[320];
	size_t n = 0;

	if (!name_ok(ifname))
		return 0;
	snprintf(path, sizeof(path), "%s/proc", root);
	DIR *proc = opendir(path);
	if (!proc)
		return 0;
	for (struct dirent *e; n < max && (e = readdir(proc));) {
		char *end, dir[320];
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		snprintf(dir, sizeof(dir), "%s/proc/%ld/fdinfo", root, pid);
		DIR *fds = opendir(dir);
		if (!fds)
			continue;
		bool has = false;
		for (struct dirent *fd; !has && (fd = readdir(fds));)
			has = fd->d_name[0] != '.' && fd_is_tap(dir, fd->d_name, ifname);
		closedir(fds);
		if (has)
			pids[n++] = pid;
	}
	closedir(proc);
	return n;
}

int nb_tapring_proc_cpu_s(const char *root, long pid, double *cpu_s)
{
	char path[320], buf[1024];
	unsigned long long ut, st;
	long hz = sysconf(_SC_CLK_TCK);

	snprintf(path, sizeof(path), "%s/proc/%ld/stat", root, pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After the command name, which may hold spaces and parentheses: state is field 3,
	 * utime and stime fields 14 and 15. */
	const char *p = strrchr(buf, ')');
	if (!p || hz <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -EINVAL;
	*cpu_s = (double)(ut + st) / (double)hz;
	return 0;
}

/* The name under root/run/netns of the network namespace whose file is path (by inode). */
static bool netns_name(const char *root, const char *path, char *name, size_t len)
{
	struct stat want, st;
	char dir[320], p[600];
	bool found = false;
	if (stat(path, &want))
		return false;
	snprintf(dir, sizeof(dir), "%s/run/netns", root);
	DIR *d = opendir(dir);
	if (!d)
		return false;
	for (struct dirent *e; !found && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (!stat(p, &st) && st.st_ino == want.st_ino && st.st_dev == want.st_dev) {
			snprintf(name, len, "%s", e->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

long nb_tapring_owner(const char *root, const char *ifname)
{
	long pids[8], one = -1;
	char path[320], mine[256], theirs[256];
	size_t n = nb_tapring_owners(root, ifname, pids, 8), left = 0;

	snprintf(path, sizeof(path), "%s/proc/self/ns/net", root);
	bool named = netns_name(root, path, mine, sizeof(mine));
	char *dash = named ? strrchr(mine, '-') : NULL;
	size_t pl = dash ? (size_t)(dash - mine) + 1 : 0; /* "PREFIX-" */
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/proc/%ld/ns/net", root, pids[i]);
		if (pl &&
		    !(netns_name(root, path, theirs, sizeof(theirs)) && !strncmp(theirs, mine, pl)))
			continue;
		one = pids[i];
		left++;
	}
	return left == 1 ? one : -1;
}
