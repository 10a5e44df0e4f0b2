/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the enforcement files share: one run of apply (struct df_run: the
 * policy, the report being filled, the mode's actuator and the kernel
 * filter's state), how an action is recorded, and the actuators.
 */
#ifndef DRVFILTER_ENFORCE_PRIVATE_H
#define DRVFILTER_ENFORCE_PRIVATE_H

#include "enforce/enforce.h"
#include "system/system-private.h"
#include "strv.h"

struct df_actuator;

/*
 * One run: the boot walk, or one udev event. The mode, the counts and the
 * actions are the report's (rep->mode, rep->counts): the run fills it, and
 * df_run_finish() hands it over.
 */
struct df_run {
	struct df_ctx *ctx;
	const struct df_policy *p;
	struct df_report *rep;
	const struct df_actuator *act; /* the mode's, chosen once when the run starts */
	int kfd; /* /sys/kernel/driver_filter, or -1 (fallback mode) */
	bool locked; /* the kernel's policy is locked: read at the start, set by the lock */
	bool writes; /* the write gate: neither a dry run nor audit mode */
	long long t0; /* CLOCK_MONOTONIC, at the start */
};

/* A driver being enforced: its names, its bus's drivers/, and its own directory once open. */
struct df_driver_ref {
	const char *bus;
	const char *name;
	int driversfd; /* -1 when the caller opened @fd itself */
	int fd; /* -1 until opened */
	/*
	 * Whether the driver has an unbind file, as its own listing (of @fd,
	 * whole) showed: 1 or 0, -1 when not listed (df_driver_has_unbind()
	 * asks then).
	 */
	int unbind;
};

/*
 * What a mode does, chosen once per run: the walk calls these and tests no
 * mode itself. Each returns 0, or a negative errno that stops the run; one
 * that is NULL has nothing to do in its mode.
 */
struct df_actuator {
	/* Before the walk: the kernel's lists, or the modprobe.d blacklist. */
	int (*begin)(struct df_run *run);
	/* The bit of a driver that needs no record: allowed, or denied and driving nothing. */
	int (*quiet_bit)(struct df_run *run, const struct df_driver_ref *d, bool allowed);
	/*
	 * A denied driver driving @devices (to be kept bound with @keep): 1
	 * when they need nothing more (the kernel detached them, or the driver
	 * is gone), 0 when each is still to be unbound or kept.
	 */
	int (*deny)(struct df_run *run, const struct df_driver_ref *d, bool keep,
		    const struct strv *devices);
	/* After the walk: the lock. */
	int (*end)(struct df_run *run);
};

/* kernel-filter.c: the kernel's filter, unlocked (written) or locked (checked). */
extern const struct df_actuator df_kernel_actuator;
extern const struct df_actuator df_kernel_locked_actuator;
/* fallback.c: a kernel without the filter. */
extern const struct df_actuator df_fallback_actuator;

/* ---- enforce-run.c: a run's start and end ---- */

/*
 * Start a run of @p: its report, the kernel's filter, the mode, and, unless
 * drvfilter=off holds (checked with DF_APPLY_OVERRIDE_OK), the mode's
 * actuator. 0 or -ENOMEM.
 */
int df_run_start(struct df_run *run, struct df_ctx *ctx, const struct df_policy *p, unsigned flags);
/*
 * End it with result @r: the report handed over, or freed when @r < 0.
 * Returns @r, else -EIO when an action failed, else 0.
 */
int df_run_finish(struct df_run *run, int r, struct df_report **ret);
/* Write an attribute, unless this run writes nothing (a dry run, audit mode). */
static inline int df_run_write_at(struct df_run *run, int dirfd, const char *rel, const char *value)
{
	return run->writes ? df_write_at(dirfd, rel, value) : 0;
}

/* ---- report.c: the record of a run, and its log lines ---- */

int df_report_new(const struct df_policy *p, bool dry_run, struct df_report **ret);
/*
 * Record an action and log it as one key=value line; a failed one is counted
 * as an error. 0 or -ENOMEM.
 */
int df_record(struct df_run *run, enum df_action_kind kind, const char *bus, const char *driver,
	      const char *device, const char *value, int error);
/*
 * The same for an action that only confirms or repeats what needs no
 * record: an allowed driver's bit set to 1, a denied driver with no device
 * set to 0. Counted, logged at LOG_INFO (drvfilter-apply -v), not kept in
 * the report (a kernel has thousands of such drivers); a failure is
 * recorded as df_record() does.
 */
int df_record_quiet(struct df_run *run, enum df_action_kind kind, const char *bus,
		    const char *driver, const char *value, int error);
/*
 * A denied driver's bit written with success in kernel mode: the kernel
 * detached its devices. One action for the bit and one per device are
 * recorded (the state file lists each device), but they are logged as one
 * line, "action=allowed ... value=0 detached=N devices=A,B,...": a guest
 * with thousands of such devices writes a line per driver, not per device.
 */
int df_record_detach(struct df_run *run, const char *bus, const char *driver, const char *value,
		     const struct strv *devices);
/*
 * The modules written to the blacklist (NULL entries skipped), @error the
 * file's write: one action each (the state file lists each module), logged
 * as few lines, "action=blacklist modules=A,B,... result=ok", each under
 * the size of a kernel log record: a line a module would flood the kernel's
 * log buffer (and a serial console) with a real root's thousands of modules.
 * A failed write is one error and one line, "action=blacklist count=N
 * result=error error=...". The names must have passed df_modname_check()
 * (no comma, no blank).
 */
int df_record_blacklist(struct df_run *run, char *const *mods, size_t n, int error);
/* Count a driver decided: seen, and allowed or denied. */
void df_record_decision(struct df_run *run, const struct df_verdict *v);
/*
 * Count and log a problem that is not an action (a directory that cannot be
 * read) as "action=error bus=B driver=D error=...": the names (or NULL) in
 * quoted fields, never in the words, so that no name can forge a field.
 */
_printf_(4, 5) void df_problem(struct df_run *run, const char *bus, const char *driver,
			       const char *fmt, ...);
/* The same at LOG_CRIT: a failure that leaves the run's evidence wrong (a measurement). */
_printf_(2, 3) void df_critical(struct df_run *run, const char *fmt, ...);
/* The same at LOG_WARNING, as action=warning with message=..., not counted. */
_printf_(4, 5) void df_warning(struct df_run *run, const char *bus, const char *driver,
			       const char *fmt, ...);

/* ---- state.c: where this run happens ---- */

/*
 * Note in @rep whether this run is in the initramfs and, in the real root,
 * which policy the initramfs enforced (the record its run left beside the
 * state file, /run/drvfilter/initramfs-policy). 0 or -ENOMEM.
 */
int df_report_note_origin(struct df_ctx *ctx, struct df_report *rep);

/* ---- kernel-filter.c: /sys/kernel/driver_filter and the allowed bits ---- */

/* df_kfilter_open() and df_kfilter_read_locked() are in drvfilter-private.h. */
/*
 * Locked already: compare the allowed bit at @dirfd/@attr with @want. A
 * mismatch is recorded as a failed check; an agreeing bit only when @always.
 */
int df_kfilter_check_bit(struct df_run *run, int dirfd, const char *attr, const char *bus,
			 const char *driver, bool want, bool always);

/* ---- enforce-unbind.c: a driver's unbind file, and device rules' refusal ---- */

/*
 * Whether driver @d has an unbind file: one that suppresses its bind
 * attributes has none, and may not be unbound, not even by the kernel's
 * filter, which keeps its devices when its bit goes to 0.
 */
bool df_driver_has_unbind(const struct df_driver_ref *d);
/*
 * Detach @device from driver @d through its unbind file: what every path
 * that unbinds a device takes (the boot walk in either mode, the udev
 * handler). A driver without an unbind file is an error, with a warning
 * that says why.
 */
int df_unbind(struct df_run *run, struct df_driver_ref *d, const char *device);
/*
 * A device that device rules refuse to the driver it is bound to: unbind it,
 * and keep it from binding again ("none" in its driver_override, where the
 * bus has one), in either mode.
 */
int df_refuse_device(struct df_run *run, struct df_driver_ref *d, const char *device);

/* ---- enforce.c: the decision for one registered driver, and what it takes ---- */

/*
 * @devices: the devices bound to the driver, as the walk found them on its
 * bus, or NULL to list them here (a driver that just registered).
 */
int df_enforce_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		      const struct strv *devices);

#endif
