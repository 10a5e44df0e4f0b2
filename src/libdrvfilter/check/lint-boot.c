// SPDX-License-Identifier: GPL-2.0-only
/*
 * The boot devices' guard. A policy under which the target could not reach
 * its root file system or its console, or would detach the TPM it measures
 * into, is an error where a mistake can still be undone: check (and so the
 * image builders' gates), edit, allow/deny and cmdline. It is a warning in
 * audit mode, which detaches nothing, and when the policy says it means it
 * ([filter] protect_boot = no). Boot enforces the policy as written.
 *
 * The devices are found as the kernel shows them: the root file system from
 * the "/" of mountinfo (or root=/dev/NAME), the consoles from
 * /sys/class/tty/console/active (or console=), the TPM from /sys/class/tpm.
 * A device needs the drivers bound to it and to every device above it in
 * /sys/devices, and a device-mapper or md device those of the devices it is
 * built on (slaves/); in fallback mode, the module of each such driver must
 * stay off the blacklist too. A PCI bridge's port driver (pcieport, shpchp)
 * is not needed by the devices behind the bridge once it never binds, but
 * unbinding it disables the bridge: it is asked for unless bound = keep. A
 * root file system on dm-crypt needs the TPM too, measuring or not. A root
 * on no block device (overlay, NFS, virtiofs) and a console with no device
 * (hvc0, tty0) cannot be followed: the first is said, the second not.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check-private.h"
#include "strv.h"

#define CHAIN_MAX 32 /* levels of /sys/devices walked up from one device */
#define SLAVES_DEPTH_MAX 4 /* dm on md on dm ... */
#define SLAVES_MAX 64 /* devices one dm or md device is built on */
#define WALK_MAX 256 /* device directories walked for one boot device, in all */

static const char *const not_needed[][2] = { { "pci", "pcieport" }, { "pci", "shpchp" } };

struct guard {
	struct df_ctx *ctx;
	const struct df_policy *p;
	struct df_diags *diags;
	enum df_severity severity;
	const char *what; /* "the root file system (/dev/vda)" */
	const char *loses; /* what enforcing the policy would cost */
	struct strv seen; /* "bus:driver" already said for this device */
	struct strv walked; /* the real paths of the disks walked up from, for this device */
	struct strv *needed; /* df_boot_drivers(): every driver met, no policy decided */
	bool root_unknown; /* the root's device is not known, or cannot be followed */
	unsigned budget; /* device directories left to walk for this device */
	bool encrypted; /* the root file system is on dm-crypt (a volume the TPM may unseal) */
	char top[PATH_MAX]; /* the real path of /sys/devices under the sysroot */
};

/* The last component of @path, cut off in place; NULL when there is none. */
static char *cut_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash || !slash[1])
		return NULL;
	*slash = '\0';
	return slash + 1;
}

/* The bus and name of the driver bound to the device @fd: its link ends in bus/B/drivers/D. */
static int driver_of(int fd, char bus[DF_NAME_MAX + 1], char driver[DF_NAME_MAX + 1])
{
	char target[PATH_MAX];
	const char *d, *drivers, *b;
	ssize_t n = readlinkat(fd, "driver", target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	d = cut_last(target);
	drivers = cut_last(target);
	b = cut_last(target);
	if (!d || !drivers || !b || !streq(drivers, "drivers") || strlen(d) > DF_NAME_MAX ||
	    strlen(b) > DF_NAME_MAX || df_sysfs_name_check(d) < 0 || df_sysfs_name_check(b) < 0)
		return -EINVAL;
	strcpy(bus, b);
	strcpy(driver, d);
	return 0;
}

/*
 * Fallback mode's blacklist judges a module that is not loaded yet (in the
 * initramfs, before coldplug) by its own name: when the module of a needed
 * driver is named otherwise (sd_mod registers scsi:sd) and that name is
 * denied, the module is blacklisted and the driver never registers. An
 * error (or warning) then, said at the rule that denies the module's name.
 */
static int guard_module(struct guard *g, const char *bus, const char *driver, const char *key)
{
	char rel[3 * DF_NAME_MAX + 32], module[DF_NAME_MAX + 1], drv[DF_NAME_MAX + 1];
	_cleanup_close_ int fd = -1;
	struct df_verdict v;
	int r;

	if (g->p->mode == DF_MODE_KERNEL)
		return 0;
	snprintf(rel, sizeof(rel), "/sys/bus/%s/drivers/%s", bus, driver);
	fd = df_open_dir(g->ctx, rel);
	if (fd < 0 || df_readlink_name_at(fd, "module", module, sizeof(module)) < 0)
		return 0;
	/* A built-in module (no initstate) is never blacklisted; nor one named like its driver. */
	snprintf(rel, sizeof(rel), "/sys/module/%s/initstate", module);
	if (!df_ctx_exists(g->ctx, rel) || df_modname_normalize(driver, drv) < 0 ||
	    streq(drv, module))
		return 0;
	df_module_decide(g->p, bus, module, &v);
	if (v.allowed)
		return 0;
	r = df_diags_set_file(g->diags, v.rule->file);
	if (r >= 0)
		r = df_diags_add(
			g->diags, g->severity, v.rule->line,
			"fallback mode's blacklist keeps module %s, which registers %s, from "
			"loading before it is loaded (%s needs it): %s%s",
			module, key, g->what, g->loses,
			g->severity == DF_ERROR ? " (allow the module's name too)" : "");
	return r;
}

/* One driver the device needs: an error (or warning) when the policy takes it away. */
static int guard_driver(struct guard *g, const char *bus, const char *driver, const char *device)
{
	struct df_device_id id;
	struct df_verdict v;
	char key[2 * DF_NAME_MAX + 2];
	const char *hint;
	bool known;
	int r;

	if (g->needed) {
		snprintf(key, sizeof(key), "%s:%s", bus, driver);
		return strv_push_unique(g->needed, key);
	}
	/*
	 * Unbinding a port driver disables the bridge (pcie_portdrv_remove()
	 * clears its bus mastering): only a driver that stays bound
	 * (bound = keep), and then never binds again, is not needed.
	 */
	for (size_t i = 0; g->p->bound == DF_BOUND_KEEP && i < ARRAY_SIZE(not_needed); i++)
		if (streq(bus, not_needed[i][0]) && streq(driver, not_needed[i][1]))
			return 0;
	df_policy_decide(g->p, bus, driver, &v);
	/* Allowed by device rules only: as apply decides, this device must be one of theirs. */
	known = false;
	if (v.allowed && v.restricted) {
		known = df_device_id_read(g->ctx, bus, device, &id) >= 0 && id.n;
		df_policy_decide_device(g->p, bus, driver, known ? &id : NULL, &v);
	}
	snprintf(key, sizeof(key), "%s:%s", bus, driver);
	if (strv_contains(&g->seen, key))
		return 0;
	r = strv_push(&g->seen, key);
	if (r < 0)
		return r;
	if (v.allowed)
		return guard_module(g, bus, driver, key);
	r = df_diags_set_file(g->diags, v.rule->file);
	if (r < 0)
		return r;
	hint = g->severity == DF_ERROR
		       ? " (allow it, or set protect_boot = no in [filter] if that is meant)"
		       : "";
	if (v.restricted)
		return df_diags_add(g->diags, g->severity, v.rule->line,
				    "no device rule of %s matches %s (%s), which %s needs: %s%s",
				    key, device, known ? id.ids[0] : "its IDs cannot be read",
				    g->what, g->loses, hint);
	return df_diags_add(g->diags, g->severity, v.rule->line,
			    "the policy denies %s, the driver of %s, which %s needs: %s%s", key,
			    device, g->what, g->loses, hint);
}

static int guard_path(struct guard *g, const char *path, unsigned depth);

/* What a dm or md device @fd is built on; and whether it is dm-crypt's. */
static int guard_slaves(struct guard *g, int fd, const char *path, unsigned depth)
{
	DIR *d = df_dir_open_at(fd, "slaves");
	struct dirent *de;
	char uuid[128];
	size_t n = 0;
	int r = 0;

	/* dm-crypt's volumes: the TPM may hold their key (systemd-cryptenroll --tpm2-device). */
	if (df_read_at(fd, "dm/uuid", uuid, sizeof(uuid)) >= 0 && startswith(uuid, "CRYPT-"))
		g->encrypted = true;
	if (!d)
		return 0;
	while (r >= 0 && n++ < SLAVES_MAX && df_dir_next(d, &de) > 0) {
		_cleanup_free_ char *link = NULL;

		if (df_sysfs_name_check(de->d_name) < 0)
			continue;
		if (asprintf(&link, "%s/slaves/%s", path, de->d_name) < 0)
			r = -ENOMEM;
		else
			r = guard_path(g, link, depth + 1);
	}
	closedir(d);
	return r;
}

/* The device at @path (under the sysroot, links allowed) and every device above it. */
static int guard_path(struct guard *g, const char *path, unsigned depth)
{
	char real[PATH_MAX], bus[DF_NAME_MAX + 1], driver[DF_NAME_MAX + 1];
	size_t toplen = strlen(g->top);
	int r = 0;

	/* Only inside /sys/devices: a link out of it (a hostile recording) is not followed. */
	if (depth > SLAVES_DEPTH_MAX || !realpath(path, real) || strncmp(real, g->top, toplen) ||
	    real[toplen] != '/')
		return 0;
	/* Each disk once: slaves shared by stacked devices are walked up from once. */
	if (strv_contains(&g->walked, real))
		return 0;
	r = strv_push(&g->walked, real);
	for (unsigned level = 0; r >= 0 && level < CHAIN_MAX && strlen(real) > toplen; level++) {
		_cleanup_close_ int fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		char *device;

		if (fd < 0 || g->budget == 0)
			break;
		g->budget--;
		if (level == 0)
			r = guard_slaves(g, fd, real, depth);
		device = cut_last(real);
		if (r >= 0 && device && driver_of(fd, bus, driver) == 0)
			r = guard_driver(g, bus, driver, device);
	}
	return r;
}

/* Guard one device (@rel: absolute, under the sysroot): @what needs it, and loses @loses. */
static int guard_device(struct guard *g, const char *rel, const char *what, const char *loses)
{
	_cleanup_free_ char *path = df_ctx_path(g->ctx, rel);
	int r;

	if (!path)
		return -ENOMEM;
	g->what = what;
	g->loses = loses;
	g->budget = WALK_MAX;
	r = guard_path(g, path, 0);
	strv_release(&g->seen);
	strv_release(&g->walked);
	return r;
}

static int guard_root(struct guard *g, const struct df_cmdline_opts *o)
{
	char rel[PATH_MAX], label[PATH_MAX], what[PATH_MAX + 64];
	struct df_root_mount m = { 0 };
	int r = df_root_device(g->ctx, o, &m, rel, sizeof(rel), label, sizeof(label));

	if (r < 0)
		return r;
	/* Whatever the root needs is not known: df_boot_drivers() says so. */
	g->root_unknown = r == 0;
	/* Mounted, but from no block device it can follow (overlay, NFS, virtiofs): said. */
	if (r == 0 && m.found) {
		r = df_diags_set_file(g->diags, NULL);
		return r < 0 ? r
			     : df_diags_add(g->diags, DF_WARNING, 0,
					    "the root file system (%s, %s) is on no block device "
					    "that can be followed: the drivers it needs are not "
					    "checked",
					    m.source, m.type);
	}
	if (r == 0) {
		df_dbg(g->ctx, "the root file system's device is not known: not guarded");
		return 0;
	}
	snprintf(what, sizeof(what), "the root file system (%s)", label);
	return guard_device(g, rel, what,
			    "the system would not find its root file system at the next boot");
}

static int guard_console(struct guard *g, const char *name)
{
	char rel[DF_NAME_MAX + 32], what[DF_NAME_MAX + 32];

	if (df_sysfs_name_check(name) < 0)
		return 0;
	snprintf(rel, sizeof(rel), "/sys/class/tty/%s/device", name);
	snprintf(what, sizeof(what), "the console %s", name);
	return guard_device(g, rel, what, "the system would boot without its console");
}

/* The consoles the kernel writes to; those of console= when the target does not say. */
static int guard_consoles(struct guard *g, const struct df_cmdline_opts *o)
{
	char active[512], *save = NULL;
	int r = 0;

	if (df_read_file(g->ctx, "/sys/class/tty/console/active", active, sizeof(active)) < 0) {
		for (size_t i = 0; i < o->nconsoles && r >= 0; i++)
			r = guard_console(g, o->consoles[i]);
		return r;
	}
	for (char *n = strtok_r(active, " ", &save); n && r >= 0; n = strtok_r(NULL, " ", &save))
		r = guard_console(g, n);
	return r;
}

/* The root file system's and the consoles' devices, walked up. */
static int guard_boot_devices(struct guard *g)
{
	struct df_cmdline_opts o = { 0 };
	int r;

	r = df_cmdline_opts_read(g->ctx, &o);
	if (r == -ENOMEM)
		return r;
	r = guard_root(g, &o);
	if (r >= 0)
		r = guard_consoles(g, &o);
	df_cmdline_opts_release(&o);
	return r;
}

int df_boot_drivers(struct df_ctx *ctx, char ***ret, size_t *n)
{
	_cleanup_free_ char *top = df_ctx_path(ctx, "/sys/devices");
	struct strv needed = STRV_INIT;
	struct df_diags diags;
	struct guard g = {
		.ctx = ctx,
		.diags = &diags,
		.seen = STRV_INIT,
		.needed = &needed,
	};
	int r = 0;

	*ret = NULL;
	*n = 0;
	if (!top)
		return -ENOMEM;
	if (!realpath(top, g.top))
		return 0;
	df_diags_init(&diags);
	r = guard_boot_devices(&g);
	df_diags_release(&diags);
	if (r < 0) {
		strv_release(&needed);
		return r;
	}
	*ret = strv_steal(&needed, n);
	return g.root_unknown;
}

int df_policy_check_boot(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags)
{
	_cleanup_free_ char *top = df_ctx_path(ctx, "/sys/devices");
	struct guard g = {
		.ctx = ctx,
		.p = p,
		.diags = diags,
		.severity = p->protect_boot && p->mode != DF_MODE_AUDIT ? DF_ERROR : DF_WARNING,
		.seen = STRV_INIT,
	};
	int r;

	if (!top)
		return -ENOMEM;
	if (!realpath(top, g.top)) {
		df_dbg(ctx, "cannot resolve '%s': %m; the boot devices are not guarded", top);
		return 0;
	}
	r = guard_boot_devices(&g);
	/* The TPM measure = auto or pcr:N extends: apply would detach it first. */
	if (r >= 0 && p->measure != DF_MEASURE_NO)
		r = guard_device(&g, "/sys/class/tpm/tpm0/device", "the TPM (tpm0)",
				 "apply would detach the TPM before it measures");
	/* ... and the one that may hold the key of an encrypted root file system. */
	else if (r >= 0 && g.encrypted)
		r = guard_device(&g, "/sys/class/tpm/tpm0/device",
				 "the TPM (tpm0), which may hold the root file system's key,",
				 "a root file system sealed to the TPM would not unlock");
	if (r >= 0)
		r = df_diags_set_file(diags, NULL);
	return r;
}
