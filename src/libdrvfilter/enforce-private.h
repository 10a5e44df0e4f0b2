/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the enforcement files share: one run of apply (the policy, the report
 * being filled, dry run or not), how an action is recorded, and the two
 * actuators, the kernel's filter and fallback mode.
 */
#ifndef DRVFILTER_ENFORCE_PRIVATE_H
#define DRVFILTER_ENFORCE_PRIVATE_H

#include <time.h>

#include "drvfilter-private.h"
#include "strv.h"

struct df_run {
	struct df_ctx *ctx;
	const struct df_policy *p;
	struct df_report *rep;
	bool dry_run;
};

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
 * detached its @ndevices devices. One action for the bit and one per device
 * are recorded (the state file lists each device), but they are logged as
 * one line, "action=allowed ... value=0 detached=N devices=A,B,...": a guest
 * with thousands of such devices writes a line per driver, not per device.
 */
int df_record_detach(struct df_run *run, const char *bus, const char *driver, const char *value,
		     char *const *devices, size_t ndevices);
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
/*
 * End a run that began at @t0 (CLOCK_MONOTONIC) with result @r: the report
 * handed over, or freed when @r < 0. Returns @r, else -EIO when an action
 * failed, else 0.
 */
/* A run's start: its report, the kernel's filter (@kfd, or -1) and the mode. */
int df_run_start(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_run *run,
		 int *kfd);
int df_run_finish(struct df_run *run, long long t0, int r, struct df_report **ret);
/* Whether this run changes the system: not a dry run, not audit mode. */
bool df_run_writes(const struct df_run *run);
/* Write an attribute, unless this run changes nothing. */
int df_run_write_at(struct df_run *run, int dirfd, const char *rel, const char *value);

/* ---- state.c: where this run happens ---- */

/*
 * Note in @rep whether this run is in the initramfs and, in the real root,
 * which policy the initramfs enforced (the record its run left beside the
 * state file, /run/drvfilter/initramfs-policy). 0 or -ENOMEM.
 */
int df_report_note_origin(struct df_ctx *ctx, struct df_report *rep);

/* ---- kernel-filter.c: /sys/kernel/driver_filter and the allowed bits ---- */

/* df_kfilter_open() and df_kfilter_read_locked() are in drvfilter-private.h. */
/* Write the policy's allow and deny lists. */
int df_kfilter_write_lists(struct df_run *run, int kfd);
/* Lock the kernel's policy (with lock = yes); *@locked says whether it now is. */
int df_kfilter_lock(struct df_run *run, int kfd, bool *locked);
/*
 * Locked already: compare the allowed bit at @dirfd/@attr with @want. A
 * mismatch is recorded as a failed check; an agreeing bit only when @always.
 */
int df_kfilter_check_bit(struct df_run *run, int dirfd, const char *attr, const char *bus,
			 const char *driver, bool want, bool always);

/* ---- fallback.c: the modprobe.d blacklist and unbinding ---- */

int df_fallback_blacklist(struct df_run *run);
/*
 * Detach @device from the driver whose directory is @drvfd, through its
 * unbind file: what every path that unbinds a device takes (the boot walk in
 * either mode, the udev handler). A driver without an unbind file is an
 * error, with a warning that says why.
 */
int df_unbind(struct df_run *run, int drvfd, const char *bus, const char *driver,
	      const char *device);
/*
 * A device that device rules refuse to the driver it is bound to: unbind it,
 * and keep it from binding again ("none" in its driver_override, where the
 * bus has one), in either mode.
 */
int df_refuse_device(struct df_run *run, int drvfd, const char *bus, const char *driver,
		     const char *device);

/* ---- enforce.c: the decision for one registered driver, and what it takes ---- */

/*
 * @devices: the devices bound to the driver, as the walk found them on its
 * bus, or NULL to list them here (a driver that just registered).
 */
int df_enforce_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		      bool locked, const struct strv *devices);

#endif
