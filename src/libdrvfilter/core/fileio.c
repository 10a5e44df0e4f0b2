// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whole files in and out: one read loop for everything read whole, the
 * atomic writer (temporary file, fsync, rename: all or nothing) for the state
 * file and the blacklist, and the lock that serialises appliers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/core-private.h"
#include "time-util.h"

ssize_t df_read_loop(int fd, char *buf, size_t size)
{
	size_t len = 0;

	while (len < size) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

int df_write_full_fd(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, buf, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		buf += k;
		len -= (size_t)k;
	}
	return 0;
}

int df_read_full_fd(int fd, size_t max, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, size;
	struct stat st;

	/* Room for what the file says it holds, and one byte to see that it did not grow. */
	size = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
			       (size_t)st.st_size < max
		       ? (size_t)st.st_size + 1
		       : 4096;
	for (;;) {
		char *b;
		ssize_t n;

		if (size > max + 1)
			size = max + 1;
		b = realloc(buf, size + 1);
		if (!b)
			return -ENOMEM;
		buf = b;
		n = df_read_loop(fd, buf + len, size - len);
		if (n < 0)
			return (int)n;
		len += (size_t)n;
		if (len > max)
			return -EFBIG;
		if (len < size)
			break;
		size *= 2;
	}
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

/* A stdio stream onto a descriptor whose writes go through write(2) and keep the first error. */
struct sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct sink *s = cookie;
	size_t done = 0;

	while (done < size && !s->err) {
		ssize_t n = write(s->fd, buf + done, size - done);

		if (n < 0 && errno != EINTR)
			s->err = -errno;
		else if (n == 0)
			s->err = -EIO; /* no progress: do not spin */
		else if (n > 0)
			done += (size_t)n;
	}
	return s->err ? 0 : (ssize_t)size;
}

int df_write_file_atomic_with(const struct df_ctx *ctx, const char *dir, const char *name,
			      mode_t mode, int (*fill)(FILE *f, void *data), void *data)
{
	_cleanup_free_ char *d = df_ctx_path(ctx, dir);
	_cleanup_free_ char *tmp = NULL, *dst = NULL;
	_cleanup_close_ int dfd = -1;
	struct sink sink = { -1, 0 };
	FILE *f;
	int r;

	if (!d)
		return -ENOMEM;
	if (mkdir(d, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (asprintf(&tmp, "%s/.%s.XXXXXX", d, name) < 0 || asprintf(&dst, "%s/%s", d, name) < 0)
		return -ENOMEM;
	sink.fd = mkostemp(tmp, O_CLOEXEC);
	if (sink.fd < 0)
		return -errno;
	/* Streamed, not built in memory: a state file of 20,000 actions is megabytes. */
	f = fopencookie(&sink, "w", (cookie_io_functions_t){ .write = sink_write });
	r = f ? fill(f, data) : -ENOMEM;
	if (f && fclose(f) != 0 && r == 0)
		r = -EIO;
	if (sink.err)
		r = sink.err;
	if (r == 0 && fchmod(sink.fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(sink.fd) < 0)
		r = -errno;
	if (close(sink.fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, dst) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	/* The rename is durable only once the directory is on disk too. */
	dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0)
		return -errno;
	return 0;
}

struct bytes {
	const char *data;
	size_t len;
};

static int fill_bytes(FILE *f, void *data)
{
	const struct bytes *b = data;

	return fwrite(b->data, 1, b->len, f) == b->len ? 0 : -EIO;
}

int df_write_file_atomic(const struct df_ctx *ctx, const char *dir, const char *name,
			 const char *data, size_t len, mode_t mode)
{
	struct bytes b = { data, len };

	return df_write_file_atomic_with(ctx, dir, name, mode, fill_bytes, &b);
}

int df_lock_take(struct df_ctx *ctx)
{
	_cleanup_free_ char *dir = df_ctx_path(ctx, "/run/drvfilter");
	_cleanup_free_ char *path = df_ctx_path(ctx, DF_LOCK_PATH);
	long long deadline = now_usec(CLOCK_MONOTONIC) + DF_LOCK_WAIT_USEC;

	if (!dir || !path)
		return -ENOMEM;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	/* Another applier holds it for a fraction of a second; one that hangs is waited out. */
	return df_open_locked(path, O_RDWR, deadline);
}

int df_open_locked(const char *path, int flags, long long deadline)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	/* O_NONBLOCK and a regular file only: a FIFO planted there must not hang the boot. */
	fd = open(path, flags | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		const struct timespec pause = { 0, 10 * 1000 * 1000 };

		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (now_usec(CLOCK_MONOTONIC) > deadline)
			return -ETIMEDOUT;
		nanosleep(&pause, NULL);
	}
	return TAKE_FD(fd);
}
