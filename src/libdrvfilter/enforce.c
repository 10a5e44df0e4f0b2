// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enforcement: one walk over /sys/bus/B/drivers, each driver decided by the
 * policy and then acted on by the mode's actuator (kernel-filter.c or
 * fallback.c). No full inventory is loaded: a driver's devices are listed only
 * when it is denied, since only then is there something to do with them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce-private.h"
#include "strv.h"

enum df_mode df_effective_mode(const struct df_policy *p, bool kernel_filter)
{
	/*
	 * mode = kernel without the kernel's filter still enforces: in fallback
	 * mode. Audit mode is what auto would do.
	 */
	return kernel_filter && p->mode != DF_MODE_FALLBACK ? DF_MODE_KERNEL : DF_MODE_FALLBACK;
}

/*
 * An allowed driver: in kernel mode its bit is set (or, locked, checked),
 * reached from the bus's drivers/ directory in one openat (the name holds no
 * '/'); fallback mode has nothing to do.
 */
static int allow_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
			bool locked)
{
	char rel[DF_NAME_MAX + sizeof("/allowed")];
	int err;

	if (run->rep->mode != DF_MODE_KERNEL)
		return 0;
	snprintf(rel, sizeof(rel), "%s/allowed", name);
	if (locked)
		return df_kfilter_check_bit(run, driversfd, rel, bus, name, true, false);
	err = df_run_write_at(run, driversfd, rel, "1");
	/* As for a directory that cannot be opened: a driver gone meanwhile is no failure. */
	if (err == -ENOENT && faccessat(driversfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		return 0;
	return df_record(run, DF_ACT_ALLOWED, bus, name, NULL, "1", err);
}

/*
 * A denied driver: its devices are detached (the kernel does it when its bit
 * goes to 0; else each is unbound), or, with bound = keep, left bound and
 * recorded as violations.
 */
static int deny_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		       bool locked)
{
	bool kernel = run->rep->mode == DF_MODE_KERNEL, detached = false, keep;
	_cleanup_close_ int fd = df_open_dir_at(driversfd, name);
	char **devices = NULL;
	size_t ndevices = 0, skipped = 0;
	int r;

	if (fd < 0) {
		/* The driver went away between readdir and now: nothing left to enforce. */
		if (fd != -ENOENT)
			df_problem(run, bus, name, "cannot open the driver's directory: %s",
				   strerror(-fd));
		return 0;
	}
	r = df_driver_list_devices(run->ctx, fd, &devices, &ndevices, &skipped);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		df_problem(run, bus, name, "cannot list the driver's devices: %s", strerror(-r));
	if (skipped)
		df_problem(run, bus, name,
			   "bound devices skipped, unreadable or their names not safe to use: %zu",
			   skipped);
	keep = ndevices > 0 && df_policy_bound(run->p) == DF_BOUND_KEEP;
	r = 0;
	if (kernel && locked) {
		/*
		 * The bit cannot be written any more: say whether the kernel agrees
		 * with the policy, and unbind what the denied driver holds all the
		 * same (a mismatch, or a bind the kernel let through) unless the
		 * policy keeps it.
		 */
		r = df_kfilter_check_bit(run, fd, "allowed", bus, name, false, true);
	} else if (kernel) {
		/*
		 * keep: the kernel leaves the devices bound now and lets the driver
		 * take no other (it reads 0 then). A kernel without it refuses the
		 * word (EINVAL): an error, never 1, which would let the driver take
		 * any device the host adds.
		 */
		const char *value = keep ? "keep" : "0";
		int err = df_run_write_at(run, fd, "allowed", value);

		r = df_record(run, DF_ACT_ALLOWED, bus, name, NULL, value, err);
		/* Writing 0 detached the devices; if it failed, unbind them one by one. */
		detached = !err;
	}
	for (size_t i = 0; i < ndevices && r >= 0; i++) {
		if (keep) {
			run->rep->counts.kept++;
			r = df_record(run, DF_ACT_KEEP, bus, name, devices[i], NULL, 0);
		} else if (detached) {
			run->rep->counts.unbound++;
			r = df_record(run, DF_ACT_UNBIND, bus, name, devices[i], NULL, 0);
		} else {
			r = df_fallback_unbind(run, fd, bus, name, devices[i]);
		}
	}
	strv_free_array(devices, ndevices);
	return r;
}

/*
 * An allowed driver with device rules: allowed as any other, and each device
 * it drives that no rule of it matches is refused (unbound, pinned away), in
 * both modes: the kernel's device rules keep the driver from such a device
 * from when they are in force, and one it took before stays bound.
 */
static int restrict_driver(struct df_run *run, const char *bus, int driversfd, const char *name)
{
	_cleanup_close_ int fd = df_open_dir_at(driversfd, name);
	char **devices = NULL;
	size_t ndevices = 0, skipped = 0;
	int r;

	if (fd < 0)
		return fd == -ENOENT ? 0
				     : (df_problem(run, bus, name,
						   "cannot open the driver's directory: %s",
						   strerror(-fd)),
					0);
	r = df_driver_list_devices(run->ctx, fd, &devices, &ndevices, &skipped);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || skipped)
		df_problem(run, bus, name,
			   "cannot list every device the driver drives: device rules unchecked for "
			   "%zu",
			   r < 0 ? 1 : skipped);
	r = 0;
	for (size_t i = 0; i < ndevices && r >= 0; i++) {
		struct df_device_id id;
		struct df_verdict v;
		int err = df_device_id_read(run->ctx, bus, devices[i], &id);

		/* IDs that cannot be read match no rule: the device is refused. */
		df_policy_decide_device(run->p, bus, name, err < 0 ? NULL : &id, &v);
		if (!v.allowed)
			r = df_refuse_device(run, fd, bus, name, devices[i]);
	}
	strv_free_array(devices, ndevices);
	return r;
}

int df_enforce_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		      bool locked)
{
	struct df_verdict v;
	int r;

	run->rep->counts.drivers++;
	df_policy_decide(run->p, bus, name, &v);
	if (v.allowed) {
		run->rep->counts.allowed++;
		r = allow_driver(run, bus, driversfd, name, locked);
		if (r >= 0 && v.restricted)
			r = restrict_driver(run, bus, driversfd, name);
		return r;
	}
	run->rep->counts.denied++;
	return deny_driver(run, bus, driversfd, name, locked);
}

static int walk_drivers(struct df_run *run, bool locked)
{
	_cleanup_close_ int busesfd = df_open_dir(run->ctx, "/sys/bus");
	struct df_names buses;
	int r;

	if (busesfd < 0)
		return busesfd;
	r = df_dir_list_dirs(busesfd, ".", &buses);
	if (r < 0)
		return r;
	if (buses.unsafe)
		df_problem(run, NULL, NULL, "buses skipped, their names not safe to use: %zu",
			   buses.unsafe);
	for (size_t i = 0; i < buses.n && r >= 0; i++) {
		const char *bus = buses.v[i];
		_cleanup_close_ int driversfd = -1;
		struct df_names drivers;
		_cleanup_free_ char *rel = NULL;

		if (asprintf(&rel, "%s/drivers", bus) < 0) {
			r = -ENOMEM;
			break;
		}
		driversfd = df_open_dir_at(busesfd, rel);
		if (driversfd < 0) {
			if (driversfd != -ENOENT)
				df_problem(run, bus, NULL, "cannot read the bus's drivers: %s",
					   strerror(-driversfd));
			continue;
		}
		r = df_dir_list_dirs(driversfd, ".", &drivers);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			df_problem(run, bus, NULL, "cannot read the bus's drivers: %s",
				   strerror(-r));
			r = 0;
			continue;
		}
		if (drivers.unsafe)
			df_problem(run, bus, NULL,
				   "drivers skipped, their names not safe to use: %zu",
				   drivers.unsafe);
		for (size_t j = 0; j < drivers.n && r >= 0; j++)
			r = df_enforce_driver(run, bus, driversfd, drivers.v[j], locked);
		df_names_release(&drivers);
	}
	df_names_release(&buses);
	return r;
}

/* Kernel mode: the lists, every driver's bit, the lock; or, locked already, a check. */
static int apply_kernel(struct df_run *run, int kfd)
{
	bool locked;
	int r;

	r = df_kfilter_read_locked(kfd);
	locked = r == 1;
	/* Unknown: write anyway; if it is locked, each write fails and says so. */
	if (r < 0 && r != -EBADMSG)
		df_problem(run, NULL, NULL, "cannot read " DF_KFILTER_DIR "/locked: %s",
			   strerror(-r));
	r = 0;
	if (locked)
		df_log_cond(run->ctx, LOG_NOTICE,
			    "the kernel policy is locked already: checking it against the policy "
			    "instead of writing it");
	else
		r = df_kfilter_write_lists(run, kfd);
	if (r >= 0)
		r = walk_drivers(run, locked);
	/* A policy the kernel did not take whole is locked as it failed closed. */
	if (r >= 0 && !locked && (run->p->lock || run->rep->fail_closed))
		r = df_kfilter_lock(run, kfd, &locked);
	run->rep->locked = locked;
	return r;
}

int df_apply(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_report **ret)
{
	_cleanup_close_ int kfd = -1;
	long long t0 = df_now_usec(CLOCK_MONOTONIC);
	struct df_run run = { ctx, p, NULL, flags & DF_APPLY_DRY_RUN };
	int r;

	r = df_report_new(p, run.dry_run, &run.rep);
	if (r < 0)
		return r;
	kfd = df_kfilter_open(ctx);
	run.rep->mode = df_effective_mode(p, kfd >= 0);

	if ((flags & DF_APPLY_OVERRIDE_OK) && df_cmdline_override(ctx) > 0) {
		run.rep->override = true;
		df_log_cond(
			ctx, LOG_WARNING,
			"action=override drvfilter=off is on the kernel command line: nothing is "
			"enforced, every driver may bind");
	} else {
		if (p->mode == DF_MODE_KERNEL && kfd < 0)
			/* The policy insists on the kernel's filter and it is not there. */
			df_problem(&run, NULL, NULL,
				   "mode = kernel, but this kernel has no " DF_KFILTER_DIR
				   ": enforcing in fallback mode");
		if (run.rep->mode == DF_MODE_KERNEL) {
			r = apply_kernel(&run, kfd);
		} else {
			r = df_fallback_blacklist(&run);
			if (r >= 0)
				r = walk_drivers(&run, false);
		}
	}
	return df_run_finish(&run, t0, r, ret);
}
