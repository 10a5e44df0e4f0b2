/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the system area: inventory, the module table, the kernel log. */
#ifndef DRVFILTER_SYSTEM_PRIVATE_H
#define DRVFILTER_SYSTEM_PRIVATE_H

#include "policy/policy-private.h"
#include "system/system.h"

/* ---- driver-dir.c: the directories the enforcement walk reads ---- */

/*
 * The bound devices of the driver directory @drvfd, sorted; links that cannot
 * be read or whose names are not safe are counted in @skipped. The entries
 * are read from @drvfd itself, from its offset: pass a freshly opened one.
 * @unbind (may be NULL): set to whether the listing, read whole, holds an
 * entry "unbind" (1 or 0); left as it was when it could not be read whole.
 */
int df_driver_list_devices(struct df_ctx *ctx, int drvfd, char ***ret, size_t *ret_n,
			   size_t *skipped, int *unbind);
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
 * Fill @b from @devices, the links of the bus's devices/ directory @devicesfd,
 * sorted as df_dir_list_links() gives them (each one's driver link);
 * unreadable links are counted in b->skipped.
 */
int df_busdevs_load(int devicesfd, const struct df_names *devices, struct df_busdevs *b);
void df_busdevs_release(struct df_busdevs *b);

/* 1 and the module's name in @buf, or 0 when there is no module link (built in); -errno. */
int df_driver_module(struct df_ctx *ctx, int drvfd, char *buf, size_t size, bool *builtin);

/* ---- modules.c, module-table.c: libkmod, and the module tree as a table ---- */

struct kmod_ctx;

/* The module tree of the target's kernel, and libkmod's context on it. */
struct df_modules {
	struct df_ctx *ctx;
	struct kmod_ctx *kmod;
	char dirname[PATH_MAX];
	size_t known; /* modules the last df_modules_blacklist() judged */
};

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

/* ---- kmsg.c and module-elf.c: the kernel log, modules' init functions ---- */

/* The kernel log: /dev/kmsg, or the file recorded there under a sysroot. */
int df_kmsg_read(struct df_ctx *ctx, char **ret, size_t *ret_len);
/* The names module_init() gave the init function of the module file @path (added to @names). */
int df_module_init_names(const char *path, struct strv *names);

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

/* Parse kmsg records (cut up in place). */
int df_trace_parse(struct df_trace *t, char *buf);
int df_trace_load(struct df_ctx *ctx, struct df_trace *t);
void df_trace_release(struct df_trace *t);

/* ---- record.c, record-sys.c, record-tree.c: a recording being built ---- */

/* A recording being built beside its target directory. */
struct df_rec {
	struct df_ctx *ctx;
	char *out; /* the directory being built */
	struct df_record_counts *c;
};

/* An entry left out: said, with its name escaped (it may be anything), and counted. */
void df_rec_skip(struct df_rec *rec, const char *what, const char *name, const char *why);
/* @n entries of @where left out for their names: said once, and counted. */
void df_rec_skip_unsafe(struct df_rec *rec, const char *what, const char *where, size_t n);
/* The directory @rel (and its parents) under the output. */
int df_rec_mkdirs(struct df_rec *rec, const char *rel);
/* The file @rel under the output, holding @len bytes of @data. */
int df_rec_put_file(struct df_rec *rec, const char *rel, const char *data, size_t len);
/* The link @rel under the output, to @target (an existing one is kept). */
int df_rec_put_link(struct df_rec *rec, const char *rel, const char *target);
/* Copy the file @path of the system (whole, bounded) to the same path in the recording. */
int df_rec_copy_file(struct df_rec *rec, const char *path, bool count_missing);
/* /sys: buses, drivers, devices, modules and the kernel filter's files. */
int df_rec_sys(struct df_rec *rec);

#endif
