// SPDX-License-Identifier: GPL-2.0-only
/*
 * An LD_PRELOAD shim that makes chosen file operations fail, in the manner
 * of kmod's testsuite: the programs under test stay unmodified.
 *
 *   DF_FAULT_OP     open | read | write | fsync | rename | readlink
 *   DF_FAULT_MATCH  a substring of the path, or its end when it ends in "$"
 *                   (for read, write and fsync: the path the descriptor was
 *                   opened with)
 *   DF_FAULT_ERR    EIO, EACCES, ENODEV, ENOENT, EINTR, ENOSPC, EPERM,
 *                   "short" (a write takes one byte less than asked, so a
 *                   one-byte write takes none), or, for open, "vanish": the
 *                   file's directory is renamed away (DIR.gone) just before
 *                   the real open, as when a driver unregisters meanwhile;
 *                   or "remove": the file itself is removed first, as a
 *                   driver that suppresses its bind attributes has no unbind
 *   DF_FAULT_TIMES  how many matching calls fail (default: every one)
 *   DF_FAULT_LOG    a file that gets one line per injected fault
 *
 * Only the calls a program makes through the dynamic linker are seen: the
 * library's own openat/read/write, not glibc's internal ones (fopen, ...).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FD_MAX 4096

static char *fd_path[FD_MAX];
static long times_left = -1;
static int inited;

static const struct {
	const char *name;
	int err;
} errs[] = {
	{ "EIO", EIO },	    { "EACCES", EACCES }, { "ENODEV", ENODEV }, { "ENOENT", ENOENT },
	{ "EINTR", EINTR }, { "ENOSPC", ENOSPC }, { "EPERM", EPERM },	{ "short", 0 },
	{ "vanish", -1 },   { "remove", -2 },
};

static void init(void)
{
	const char *t;

	if (inited)
		return;
	inited = 1;
	t = getenv("DF_FAULT_TIMES");
	if (t)
		times_left = strtol(t, NULL, 10);
}

static void *real(const char *sym)
{
	void *f = dlsym(RTLD_NEXT, sym);

	if (!f)
		abort();
	return f;
}

static void note(const char *op, const char *path, const char *err)
{
	const char *log = getenv("DF_FAULT_LOG");
	FILE *f;

	if (!log)
		return;
	f = fopen(log, "ae");
	if (f) {
		fprintf(f, "%s %s %s\n", op, err, path);
		fclose(f);
	}
}

/* @match anywhere in @path, or, ending in '$', at its end (a directory, not its files). */
static bool matches(const char *path, const char *match)
{
	size_t n = strlen(match), len = strlen(path);

	if (n == 0 || match[n - 1] != '$')
		return strstr(path, match);
	n--;
	return len >= n && strncmp(path + len - n, match, n) == 0;
}

/*
 * Whether this call of @op on @path fails; if so *err is the errno, 0 for a
 * short write, -1 for "vanish", -2 for "remove".
 */
static int should_fail(const char *op, const char *path, int *err)
{
	const char *want_op = getenv("DF_FAULT_OP");
	const char *match = getenv("DF_FAULT_MATCH");
	const char *e = getenv("DF_FAULT_ERR");

	init();
	if (!want_op || !match || !e || !path || strcmp(want_op, op) != 0 || !matches(path, match))
		return 0;
	if (times_left == 0)
		return 0;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		if (strcmp(errs[i].name, e) == 0) {
			if (times_left > 0)
				times_left--;
			*err = errs[i].err;
			note(op, path, e);
			return 1;
		}
	}
	return 0;
}

static void remember(int fd, const char *path)
{
	if (fd < 0 || fd >= FD_MAX)
		return;
	free(fd_path[fd]);
	fd_path[fd] = path ? strdup(path) : NULL;
}

static const char *path_of(int fd)
{
	return fd >= 0 && fd < FD_MAX ? fd_path[fd] : NULL;
}

/* The path @path names relative to @dirfd, as far as this shim knows it. */
static char *full_path(int dirfd, const char *path)
{
	const char *dir = path_of(dirfd);
	char *p;

	if (!path || path[0] == '/' || dirfd == AT_FDCWD || !dir)
		return path ? strdup(path) : NULL;
	if (strcmp(path, ".") == 0)
		return strdup(dir);
	if (asprintf(&p, "%s/%s", dir, path) < 0)
		return NULL;
	return p;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*next)(int, const char *, int, ...);
	mode_t mode = 0;
	int err, fd;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	char *full = full_path(dirfd, path);

	if (should_fail("open", full, &err)) {
		char *slash = full ? strrchr(full, '/') : NULL;
		char gone[4200];

		if (err == -2) {
			/* remove: the file is not there, then the open really happens. */
			if (unlink(full) < 0)
				abort();
		} else if (err != -1 || !slash) {
			free(full);
			errno = err > 0 ? err : EIO;
			return -1;
		} else {
			/* vanish: the directory goes away, then the open really happens. */
			*slash = '\0';
			snprintf(gone, sizeof(gone), "%s.gone", full);
			if (rename(full, gone) < 0)
				abort();
			*slash = '/';
		}
	}
	if (!next)
		next = real("openat");
	fd = next(dirfd, path, flags, mode);
	remember(fd, full);
	free(full);
	return fd;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return openat(AT_FDCWD, path, flags, mode);
}

int mkostemp(char *template, int flags)
{
	static int (*next)(char *, int);
	int fd;

	if (!next)
		next = real("mkostemp");
	fd = next(template, flags);
	remember(fd, template);
	return fd;
}

/* A duplicated descriptor keeps its path. */
int fcntl(int fd, int cmd, ...)
{
	static int (*next)(int, int, ...);
	va_list ap;
	long arg;
	int r;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	if (!next)
		next = real("fcntl");
	r = next(fd, cmd, arg);
	if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) {
		const char *p = path_of(fd);
		char *copy = p ? strdup(p) : NULL;

		remember(r, copy);
		free(copy);
	}
	return r;
}

int close(int fd)
{
	static int (*next)(int);

	remember(fd, NULL);
	if (!next)
		next = real("close");
	return next(fd);
}

ssize_t read(int fd, void *buf, size_t len)
{
	static ssize_t (*next)(int, void *, size_t);
	int err;

	if (should_fail("read", path_of(fd), &err)) {
		errno = err ? err : EIO;
		return -1;
	}
	if (!next)
		next = real("read");
	return next(fd, buf, len);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*next)(int, const void *, size_t);
	int err;

	if (!next)
		next = real("write");
	if (should_fail("write", path_of(fd), &err)) {
		if (err == 0)
			return next(fd, buf, len - 1);
		errno = err;
		return -1;
	}
	return next(fd, buf, len);
}

int fsync(int fd)
{
	static int (*next)(int);
	int err;

	if (should_fail("fsync", path_of(fd), &err)) {
		errno = err ? err : EIO;
		return -1;
	}
	if (!next)
		next = real("fsync");
	return next(fd);
}

int rename(const char *from, const char *to)
{
	static int (*next)(const char *, const char *);
	int err;

	if (should_fail("rename", to, &err)) {
		errno = err ? err : EIO;
		return -1;
	}
	if (!next)
		next = real("rename");
	return next(from, to);
}

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)
{
	static ssize_t (*next)(int, const char *, char *, size_t);
	int err;

	char *full = full_path(dirfd, path);
	int fail = should_fail("readlink", full, &err);

	free(full);
	if (fail) {
		errno = err ? err : EIO;
		return -1;
	}
	if (!next)
		next = real("readlinkat");
	return next(dirfd, path, buf, size);
}
