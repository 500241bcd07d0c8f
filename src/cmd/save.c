/* SPDX-License-Identifier: BSD-2-Clause */
/* The measuring subcommands' --save, --label, --tag and -o. The JSON document is captured by
 * pointing stdout at a temporary file while the front end's own printer runs; the human table
 * is stored as printed, copied by a thread that passes stdout through a pipe to the terminal,
 * so the printers stay as they are and live progress still shows as it comes. */
#include "cmd/save.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cli.h"
#include "core/base/atomicfile.h"
#include "core/store/jdoc.h"

#define TEXT_MAX (4u << 20)

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

static void *tee_main(void *arg)
{
	struct cli_save *s = arg;
	char buf[4096];
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's */
	for (;;) {
		ssize_t n = read(s->pipe_rd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(s->real_stdout, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			off += w;
		}
		if (s->text_len + (size_t)n <= TEXT_MAX) {
			char *p = realloc(s->text, s->text_len + (size_t)n + 1);
			if (p) {
				memcpy(p + s->text_len, buf, (size_t)n);
				s->text_len += (size_t)n;
				p[s->text_len] = '\0';
				s->text = p;
			}
		}
	}
	return NULL;
}

static void tee_stop(struct cli_save *s)
{
	if (!s->teeing)
		return;
	fflush(stdout);
	dup2(s->real_stdout, STDOUT_FILENO); /* the pipe's last writer closes: EOF */
	pthread_join(*(pthread_t *)s->tee_thread, NULL);
	free(s->tee_thread);
	close(s->pipe_rd);
	close(s->real_stdout);
	s->teeing = false;
}

/* A run that fails after printing part of its table exits through cli_fail: the copy thread
 * must pass the rest to the terminal before the process ends. The one pointer it needs. */
static struct cli_save *teeing_now;
static void tee_at_exit(void)
{
	if (teeing_now)
		tee_stop(teeing_now);
}

void cli_save_start(struct cli_save *s, const char *test, bool json)
{
	int fds[2];
	s->test = test;
	s->json = json;
	s->real_stdout = -1;
	s->doc_fd = -1;
	if (!s->save && (s->label || s->ntags))
		cli_usage_error("--label and --tag describe a stored result: add --save");
	if (s->save && !nb_store_available())
		cli_fail(0, "this build has no SQLite: --save needs it (rebuild with "
			    "libsqlite3-dev installed)");
	if (!s->save || json)
		return;
	/* Copy the human output as it is printed: stdout goes through a pipe. */
	fflush(stdout);
	if (isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(fds))
		cli_fail(errno, "pipe");
	s->real_stdout = dup(STDOUT_FILENO);
	if (s->real_stdout < 0 || dup2(fds[1], STDOUT_FILENO) < 0)
		cli_fail(errno, "dup");
	close(fds[1]);
	s->pipe_rd = fds[0];
	pthread_t *t = malloc(sizeof(*t));
	if (!t || pthread_create(t, NULL, tee_main, s))
		cli_fail(ENOMEM, "starting the output copy");
	s->tee_thread = t;
	s->teeing = true;
	teeing_now = s;
	atexit(tee_at_exit);
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

bool cli_save_doc_begin(struct cli_save *s)
{
	char path[] = "/tmp/netbench-doc.XXXXXX";
	int fd;
	if (!s->save && !s->out)
		return false;
	fflush(stdout);
	fd = mkstemp(path);
	if (fd < 0)
		cli_fail(errno, "a temporary file for the JSON document");
	unlink(path);
	s->doc_fd = dup(STDOUT_FILENO);
	if (s->doc_fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		cli_fail(errno, "dup");
	close(fd);
	return true;
}

void cli_save_doc_end(struct cli_save *s)
{
	off_t len;
	if (s->doc_fd < 0)
		return;
	fflush(stdout);
	len = lseek(STDOUT_FILENO, 0, SEEK_END);
	if (len < 0 || len > (off_t)NB_JDOC_MAX_BYTES)
		cli_fail(len < 0 ? errno : EFBIG, "reading the JSON document back");
	s->doc = malloc((size_t)len + 1);
	if (!s->doc || pread(STDOUT_FILENO, s->doc, (size_t)len, 0) != len)
		cli_fail(s->doc ? errno : ENOMEM, "reading the JSON document back");
	s->doc[len] = '\0';
	s->doc_len = (size_t)len;
	if (dup2(s->doc_fd, STDOUT_FILENO) < 0)
		cli_fail(errno, "dup2");
	close(s->doc_fd);
	s->doc_fd = -1;
	if (s->json) {
		fwrite(s->doc, 1, s->doc_len, stdout);
		fflush(stdout);
	}
}

/* Writes the document next to FILE and renames it over: FILE is whole or untouched. */
static void write_output(struct cli_save *s)
{
	struct nb_atomic_file a;
	int ret = nb_atomic_open(&a, s->out, 0644);
	if (ret)
		cli_fail(ret, "--output: cannot write beside %s", s->out);
	if (fwrite(s->doc, 1, s->doc_len, a.f) != s->doc_len) {
		ret = -(errno ? errno : EIO);
		nb_atomic_abort(&a);
		cli_fail(ret, "--output: writing %s", s->out);
	}
	if ((ret = nb_atomic_commit(&a)))
		cli_fail(ret, "--output: writing %s", s->out);
}

void cli_save_finish(struct cli_save *s)
{
	struct nb_store *st = NULL;
	char err[512] = "";
	int64_t id = 0;
	int ret;

	tee_stop(s);
	teeing_now = NULL;
	if (!s->doc)
		return;
	if (s->out)
		write_output(s);
	if (s->save) {
		const char *db = s->db ? s->db : getenv("NETBENCH_DB");
		struct nb_store_add a = {.doc = s->doc,
					 .table_text = s->json ? NULL : s->text,
					 .label = s->label,
					 .source = "save",
					 .tags = s->tags,
					 .ntags = s->ntags};
		if (!db || !*db)
			db = NB_STORE_DEFAULT_PATH;
		ret = nb_store_open(db, &st, err, sizeof(err));
		if (!ret)
			ret = nb_store_add(st, &a, 1, &id, err, sizeof(err));
		nb_store_close(st);
		if (ret)
			cli_fail(0, "--save: %s", err);
		fprintf(stderr, "netbench %s: saved as result %lld in %s\n", s->test, (long long)id,
			db);
	}
	free(s->doc);
	free(s->text);
	s->doc = s->text = NULL;
}
