// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inventory: buses from /sys/bus, their drivers with module, kernel
 * "allowed" bit and bound devices, and (on request) their devices with driver
 * and modalias. Names that are not safe to put in a path are skipped and
 * counted, never used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "system/system-private.h"
#include "strv.h"

static int cmp_driver(const void *a, const void *b)
{
	return strcmp(((const struct df_driver *)a)->name, ((const struct df_driver *)b)->name);
}

static int cmp_device(const void *a, const void *b)
{
	return strcmp(((const struct df_device *)a)->name, ((const struct df_device *)b)->name);
}

static int cmp_bus(const void *a, const void *b)
{
	return strcmp(((const struct df_bus *)a)->name, ((const struct df_bus *)b)->name);
}

/*
 * An entry left out of the inventory: counted, and said what it was and why
 * ("bus pci: driver e1000: cannot read it: Permission denied"), its names
 * escaped by the caller. 0 or -ENOMEM.
 */
_printf_(2, 3) static int skip(struct df_inventory *inv, const char *fmt, ...)
{
	char **v, *what;
	va_list ap;
	int n;

	inv->skipped++;
	va_start(ap, fmt);
	n = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	v = realloc(inv->skipped_what, (inv->nskipped_what + 1) * sizeof(*v));
	if (!v) {
		free(what);
		return -ENOMEM;
	}
	inv->skipped_what = v;
	v[inv->nskipped_what++] = what;
	return 0;
}

/* Names not safe to use, left out of a listing: the least named, the rest counted. */
static int skip_unsafe(struct df_inventory *inv, const char *bus, const char *what,
		       const struct df_names *names)
{
	char esc[DF_ESC_SIZE];
	int r;

	if (!names->unsafe)
		return 0;
	if (bus)
		r = skip(inv, "bus %s: %s \"%s\"%s: name not safe to use", df_esc(bus, esc), what,
			 names->first_unsafe ? names->first_unsafe : "?",
			 names->unsafe > 1 ? " and others like it" : "");
	else
		r = skip(inv, "%s \"%s\"%s: name not safe to use", what,
			 names->first_unsafe ? names->first_unsafe : "?",
			 names->unsafe > 1 ? " and others like it" : "");
	/* Counted as many as there were, named once. */
	inv->skipped += names->unsafe - 1;
	return r;
}

static void driver_release(struct df_driver *drv)
{
	free(drv->name);
	free(drv->module);
	strv_free_array(drv->devices, drv->ndevices);
}

static void device_release(struct df_device *dev)
{
	free(dev->name);
	free(dev->driver);
	free(dev->modalias);
	free(dev->label);
	strv_free_array(dev->candidates, dev->ncandidates);
}

static int load_driver(struct df_ctx *ctx, int driversfd, const char *name, struct df_driver *drv,
		       size_t *skipped)
{
	/* @skipped: bound devices of the driver that could not be read or had unsafe names. */
	_cleanup_close_ int fd = df_open_dir_at(driversfd, name);
	char buf[DF_NAME_MAX + 1], esc[DF_ESC_SIZE];
	int r;

	if (fd < 0)
		return fd;
	drv->name = strdup(name);
	if (!drv->name)
		return -ENOMEM;
	r = df_driver_module(ctx, fd, buf, sizeof(buf), &drv->builtin);
	if (r > 0 && !(drv->module = strdup(buf)))
		return -ENOMEM;
	if (r < 0)
		df_log_cond(ctx, LOG_WARNING, "cannot read the module link of driver '%s': %s",
			    df_esc(name, esc), strerror(-r));
	if (df_read_at(fd, "allowed", buf, sizeof(buf)) >= 0 &&
	    (streq(buf, "0") || streq(buf, "1")))
		drv->allowed = buf[0] - '0';
	else
		drv->allowed = -1;
	r = df_driver_list_devices(ctx, fd, &drv->devices, &drv->ndevices, skipped, NULL);
	if (r == -ENOMEM)
		return r;
	/* Its devices unknown: maybe bound ones, counted as links not read. */
	if (r < 0)
		(*skipped)++;
	return 0;
}

static int load_drivers(struct df_ctx *ctx, int busfd, struct df_bus *bus, struct df_inventory *inv)
{
	_cleanup_close_ int driversfd = -1;
	char esc[DF_ESC_SIZE], esc2[DF_ESC_SIZE];
	struct df_names names;
	int r = 0;

	/* The same sorted, checked listing enforcement walks. */
	r = df_dir_list_dirs(busfd, "drivers", &names);
	if (r < 0)
		return r == -ENOENT ? 0 : r;
	if (names.unsafe) {
		df_log_cond(ctx, LOG_WARNING,
			    "bus '%s': drivers skipped, their names not safe to use: %zu",
			    df_esc(bus->name, esc), names.unsafe);
		if (skip_unsafe(inv, bus->name, "driver", &names) < 0) {
			df_names_release(&names);
			return -ENOMEM;
		}
	}
	driversfd = df_open_dir_at(busfd, "drivers");
	bus->drivers = calloc(names.n ? names.n : 1, sizeof(*bus->drivers));
	if (driversfd < 0 || !bus->drivers) {
		df_names_release(&names);
		return driversfd < 0 ? driversfd : -ENOMEM;
	}
	for (size_t i = 0; i < names.n; i++) {
		struct df_driver *drv = &bus->drivers[bus->ndrivers];
		size_t devs_skipped = 0;

		r = load_driver(ctx, driversfd, names.v[i], drv, &devs_skipped);
		drv->nunknown = devs_skipped;
		if (r >= 0 && devs_skipped) {
			r = skip(inv,
				 "bus %s: driver %s: %zu of its links unreadable or not safe to "
				 "use: its bound devices may be more than shown",
				 df_esc(bus->name, esc), df_esc(names.v[i], esc2), devs_skipped);
			inv->skipped += devs_skipped - 1;
			if (r < 0) {
				bus->ndrivers++; /* released with the bus */
				break;
			}
		}
		if (r >= 0) {
			bus->ndrivers++;
			continue;
		}
		driver_release(drv);
		*drv = (struct df_driver){ 0 };
		if (r == -ENOMEM)
			break;
		df_log_cond(ctx, LOG_WARNING, "bus '%s': cannot read driver '%s': %s",
			    df_esc(bus->name, esc), df_esc(names.v[i], esc2), strerror(-r));
		r = skip(inv, "bus %s: driver %s: cannot read it: %s", df_esc(bus->name, esc),
			 df_esc(names.v[i], esc2), strerror(-r));
		if (r < 0)
			break;
	}
	df_names_release(&names);
	return r == -ENOMEM ? r : 0;
}

static int load_device(struct df_ctx *ctx, int devicesfd, const char *name, struct df_device *dev)
{
	_cleanup_close_ int fd = df_open_dir_at(devicesfd, name);
	char buf[4096];

	if (fd < 0)
		return fd;
	dev->name = strdup(name);
	if (!dev->name)
		return -ENOMEM;
	if (df_readlink_name_at(fd, "driver", buf, sizeof(buf)) >= 0 &&
	    !(dev->driver = strdup(buf)))
		return -ENOMEM;
	/* ACPI (or DT) describes it: the firmware, and so the host, offers it. */
	dev->firmware_node = faccessat(fd, "firmware_node", F_OK, AT_SYMLINK_NOFOLLOW) == 0;
	/* Modaliases are printable ASCII; anything else is not looked up. */
	if (df_read_at(fd, "modalias", buf, sizeof(buf)) > 0 && df_sysfs_name_check(buf) == 0 &&
	    !(dev->modalias = strdup(buf)))
		return -ENOMEM;
	return 0;
}

static int load_devices(struct df_ctx *ctx, int busfd, struct df_bus *bus, struct df_inventory *inv)
{
	DIR *d = df_dir_open_at(busfd, "devices");
	char esc[DF_ESC_SIZE], esc2[DF_ESC_SIZE];
	struct df_names unsafe = { 0 };
	struct dirent *de;
	size_t cap = 0;
	int r;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((r = df_dir_next(d, &de)) > 0) {
		struct df_device *dev;

		if (df_sysfs_name_check(de->d_name) < 0) {
			/* Named once per bus, the rest counted: a host can make thousands. */
			r = df_names_note_unsafe(&unsafe, df_esc(de->d_name, esc2));
			if (r < 0)
				break;
			continue;
		}
		dev = ARRAY_GROW(bus->devices, cap, bus->ndevices);
		if (!dev) {
			r = -ENOMEM;
			break;
		}
		*dev = (struct df_device){ 0 };
		bus->ndevices++;
		r = load_device(ctx, dirfd(d), de->d_name, dev);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			int err = r;

			device_release(dev);
			bus->ndevices--;
			r = skip(inv, "bus %s: device %s: cannot read it: %s",
				 df_esc(bus->name, esc), df_esc(de->d_name, esc2), strerror(-err));
			if (r < 0)
				break;
		}
	}
	closedir(d);
	if (r >= 0)
		r = skip_unsafe(inv, bus->name, "device", &unsafe);
	df_names_release(&unsafe);
	if (r < 0)
		return r;
	if (bus->ndevices > 1)
		qsort(bus->devices, bus->ndevices, sizeof(*bus->devices), cmp_device);
	return 0;
}

/*
 * The bus @name of the directory @dfd into @inv (@cap: its room), with its
 * drivers and (DF_INV_DEVICES) its devices; a bus that cannot be read is
 * left out and said. 0 or -ENOMEM.
 */
static int load_bus(struct df_ctx *ctx, int dfd, const char *name, unsigned flags,
		    struct df_inventory *inv, size_t *cap)
{
	_cleanup_close_ int busfd = -1;
	char esc[DF_ESC_SIZE];
	struct df_bus *bus;
	int r;

	if (df_sysfs_name_check(name) < 0)
		return skip(inv, "bus \"%s\": name not safe to use", df_esc(name, esc));
	busfd = df_open_dir_at(dfd, name);
	if (busfd < 0)
		return skip(inv, "bus %s: cannot read it: %s", df_esc(name, esc), strerror(-busfd));
	bus = ARRAY_GROW(inv->buses, *cap, inv->nbuses);
	if (!bus)
		return -ENOMEM;
	*bus = (struct df_bus){ .name = strdup(name) };
	inv->nbuses++;
	if (!bus->name)
		return -ENOMEM;
	r = load_drivers(ctx, busfd, bus, inv);
	if (r >= 0 && (flags & DF_INV_DEVICES))
		r = load_devices(ctx, busfd, bus, inv);
	if (r >= 0 || r == -ENOMEM)
		return r;
	df_log_cond(ctx, LOG_WARNING, "cannot read bus '%s': %s", df_esc(bus->name, esc),
		    strerror(-r));
	return skip(inv, "bus %s: cannot read it: %s", df_esc(bus->name, esc), strerror(-r)) < 0
		       ? -ENOMEM
		       : 0;
}

int df_inventory_load(struct df_ctx *ctx, unsigned flags, struct df_inventory **ret)
{
	struct df_inventory *inv = calloc(1, sizeof(*inv));
	_cleanup_close_ int busesfd = -1;
	DIR *d = NULL;
	struct dirent *de;
	size_t cap = 0;
	int r;

	if (!inv)
		return -ENOMEM;
	inv->locked = -1;
	{
		_cleanup_close_ int kfd = df_kfilter_open(ctx);

		inv->kernel_filter = kfd >= 0;
		if (kfd >= 0 && (r = df_kfilter_read_locked(kfd)) >= 0)
			inv->locked = r;
	}
	busesfd = df_open_dir(ctx, "/sys/bus");
	if (busesfd < 0) {
		r = busesfd;
		goto fail;
	}
	d = df_dir_open_at(busesfd, ".");
	if (!d) {
		r = -errno;
		goto fail;
	}
	while ((r = df_dir_next(d, &de)) > 0)
		if (df_entry_is_dir(dirfd(d), de) &&
		    (r = load_bus(ctx, dirfd(d), de->d_name, flags, inv, &cap)) < 0)
			break;
	closedir(d);
	if (r < 0)
		goto fail;
	if (inv->nbuses > 1)
		qsort(inv->buses, inv->nbuses, sizeof(*inv->buses), cmp_bus);
	*ret = inv;
	return 0;
fail:
	df_inventory_free(inv);
	return r;
}

struct df_inventory *df_inventory_free(struct df_inventory *inv)
{
	if (!inv)
		return NULL;
	for (size_t i = 0; i < inv->nbuses; i++) {
		struct df_bus *bus = &inv->buses[i];

		for (size_t j = 0; j < bus->ndrivers; j++)
			driver_release(&bus->drivers[j]);
		for (size_t j = 0; j < bus->ndevices; j++)
			device_release(&bus->devices[j]);
		free(bus->drivers);
		free(bus->devices);
		free(bus->name);
	}
	free(inv->buses);
	strv_free_array(inv->skipped_what, inv->nskipped_what);
	free(inv);
	return NULL;
}

const struct df_bus *df_inventory_bus(const struct df_inventory *inv, const char *name)
{
	struct df_bus key = { .name = (char *)name };

	if (!inv->nbuses)
		return NULL;
	return bsearch(&key, inv->buses, inv->nbuses, sizeof(*inv->buses), cmp_bus);
}

const struct df_driver *df_bus_driver(const struct df_bus *bus, const char *name)
{
	struct df_driver key = { .name = (char *)name };

	if (!bus->ndrivers)
		return NULL;
	return bsearch(&key, bus->drivers, bus->ndrivers, sizeof(*bus->drivers), cmp_driver);
}
