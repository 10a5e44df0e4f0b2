// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel log, whole: the running kernel's /dev/kmsg, or the copy a
 * recording keeps under its sysroot. The boot options read a boot's init-call
 * trace from it; a recording keeps it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strbuf.h"
#include "system/system-private.h"

/* A kernel log of 16 MiB (log_buf_len=) read as text is at most this. */
#define DF_KMSG_SIZE_MAX (64u * 1024 * 1024)

/* The running kernel's /dev/kmsg, one record per read(2), until there is no more. */
static int read_kmsg_device(int fd, struct strbuf *sb)
{
	char rec[8192 + 1];

	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		int r;

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue; /* EPIPE: records overwritten while reading; go on with the next */
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		r = strbuf_appendn(sb, rec, (size_t)n);
		if (r == 0 && rec[n - 1] != '\n')
			r = strbuf_appendc(sb, '\n');
		if (r < 0)
			return r;
		if (sb->len > DF_KMSG_SIZE_MAX)
			return -EFBIG;
	}
}

int df_kmsg_read(struct df_ctx *ctx, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/dev/kmsg");
	_cleanup_close_ int fd = -1;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int r;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode))
		return df_read_full_fd(fd, DF_KMSG_SIZE_MAX, ret, ret_len);
	if (!S_ISCHR(st.st_mode))
		return -EBADF;
	r = read_kmsg_device(fd, &sb);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret_len = sb.len;
	*ret = strbuf_steal(&sb);
	return *ret ? 0 : -ENOMEM;
}
