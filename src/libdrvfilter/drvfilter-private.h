/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals shared between its files. */
#ifndef DRVFILTER_PRIVATE_H
#define DRVFILTER_PRIVATE_H

#include <dirent.h>
#include <limits.h>
#include <sys/types.h>
#include <syslog.h>
#include <time.h>

#include "drvfilter.h"
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

_printf_(4, 5) int df_diags_add(struct df_diags *d, enum df_severity severity, unsigned line,
				const char *fmt, ...);
/* Order by line, keeping the order of messages on one line. */
void df_diags_sort(struct df_diags *d);

/* ---- policy-lex.c: the file as lines, for line numbers and what iniparser hides ---- */

/* iniparser 4.1 reads a line into 1024 bytes, newline and NUL included. */
#define DF_INI_LINE_MAX 1022
#define DF_POLICY_SIZE_MAX (1024 * 1024)
/* Text from the file quoted in a message is cut after this many bytes. */
#define DF_QUOTE_MAX 64

/* A section or a key, as the scan read it and iniparser must. */
struct df_lex_entry {
	char *id; /* "section" or "section:key", as iniparser names them (lower case) */
	char *value; /* a key's value as iniparser delivers it; NULL for a section */
	unsigned line; /* where it starts */
	size_t start, end; /* its bytes in the file, comments and continuations included */
};

struct df_lex {
	struct df_lex_entry *entries; /* in file order */
	size_t count;
	size_t cap;
	struct strmap index; /* id -> its index + 1, as a pointer-sized integer */
};

/* Scan @buf (@len bytes) as iniparser will; problems with their lines go to @diags. */
int df_lex_scan(struct df_lex *lex, const char *buf, size_t len, struct df_diags *diags);
/* The entry of @id, NULL when the scan did not see it. */
const struct df_lex_entry *df_lex_find(const struct df_lex *lex, const char *id);
void df_lex_release(struct df_lex *lex);

/* ---- policy.c / match.c ---- */

/* The rules of one list ([allow] or [deny]) for one key. */
struct df_busrules {
	const struct df_rule *all; /* KEY = ALL */
	struct strmap exact; /* name -> const struct df_rule * */
	const struct df_rule **globs;
	size_t nglobs;
	size_t capglobs;
};

struct df_ruleset {
	struct strmap buses; /* bus -> struct df_busrules * */
	struct df_busrules any; /* rules under the ALL key */
};

struct df_entry {
	enum df_section section;
	char *key; /* bus name, or "ALL" */
	bool any_bus;
	unsigned line;
	const char *file; /* one of the policy's files */
	char *names; /* the list, split in place: rules[i].name points into it */
	struct df_rule *rules;
	size_t nrules;
};

struct df_policy {
	char *path;
	char **files; /* path first, then its drop-ins */
	size_t nfiles;
	struct df_entry *entries; /* [allow] and [deny] lines, in file order */
	size_t nentries;
	size_t capentries;
	struct df_ruleset allow;
	struct df_ruleset deny;
	struct strmap devrules; /* "bus:driver" -> struct df_devrules *: [allow] DRIVER@ID */
	struct df_rule default_rule;
	bool default_allows;
	enum df_bound bound;
	enum df_mode mode;
	bool lock;
	enum df_measure measure;
	unsigned measure_pcr; /* DF_MEASURE_PCR_DEFAULT, or pcr:N */
	unsigned measure_line; /* where measure is set; 0: not set */
	const char *measure_file; /* ... in which file; NULL: the policy's */
	bool protect_boot; /* no denied driver of the boot devices (lint-boot.c) */
	bool fail_closed; /* not read from a file: see df_policy_new_fail_closed() */
	char sha256[65]; /* of the bytes read; empty for a fail-closed policy */
};

/* The device rules of one driver of one bus. */
struct df_devrules {
	char *key; /* "bus:driver", the map's key */
	const struct df_rule **v;
	size_t n, cap;
};

int df_ruleset_add(struct df_ruleset *set, const struct df_rule *r, bool any_bus);
int df_devrules_add(struct strmap *map, const struct df_rule *r);
void df_devrules_release(struct strmap *map);
void df_ruleset_release(struct df_ruleset *set);
/* The most specific rule of @set matching @driver on @bus (lower case), or NULL. */
const struct df_rule *df_ruleset_match(const struct df_ruleset *set, const char *bus,
				       const char *driver);
const struct df_rule *df_busrules_match(const struct df_busrules *br, const char *driver);
bool df_name_is_glob(const char *name);

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
	char **v;
	size_t n;
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

/* ---- inventory.c: pieces the enforcement walk shares ---- */

/*
 * The bound devices of the driver directory @drvfd, sorted; links that cannot
 * be read or whose names are not safe are counted in @skipped. The entries
 * are read from @drvfd itself, from its offset: pass a freshly opened one.
 */
int df_driver_list_devices(struct df_ctx *ctx, int drvfd, char ***ret, size_t *ret_n,
			   size_t *skipped);
/* The devices of a bus by the driver they are bound to: driver name -> struct strv * (sorted). */
struct df_busdevs {
	struct strmap map;
	struct df_busdevs_entry *entries; /* the map's keys and values */
	size_t n, cap;
	size_t skipped; /* devices whose driver link cannot be read, or names not safe to use */
};
struct df_busdevs_entry {
	char *driver;
	struct strv devices;
};
#define DF_BUSDEVS_INIT                    \
	{                                  \
		STRMAP_INIT, NULL, 0, 0, 0 \
	}

/*
 * Fill @b from @devices, the links of the bus's devices/ directory @devicesfd
 * (each one's driver link); unreadable links are counted in b->skipped.
 */
int df_busdevs_load(int devicesfd, const struct df_names *devices, struct df_busdevs *b);
void df_busdevs_release(struct df_busdevs *b);

/* 1 and the module's name in @buf, or 0 when there is no module link (built in); -errno. */
int df_driver_module(struct df_ctx *ctx, int drvfd, char *buf, size_t size, bool *builtin);

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

/* ---- modules.c: the module tree as a table, for the boot options ---- */

/* What one loadable module is known to provide. */
struct df_modinfo {
	char *name;
	struct strv buses; /* from its device aliases */
	struct strv drivers; /* "bus:driver", when loaded */
	bool loaded; /* loaded, with drivers: those are exact */
	size_t dependents; /* modules that need it (modules.dep) */
	char *path; /* its file, or NULL when modules.dep does not list it */
};

struct df_modtable {
	struct strmap map; /* name -> struct df_modinfo * */
	struct df_modinfo **all;
	size_t n, cap;
};

/* Every module with device aliases or loaded drivers, with its dependents and file. */
int df_modtable_load(struct df_modules *m, struct df_modtable *t);
void df_modtable_release(struct df_modtable *t);
/* The names of the tree's modules, loadable (modules.dep) and built in (modules.builtin), '_' spelling. */
int df_modules_names(struct df_modules *m, struct strv *names);
/* A module that provides a denied driver and no allowed one (as the fallback blacklist judges). */
bool df_modinfo_denied(const struct df_policy *p, const struct df_modinfo *mi);

/* ---- initcalls.c: kallsyms' init calls, the init-call trace, modules' init functions ---- */

/* One init call of the kernel image. */
struct df_initcall {
	char *module; /* KBUILD_MODNAME: the module, or the object file of code never modular */
	char *fn; /* the function: what initcall_blacklist= names */
	char level[8]; /* "early", "0" ... "7s", "rootfs", "con" */
	bool device; /* level 6 or 6s: module_init() of a built-in module */
	bool shared; /* another init call has a function of the same name */
};

struct df_initcalls {
	struct df_initcall *v;
	size_t n;
	size_t skipped; /* __initcall__kmod_ symbols that did not parse or held unsafe names */
	struct strmap by_fn; /* fn -> struct df_initcall * (one of them when shared) */
};

/* Split "__initcall__kmod_<module>__<id>_<line>_<fn><level>": -EINVAL when it is not one. */
int df_initcall_parse(const char *symbol, char **module, char **fn, char level[static 8]);
/* /proc/kallsyms under the sysroot: -errno when it cannot be read. */
int df_initcalls_load(struct df_ctx *ctx, struct df_initcalls *ic);
void df_initcalls_release(struct df_initcalls *ic);

/* What one built-in init call registered, as the kernel log of its boot says. */
struct df_trace_call {
	char *fn;
	struct strv drivers; /* "bus:driver" */
	struct strv buses;
	struct strv classes;
	bool returned; /* its "initcall ... returned" line was seen */
	bool ambiguous; /* called more than once by this name */
};

struct df_trace {
	struct df_trace_call **calls;
	size_t n;
	struct strmap by_fn; /* fn -> struct df_trace_call * */
	size_t records; /* kernel log records read */
	size_t ncalls_seen; /* "calling" lines of built-in init calls */
	size_t registrations; /* "add driver" lines, inside init calls or not */
	bool from_start; /* the log begins with the boot's first record */
};

/* The kernel log: /dev/kmsg, or the file recorded there under a sysroot. */
int df_kmsg_read(struct df_ctx *ctx, char **ret, size_t *ret_len);
/* Parse kmsg records (cut up in place). */
int df_trace_parse(struct df_trace *t, char *buf);
int df_trace_load(struct df_ctx *ctx, struct df_trace *t);
void df_trace_release(struct df_trace *t);
/* The names module_init() gave the init function of the module file @path (added to @names). */
int df_module_init_names(const char *path, struct strv *names);

/*
 * cmdline-opts.c: the target's command line without the options drvfilter
 * sets or a recording adds; a line set with df_ctx_set_cmdline() without the
 * options cmdline computes (filter_*, initcall_blacklist, module_blacklist).
 */
int df_cmdline_rest(struct df_ctx *ctx, char **ret);

/* lint.c: warnings about rules that conflict or cannot match. */
int df_policy_lint(const struct df_policy *p, struct df_diags *diags);

#endif
