// SPDX-License-Identifier: GPL-2.0-only
/*
 * A driver's bind and unbind files: the one way a device is detached from a
 * driver by hand (the boot walk in fallback mode, kernel mode when a bit
 * cannot be written, the udev handler, device rules' refusals), and, after a
 * runtime allow on a kernel without the filter, the way a driver is offered
 * the devices it could not take before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce/enforce-private.h"

bool df_driver_has_unbind(const struct df_driver_ref *d)
{
	char rel[DF_NAME_MAX + sizeof("/unbind")];
	int r;

	if (d->fd >= 0) {
		r = faccessat(d->fd, "unbind", F_OK, AT_SYMLINK_NOFOLLOW);
	} else {
		r = faccessat(d->driversfd, concat2(rel, sizeof(rel), d->name, "/unbind"), F_OK,
			      AT_SYMLINK_NOFOLLOW);
	}
	/* Only a file known absent says so: any other failure is no proof. */
	return r == 0 || errno != ENOENT;
}

int df_unbind(struct df_run *run, struct df_driver_ref *d, const char *device)
{
	int err = df_run_write_at(run, d->fd, "unbind", device);
	int r;

	/*
	 * ENODEV: it went away or was unbound meanwhile; the goal holds. Any
	 * other error, ENOENT included (no unbind file), leaves it bound.
	 */
	if (err == -ENODEV)
		err = 0;
	r = df_record(run, DF_ACT_UNBIND, d->bus, d->name, device, NULL, err);
	if (err == -ENOENT && !df_driver_has_unbind(d))
		df_warning(run, d->bus, d->name,
			   "the driver has no unbind file (it suppresses bind attributes): only "
			   "the kernel's filter or the boot options can stop it");
	return r;
}

int df_refuse_device(struct df_run *run, struct df_driver_ref *d, const char *device)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int devfd = -1;
	int r, err;

	r = df_unbind(run, d, device);
	if (r < 0)
		return r;
	/* driverctl's way: "none" names no driver, so none binds it (until reboot). */
	if (asprintf(&path, "/sys/bus/%s/devices/%s", d->bus, device) < 0)
		return -ENOMEM;
	devfd = df_open_dir(run->ctx, path);
	if (devfd < 0 || faccessat(devfd, "driver_override", F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* no driver_override on this bus: the udev rule undoes a new bind */
	err = df_run_write_at(run, devfd, "driver_override", "none");
	return df_record(run, DF_ACT_PIN, d->bus, d->name, device, "none", err);
}

int df_bind_waiting(struct df_ctx *ctx, const char *bus, const char *driver, size_t *bound)
{
	_cleanup_free_ char *drvpath = NULL, *devpath = NULL;
	_cleanup_close_ int drvfd = -1, devfd = -1;
	struct df_names devices;
	int r;

	*bound = 0;
	if (df_sysfs_name_check(bus) < 0 || df_sysfs_name_check(driver) < 0)
		return -EINVAL;
	if (asprintf(&drvpath, "/sys/bus/%s/drivers/%s", bus, driver) < 0 ||
	    asprintf(&devpath, "/sys/bus/%s/devices", bus) < 0)
		return -ENOMEM;
	drvfd = df_open_dir(ctx, drvpath);
	if (drvfd < 0)
		return drvfd;
	devfd = df_open_dir(ctx, devpath);
	if (devfd < 0)
		return devfd;
	/* The devices of a bus are links into /sys/devices: list them as such. */
	r = df_dir_list_links(devfd, &devices);
	if (r < 0)
		return r;
	for (size_t i = 0; i < devices.n; i++) {
		char rel[DF_NAME_MAX + sizeof("/driver")];
		int err;

		snprintf(rel, sizeof(rel), "%s/driver", devices.v[i]);
		if (faccessat(devfd, rel, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			continue; /* bound already */
		/* The kernel binds only what the driver matches: ENODEV and the like are "not its". */
		err = df_write_at(drvfd, "bind", devices.v[i]);
		if (!err)
			(*bound)++;
	}
	df_names_release(&devices);
	return 0;
}
