/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the core: logging, diagnostics, /sys, whole files. */
#ifndef DRVFILTER_CORE_PRIVATE_H
#define DRVFILTER_CORE_PRIVATE_H

#include <dirent.h>
#include <limits.h>
#include <sys/types.h>
#include <syslog.h>
#include <time.h>

#include "core/core.h"
#include "macro.h"
#include "strmap.h"
#include "strv.h"

_printf_(6, 7) void df_log(const struct df_ctx *ctx, int priority, const char *file, int line,
			   const char *fn, const char *format, ...);

/* Whether a message of @priority would reach the log function (to skip building it). */
bool df_log_enabled(const struct df_ctx *ctx, int priority);
/*
 * Log at @prio: the priority is tested first, so that the arguments of a
 * message nobody reads (a debug line's strerror(), a name built) are not
 * even computed (kmod's kmod_log_cond()).
 */
#define df_log_cond(ctx, prio, ...)                                                   \
	do {                                                                          \
		if (df_log_enabled(ctx, prio))                                        \
			df_log(ctx, prio, __FILE__, __LINE__, __func__, __VA_ARGS__); \
	} while (0)
#define df_dbg(ctx, ...) df_log_cond(ctx, LOG_DEBUG, __VA_ARGS__)

/* Whether @path (absolute) exists under the context's sysroot. */
bool df_ctx_exists(const struct df_ctx *ctx, const char *path);

_printf_(4, 5) int df_diags_add(struct df_diags *d, enum df_severity severity, unsigned line,
				const char *fmt, ...);
/* Order by line, keeping the order of messages on one line. */
void df_diags_sort(struct df_diags *d);

/* ---- sysfs.c: paths under the sysroot, bounded reads, one-write writes ---- */

/* df_sysfs_name_check() is in drvfilter.h. */
/* A directory (absolute @path under the sysroot), as a file descriptor, or -errno. */
int df_open_dir(const struct df_ctx *ctx, const char *path);
int df_open_dir_at(int dirfd, const char *rel);
/*
 * Read a small file into @buf (@size bytes, NUL included) without its trailing
 * newlines: the length, -EFBIG when it does not fit, -EBADMSG when it holds a
 * NUL, or another -errno.
 */
ssize_t df_read_at(int dirfd, const char *rel, char *buf, size_t size);
/* df_read_file(), the same for an absolute path under the sysroot, is in drvfilter.h. */
/* Write @value with one write(2): 0, -EIO on a short write, or -errno. */
int df_write_at(int dirfd, const char *rel, const char *value);
/* The last component of a link's target, checked as df_sysfs_name_check() does. */
int df_readlink_name_at(int dirfd, const char *rel, char *buf, size_t size);
DIR *df_dir_open_at(int dirfd, const char *rel);
/* 1 and the next entry other than "." and "..", 0 at the end, or -errno. */
int df_dir_next(DIR *d, struct dirent **ret);
/*
 * Call @fn with each entry's name (not "." or "..") and d_type of the
 * directory open at @fd, read from the descriptor's current offset with
 * getdents64(2); stops at @fn's first negative return, which it returns.
 */
int df_dir_each(int fd, int (*fn)(void *data, const char *name, unsigned char type), void *data);
bool df_entry_is_dir(int dirfd, const struct dirent *de);
struct df_names {
	char **v; /* pointing into pool */
	size_t n;
	char *pool; /* the names, each after the one before and its NUL */
	size_t unsafe; /* entries left out: names not safe to use */
	char *first_unsafe; /* the least of them, escaped by df_esc(), or NULL */
};

/* Count an unsafe name (@escaped by df_esc()) left out of @names. 0 or -ENOMEM. */
int df_names_note_unsafe(struct df_names *names, const char *escaped);

/* The entries of the directory @dirfd that are symbolic links, sorted (a bus's devices). */
int df_dir_list_links(int dirfd, struct df_names *ret);
/* The subdirectories of @rel (links to directories are not followed), sorted. */
int df_dir_list_dirs(int dirfd, const char *rel, struct df_names *ret);
void df_names_release(struct df_names *names);
/*
 * The kernel release: the one df_ctx_set_kernel() named, else uname(2), or
 * /proc/sys/kernel/osrelease under a sysroot.
 */
int df_osrelease(const struct df_ctx *ctx, char *buf, size_t size);
/*
 * Whether the context names a kernel (df_ctx_set_kernel()) that is not the
 * one the system runs: its kallsyms, kernel log and drivers are not there.
 */
bool df_kernel_is_other(const struct df_ctx *ctx);

/* ---- fileio.c: whole files ---- */

/*
 * Open (creating, 0600) the regular file @path with @flags, never blocking on
 * a FIFO planted there, and take its exclusive flock, waiting until @deadline
 * (CLOCK_MONOTONIC, µs): the descriptor, or -errno (-ETIMEDOUT, -EINVAL for
 * anything but a regular file).
 */
int df_open_locked(const char *path, int flags, long long deadline);

/* Read from @fd into @buf until end of file or @size bytes: the count, or -errno (EINTR retried). */
ssize_t df_read_loop(int fd, char *buf, size_t size);
/* df_read_full_fd() is in drvfilter.h. */
/*
 * @dir/@name (under the sysroot) replaced by temporary file and rename(2),
 * all or nothing; @fill writes the contents to a stream whose write errors
 * (also short writes, EINTR retried) fail the whole. The file and then the
 * directory are fsynced: a failure of the last leaves the new file in
 * place, but not known to be on disk, and is returned.
 */
int df_write_file_atomic_with(const struct df_ctx *ctx, const char *dir, const char *name,
			      mode_t mode, int (*fill)(FILE *f, void *data), void *data);
int df_write_file_atomic(const struct df_ctx *ctx, const char *dir, const char *name,
			 const char *data, size_t len, mode_t mode);

/* ---- kernel-filter.c: the patched kernel's /sys/kernel/driver_filter ---- */

#define DF_KFILTER_DIR "/sys/kernel/driver_filter"
/* An attribute holding a flag ("0", "1"): a read longer than this is not one. */
#define DF_FLAG_SIZE 8

/* The directory of the kernel's filter, or -errno (-ENOENT: a kernel without it). */
int df_kfilter_open(const struct df_ctx *ctx);
/* Its locked attribute: 1, 0, -EBADMSG when it reads as neither, or -errno. */
int df_kfilter_read_locked(int kfd);

/* ---- names.c ---- */

/* Whether @name holds a glob's '*' or '?'. */
bool df_name_is_glob(const char *name);

/*
 * cmdline.c: the target's command line without the options drvfilter
 * sets or a recording adds; a line set with df_ctx_set_cmdline() without the
 * options cmdline computes (filter_*, initcall_blacklist, module_blacklist).
 */
int df_cmdline_rest(struct df_ctx *ctx, char **ret);

#endif
