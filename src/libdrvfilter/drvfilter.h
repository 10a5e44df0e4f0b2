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

/* ---- context ---- */

struct df_ctx;

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
/* NULL for the running system. */
const char *df_ctx_get_sysroot(const struct df_ctx *ctx);
/* @path (absolute) under the context's sysroot, as a new string; NULL when out of memory. */
char *df_ctx_path(const struct df_ctx *ctx, const char *path);

/* ---- diagnostics: what `check` reports, as data ---- */

enum df_severity {
	DF_WARNING,
	DF_ERROR,
};

struct df_diag {
	enum df_severity severity;
	unsigned line; /* 1-based; 0 when the message is about the whole file */
	char *message; /* printable: bytes from the input are escaped */
};

/* At most this many are kept; errors and warnings count them all. */
#define DF_DIAGS_KEPT 100

struct df_diags {
	char *file;
	struct df_diag *items;
	size_t count;
	size_t cap;
	size_t errors;
	size_t warnings;
};

void df_diags_init(struct df_diags *d);
void df_diags_release(struct df_diags *d);
const char *df_severity_name(enum df_severity s);

/* ---- names ---- */

#define DF_NAME_MAX 255
/* 0 when @name can be a bus (or driver) name in a policy, else -EINVAL with *@why set. */
int df_bus_name_check(const char *name, const char **why);
int df_driver_name_check(const char *name, const char **why);
/* Shell-style glob: '*' any run of bytes, '?' one byte; no classes, no escapes. */
bool df_glob_match(const char *pattern, const char *s);

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
};

/* One name of one KEY = LIST line, or the default. */
struct df_rule {
	enum df_section section;
	const char *key; /* a bus, "ALL", or "default" */
	const char *name; /* a driver name, a glob, "ALL", or "allow"/"deny" for the default */
	unsigned line; /* 0: not written in the file (the implicit default) */
};

struct df_verdict {
	bool allowed;
	const struct df_rule *rule; /* never NULL */
};

struct df_policy;

/* The policy file may belong to another user and be writable by others (tests, sysroots). */
#define DF_LOAD_ANY_OWNER (1u << 0)

/*
 * Read and validate the policy at @path. Every problem goes into @diags, which
 * the caller initialised; its file name is set to @path.
 * Returns 0 and the policy when there is no error (warnings allowed), -EINVAL
 * when the file has errors, another negative errno when it could not be read.
 */
int df_policy_load(struct df_ctx *ctx, const char *path, unsigned flags, struct df_diags *diags,
		   struct df_policy **ret);
/* Warnings that need the machine: buses the policy names that this system lacks. */
int df_policy_check_system(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags);
struct df_policy *df_policy_free(struct df_policy *p);

const char *df_policy_path(const struct df_policy *p);
bool df_policy_default_allows(const struct df_policy *p);
enum df_bound df_policy_bound(const struct df_policy *p);
enum df_mode df_policy_mode(const struct df_policy *p);
bool df_policy_lock(const struct df_policy *p);

/*
 * Decide for driver @driver on bus @bus: an [allow] match wins, then a [deny]
 * match, then the default. Within a list the most specific rule is reported:
 * the exact name, then a glob (in file order), then ALL; the bus's own key
 * before the ALL key. Bus names compare without regard to case.
 */
void df_policy_decide(const struct df_policy *p, const char *bus, const char *driver,
		      struct df_verdict *v);

/* "[allow] pci = e1000", "[filter] default = deny"; a new string, NULL without memory. */
char *df_rule_describe(const struct df_rule *r);

/* ---- kernel boot options ---- */

/* x86's COMMAND_LINE_SIZE: the whole command line, terminating NUL included. */
#define DF_KERNEL_CMDLINE_MAX 2048

/*
 * The boot options equivalent to @p ("filter_allow_drivers=... filter_deny_drivers=...",
 * values quoted when a name holds a space), "" for a policy that allows everything.
 * Returns 0, -ENOMEM, or -E2BIG when they would not fit on a kernel command
 * line (the string is still returned, so the caller can say how long it is).
 */
int df_policy_kernel_options(const struct df_policy *p, char **ret);

#endif
