/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: enforcement (what drvfilter-apply and `drvfilterctl apply` do) and its state. */
#ifndef DRVFILTER_ENFORCE_H
#define DRVFILTER_ENFORCE_H

#include "system/system.h"

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
/* "off", "measured", "absent" or "failed". */
const char *df_measured_name(enum df_measured m);
/* The UEFI CC mapping puts PCR 8-15 on RTMR 2; Linux 6.16's tsm-mr extends it here. */
#define DF_RTMR_INDEX 2

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
	/*
	 * The actions' strings, each after the one before in blocks that never
	 * move (report.c): thousands of them, no allocation each.
	 */
	char **blocks;
	size_t nblocks;
	size_t block_used, block_size; /* of the last block */
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
const char *df_action_name(enum df_action_kind kind);
/* "ok", "dry-run", "audit", "error", or "mismatch" for a failed check. */
const char *df_action_result(enum df_action_kind kind, int error, bool dry_run, bool audit);
/*
 * What an action is called in the kernel log and the state file: its name,
 * or in audit mode "would-NAME" ("would-deny" for a bit written 0).
 */
const char *df_action_label(const struct df_action *a, bool audit);

/* ---- the modprobe.d blacklist (blacklist.c) ---- */

/* Where apply writes it in fallback mode. */
#define DF_BLACKLIST_PATH "/run/modprobe.d/drvfilter.conf"
/* A policy's SHA-256 in hex, or "none: fail closed", and its NUL. */
#define DF_BLACKLIST_SHA_SIZE 65
/*
 * The blacklist's text: the header "# Written by @writer from @policy
 * (sha256 @sha256).", the comment lines @notes (each with its "# " and
 * newline), then each of @mods that is a module's name (NULL and any other
 * are left out: never a command in an install line). 0 or -ENOMEM.
 */
int df_blacklist_text(const char *writer, const char *policy, const char *sha256, const char *notes,
		      char *const *mods, size_t n, char **ret);
/*
 * The SHA-256 its header names, of DF_BLACKLIST_PATH under the sysroot:
 * 0, -errno when it cannot be read (-EINVAL: it is no regular file),
 * -EBADMSG when its first line is not such a header, whole.
 */
int df_blacklist_policy(const struct df_ctx *ctx, char sha256[DF_BLACKLIST_SHA_SIZE]);

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

/* ---- cleanup attributes ---- */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_report *, df_report_free)

#endif
