// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enforcement: one walk over /sys/bus/B/drivers, each driver decided by the
 * policy and then acted on by the actuator the run chose for its mode
 * (kernel-filter.c or fallback.c). No full inventory is loaded: a driver's
 * devices are listed only when it is denied, since only then is there
 * something to do with them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce/enforce-private.h"
#include "strv.h"

/*
 * The driver's own directory, opened once: its descriptor, or -errno (a
 * problem logged unless the driver is gone, -ENOENT).
 */
static int driver_ref_open(struct df_run *run, struct df_driver_ref *d)
{
	if (d->fd >= 0)
		return d->fd;
	d->fd = df_open_dir_at(d->driversfd, d->name);
	/* The driver went away between readdir and now: nothing left to enforce. */
	if (d->fd < 0 && d->fd != -ENOENT)
		df_problem(run, d->bus, d->name, "cannot open the driver's directory: %s",
			   strerror(-d->fd));
	return d->fd;
}

/*
 * The devices of a denied driver into @own: from the bus's listing
 * (@bound), else from its own directory. 1 with *@devices set (to none
 * when some could not be listed), 0 when it drives none, -ENOENT when its
 * directory cannot be opened (gone, or a problem logged), -ENOMEM.
 */
static int denied_devices(struct df_run *run, struct df_driver_ref *d, const struct strv *bound,
			  struct strv *own, const struct strv **devices)
{
	size_t skipped = 0;
	int r;

	*devices = bound;
	if (bound)
		return bound->n > 0;
	*devices = own;
	r = driver_ref_open(run, d);
	if (r < 0)
		return -ENOENT;
	r = df_driver_list_devices(run->ctx, d->fd, &own->v, &own->n, &skipped, &d->unbind);
	own->cap = own->n;
	if (r == -ENOMEM)
		return r;
	/* Found idle by its own listing: the same as by the bus's. */
	if (r == 0 && own->n == 0 && skipped == 0)
		return 0;
	if (r < 0)
		df_problem(run, d->bus, d->name, "cannot list the driver's devices: %s",
			   strerror(-r));
	if (skipped)
		df_problem(run, d->bus, d->name,
			   "bound devices skipped, unreadable or their names not safe to use: %zu",
			   skipped);
	return 1;
}

/*
 * A denied driver: its devices are detached (the kernel does it when its bit
 * goes to 0; else each is unbound), or, with bound = keep, left bound and
 * recorded as violations.
 */
static int deny_driver(struct df_run *run, struct df_driver_ref *d, const struct strv *bound)
{
	struct strv own = STRV_INIT;
	const struct strv *devs;
	bool keep;
	int r;

	r = denied_devices(run, d, bound, &own, &devs);
	if (r == 0)
		return run->act->quiet_bit ? run->act->quiet_bit(run, d, false) : 0;
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	keep = devs->n > 0 && df_policy_bound(run->p) == DF_BOUND_KEEP;
	r = run->act->deny ? run->act->deny(run, d, keep, devs) : 0;
	/* What the mode left to do, device by device. */
	if (r == 0 && !keep && devs->n > 0 && driver_ref_open(run, d) < 0)
		r = 1;
	for (size_t i = 0; r == 0 && i < devs->n; i++)
		r = keep ? df_record(run, DF_ACT_KEEP, d->bus, d->name, devs->v[i], NULL, 0)
			 : df_unbind(run, d, devs->v[i]);
	strv_release(&own);
	return r < 0 ? r : 0;
}

/*
 * An allowed driver with device rules: allowed as any other, and each device
 * it drives that no rule of it matches is refused (unbound, pinned away), in
 * both modes: the kernel's device rules keep the driver from such a device
 * from when they are in force, and one it took before stays bound.
 */
static int restrict_driver(struct df_run *run, struct df_driver_ref *d)
{
	char **devices = NULL;
	size_t ndevices = 0, skipped = 0;
	int r;

	if (driver_ref_open(run, d) < 0)
		return 0;
	r = df_driver_list_devices(run->ctx, d->fd, &devices, &ndevices, &skipped, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || skipped)
		df_problem(run, d->bus, d->name,
			   "cannot list every device the driver drives: device rules unchecked for "
			   "%zu",
			   r < 0 ? 1 : skipped);
	r = 0;
	for (size_t i = 0; i < ndevices && r >= 0; i++) {
		struct df_device_id id;
		struct df_verdict v;
		int err = df_device_id_read(run->ctx, d->bus, devices[i], &id);

		/* IDs that cannot be read match no rule: the device is refused. */
		df_policy_decide_device(run->p, d->bus, d->name, err < 0 ? NULL : &id, &v);
		if (!v.allowed)
			r = df_refuse_device(run, d, devices[i]);
	}
	strv_free_array(devices, ndevices);
	return r;
}

static int enforce_decided(struct df_run *run, const char *bus, int driversfd, const char *name,
			   const struct df_verdict *v, const struct strv *bound)
{
	struct df_driver_ref d = {
		.bus = bus, .name = name, .driversfd = driversfd, .fd = -1, .unbind = -1
	};
	int r;

	df_record_decision(run, v);
	if (!v->allowed) {
		r = deny_driver(run, &d, bound);
	} else {
		r = run->act->quiet_bit ? run->act->quiet_bit(run, &d, true) : 0;
		if (r >= 0 && v->restricted)
			r = restrict_driver(run, &d);
	}
	if (d.fd >= 0)
		close(d.fd);
	return r;
}

int df_enforce_driver(struct df_run *run, const char *bus, int driversfd, const char *name,
		      const struct strv *bound)
{
	struct df_verdict v;

	df_policy_decide(run->p, bus, name, &v);
	return enforce_decided(run, bus, driversfd, name, &v, bound);
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
		    const struct df_names *drivers)
{
	struct df_busdevs bound = DF_BUSDEVS_INIT;
	static const struct strv none = STRV_INIT;
	_cleanup_free_ struct df_verdict *v = NULL;
	struct df_policy_bus pb;
	size_t denied = 0;
	int r = 0, have;

	if (!drivers->n)
		return 0;
	v = calloc(drivers->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* The bus's rules found once, each driver decided against them. */
	df_policy_bus_init(run->p, bus, &pb);
	for (size_t j = 0; j < drivers->n; j++) {
		df_policy_decide_on(&pb, drivers->v[j], &v[j]);
		denied += !v[j].allowed;
	}
	have = denied ? load_bound(run, busesfd, bus, denied, &bound) : 0;
	if (have < 0)
		r = have;
	for (size_t j = 0; j < drivers->n && r >= 0; j++) {
		const struct strv *devs = have > 0 ? strmap_get(&bound.map, drivers->v[j]) : NULL;

		r = enforce_decided(run, bus, driversfd, drivers->v[j], &v[j],
				    have > 0 ? (devs ? devs : &none) : NULL);
	}
	df_busdevs_release(&bound);
	return r;
}

static int walk_drivers(struct df_run *run)
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
		r = walk_bus(run, busesfd, bus, driversfd, &drivers);
		df_names_release(&drivers);
	}
	df_names_release(&buses);
	return r;
}

/* The mode's actuator before the walk (lists, blacklist), the walk, and after it (the lock). */
static int enforce_all(struct df_run *run)
{
	int r = run->act->begin ? run->act->begin(run) : 0;

	if (r >= 0)
		r = walk_drivers(run);
	if (r >= 0 && run->act->end)
		r = run->act->end(run);
	return r;
}

int df_apply(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_report **ret)
{
	struct df_run run;
	int r;

	r = df_run_start(&run, ctx, p, flags);
	if (r >= 0)
		r = df_report_note_origin(ctx, run.rep);
	if (r >= 0 && run.rep->override) {
		df_log_cond(ctx, LOG_WARNING,
			    "action=override drvfilter=off is on the kernel command line: nothing "
			    "is enforced, every driver may bind");
	} else if (r >= 0) {
		if (p->mode == DF_MODE_KERNEL && run.kfd < 0)
			/* The policy insists on the kernel's filter and it is not there. */
			df_problem(&run, NULL, NULL,
				   "mode = kernel, but this kernel has no " DF_KFILTER_DIR
				   ": enforcing in fallback mode");
		r = enforce_all(&run);
	}
	/*
	 * After switch_root the initramfs's run must have left its state: else
	 * it did not run (an image built without 90drvfilter, --omit drvfilter)
	 * and every driver bound until now was bound unchecked.
	 */
	if (run.rep)
		run.rep->real_root = flags & DF_APPLY_REAL_ROOT;
	if (r >= 0 && (flags & DF_APPLY_REAL_ROOT) && !run.rep->in_initramfs &&
	    !run.rep->initramfs_sha256)
		df_critical(&run, "the initramfs left no record of drvfilter-apply (built without "
				  "90drvfilter?): nothing was enforced before the real root");
	return run.rep ? df_run_finish(&run, r, ret) : r;
}
