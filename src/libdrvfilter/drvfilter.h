/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libdrvfilter: the policy engine behind drvfilterctl and drvfilter-apply.
 *
 * Conventions (kmod's): an opaque, reference-counted context; functions return
 * 0 or a negative errno and hand results back through the last parameter; the
 * library never prints, it logs through a function the caller may set.
 */
#ifndef DRVFILTER_H
#define DRVFILTER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
	size_t cap;
	size_t errors;
	size_t warnings;
	char **files; /* the files messages are about, in the order they were read */
	size_t nfiles;
	const char *current; /* what df_diags_add() says messages are about; NULL: file */
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

/* ---- devices: the identities device rules match ---- */

/* What a device is, as device rules see it: one or more IDs of its bus's form. */
struct df_device_id {
	const char *bus;
	char ids[8][32]; /* pci "1af4:1041:1af4:1100", virtio "1:1af4", pnp/acpi "PNP0501" */
	size_t n;
};

/* 0 when @pattern is a device ID (with '?', '*') of @bus's form, else -EINVAL and why. */
int df_device_pattern_check(const char *bus, const char *pattern, const char **why);
/* Whether one of @id's IDs matches @pattern (a shorter PCI pattern ignores the subsystem). */
bool df_device_match(const char *pattern, const struct df_device_id *id);
/* The IDs of device @device of @bus, from sysfs: -EOPNOTSUPP for a bus without them. */
int df_device_id_read(struct df_ctx *ctx, const char *bus, const char *device,
		      struct df_device_id *id);

/* ---- policy ---- */

enum df_section {
	DF_SECTION_ALLOW,
	DF_SECTION_DENY,
	DF_SECTION_FILTER,
};

enum df_bound {
	DF_BOUND_UNBIND,
	DF_BOUND_KEEP,
};

enum df_mode {
	DF_MODE_AUTO,
	DF_MODE_KERNEL,
	DF_MODE_FALLBACK,
	/* A policy's mode only: decide and log what auto would do, enforce nothing. */
	DF_MODE_AUDIT,
};

/* One name of one KEY = LIST line, or the default. */
struct df_rule {
	enum df_section section;
	const char *key; /* a bus, "ALL", or "default" */
	const char *name; /* a driver name, a glob, "ALL", or "allow"/"deny" for the default */
	unsigned line; /* 0: not written in the file (the implicit default) */
	const char
		*file; /* the file it is written in (the policy's or a drop-in); NULL with line 0 */
	const char *device; /* [allow] DRIVER@ID: the devices it may take; NULL: any */
};

/* [filter] measure: where apply extends its event (see drvfilter-apply(8)). */
enum df_measure {
	DF_MEASURE_NO,
	DF_MEASURE_AUTO, /* the TPM and the TDX RTMR when there are, PCR DF_MEASURE_PCR_DEFAULT */
	DF_MEASURE_PCR, /* pcr:N: a TPM must be there */
};

/*
 * PCR 8: in the operating system's range (8-15, which the UEFI CC mapping
 * puts on TDX RTMR 2), not one systemd-pcrlock predicts (11-15) or IMA's
 * (10); only GRUB writes to it ("commands and kernel command line", the
 * UAPI group's Linux TPM PCR Registry), so on a UKI or direct kernel boot
 * it holds drvfilter's events alone. See drvfilter.conf(5).
 */
#define DF_MEASURE_PCR_DEFAULT 8

struct df_verdict {
	bool allowed;
	const struct df_rule *rule; /* never NULL */
	/*
	 * Allowed by device rules only (DRIVER@ID): only the devices one of them
	 * matches (df_policy_decide_device()). For a device, with allowed false:
	 * refused because no device rule of the driver matches it (rule: the first).
	 */
	bool restricted;
};

struct df_policy;

/* The policy file may belong to another user and be writable by others (tests, sysroots). */
#define DF_LOAD_ANY_OWNER (1u << 0)
/* Read the drop-ins too: PATH.d/NAME.conf after PATH, in lexical order. */
#define DF_LOAD_DROPINS (1u << 1)
/* ... and the runtime ones, /run/drvfilter.conf.d/NAME.conf (under the sysroot), last. */
#define DF_LOAD_RUNTIME (1u << 2)
/* Where the runtime drop-ins are (drvfilterctl allow/deny write there). */
#define DF_RUNTIME_DROPIN_DIR "/run/drvfilter.conf.d"

/*
 * Read and validate the policy at @path, with its drop-ins as @flags say:
 * one set, in order; lists of one section and key are joined across files; a
 * [filter] setting is made in one file only. Every problem goes into @diags,
 * which the caller initialised, with its file; the diags' file is @path.
 * Returns 0 and the policy when there is no error (warnings allowed), -EINVAL
 * when the file has errors, another negative errno when it could not be read.
 */
int df_policy_load(struct df_ctx *ctx, const char *path, unsigned flags, struct df_diags *diags,
		   struct df_policy **ret);
/* A file of a policy's set as it would be: new text for it, not yet on disk. */
struct df_policy_source {
	const char *path; /* the policy's path, or a drop-in's as the loader names it */
	const char *buf;
	size_t len;
};

/*
 * df_policy_load() with @edited standing in for the file at its path (a
 * drop-in that does not exist yet joins the set): what `edit` checks before
 * it installs exactly these bytes.
 */
int df_policy_load_edited(struct df_ctx *ctx, const char *path, unsigned flags,
			  const struct df_policy_source *edited, struct df_diags *diags,
			  struct df_policy **ret);
/*
 * The policy text @text (@len bytes) with @name added to (@add) or taken out
 * of the list of @key in [@section] (allow or deny), and every other byte as
 * it was: the list's own line changes, or a "KEY = NAME" line ends the
 * section, or a new section ends the file; a list left empty loses its line,
 * a section left empty (no key, no comment) its header. Only a name written
 * alone is taken out, never a device rule (NAME@ID). Returns 1 and the new
 * text (*@ret, *@ret_len), 0 when there is nothing to change, -EINVAL with
 * the reason in @diags (the scan's errors, a list continued over lines, a
 * line that would be too long, or a result that would read otherwise than
 * the one change), -ENOMEM.
 */
int df_policy_edit_list(const char *text, size_t len, enum df_section section, const char *key,
			const char *name, bool add, struct df_diags *diags, char **ret,
			size_t *ret_len);
/* df_policy_check_system() and df_policy_check_names(): a driver name the target does not know is an error. */
#define DF_CHECK_STRICT (1u << 0)
/* df_policy_check_system(): the policy is for another machine; no boot devices' guard. */
#define DF_CHECK_OTHER_MACHINE (1u << 1)
/*
 * What needs the target (the running system, or the sysroot: a fixture, a
 * recording, a bare module tree): buses the policy names that it lacks, the
 * policy's driver names (df_policy_check_names()) and the boot devices'
 * guard (df_policy_check_boot()).
 */
int df_policy_check_system(struct df_ctx *ctx, const struct df_policy *p, unsigned flags,
			   struct df_diags *diags);
/*
 * The boot devices' guard (lint-boot.c): each driver that the target's root
 * file system, its consoles, or the TPM the policy measures into need, and
 * that the policy denies, is an error (a warning in audit mode or with
 * [filter] protect_boot = no), told at the rule that denies it. A target
 * whose devices are not known (a bare module tree) is not guarded.
 */
int df_policy_check_boot(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags);
/*
 * The driver names of @p's [allow] and [deny] rules (those of @file alone
 * when it is not NULL, and of them the "bus:driver" @subjects alone when
 * they are not NULL) against what the target knows: its registered
 * drivers, its loaded, loadable and built-in modules and which drivers its
 * loaded modules register. A name it does not know is a warning with what
 * it may have meant (an error with DF_CHECK_STRICT); a name made of two
 * known names and a blank is an error: a comma is missing. A target that
 * knows nothing is not checked (said at debug level).
 */
int df_policy_check_names(struct df_ctx *ctx, const struct df_policy *p, const char *file,
			  char *const *subjects, size_t nsubjects, unsigned flags,
			  struct df_diags *diags);
struct df_policy *df_policy_free(struct df_policy *p);
/*
 * What boot enforces when the policy at @path cannot be read or is invalid:
 * every driver denied, devices bound now left bound (bound = keep), locked.
 */
int df_policy_new_fail_closed(const char *path, struct df_policy **ret);

const char *df_policy_path(const struct df_policy *p);
/* The files read, @path first, then the drop-ins in the order they were read. */
size_t df_policy_nfiles(const struct df_policy *p);
const char *df_policy_file(const struct df_policy *p, size_t i);
/*
 * The policy's digest, in hex: the SHA-256 of the file's bytes as read when
 * it is one file; with drop-ins, of each file's name and bytes in order (see
 * drvfilter.conf(5)). "" for a fail-closed policy.
 */
const char *df_policy_sha256(const struct df_policy *p);
bool df_policy_default_allows(const struct df_policy *p);
enum df_bound df_policy_bound(const struct df_policy *p);
enum df_mode df_policy_mode(const struct df_policy *p);
bool df_policy_lock(const struct df_policy *p);
/* The measure setting, and in @pcr (may be NULL) the PCR it names or the default. */
enum df_measure df_policy_measure(const struct df_policy *p, unsigned *pcr);

/*
 * Decide for driver @driver on bus @bus: an [allow] match wins, then a [deny]
 * match, then the default. Within a list the most specific rule is reported:
 * the exact name, then a glob (in file order), then ALL; the bus's own key
 * before the ALL key. Bus names compare without regard to case.
 */
void df_policy_decide(const struct df_policy *p, const char *bus, const char *driver,
		      struct df_verdict *v);

/* The [allow] and [deny] rules, in the order of the files and their lines. */
size_t df_policy_nrules(const struct df_policy *p);
const struct df_rule *df_policy_rule(const struct df_policy *p, size_t i);

/*
 * The same for one device (@id, of the bus's IDs, as df_device_id_read()
 * gives them): a driver allowed by device rules only is allowed for it when
 * one of them matches, else refused (allowed false, restricted true). @id
 * NULL or without IDs: such a driver is refused.
 */
void df_policy_decide_device(const struct df_policy *p, const char *bus, const char *driver,
			     const struct df_device_id *id, struct df_verdict *v);
/* Whether the policy has device rules at all. */
bool df_policy_has_device_rules(const struct df_policy *p);

/* "[allow] pci = e1000", "[filter] default = deny"; a new string, NULL without memory. */
char *df_rule_describe(const struct df_rule *r);

/* ---- kernel boot options ---- */

/* x86's COMMAND_LINE_SIZE: the whole command line, terminating NUL included. */
#define DF_KERNEL_CMDLINE_MAX 2048
/*
 * What the boot options leave free of the command line by default: a tenth
 * of it, for what is added after them (a boot loader's BOOT_IMAGE= and
 * root=UUID=, a distribution's or an operator's options), which the kernel
 * would cut silently past 2047 bytes. An explicit budget may use it.
 */
#define DF_KERNEL_CMDLINE_HEADROOM 204

/*
 * The boot options equivalent to @p ("\"filter_deny_drivers=...\" \"filter_allow_drivers=...\"":
 * deny first, so that a line cut short fails closed, and each option quoted
 * whole, so that GRUB keeps ';' and blanks), "" for a policy that allows everything.
 * Returns 0, -ENOMEM, or -E2BIG when they would not fit on a kernel command
 * line (the string is still returned, so the caller can say how long it is).
 */
int df_policy_kernel_options(const struct df_policy *p, char **ret);
/*
 * The two lists as /sys/kernel/driver_filter/{allow,deny} take them: the boot
 * options' values, unquoted ("" for an empty list). Each goes in one write
 * with its newline, which sysfs takes up to a page: at most
 * DF_KERNEL_LIST_MAX bytes and the newline (the loader refuses a longer one
 * unless mode = fallback).
 */
#define DF_KERNEL_LIST_MAX 4094
int df_policy_kernel_lists(const struct df_policy *p, char **allow, char **deny);

/* ---- inventory: what /sys says about buses, drivers and devices ---- */

struct df_device {
	char *name; /* as in /sys/bus/B/devices */
	char *driver; /* NULL: not bound */
	bool firmware_node; /* described by the firmware (ACPI): a device the host offers */
	char *modalias; /* NULL: none */
	char *label; /* "vendor model" from the hwdb, or NULL */
	char **candidates; /* modules whose aliases match @modalias (unbound devices) */
	size_t ncandidates;
};

struct df_driver {
	char *name;
	char *module; /* the module it belongs to, or NULL when nothing names one */
	bool builtin; /* built into the kernel image (cannot be blacklisted) */
	int allowed; /* the kernel's allowed attribute: 0, 1, or -1 when absent */
	char **devices; /* bound devices, sorted */
	size_t ndevices;
	/* links that may be bound devices but could not be read or had unsafe names */
	size_t nunknown;
};

struct df_bus {
	char *name;
	struct df_driver *drivers; /* sorted by name */
	size_t ndrivers;
	struct df_device *devices; /* sorted by name */
	size_t ndevices;
};

struct df_inventory {
	struct df_bus *buses; /* sorted by name */
	size_t nbuses;
	bool kernel_filter; /* /sys/kernel/driver_filter exists: the patched kernel */
	int locked; /* its locked attribute: 0, 1, or -1 when absent */
	size_t skipped; /* entries left out: unreadable, or with names not safe to use */
	char **skipped_what; /* what each was and why, names escaped ("bus pci: driver e1000: ...") */
	size_t nskipped_what;
};

/* Also list every device of every bus, with its modalias. */
#define DF_INV_DEVICES (1u << 0)

int df_inventory_load(struct df_ctx *ctx, unsigned flags, struct df_inventory **ret);
struct df_inventory *df_inventory_free(struct df_inventory *inv);
const struct df_bus *df_inventory_bus(const struct df_inventory *inv, const char *name);
const struct df_driver *df_bus_driver(const struct df_bus *bus, const char *name);

/* ---- modules: libkmod's aliases, and the fallback blacklist ---- */

struct df_modules;

/*
 * The modules of the running kernel (/lib/modules/RELEASE under the sysroot,
 * or under the context's modules root when it has one); -ENOENT without.
 */
int df_modules_open(struct df_ctx *ctx, struct df_modules **ret);
struct df_modules *df_modules_free(struct df_modules *m);
/* The modules whose aliases match @modalias. */
int df_modules_lookup(struct df_modules *m, const char *modalias, char ***ret, size_t *ret_n);
/*
 * Decide for a module not loaded yet, taken to provide a driver of its own
 * name on @bus: allowed when that name, or the name with '-' for '_', is.
 */
int df_module_decide(const struct df_policy *p, const char *bus, const char *module,
		     struct df_verdict *v);
/*
 * The modules to blacklist in fallback mode, sorted: those providing a denied
 * driver and no allowed one, judged by the exact drivers of loaded modules and
 * by name on their alias buses for the others. Modules without device aliases
 * are never listed.
 */
int df_modules_blacklist(struct df_modules *m, const struct df_policy *p, char ***ret,
			 size_t *ret_n);
/* The module tree @m reads: /lib/modules/RELEASE under the sysroot. */
const char *df_modules_dir(const struct df_modules *m);
/* How many modules the last df_modules_blacklist() judged: with device aliases, or loaded. */
size_t df_modules_known(const struct df_modules *m);

/*
 * After a driver is allowed at run time on a kernel without the filter: offer
 * it every unbound device of its bus through its bind file (the kernel binds
 * only the devices it matches). *@bound says how many it took.
 */
int df_bind_waiting(struct df_ctx *ctx, const char *bus, const char *driver, size_t *bound);

/* A module of this name exists (loadable or built in). */
bool df_modules_exists(struct df_modules *m, const char *name);
/*
 * Warnings for fallback mode: exact names in the policy that are neither a
 * registered driver on their bus nor a module's name, so that no module can
 * be tied to them before it loads.
 */
int df_policy_fallback_notes(const struct df_policy *p, const struct df_inventory *inv,
			     struct df_modules *m, struct df_diags *diags);

/* Fill in device labels from udev's hwdb; -ENOENT when there is no hwdb. */
int df_inventory_add_labels(struct df_inventory *inv);
/* Name the module of built-in drivers without a module link, from modules.builtin. */
int df_inventory_add_modules(struct df_inventory *inv, struct df_modules *m);
/* Fill in the candidate modules of unbound devices. */
int df_inventory_add_candidates(struct df_inventory *inv, struct df_modules *m);

/* ---- boot options on every kernel: initcall_blacklist= and module_blacklist= ---- */

/* Only [A-Za-z0-9_], 1 to 255 bytes: a function or module name fit for a command line. */
bool df_cmdline_name_ok(const char *name);

enum df_bootopt_kind {
	DF_BOOTOPT_INITCALL, /* initcall_blacklist=FN: a built-in module's init never runs */
	DF_BOOTOPT_MODULE, /* module_blacklist=M: the kernel refuses to load M, insmod included */
};

/* Why an option ranks where it does, most urgent first. */
enum df_bootopt_tier {
	DF_TIER_BOUND, /* built in, a denied driver of it drove a device the host offers */
	DF_TIER_HOST_BUS, /* built in, denied drivers on a bus the host populates */
	DF_TIER_OTHER_BUS, /* built in, denied drivers on other buses */
	DF_TIER_DEVICE_MODULE, /* loadable, drives a device of this system (or was loaded) */
	DF_TIER_MODULE, /* loadable, the rest of the module tree */
	DF_TIER_COUNT,
};

struct df_bootopt {
	enum df_bootopt_kind kind;
	enum df_bootopt_tier tier;
	char *name; /* the init function, or the module */
	char *module; /* the module */
	char **drivers; /* "bus:driver" it keeps from running, when known */
	size_t ndrivers;
	bool fits; /* within the budget: on the command line */
};

/* A denied built-in driver or module the boot options cannot cover, and why. */
struct df_uncovered {
	char *subject; /* "bus:driver" (built in), or a module's name */
	bool module;
	enum df_bootopt_tier tier; /* as it would have ranked */
	char *reason;
};

struct df_bootopts {
	char release[DF_NAME_MAX + 1]; /* the target kernel; "" when none is known */
	bool patched; /* it has the driver filter */
	bool filter; /* the filter_* options are included (patched, or not known to lack it) */
	bool trace; /* an init-call trace tells what each built-in init call registers */
	char trace_why[192]; /* when not: why */
	bool initcalls; /* kallsyms named the init calls */
	size_t ninitcalls;
	bool modules; /* a module tree was read */
	size_t nmodules; /* loadable modules whose drivers are all denied */
	size_t unreadable; /* module files whose init function could not be read */
	size_t trace_skipped; /* init calls the traced boot itself skipped: not in its trace */
	size_t record_skipped; /* entries the recording under the sysroot says it left out */
	char *line; /* the options ("" when none) */
	char *rest; /* the target's command line without the options drvfilter sets */
	size_t max_bytes; /* the budget for @line */
	size_t headroom; /* left free of the command line past it (0: an explicit budget) */
	struct df_bootopt *entries; /* every option, ranked; fits says which are on the line */
	size_t nentries;
	struct df_uncovered *uncovered; /* sorted by subject */
	size_t nuncovered;
	size_t fit[DF_TIER_COUNT],
		left[DF_TIER_COUNT]; /* options on the line, and beyond the budget */
	struct df_initcalls *kallsyms; /* internal */
};

/* Use the default budget: what the target's recorded command line leaves of 2047 bytes. */
#define DF_BOOTOPTS_DEFAULT_BUDGET 0

/*
 * The boot options for @p on the target kernel: the running one, or the one
 * recorded under the context's sysroot (its kallsyms, kernel log, /sys,
 * /proc/cmdline and /lib/modules). @inv (with devices) and @m may be NULL:
 * they are then read here. Returns 0, -ENOMEM, or -E2BIG when the filter_*
 * options alone exceed the budget (the result is still returned).
 */
int df_bootopts_compute(struct df_ctx *ctx, const struct df_policy *p,
			const struct df_inventory *inv, struct df_modules *m, size_t max_bytes,
			struct df_bootopts **ret);
struct df_bootopts *df_bootopts_free(struct df_bootopts *b);
/* The module of the built-in init function @fn, from kallsyms; NULL when not known. */
const char *df_bootopts_initcall_module(const struct df_bootopts *b, const char *fn);
const char *df_bootopt_tier_name(enum df_bootopt_tier tier);

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

/* ---- record: what drvfilter reads of a running system, as a tree for --sysroot ---- */

struct df_record_counts {
	size_t buses, drivers, devices, modules, initcalls, kmsg_records, files;
	size_t skipped; /* entries that could not be read or had unsafe names */
	size_t modules_unread; /* module files whose init function could not be read */
	bool initramfs; /* recorded inside an initramfs: its module tree is a subset */
};

/*
 * Record the context's system (the running one, or its sysroot) into the new
 * directory @dir, with the policy @policy (an absolute path of that system)
 * and its drop-in directory: the tree is built beside @dir and renamed into
 * place whole, so a failed recording leaves nothing. -EEXIST when @dir exists.
 */
int df_record_system(struct df_ctx *ctx, const char *dir, const char *policy,
		     struct df_record_counts *counts);

/* ---- enforcement: what drvfilter-apply and `drvfilterctl apply` do ---- */

enum df_action_kind {
	DF_ACT_KERNEL_LIST, /* /sys/kernel/driver_filter/{allow,deny} written */
	DF_ACT_ALLOWED, /* a driver's allowed attribute written */
	DF_ACT_UNBIND, /* a device detached from a denied driver */
	DF_ACT_KEEP, /* a device left on a denied driver (bound = keep): a violation */
	DF_ACT_BLACKLIST, /* a module blacklisted in /run/modprobe.d */
	DF_ACT_LOCK, /* the kernel policy locked */
	DF_ACT_CHECK, /* locked already: the kernel's bit compared with the policy */
	DF_ACT_PIN, /* a device refused by device rules kept from binding (driver_override) */
};

struct df_action {
	enum df_action_kind kind;
	char *bus; /* NULL when not about a bus */
	char *driver; /* driver, module (blacklist), or the list's name (kernel list) */
	char *device; /* NULL when not about a device */
	char *value; /* what was written, or NULL */
	int error; /* 0, or the negative errno the action failed with */
};

struct df_counts {
	size_t drivers; /* drivers seen */
	size_t allowed; /* of which allowed */
	size_t denied; /* of which denied */
	size_t unbound; /* devices detached */
	size_t kept; /* devices left on denied drivers */
	size_t blacklisted; /* modules */
	size_t errors; /* actions that failed, and things that could not be read */
};

/* Where one register stands after df_measure(). */
enum df_measured {
	DF_MEASURED_OFF, /* not asked for: measure = no, a dry run, a udev event */
	DF_MEASURED_OK, /* extended, and the event log holds the record */
	DF_MEASURED_ABSENT, /* there is none (measure = auto) */
	DF_MEASURED_FAILED, /* there is one and it was not extended, or not logged */
};

struct df_measurement {
	enum df_measure setting;
	unsigned pcr;
	enum df_measured tpm; /* the TPM's PCR */
	enum df_measured rtmr; /* the TDX RTMR (tsm-mr) */
	char *event; /* the event extended; NULL when none was */
	char *error; /* the first failure; NULL when none */
};

struct df_report {
	enum df_mode mode; /* DF_MODE_KERNEL or DF_MODE_FALLBACK */
	bool dry_run;
	bool audit; /* mode = audit: every action is what enforcement would have done */
	bool override; /* drvfilter=off: nothing was enforced */
	bool fail_closed;
	bool locked; /* the kernel policy is locked now */
	char *policy_path;
	char *policy_sha256; /* "" when fail-closed */
	bool in_initramfs; /* run in the initramfs (df_in_initramfs) */
	/*
	 * The policy the initramfs enforced at this boot ("" when it failed
	 * closed), from this run or the state file's record; NULL when the
	 * initramfs left none.
	 */
	char *initramfs_sha256;
	/* The builder of the initramfs that applied it (df_initramfs_builder()), or NULL. */
	const char *initramfs_builder;
	bool real_root; /* the real root's run after switch_root (DF_APPLY_REAL_ROOT) */
	/* Fallback mode: the module tree the blacklist was computed from (NULL: none was). */
	char *blacklist_dir;
	size_t blacklist_modules; /* the modules of it that were judged */
	long long started_usec; /* CLOCK_REALTIME */
	long long duration_usec; /* CLOCK_MONOTONIC */
	struct df_counts counts;
	struct df_measurement measurement;
	struct df_action *actions; /* in the order they were done */
	size_t nactions;
	size_t capactions;
};

#define DF_APPLY_DRY_RUN (1u << 0)
/* Honour drvfilter=off on /proc/cmdline (the boot helper does; an explicit apply too). */
#define DF_APPLY_OVERRIDE_OK (1u << 1)
/*
 * The run from the real root after switch_root: an initramfs that left no
 * record of its own run is an error (it enforced nothing until now).
 */
#define DF_APPLY_REAL_ROOT (1u << 2)

/*
 * Enforce @p now: kernel mode when /sys/kernel/driver_filter exists (or the
 * policy demands it), else fallback. Every action is logged at LOG_NOTICE and
 * recorded; a failed action is counted and the rest still done. Returns 0 when
 * every action succeeded, -EIO when some failed (the report says which), or
 * another negative errno when nothing could be done.
 */
int df_apply(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_report **ret);
/* Which mode enforces @p: kernel when the kernel has its filter and the policy allows it. */
enum df_mode df_effective_mode(const struct df_policy *p, bool kernel_filter);

/* A udev event, as df_apply_uevent() takes it: names checked, ready for paths. */
enum df_uevent_kind {
	DF_UEVENT_OTHER, /* nothing to do */
	DF_UEVENT_DRIVER_ADD, /* ACTION=add SUBSYSTEM=drivers DEVPATH=/bus/B/drivers/D */
	DF_UEVENT_BIND, /* ACTION=bind SUBSYSTEM=B DRIVER=D DEVPATH=.../DEVICE */
	DF_UEVENT_MALFORMED, /* one of those, with a name not safe to use (why says which) */
};

struct df_uevent {
	enum df_uevent_kind kind;
	char bus[DF_NAME_MAX + 1];
	char driver[DF_NAME_MAX + 1];
	char device[DF_NAME_MAX + 1]; /* DF_UEVENT_BIND */
	const char *why; /* DF_UEVENT_MALFORMED (static) */
};

/*
 * Classify an event from udev's properties (@driver may be NULL). -EINVAL
 * when ACTION, SUBSYSTEM or DEVPATH is missing: not an event at all.
 */
int df_uevent_parse(const char *action, const char *subsystem, const char *devpath,
		    const char *driver, struct df_uevent *ev);
/*
 * The policy's decision on an event, as the udev handler takes it: for a
 * driver, the driver's; for a bind, the device's, so a driver allowed by
 * device rules only is refused a device none of them matches (allowed false,
 * restricted true). @id gets the device's IDs when they were read (else n is
 * 0): a bind of such a driver reads them from /sys, and refuses the device
 * when they cannot be read.
 */
void df_uevent_decide(struct df_ctx *ctx, const struct df_policy *p, const struct df_uevent *ev,
		      struct df_verdict *v, struct df_device_id *id);
/*
 * Handle one event: a driver that registered is enforced as df_apply() would;
 * a device that bound to a denied driver is unbound at once; a malformed
 * event is an error. Returns as df_apply() does.
 */
int df_apply_uevent(struct df_ctx *ctx, const struct df_policy *p, const struct df_uevent *ev,
		    unsigned flags, struct df_report **ret);
struct df_report *df_report_free(struct df_report *rep);
const char *df_mode_name(enum df_mode mode);
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
const char *df_action_name(enum df_action_kind kind);
/* "ok", "dry-run", "audit", "error", or "mismatch" for a failed check. */
const char *df_action_result(enum df_action_kind kind, int error, bool dry_run, bool audit);
/*
 * What an action is called in the kernel log and the state file: its name,
 * or in audit mode "would-NAME" ("would-deny" for a bit written 0).
 */
const char *df_action_label(const struct df_action *a, bool audit);
/*
 * 1 when the kernel command line (under the sysroot) holds drvfilter=off, else
 * 0 or -errno. Parameters are split as the kernel splits them (quotes keep
 * blanks, "--" ends them), so a value that merely contains the words does not
 * count.
 */
int df_cmdline_override(struct df_ctx *ctx);
/* The same for the command line @cmdline, which it cuts up in place. */
int df_cmdline_has_override(char *cmdline);
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

/* ---- measurement: the event apply extends, and its log ---- */

/* The event's first word: its grammar's name and version (drvfilter-apply(8)). */
#define DF_EVENT_VERSION "drvfilter-apply/1"
/* systemd's log of userspace measurements (JSON-SEQ), which apply appends to. */
#define DF_EVENT_LOG_PATH "/run/log/systemd/tpm2-measure.log"
#define DF_TPM_PATH "/dev/tpmrm0"
/* The UEFI CC mapping puts PCR 8-15 on RTMR 2; Linux 6.16's tsm-mr extends it here. */
#define DF_RTMR_INDEX 2
#define DF_RTMR_PATH "/sys/devices/virtual/misc/tdx_guest/measurements/rtmr2:sha384"
/* How long the TPM and the log's lock are waited for (the watchdog covers the whole run). */
#define DF_MEASURE_WAIT_USEC (10LL * 1000 * 1000)

/*
 * The canonical event of @rep: "drvfilter-apply/1 policy=SHA256 mode=MODE
 * fail-closed=yes|no override=yes|no locked=yes|no drivers=N ... errors=N"
 * (drvfilter-apply(8) has the grammar). A new string, NULL without memory.
 */
char *df_event_text(const struct df_report *rep);
/*
 * After an apply: extend the event of @rep into the TPM's PCR (every bank)
 * and the TDX RTMR, as @p's measure setting says, and append a record for
 * each to the event log, with systemd's record shape and lock. The outcome
 * goes into rep->measurement; a failure is logged at LOG_CRIT and counted in
 * rep->counts.errors. Returns 0, or -EIO when something failed.
 */
int df_measure(struct df_ctx *ctx, const struct df_policy *p, struct df_report *rep);
const char *df_measured_name(enum df_measured m);
/* pnp:tpm_tis, platform:tpm_tis, acpi:tpm_crb, platform:tpm_crb: what measuring needs. */
bool df_is_tpm_driver(const char *bus, const char *driver);
/*
 * Why @driver on @bus is risky in a confidential guest (an emulated device
 * model, a host's say in memory, input or randomness), or NULL: what
 * generate leaves out unless the boot devices need it (risky.c).
 */
const char *df_driver_risk(const char *bus, const char *driver);
/*
 * The drivers bound to the target's root file system and consoles and to
 * every device above them ("BUS:DRIVER", each once), as the boot devices'
 * guard walks them (lint-boot.c). Free with strv_free_array(). Returns 1
 * when the root file system's device is not known (a recording has no
 * mountinfo) or cannot be followed (NFS, overlay): then what it needs is not.
 */
int df_boot_drivers(struct df_ctx *ctx, char ***ret, size_t *n);
/* "no", "auto" or "pcr:N" into @buf. */
const char *df_measure_setting_name(enum df_measure m, unsigned pcr, char buf[16]);

/* ---- verification: the event log read back and replayed (drvfilterctl verify) ---- */

/* One record of the log, as far as verify reads it. */
struct df_evlog_record {
	int pcr; /* -1: not a PCR's */
	int rtmr; /* -1: not an RTMR's */
	bool has_sha256, has_sha384;
	uint8_t sha256[32];
	uint8_t sha384[48];
	char *string; /* content.string, or NULL */
};

struct df_evlog {
	struct df_evlog_record *v;
	size_t n;
};

#define DF_EVLOG_RECORDS_MAX 100000
/*
 * Read a JSON-SEQ log of @len bytes: 0, -EBADMSG with the reason (and the
 * record) in @why, -E2BIG, -ENOMEM.
 */
int df_evlog_parse(const char *buf, size_t len, struct df_evlog *ret, char *why, size_t whysize);
void df_evlog_release(struct df_evlog *log);
/* Extend @value as the TPM does: value = H(value || digest). */
void df_replay_sha256(uint8_t value[32], const uint8_t digest[32]);
void df_replay_sha384(uint8_t value[48], const uint8_t digest[48]);
/* The record's digest for its register is the hash of its text (else it does not describe it). */
bool df_evlog_digest_matches(const struct df_evlog_record *rec);
/* @n bytes from 2 * @n hex digits: 0 or -EINVAL. */
int df_unhex(const char *s, uint8_t *out, size_t n);

/* A drvfilter event, parsed by its grammar. */
struct df_event {
	char policy[65]; /* "" for a fail-closed one ("none") */
	char mode[16]; /* kernel, fallback or audit */
	bool fail_closed, override, locked;
	long long drivers, allowed, denied, unbound, kept, blacklisted, errors;
};

/* 0, or -EINVAL when @text is not a DF_EVENT_VERSION event. */
int df_event_parse(const char *text, struct df_event *ev);

/* ---- state: /run/drvfilter/state.json ---- */

#define DF_STATE_VERSION 1
#define DF_STATE_SIZE_MAX (16 * 1024 * 1024)

/* What `status` needs from the state file. */
struct df_state {
	const char *mode; /* "kernel" or "fallback" (static) */
	bool mode_kernel;
	bool audit; /* mode = audit: nothing was enforced */
	bool override;
	bool fail_closed;
	bool dry_run;
	char *policy_path;
	char *policy_sha256;
	long long applied_usec;
	long long duration_usec;
	long long errors;
	bool measure_failed; /* a TPM or RTMR was there and was not extended, or not logged */
	char *measure_error; /* why, or NULL */
	long long measured_pcr; /* the PCR measured, -1 when none */
	bool measured_rtmr;
	/* Optional (older state files lack them): as in struct df_report. */
	bool in_initramfs;
	char *initramfs_sha256;
	const char *initramfs_builder; /* one of df_initramfs_builder()'s, or NULL */
	bool real_root;
	char *blacklist_dir;
	long long blacklist_modules;
};

/* The report as JSON (the state file's format). */
void df_report_write_json(const struct df_report *rep, FILE *f, bool pretty);
/* Write the report as the state file, atomically. */
int df_state_write(struct df_ctx *ctx, const struct df_report *rep);
/*
 * Read the state file: 0, -ENOENT when there is none, -EBADMSG when it is
 * corrupt or of another version (why in @why), another -errno.
 */
int df_state_read(struct df_ctx *ctx, struct df_state *st, char *why, size_t whysize);
void df_state_release(struct df_state *st);

/* ---- cleanup attributes: _cleanup_(df_policy_freep) struct df_policy *p = NULL; ---- */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_ctx *, df_ctx_unref)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_policy *, df_policy_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_inventory *, df_inventory_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_modules *, df_modules_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_report *, df_report_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_bootopts *, df_bootopts_free)

static inline void df_diags_releasep(struct df_diags *d)
{
	df_diags_release(d);
}

#endif
