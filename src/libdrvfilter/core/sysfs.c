// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one way in and out of /sys, /proc, /run and /lib/modules: paths are taken
 * under the context's sysroot, reads are bounded, a write is one write(2) that
 * must take the whole value, and names read from the tree are checked before
 * they become part of a path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "array.h"
#include "core/core-private.h"
#include "strbuf.h"
#include "strv.h"

/* The bytes a name from sysfs may not hold: '/', and control bytes. */
static const bool name_bad_byte[256] = {
	[0x01 ... 0x1f] = true,
	['/'] = true,
	[0x7f] = true,
};

int df_sysfs_name_check(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = 0;

	/* One pass, a table look-up a byte: every name of every listing comes through here. */
	for (; s[n]; n++)
		if (name_bad_byte[s[n]] || n == DF_NAME_MAX)
			return -EINVAL;
	if (n == 0 || (s[0] == '.' && (n == 1 || (n == 2 && s[1] == '.'))))
		return -EINVAL;
	return 0;
}

int df_open_dir(const struct df_ctx *ctx, const char *path)
{
	_cleanup_free_ char *p = df_ctx_path(ctx, path);
	int fd;

	if (!p)
		return -ENOMEM;
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int df_open_dir_at(int dirfd, const char *rel)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

ssize_t df_read_at(int dirfd, const char *rel, char *buf, size_t size)
{
	_cleanup_close_ int fd = -1;
	ssize_t n;
	size_t len;

	if (size < 2)
		return -EINVAL;
	/* O_NONBLOCK: a FIFO planted in a tree must not hang the boot. */
	do
		fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	/* One byte more than fits tells a value that was cut from one that fits. */
	n = df_read_loop(fd, buf, size);
	if (n < 0)
		return n;
	len = (size_t)n;
	if (len == size)
		return -EFBIG;
	if (memchr(buf, '\0', len))
		return -EBADMSG;
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return (ssize_t)len;
}

ssize_t df_read_file(const struct df_ctx *ctx, const char *path, char *buf, size_t size)
{
	_cleanup_free_ char *p = df_ctx_path(ctx, path);

	if (!p)
		return -ENOMEM;
	return df_read_at(AT_FDCWD, p, buf, size);
}

int df_write_at(int dirfd, const char *rel, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, r = 0;

	/*
	 * O_NOFOLLOW: an attribute is never a symlink; O_TRUNC as a shell's '>'
	 * does; O_NONBLOCK: a FIFO in its place must not hang the boot (with no
	 * reader the open fails with ENXIO).
	 */
	do
		fd = openat(dirfd, rel,
			    O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_TRUNC | O_NONBLOCK);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO; /* sysfs takes a value whole or not at all */
	if (close(fd) < 0 && r == 0 && errno != EINTR)
		r = -errno;
	return r;
}

int df_readlink_name_at(int dirfd, const char *rel, char *buf, size_t size)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlinkat(dirfd, rel, target, sizeof(target));
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (df_sysfs_name_check(base) < 0)
		return -EINVAL;
	if (strlen(base) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, base);
	return 0;
}

int df_dir_next(DIR *d, struct dirent **ret)
{
	struct dirent *de;

	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			*ret = NULL;
			return errno ? -errno : 0;
		}
		if (streq(de->d_name, ".") || streq(de->d_name, ".."))
			continue;
		*ret = de;
		return 1;
	}
}

DIR *df_dir_open_at(int dirfd, const char *rel)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

int df_dir_each(int fd, int (*fn)(void *data, const char *name, unsigned char type), void *data)
{
	/* 8 KiB: a driver's directory (attributes and bound devices) takes one read. */
	char buf[8192] __attribute__((aligned(8)));

	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + off);
			int r;

			off += de->d_reclen;
			if (streq(de->d_name, ".") || streq(de->d_name, ".."))
				continue;
			r = fn(data, de->d_name, de->d_type);
			if (r < 0)
				return r;
		}
	}
}

bool df_entry_is_dir(int dirfd, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return de->d_type == DT_DIR;
	/* /sys/bus/B/drivers/D and /sys/bus/B are directories; a link there is not followed. */
	return fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

/* An image's tree, not a running system: the one kernel whose modules it holds. */
static int only_module_tree(const struct df_ctx *ctx, char *buf, size_t size)
{
	_cleanup_close_ int fd = df_open_dir(ctx, "/lib/modules");
	DIR *d = fd >= 0 ? df_dir_open_at(fd, ".") : NULL;
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return fd < 0 ? fd : -errno;
	while (df_dir_next(d, &de) > 0) {
		struct stat st;

		/* A link to the tree counts: the tree is the image's however it got there. */
		if (df_sysfs_name_check(de->d_name) < 0 ||
		    fstatat(dirfd(d), de->d_name, &st, 0) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (n++ == 0 && strlen(de->d_name) < size)
			strcpy(buf, de->d_name);
	}
	closedir(d);
	return n == 1 ? 0 : -ENOENT;
}

/* The release of the kernel the system runs (or a recording ran). */
static int own_release(const struct df_ctx *ctx, char *buf, size_t size)
{
	struct utsname u;
	ssize_t n;

	if (df_ctx_get_sysroot(ctx)) {
		n = df_read_file(ctx, "/proc/sys/kernel/osrelease", buf, size);
		if (n == -ENOENT)
			return only_module_tree(ctx, buf, size);
		if (n < 0)
			return (int)n;
		return df_sysfs_name_check(buf) < 0 ? -EINVAL : 0;
	}
	if (uname(&u) < 0)
		return -errno;
	if (strlen(u.release) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, u.release);
	return 0;
}

int df_osrelease(const struct df_ctx *ctx, char *buf, size_t size)
{
	const char *kernel = df_ctx_get_kernel(ctx);

	if (!kernel)
		return own_release(ctx, buf, size);
	if (strlen(kernel) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, kernel);
	return 0;
}

bool df_kernel_is_other(const struct df_ctx *ctx)
{
	const char *kernel = df_ctx_get_kernel(ctx);
	char own[DF_NAME_MAX + 1];

	return kernel && (own_release(ctx, own, sizeof(own)) < 0 || !streq(own, kernel));
}

/*
 * The entries of @d that @keep says to, sorted, their unsafe names counted.
 * The names go one after the other into one pool (a bus has thousands,
 * each its own allocation before), and @ret->v points into it.
 */
static int list_names(DIR *d, bool (*keep)(int dirfd, const struct dirent *de),
		      struct df_names *ret)
{
	struct strbuf pool = STRBUF_INIT;
	size_t *off = NULL, cap = 0, n = 0;
	struct dirent *de;
	int r;

	while ((r = df_dir_next(d, &de)) > 0) {
		size_t *slot;

		if (!keep(dirfd(d), de))
			continue;
		if (df_sysfs_name_check(de->d_name) < 0) {
			char esc[DF_ESC_SIZE];

			r = df_names_note_unsafe(ret, df_esc(de->d_name, esc));
			if (r < 0)
				break;
			continue;
		}
		slot = ARRAY_GROW(off, cap, n);
		if (!slot) {
			r = -ENOMEM;
			break;
		}
		*slot = pool.len;
		/* With its NUL: the next name starts after it. */
		r = strbuf_appendn(&pool, de->d_name, strlen(de->d_name) + 1);
		if (r < 0)
			break;
		n++;
	}
	closedir(d);
	if (r >= 0 && n > 0) {
		ret->v = malloc(n * sizeof(*ret->v));
		if (!ret->v)
			r = -ENOMEM;
	}
	if (r < 0) {
		free(off);
		strbuf_release(&pool);
		free(ret->first_unsafe);
		ret->first_unsafe = NULL;
		return r;
	}
	for (size_t i = 0; i < n; i++)
		ret->v[i] = pool.s + off[i];
	free(off);
	ret->pool = strbuf_steal(&pool);
	ret->n = n;
	/* Sorted: logs, state files and tests read the same on every file system. */
	strv_sort_array(ret->v, ret->n);
	return 0;
}

static bool is_dir(int dirfd, const struct dirent *de)
{
	return df_entry_is_dir(dirfd, de);
}

static bool is_link(int dirfd, const struct dirent *de)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_LNK;
	return fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

int df_dir_list_dirs(int parentfd, const char *rel, struct df_names *ret)
{
	DIR *d = df_dir_open_at(parentfd, rel);

	*ret = (struct df_names){ 0 };
	return d ? list_names(d, is_dir, ret) : -errno;
}

int df_names_note_unsafe(struct df_names *names, const char *escaped)
{
	names->unsafe++;
	/* The least of them: the same name on every file system, whatever its order. */
	if (names->first_unsafe && strcmp(escaped, names->first_unsafe) >= 0)
		return 0;
	free(names->first_unsafe);
	names->first_unsafe = strdup(escaped);
	return names->first_unsafe ? 0 : -ENOMEM;
}

void df_names_release(struct df_names *names)
{
	free(names->v);
	free(names->pool);
	free(names->first_unsafe);
	*names = (struct df_names){ 0 };
}

int df_dir_list_links(int dirfd, struct df_names *ret)
{
	DIR *d = df_dir_open_at(dirfd, ".");

	*ret = (struct df_names){ 0 };
	return d ? list_names(d, is_link, ret) : -errno;
}

/* The patched kernel's filter, read: whoever reports on it (inventory, record, enforce). */
int df_kfilter_open(const struct df_ctx *ctx)
{
	return df_open_dir(ctx, DF_KFILTER_DIR);
}

int df_kfilter_read_locked(int kfd)
{
	char buf[DF_FLAG_SIZE];
	ssize_t n = df_read_at(kfd, "locked", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (streq(buf, "0") || streq(buf, "1"))
		return buf[0] - '0';
	return -EBADMSG;
}
