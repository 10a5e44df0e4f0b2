// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fallback mode, for a kernel without the filter: what userspace can do. A
 * modprobe.d blacklist keeps modules that provide only denied drivers from
 * loading by alias (written before udevd starts), and a denied driver's
 * devices are detached through its unbind file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce-private.h"
#include "strbuf.h"
#include "strv.h"

int df_fallback_blacklist(struct df_run *run)
{
	struct df_modules *m = NULL;
	struct strbuf sb = STRBUF_INIT;
	char esc[DF_ESC_SIZE];
	char **mods = NULL;
	size_t n = 0;
	int r, err = 0;

	r = df_modules_open(run->ctx, &m);
	if (r == -ENOENT) {
		df_log_cond(run->ctx, LOG_NOTICE,
			    "no modules for this kernel: there is nothing to blacklist");
		return 0;
	}
	if (r >= 0)
		r = df_modules_blacklist(m, run->p, &mods, &n);
	/* Which module set it knows: the initramfs's own, or the real root's whole tree. */
	if (r >= 0 && !(run->rep->blacklist_dir = strdup(df_modules_dir(m))))
		r = -ENOMEM;
	if (r >= 0)
		run->rep->blacklist_modules = df_modules_known(m);
	df_modules_free(m);
	if (r < 0) {
		if (r == -ENOMEM)
			return r;
		df_problem(run, NULL, NULL,
			   "cannot read the module aliases: %s; no module is blacklisted",
			   strerror(-r));
		return 0;
	}
	r = strbuf_appendf(&sb,
			   "# Written by drvfilter-apply from %s (sha256 %s).\n"
			   "# Modules that provide only denied drivers. Do not edit: it is "
			   "rewritten at every boot.\n",
			   run->p->path, run->p->sha256[0] ? run->p->sha256 : "none: fail closed");
	for (size_t i = 0; i < n && r >= 0; i++) {
		/* A name with a blank would be a command in an install line: modules' names only. */
		if (df_modname_check(mods[i]) < 0) {
			df_problem(run, NULL, NULL,
				   "a module name that is not one ([A-Za-z0-9_-], at most %d "
				   "bytes) is "
				   "not written to the blacklist: '%s'",
				   DF_MODNAME_MAX, df_esc(mods[i], esc));
			free(mods[i]);
			mods[i] = NULL;
			continue;
		}
		r = strbuf_appendf(&sb, "blacklist %s\ninstall %s /bin/false\n", mods[i], mods[i]);
	}
	if (r >= 0 && df_run_writes(run))
		err = df_write_file_atomic(run->ctx, "/run/modprobe.d", "drvfilter.conf", sb.s,
					   sb.len, 0644);
	strbuf_release(&sb);
	for (size_t i = 0; i < n && r >= 0; i++) {
		if (!mods[i])
			continue;
		r = df_record(run, DF_ACT_BLACKLIST, NULL, mods[i], NULL, NULL, err);
	}
	strv_free_array(mods, n);
	if (r >= 0 && err && n == 0)
		df_problem(run, NULL, NULL, "cannot write /run/modprobe.d/drvfilter.conf: %s",
			   strerror(-err));
	return r;
}

int df_unbind(struct df_run *run, int drvfd, const char *bus, const char *driver,
	      const char *device)
{
	int err = df_run_write_at(run, drvfd, "unbind", device);
	int r;

	/*
	 * ENODEV: it went away or was unbound meanwhile; the goal holds. Any
	 * other error, ENOENT included (no unbind file), leaves it bound.
	 */
	if (err == -ENODEV)
		err = 0;
	r = df_record(run, DF_ACT_UNBIND, bus, driver, device, NULL, err);
	if (err == -ENOENT && faccessat(drvfd, "unbind", F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		df_warning(run, bus, driver,
			   "the driver has no unbind file (it suppresses bind attributes): only "
			   "the kernel's filter or the boot options can stop it");
	return r;
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

int df_refuse_device(struct df_run *run, int drvfd, const char *bus, const char *driver,
		     const char *device)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int devfd = -1;
	int r, err;

	r = df_unbind(run, drvfd, bus, driver, device);
	if (r < 0)
		return r;
	/* driverctl's way: "none" names no driver, so none binds it (until reboot). */
	if (asprintf(&path, "/sys/bus/%s/devices/%s", bus, device) < 0)
		return -ENOMEM;
	devfd = df_open_dir(run->ctx, path);
	if (devfd < 0 || faccessat(devfd, "driver_override", F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* no driver_override on this bus: the udev rule undoes a new bind */
	err = df_run_write_at(run, devfd, "driver_override", "none");
	return df_record(run, DF_ACT_PIN, bus, driver, device, "none", err);
}
