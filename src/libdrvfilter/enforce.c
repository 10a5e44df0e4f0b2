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
#include "time-util.h"

enum df_mode df_effective_mode(const struct df_policy *p, bool kernel_filter)
{
	/*
	 * mode = kernel without the kernel's filter still enforces: in fallback
	 * mode. Audit mode is what auto would do.
	 */
	return kernel_filter && p->mode != DF_MODE_FALLBACK ? DF_MODE_KERNEL : DF_MODE_FALLBACK;
}

/*
 * A bit that changes nothing worth a record: an allowed driver's 1, a
 * denied driver's 0 when it drives no device. Kernel mode sets it (or,
 * locked, checks it), reached from the bus's drivers/ in one openat (the name
 * holds no '/'), counted and logged quietly; fallback mode has nothing to do.
 */
static int quiet_bit(struct df_run *run, const char *bus, int driversfd, const char *name,
		     bool locked, bool allowed)
{
	char rel[DF_NAME_MAX + sizeof("/allowed")];
	int err;

	if (run->rep->mode != DF_MODE_KERNEL)
		return 0;
	snprintf(rel, sizeof(rel), "%s/allowed", name);
	if (locked)
		return df_kfilter_check_bit(run, driversfd, rel, bus, name, allowed, false);
	err = df_run_write_at(run, driversfd, rel, allowed ? "1" : "0");
	/* As for a directory that cannot be opened: a driver gone meanwhile is no failure. */
	if (err == -ENOENT && faccessat(driversfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		return 0;
	return df_record_quiet(run, DF_ACT_ALLOWED, bus, name, allowed ? "1" : "0", err);
}

static int allow_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
			bool locked)
{
	return quiet_bit(run, bus, driversfd, name, locked, true);
}

/* A denied driver that drives no device: no directory of its own to open, nothing to list. */
static int deny_idle_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
			    bool locked)
{
	return quiet_bit(run, bus, driversfd, name, locked, false);
}

/*
 * A denied driver: its devices are detached (the kernel does it when its bit
 * goes to 0; else each is unbound), or, with bound = keep, left bound and
 * recorded as violations.
 */
static int deny_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		       bool locked, const struct strv *bound)
{
	bool kernel = run->rep->mode == DF_MODE_KERNEL, keep;
	char rel[DF_NAME_MAX + sizeof("/allowed")];
	_cleanup_close_ int fd = -1;
	char **devices = NULL;
	size_t ndevices = 0, skipped = 0;
	int r;

	if (bound && bound->n == 0)
		return deny_idle_driver(run, bus, driversfd, name, locked);
	snprintf(rel, sizeof(rel), "%s/allowed", name);
	/*
	 * The driver's own directory is opened only to list its devices or to
	 * unbind them one by one; its bit is reached from drivers/.
	 */
	if (!bound || !kernel) {
		fd = df_open_dir_at(driversfd, name);
		if (fd < 0) {
			/* The driver went away between readdir and now: nothing left to enforce. */
			if (fd != -ENOENT)
				df_problem(run, bus, name, "cannot open the driver's directory: %s",
					   strerror(-fd));
			return 0;
		}
	}
	if (bound) {
		struct strv copy = STRV_INIT;

		for (size_t i = 0; i < bound->n; i++)
			if (strv_push(&copy, bound->v[i]) < 0) {
				strv_release(&copy);
				return -ENOMEM;
			}
		devices = strv_steal(&copy, &ndevices);
		r = 0;
	} else {
		r = df_driver_list_devices(run->ctx, fd, &devices, &ndevices, &skipped);
		/* Found idle by its own listing: the same as by the bus's. */
		if (r == 0 && ndevices == 0 && skipped == 0)
			return deny_idle_driver(run, bus, driversfd, name, locked);
	}
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
		r = df_kfilter_check_bit(run, driversfd, rel, bus, name, false, true);
	} else if (kernel) {
		/*
		 * keep: the kernel leaves the devices bound now and lets the driver
		 * take no other (it reads 0 then). A kernel without it refuses the
		 * word (EINVAL): an error, never 1, which would let the driver take
		 * any device the host adds.
		 */
		const char *value = keep ? "keep" : "0";
		int err = df_run_write_at(run, driversfd, rel, value);

		if (err == -ENOENT && faccessat(driversfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
		    errno == ENOENT) {
			strv_free_array(devices, ndevices);
			return 0; /* gone meanwhile */
		}
		/* Writing 0 detached the devices; if it failed, unbind them one by one. */
		if (!err && !keep) {
			r = df_record_detach(run, bus, name, value, devices, ndevices);
			strv_free_array(devices, ndevices);
			return r;
		}
		r = df_record(run, DF_ACT_ALLOWED, bus, name, NULL, value, err);
	}
	for (size_t i = 0; i < ndevices && r >= 0; i++) {
		if (keep) {
			r = df_record(run, DF_ACT_KEEP, bus, name, devices[i], NULL, 0);
		} else {
			if (fd < 0)
				fd = df_open_dir_at(driversfd, name);
			if (fd < 0) {
				if (fd != -ENOENT)
					df_problem(run, bus, name,
						   "cannot open the driver's directory: %s",
						   strerror(-fd));
				break;
			}
			r = df_unbind(run, fd, bus, name, devices[i]);
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

static int enforce_decided(struct df_run *run, const char *bus, int driversfd, const char *name,
			   const struct df_verdict *v, bool locked, const struct strv *bound)
{
	int r;

	run->rep->counts.drivers++;
	if (v->allowed) {
		run->rep->counts.allowed++;
		r = allow_driver(run, bus, driversfd, name, locked);
		if (r >= 0 && v->restricted)
			r = restrict_driver(run, bus, driversfd, name);
		return r;
	}
	run->rep->counts.denied++;
	return deny_driver(run, bus, driversfd, name, locked, bound);
}

int df_enforce_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		      bool locked, const struct strv *bound)
{
	struct df_verdict v;

	df_policy_decide(run->p, bus, name, &v);
	return enforce_decided(run, bus, driversfd, name, &v, locked, bound);
}

/*
 * Finding a denied driver's devices by listing its directory costs an open,
 * two getdents and a close; finding them from the bus's devices/ costs a
 * readlink of each device's driver link. The walk takes the bus's devices
 * when they number fewer than this many per denied driver.
 */
#define SCAN_DEVICES_PER_DENIED 3

/*
 * Which driver drives which device, from the bus's devices/ when that is
 * cheaper than each denied driver listing its own (a kernel denies thousands
 * of drivers that drive nothing). 1 with @bound filled, 0 when each denied
 * driver is to list its own: also when a device's driver cannot be read, so
 * that nothing a denied driver drives goes unseen.
 */
static int load_bound(struct df_run *run, int busesfd, const char *bus, size_t denied,
		      struct df_busdevs *bound)
{
	_cleanup_free_ char *rel = NULL;
	_cleanup_close_ int devicesfd = -1;
	struct df_names devices;
	int r;

	if (asprintf(&rel, "%s/devices", bus) < 0)
		return -ENOMEM;
	devicesfd = df_open_dir_at(busesfd, rel);
	if (devicesfd == -ENOENT)
		return 0;
	r = devicesfd < 0 ? devicesfd : df_dir_list_links(devicesfd, &devices);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		df_problem(run, bus, NULL, "cannot read the bus's devices: %s", strerror(-r));
		return 0;
	}
	if (devices.n > SCAN_DEVICES_PER_DENIED * denied) {
		df_names_release(&devices);
		return 0;
	}
	bound->skipped = devices.unsafe;
	r = df_busdevs_load(devicesfd, &devices, bound);
	df_names_release(&devices);
	if (r < 0)
		return r;
	if (bound->skipped)
		df_problem(run, bus, NULL,
			   "devices skipped, their driver unreadable or their names not safe to "
			   "use: %zu",
			   bound->skipped);
	return bound->skipped ? 0 : 1;
}

/* One bus: each driver decided, the bound devices found for the denied ones, each acted on. */
static int walk_bus(struct df_run *run, int busesfd, const char *bus, int driversfd,
		    const struct df_names *drivers, bool locked)
{
	struct df_busdevs bound = DF_BUSDEVS_INIT;
	static const struct strv none = STRV_INIT;
	_cleanup_free_ struct df_verdict *v = NULL;
	size_t denied = 0;
	int r = 0, have;

	if (!drivers->n)
		return 0;
	v = calloc(drivers->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t j = 0; j < drivers->n; j++) {
		df_policy_decide(run->p, bus, drivers->v[j], &v[j]);
		denied += !v[j].allowed;
	}
	have = denied ? load_bound(run, busesfd, bus, denied, &bound) : 0;
	if (have < 0)
		r = have;
	for (size_t j = 0; j < drivers->n && r >= 0; j++) {
		const struct strv *devs = have > 0 ? strmap_get(&bound.map, drivers->v[j]) : NULL;

		r = enforce_decided(run, bus, driversfd, drivers->v[j], &v[j], locked,
				    have > 0 ? (devs ? devs : &none) : NULL);
	}
	df_busdevs_release(&bound);
	return r;
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
		r = walk_bus(run, busesfd, bus, driversfd, &drivers, locked);
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

int df_run_start(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_run *run,
		 int *kfd)
{
	int r;

	*run = (struct df_run){ ctx, p, NULL, flags & DF_APPLY_DRY_RUN };
	r = df_report_new(p, run->dry_run, &run->rep);
	if (r < 0)
		return r;
	*kfd = df_kfilter_open(ctx);
	run->rep->mode = df_effective_mode(p, *kfd >= 0);
	return 0;
}

int df_apply(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_report **ret)
{
	_cleanup_close_ int kfd = -1;
	long long t0 = now_usec(CLOCK_MONOTONIC);
	struct df_run run;
	int r;

	r = df_run_start(ctx, p, flags, &run, &kfd);
	if (r < 0)
		return r;
	r = df_report_note_origin(ctx, run.rep);
	if (r < 0) {
		df_report_free(run.rep);
		return r;
	}
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
