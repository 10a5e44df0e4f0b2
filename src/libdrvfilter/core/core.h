/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: the context, diagnostics, whole files and names. */
#ifndef DRVFILTER_CORE_H
#define DRVFILTER_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "macro.h"

/* ---- context ---- */

struct df_ctx;
struct df_initcalls;

typedef void (*df_log_fn)(void *data, int priority, const char *file, int line, const char *fn,
			  const char *format, va_list args);

/*
 * @sysroot: NULL or "/" for the running system; otherwise every /sys, /proc,
 * /run, /etc and /lib/modules path is taken under it (fixture trees).
 */
int df_ctx_new(const char *sysroot, struct df_ctx **ret);
struct df_ctx *df_ctx_ref(struct df_ctx *ctx);
struct df_ctx *df_ctx_unref(struct df_ctx *ctx);
/* Default: no logging at all. Priorities are syslog's (LOG_ERR ... LOG_DEBUG). */
void df_ctx_set_log_fn(struct df_ctx *ctx, df_log_fn fn, void *data);
void df_ctx_set_log_priority(struct df_ctx *ctx, int priority);
/* Log through the context's function, as the library does. */
__attribute__((format(printf, 3, 4))) void df_ctx_log(const struct df_ctx *ctx, int priority,
						      const char *format, ...);
/* NULL for the running system. */
const char *df_ctx_get_sysroot(const struct df_ctx *ctx);
/*
 * Take /lib/modules from under @root (not the sysroot): the initramfs reads
 * the real root's module tree at /sysroot before switch_root. NULL: the
 * sysroot's again. 0 or -ENOMEM.
 */
int df_ctx_set_modules_root(struct df_ctx *ctx, const char *root);
const char *df_ctx_get_modules_root(const struct df_ctx *ctx);
/*
 * Another kernel than the system's own (one being installed): its release
 * names the module tree (/lib/modules/RELEASE) and /boot/config-RELEASE;
 * kallsyms and the kernel log, which are the running kernel's, then tell
 * nothing about it. NULL: the system's own again. 0, -EINVAL for a name that
 * is no kernel release, or -ENOMEM.
 */
int df_ctx_set_kernel(struct df_ctx *ctx, const char *release);
const char *df_ctx_get_kernel(const struct df_ctx *ctx);
/*
 * The command line the next boot starts from (a file such as
 * /etc/kernel/cmdline), instead of the system's /proc/cmdline, for the room
 * boot options leave. NULL: /proc/cmdline again. 0 or -ENOMEM.
 */
int df_ctx_set_cmdline(struct df_ctx *ctx, const char *cmdline);
const char *df_ctx_get_cmdline(const struct df_ctx *ctx);
/* @path (absolute) under the context's sysroot, as a new string; NULL when out of memory. */
char *df_ctx_path(const struct df_ctx *ctx, const char *path);
/*
 * Whether the context's system is an initramfs: one of dracut's or
 * systemd's (/etc/initrd-release) or of initramfs-tools (/conf/initramfs.conf,
 * which mkinitramfs puts into every image). 1, 0 or -ENOMEM.
 */
int df_in_initramfs(const struct df_ctx *ctx);
/*
 * Which builder made the initramfs this runs in, from what each leaves in its
 * images: "dracut", "initramfs-tools", "systemd" (a systemd initrd of another
 * builder: mkosi, ...) or "unknown" (static strings).
 */
const char *df_initramfs_builder(const struct df_ctx *ctx);

/* ---- diagnostics: what `check` reports, as data ---- */

enum df_severity {
	DF_WARNING,
	DF_ERROR,
};

struct df_diag {
	enum df_severity severity;
	unsigned line; /* 1-based; 0 when the message is about the whole file */
	char *message; /* printable: bytes from the input are escaped */
	const char *file; /* the file it is about (a drop-in, say); NULL: the diags' file */
};

/* At most this many are kept; errors and warnings count them all. */
#define DF_DIAGS_KEPT 100

struct df_diags {
	char *file; /* the policy (its main file) */
	struct df_diag *items;
	size_t count;
	size_t errors;
	size_t warnings;
	char **files; /* the files messages are about, in the order they were read */
	size_t nfiles;
	size_t current; /* what df_diags_add() says messages are about: files[current - 1]; 0: file */
};

void df_diags_init(struct df_diags *d);
void df_diags_release(struct df_diags *d);
/* Messages added from now on are about @path (a copy is kept); NULL: the main file. */
int df_diags_set_file(struct df_diags *d, const char *path);
/* The file a message is about. */
const char *df_diag_file(const struct df_diags *d, const struct df_diag *g);
const char *df_severity_name(enum df_severity s);

/* ---- files ---- */

/*
 * Everything @fd holds, at most @max bytes, as a new NUL-terminated buffer:
 * 0, -EFBIG when it holds more, -ENOMEM, or -errno (EINTR retried).
 */
int df_read_full_fd(int fd, size_t max, char **ret, size_t *ret_len);

/* All @len bytes of @buf to @fd: 0, or -errno (EINTR retried; -EIO for a write of 0). */
int df_write_full_fd(int fd, const char *buf, size_t len);

/*
 * A small file (@path, absolute, under the context's sysroot) into @buf
 * (@size bytes, NUL included) without its trailing newlines: the length,
 * -EFBIG when it does not fit, -EBADMSG when it holds a NUL, or -errno.
 */
ssize_t df_read_file(const struct df_ctx *ctx, const char *path, char *buf, size_t size);

/*
 * Serialise appliers (boot, udev events, `drvfilterctl apply`) and writers
 * of the policy (`drvfilterctl edit`, `allow`, `deny`): an exclusive flock on
 * DF_LOCK_PATH (under the sysroot), waited for at most DF_LOCK_WAIT_USEC. The
 * descriptor, held until closed, or -errno (-ETIMEDOUT, -EINVAL when the
 * lock is not a regular file).
 */
#define DF_LOCK_PATH "/run/drvfilter/lock"
#define DF_LOCK_WAIT_USEC (30LL * 1000 * 1000)
int df_lock_take(struct df_ctx *ctx);

/* ---- names ---- */

#define DF_NAME_MAX 255
/* 0 when a name read from the tree (a directory entry, a link's target) may be used in a path. */
int df_sysfs_name_check(const char *name);
/* 0 when @name can be a bus (or driver) name in a policy, else -EINVAL with *@why set. */
int df_bus_name_check(const char *name, const char **why);
int df_driver_name_check(const char *name, const char **why);
/* The longest module name: the kernel's MODULE_NAME_LEN, 56 with its NUL. */
#define DF_MODNAME_MAX 55
/*
 * 0 when @name can be a module's name ([A-Za-z0-9_-], 1 to DF_MODNAME_MAX
 * bytes), the only names that may reach modprobe.d or a command line.
 */
int df_modname_check(const char *name);
/* Room for a name of DF_NAME_MAX bytes escaped by df_esc(), and its "...". */
#define DF_ESC_SIZE (4 * DF_NAME_MAX + 4)
/*
 * @s for a message: printable ASCII as it is, a backslash doubled, any other
 * byte as \xNN, cut after DF_NAME_MAX bytes ("..."). Returns @buf.
 */
const char *df_esc(const char *s, char buf[DF_ESC_SIZE]);
/*
 * A module's name as kmod spells it, every '-' as '_' (virtio-pci is the
 * module virtio_pci), into @buf; -ENAMETOOLONG beyond DF_NAME_MAX bytes.
 */
int df_modname_normalize(const char *name, char buf[DF_NAME_MAX + 1]);
/* The other spelling, every '_' as '-', which drivers often take for their name. */
int df_modname_dashed(const char *name, char buf[DF_NAME_MAX + 1]);
/* Shell-style glob: '*' any run of bytes, '?' one byte; no classes, no escapes. */
bool df_glob_match(const char *pattern, const char *s);

/* ---- kernel command lines, split as the kernel splits them (cmdline.c) ---- */

/* x86's COMMAND_LINE_SIZE: the whole command line, terminating NUL included. */
#define DF_KERNEL_CMDLINE_MAX 2048
/*
 * What the boot options leave free of the command line by default: a tenth
 * of it, for what is added after them (a boot loader's BOOT_IMAGE= and
 * root=UUID=, a distribution's or an operator's options), which the kernel
 * would cut silently past 2047 bytes. An explicit budget may use it.
 */
#define DF_KERNEL_CMDLINE_HEADROOM 204

/* Only [A-Za-z0-9_], 1 to 255 bytes: a function or module name fit for a command line. */
bool df_cmdline_name_ok(const char *name);

/* The boot options a command line carries, split as the kernel splits it. */
struct df_cmdline_opts {
	char **initcalls; /* every initcall_blacklist= entry (the kernel joins them all) */
	size_t ninitcalls;
	char **modules; /* the last module_blacklist= (the kernel keeps only that one) */
	size_t nmodules;
	char *filter_allow, *filter_deny; /* their values, unquoted; NULL when absent */
	bool filter_repeated; /* one of them given more than once */
	char *root; /* the last root= (the one the kernel keeps); NULL when absent */
	char **consoles; /* each console= device, without its options ("ttyS0") */
	size_t nconsoles;
	size_t len; /* the whole line's length */
};

/* Split @cmdline: 0 or -ENOMEM. */
int df_cmdline_opts_parse(const char *cmdline, struct df_cmdline_opts *o);
/*
 * Why a patched kernel denies every driver for @o's filter_* options, as the
 * series decides (patches 18 and 21): one given twice, a line as long as the
 * kernel keeps (a longer one was cut, maybe inside a list), an allow option
 * without a deny option. NULL when it takes them.
 */
const char *df_cmdline_filter_distrust(const struct df_cmdline_opts *o);
/* The same for /proc/cmdline under the sysroot: -errno when it cannot be read. */
int df_cmdline_opts_read(struct df_ctx *ctx, struct df_cmdline_opts *o);
void df_cmdline_opts_release(struct df_cmdline_opts *o);
bool df_cmdline_opts_has(char **list, size_t n, const char *name);
/*
 * 1 when the kernel command line (under the sysroot) holds drvfilter=off, else
 * 0 or -errno. Parameters are split as the kernel splits them (quotes keep
 * blanks, "--" ends them), so a value that merely contains the words does not
 * count.
 */
int df_cmdline_override(struct df_ctx *ctx);
/* The same for the command line @cmdline: 1, 0 or -ENOMEM. */
int df_cmdline_has_override(const char *cmdline);
/*
 * A command line kept in a file (/etc/kernel/cmdline, which kernel-install
 * and the unified kernel image builders take), for cmdline --update:
 * df_cmdline_update() gives @line with the options cmdline computes
 * (filter_*, initcall_blacklist=, module_blacklist=) replaced by @options,
 * which go before "--" (after it the kernel hands them to init) or at the
 * end; df_cmdline_replaced() the options of @line it replaces by others, one
 * per line ("" when none); df_cmdline_running() the running kernel's line
 * less what the boot loader added (BOOT_IMAGE=, initrd=) and drvfilter's and
 * a recording boot's options. 0, -ENOMEM, or -errno reading /proc/cmdline.
 */
int df_cmdline_update(const char *line, const char *options, char **ret);
int df_cmdline_replaced(const char *line, const char *options, char **ret);
int df_cmdline_running(struct df_ctx *ctx, char **ret);

/* ---- cleanup attributes ---- */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_ctx *, df_ctx_unref)

static inline void df_diags_releasep(struct df_diags *d)
{
	df_diags_release(d);
}

#endif
