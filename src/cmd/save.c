/* SPDX-License-Identifier: BSD-2-Clause */
/* The measuring subcommands' --save, --label, --tag and -o. There is one document: the test's
 * core builds it as text (core/<test>/<test>_json.c), and the same bytes are printed with -J,
 * written with -o and stored with --save. Nothing here touches stdout's descriptor. */
#include "cmd/save.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/base/atomicfile.h"

void cli_common_option(const struct cli_common *cc, int c, const char *name, int argc, char **argv)
{
	if (c == 'J')
		*cc->json = true;
	else if (!cli_remote_option(cc->remote, c, name) &&
		 !cli_save_option(cc->save, c, argc, argv))
		cli_last_option(argv, c, NULL, cc->usage);
}

void cli_common_other(void *cc, int c, const char *name, int argc, char **argv)
{
	cli_common_option(cc, c, name, argc, argv);
}

bool cli_save_option(struct cli_save *s, int c, int argc, char **argv)
{
	switch (c) {
	case CLI_OPT_SAVE:
		s->save = true;
		s->db = optarg;
		/* --save DB as well as --save=DB: these subcommands take no operands. */
		if (!s->db && optind < argc && argv[optind][0] != '-')
			s->db = argv[optind++];
		if (s->db && !*s->db)
			cli_usage_error("--save: the database path is empty");
		return true;
	case CLI_OPT_LABEL:
		if (strlen(optarg) >= NB_STORE_LABEL_MAX)
			cli_usage_error("--label is too long: %zu bytes (at most %d)",
					strlen(optarg), NB_STORE_LABEL_MAX - 1);
		s->label = optarg;
		return true;
	case CLI_OPT_TAG:
		if (s->ntags == NB_STORE_MAX_TAGS)
			cli_usage_error("--tag: at most %d tags", NB_STORE_MAX_TAGS);
		if (nb_store_tag_parse(optarg, &s->tags[s->ntags]))
			cli_usage_error(
			    "--tag: '%s' is not KEY=VALUE (key: letters, digits, _ - .; "
			    "at most %d bytes; value: printable, no comma, at most %d "
			    "bytes)",
			    optarg, NB_STORE_TAG_KEY_MAX - 1, NB_STORE_TAG_VALUE_MAX - 1);
		for (size_t i = 0; i < s->ntags; i++)
			if (!strcmp(s->tags[i].key, s->tags[s->ntags].key))
				cli_usage_error("--tag: %s is given twice", s->tags[i].key);
		s->ntags++;
		return true;
	case 'o':
		if (!*optarg)
			cli_usage_error("--output: the file name is empty");
		s->out = optarg;
		return true;
	}
	return false;
}

void cli_check_writable(const char *opt, const char *path)
{
	struct stat st;
	char *dir = strdup(path);
	if (!dir)
		cli_fail(ENOMEM, "out of memory");
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			cli_fail(0,
				 "%s: %s is a directory: give a file name (nothing was measured)",
				 opt, path);
		if (access(path, W_OK))
			cli_fail(errno, "%s: cannot write %s (nothing was measured)", opt, path);
	}
	/* The file is written beside itself and renamed: its directory must take a new file. */
	const char *d = dirname(dir);
	if (stat(d, &st) || !S_ISDIR(st.st_mode))
		cli_fail(errno ? errno : ENOTDIR,
			 "%s: the directory %s of %s does not exist (nothing "
			 "was measured)",
			 opt, d, path);
	if (access(d, W_OK | X_OK))
		cli_fail(errno, "%s: cannot create files in %s (nothing was measured)", opt, d);
	free(dir);
}

static const char *save_db(const struct cli_save *s)
{
	const char *db = s->db ? s->db : getenv("NETBENCH_DB");
	return db && *db ? db : NB_STORE_DEFAULT_PATH;
}

void cli_save_start(struct cli_save *s, const char *test, bool json)
{
	s->test = test;
	s->json = json;
	if (!s->save && (s->label || s->ntags))
		cli_usage_error("--label and --tag describe a stored result: add --save");
	if (s->save && !nb_store_available())
		cli_fail(0, "this build has no SQLite: --save needs it (rebuild with "
			    "libsqlite3-dev installed)");
	if (s->out)
		cli_check_writable("--output", s->out);
	if (s->save)
		cli_check_writable("--save", save_db(s));
}

bool cli_save_wants_doc(const struct cli_save *s)
{
	return s->json || s->save || s->out;
}

void cli_save_doc(struct cli_save *s, char *doc, size_t len)
{
	if (s->json) {
		fwrite(doc, 1, len, stdout);
		fflush(stdout);
	}
	if (!s->save && !s->out) {
		free(doc);
		return;
	}
	free(s->doc);
	s->doc = doc;
	s->doc_len = len;
}

/* Writes the document next to FILE and renames it over: FILE is whole or untouched. Returns 0
 * or -errno (said on stderr). */
static int write_output(struct cli_save *s)
{
	struct nb_atomic_file a;
	int ret = nb_atomic_open(&a, s->out, 0644);
	if (ret) {
		cli_warn("--output: cannot write beside %s: %s", s->out, strerror(-ret));
		return ret;
	}
	if (fwrite(s->doc, 1, s->doc_len, a.f) != s->doc_len) {
		ret = -(errno ? errno : EIO);
		nb_atomic_abort(&a);
	} else
		ret = nb_atomic_commit(&a);
	if (ret)
		cli_warn("--output: writing %s: %s", s->out, strerror(-ret));
	return ret;
}

void cli_save_finish(struct cli_save *s)
{
	struct nb_store *st = NULL;
	char err[512] = "";
	int64_t id = 0;
	const char *lost[2];
	size_t nlost = 0;
	int ret;

	if (!s->doc)
		return;
	if (s->out && write_output(s))
		lost[nlost++] = s->out;
	if (s->save) {
		const char *db = save_db(s);
		struct nb_store_add a = {.doc = s->doc,
					 .label = s->label,
					 .source = "save",
					 .tags = s->tags,
					 .ntags = s->ntags};
		ret = nb_store_open(db, &st, err, sizeof(err));
		if (!ret)
			ret = nb_store_add(st, &a, 1, &id, err, sizeof(err));
		nb_store_close(st);
		if (ret) {
			cli_warn("--save: %s", err);
			lost[nlost++] = db;
		} else
			fprintf(stderr, "netbench %s: saved as result %lld in %s\n", s->test,
				(long long)id, db);
	}
	if (nlost) {
		/* The measurement is kept: the document goes where it can still go. */
		if (!s->json) {
			fwrite(s->doc, 1, s->doc_len, stdout);
			fflush(stdout);
		}
		cli_fail(0,
			 "the result could not go to %s%s%s; its JSON document is on standard "
			 "output",
			 lost[0], nlost > 1 ? " nor to " : "", nlost > 1 ? lost[1] : "");
	}
	free(s->doc);
	s->doc = NULL;
}
