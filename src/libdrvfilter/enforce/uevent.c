// SPDX-License-Identifier: GPL-2.0-only
/*
 * udev's events: a driver that registered (ACTION=add SUBSYSTEM=drivers
 * DEVPATH=/bus/B/drivers/D) is enforced as the boot walk would; a device that
 * bound (ACTION=bind SUBSYSTEM=B DRIVER=D) to a denied driver is unbound at
 * once. The programs fill a struct df_uevent from where they got the event
 * (drvfilter-apply --udev from its environment, `watch` from libudev); every
 * name in it is checked here before it becomes part of a path.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce/enforce-private.h"

/* "/bus/B/drivers/D" into B and D, both checked. */
static int split_driver_devpath(const char *devpath, char *bus, char *drv)
{
	const char *b = startswith(devpath, "/bus/"), *d;
	size_t nb;

	if (!b)
		return -EINVAL;
	d = strstr(b, "/drivers/");
	if (!d)
		return -EINVAL;
	nb = (size_t)(d - b);
	d += strlen("/drivers/");
	if (nb == 0 || nb > DF_NAME_MAX || strlen(d) > DF_NAME_MAX)
		return -EINVAL;
	memcpy(bus, b, nb);
	bus[nb] = '\0';
	strcpy(drv, d);
	return df_sysfs_name_check(bus) < 0 || df_sysfs_name_check(drv) < 0 ? -EINVAL : 0;
}

/* Copy @s into @buf (DF_NAME_MAX + 1 bytes) if it is a name safe to use. */
static int copy_name(char *buf, const char *s)
{
	if (df_sysfs_name_check(s) < 0)
		return -EINVAL;
	strcpy(buf, s);
	return 0;
}

int df_uevent_parse(const char *action, const char *subsystem, const char *devpath,
		    const char *driver, struct df_uevent *ev)
{
	*ev = (struct df_uevent){ .kind = DF_UEVENT_OTHER };
	if (!action || !subsystem || !devpath)
		return -EINVAL;
	if (streq(action, "add") && streq(subsystem, "drivers")) {
		ev->kind = DF_UEVENT_DRIVER_ADD;
		if (split_driver_devpath(devpath, ev->bus, ev->driver) < 0) {
			ev->kind = DF_UEVENT_MALFORMED;
			ev->why = "a driver event with a DEVPATH that is not /bus/BUS/drivers/NAME";
		}
	} else if (streq(action, "bind") && driver) {
		const char *dev = strrchr(devpath, '/');

		ev->kind = DF_UEVENT_BIND;
		if (copy_name(ev->bus, subsystem) < 0 || copy_name(ev->driver, driver) < 0 ||
		    copy_name(ev->device, dev ? dev + 1 : devpath) < 0) {
			ev->kind = DF_UEVENT_MALFORMED;
			ev->why = "a bind event with a name that is not safe to use";
		}
	}
	return 0;
}

static int driver_added(struct df_run *run, const struct df_uevent *ev)
{
	_cleanup_close_ int driversfd = -1;
	_cleanup_free_ char *path = NULL;

	if (asprintf(&path, "/sys/bus/%s/drivers", ev->bus) < 0)
		return -ENOMEM;
	driversfd = df_open_dir(run->ctx, path);
	if (driversfd < 0) {
		df_problem(run, ev->bus, NULL, "udev: cannot open the bus's drivers: %s",
			   strerror(-driversfd));
		return 0;
	}
	return df_enforce_driver(run, ev->bus, driversfd, ev->driver, NULL);
}

void df_uevent_decide(struct df_ctx *ctx, const struct df_policy *p, const struct df_uevent *ev,
		      struct df_verdict *v, struct df_device_id *id)
{
	*id = (struct df_device_id){ 0 };
	df_policy_decide(p, ev->bus, ev->driver, v);
	/* Allowed by device rules only: this device must be one of theirs. */
	if (ev->kind == DF_UEVENT_BIND && v->allowed && v->restricted) {
		bool known = df_device_id_read(ctx, ev->bus, ev->device, id) >= 0;

		if (!known)
			*id = (struct df_device_id){ 0 };
		df_policy_decide_device(p, ev->bus, ev->driver, known ? id : NULL, v);
	}
}

static int device_bound(struct df_run *run, const struct df_uevent *ev)
{
	struct df_driver_ref d = {
		.bus = ev->bus, .name = ev->driver, .driversfd = -1, .fd = -1, .unbind = -1
	};
	_cleanup_free_ char *path = NULL;
	struct df_device_id id;
	struct df_verdict v;
	int r;

	df_uevent_decide(run->ctx, run->p, ev, &v, &id);
	if (v.allowed)
		return 0;
	if (asprintf(&path, "/sys/bus/%s/drivers/%s", ev->bus, ev->driver) < 0)
		return -ENOMEM;
	d.fd = df_open_dir(run->ctx, path);
	/* The driver is gone, and its devices went with it: as in the boot walk. */
	if (d.fd == -ENOENT)
		return 0;
	if (d.fd < 0)
		return df_record(run, DF_ACT_UNBIND, ev->bus, ev->driver, ev->device, NULL, d.fd);
	/* Refused by device rules: unbound, and kept from binding to the driver again. */
	r = v.restricted ? df_refuse_device(run, &d, ev->device) : df_unbind(run, &d, ev->device);
	close(d.fd);
	return r;
}

int df_apply_uevent(struct df_ctx *ctx, const struct df_policy *p, const struct df_uevent *ev,
		    unsigned flags, struct df_report **ret)
{
	struct df_run run;
	int r;

	/* drvfilter=off holds for udev's events whatever the caller says. */
	r = df_run_start(&run, ctx, p, flags | DF_APPLY_OVERRIDE_OK);
	if (r < 0)
		return r;
	if (run.rep->override)
		r = 0;
	else if (ev->kind == DF_UEVENT_DRIVER_ADD)
		r = driver_added(&run, ev);
	else if (ev->kind == DF_UEVENT_BIND)
		r = device_bound(&run, ev);
	else if (ev->kind == DF_UEVENT_MALFORMED)
		df_problem(&run, NULL, NULL, "udev: %s", ev->why);
	return df_run_finish(&run, r, ret);
}
