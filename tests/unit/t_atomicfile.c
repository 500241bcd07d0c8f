/* SPDX-License-Identifier: BSD-2-Clause */
/* Whole-or-nothing writes through an exclusive temporary name: the target gets the content,
 * a symlink planted at the old guessable names is not followed, an abort leaves nothing. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/atomicfile.h"
#include "tap.h"

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/t_atomicfile.XXXXXX", target[256], victim[256], link1[300], link2[300],
	     buf[64];
	struct nb_atomic_file a;
	struct stat sb;

	if (!mkdtemp(dir))
		return 1;
	snprintf(target, sizeof(target), "%s/out.json", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *v = fopen(victim, "w");
	fputs("secret\n", v);
	fclose(v);
	snprintf(link1, sizeof(link1), "%s.tmp%ld", target, (long)getpid());
	snprintf(link2, sizeof(link2), "%s.tmp", target);
	CHECK(symlink(victim, link1) == 0 && symlink(victim, link2) == 0, "symlinks planted");

	CHECK(nb_atomic_open(&a, target, 0644) == 0, "open");
	CHECK(lstat(a.tmp, &sb) == 0 && S_ISREG(sb.st_mode) &&
		  strncmp(a.tmp, target, strlen(target)) == 0,
	      "the temporary file is a new regular file beside the target: %s", a.tmp);
	fputs("{\"ok\":1}\n", a.f);
	CHECK(nb_atomic_commit(&a) == 0, "commit");
	slurp(target, buf, sizeof(buf));
	CHECK(!strcmp(buf, "{\"ok\":1}\n"), "the target holds the content");
	slurp(victim, buf, sizeof(buf));
	CHECK(!strcmp(buf, "secret\n"), "the file the planted symlinks point at is untouched");
	CHECK(lstat(target, &sb) == 0 && S_ISREG(sb.st_mode), "the target is a regular file");
	CHECK(entries(dir) == 4, "no temporary file left (%d entries)", entries(dir));

	CHECK(nb_atomic_open(&a, target, 0600) == 0, "open again");
	fputs("half", a.f);
	nb_atomic_abort(&a);
	slurp(target, buf, sizeof(buf));
	CHECK(!strcmp(buf, "{\"ok\":1}\n") && entries(dir) == 4,
	      "an abort leaves the target as it was and no temporary file");

	char nodir[300];
	snprintf(nodir, sizeof(nodir), "%s/missing/out", dir);
	CHECK(nb_atomic_open(&a, nodir, 0644) == -ENOENT, "a missing directory is -ENOENT");

	unlink(link1);
	unlink(link2);
	unlink(victim);
	unlink(target);
	rmdir(dir);
	return tap_done();
}
