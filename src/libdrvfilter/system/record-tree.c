// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording's tree, written: directories, files and links under the
 * directory being built (never following a link planted there), a file of
 * the system copied whole and bounded, and each entry left out said and
 * counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "system/system-private.h"

/* The largest file a recording copies. */
#define RECORD_FILE_MAX (64u * 1024 * 1024)

void df_rec_skip(struct df_rec *rec, const char *what, const char *name, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	(void)strbuf_append_escaped_max(&sb, name, 128);
	df_log_cond(rec->ctx, LOG_WARNING, "skipped %s '%s': %s", what, strbuf_str(&sb), why);
	strbuf_release(&sb);
	rec->c->skipped++;
}

void df_rec_skip_unsafe(struct df_rec *rec, const char *what, const char *where, size_t n)
{
	if (!n)
		return;
	df_log_cond(rec->ctx, LOG_WARNING, "skipped %zu %s of %s: names not safe to use", n, what,
		    where);
	rec->c->skipped += n;
}

/* Create the parent directories of @rel under the output. */
static int df_rec_mkparents(struct df_rec *rec, const char *rel)
{
	_cleanup_free_ char *path = NULL;

	if (asprintf(&path, "%s/%s", rec->out, rel) < 0)
		return -ENOMEM;
	for (char *s = path + strlen(rec->out) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

int df_rec_mkdirs(struct df_rec *rec, const char *rel)
{
	_cleanup_free_ char *path = NULL;
	int r;

	if (asprintf(&path, "%s/%s/", rec->out, rel) < 0)
		return -ENOMEM;
	r = df_rec_mkparents(rec, path + strlen(rec->out) + 1);
	return r;
}

int df_rec_put_file(struct df_rec *rec, const char *rel, const char *data, size_t len)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	size_t done = 0;
	int r;

	r = df_rec_mkparents(rec, rel);
	if (r < 0)
		return r;
	if (asprintf(&path, "%s/%s", rec->out, rel) < 0)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	rec->c->files++;
	r = close(fd);
	fd = -1;
	return r < 0 ? -errno : 0;
}

int df_rec_put_link(struct df_rec *rec, const char *rel, const char *target)
{
	_cleanup_free_ char *path = NULL;
	int r = df_rec_mkparents(rec, rel);

	if (r < 0)
		return r;
	if (asprintf(&path, "%s/%s", rec->out, rel) < 0)
		return -ENOMEM;
	if (symlink(target, path) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int df_rec_copy_file(struct df_rec *rec, const char *path, bool count_missing)
{
	_cleanup_free_ char *src = df_ctx_path(rec->ctx, path), *data = NULL;
	_cleanup_close_ int fd = -1;
	size_t len;
	int r;

	if (!src)
		return -ENOMEM;
	fd = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno != ENOENT || count_missing) {
			df_log_cond(rec->ctx, LOG_WARNING, "cannot read '%s': %m", path);
			rec->c->skipped++;
		}
		return 0;
	}
	r = df_read_full_fd(fd, RECORD_FILE_MAX, &data, &len);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		df_log_cond(rec->ctx, LOG_WARNING, "cannot read '%s': %s", path, strerror(-r));
		rec->c->skipped++;
		return 0;
	}
	return df_rec_put_file(rec, path + 1, data, len);
}
