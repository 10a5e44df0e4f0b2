/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: what a machine has (buses, drivers, devices, modules) and its recording. */
#ifndef DRVFILTER_SYSTEM_H
#define DRVFILTER_SYSTEM_H

#include "policy/policy.h"

/* ---- inventory: what /sys says about buses, drivers and devices ---- */

struct df_device {
	char *name; /* as in /sys/bus/B/devices */
	char *driver; /* NULL: not bound */
	bool firmware_node; /* described by the firmware (ACPI): a device the host offers */
	char *modalias; /* NULL: none */
	char *label; /* "vendor model" from the hwdb, or NULL */
	char **candidates; /* modules whose aliases match @modalias (unbound devices) */
	size_t ncandidates;
};

struct df_driver {
	char *name;
	char *module; /* the module it belongs to, or NULL when nothing names one */
	bool builtin; /* built into the kernel image (cannot be blacklisted) */
	int allowed; /* the kernel's allowed attribute: 0, 1, or -1 when absent */
	char **devices; /* bound devices, sorted */
	size_t ndevices;
	/* links that may be bound devices but could not be read or had unsafe names */
	size_t nunknown;
};

struct df_bus {
	char *name;
	struct df_driver *drivers; /* sorted by name */
	size_t ndrivers;
	struct df_device *devices; /* sorted by name */
	size_t ndevices;
};

struct df_inventory {
	struct df_bus *buses; /* sorted by name */
	size_t nbuses;
	bool kernel_filter; /* /sys/kernel/driver_filter exists: the patched kernel */
	int locked; /* its locked attribute: 0, 1, or -1 when absent */
	size_t skipped; /* entries left out: unreadable, or with names not safe to use */
	char **skipped_what; /* what each was and why, names escaped ("bus pci: driver e1000: ...") */
	size_t nskipped_what;
};

/* Also list every device of every bus, with its modalias. */
#define DF_INV_DEVICES (1u << 0)

int df_inventory_load(struct df_ctx *ctx, unsigned flags, struct df_inventory **ret);
struct df_inventory *df_inventory_free(struct df_inventory *inv);
const struct df_bus *df_inventory_bus(const struct df_inventory *inv, const char *name);
const struct df_driver *df_bus_driver(const struct df_bus *bus, const char *name);

/* ---- modules: libkmod's aliases, and the fallback blacklist ---- */

struct df_modules;

/*
 * The modules of the running kernel (/lib/modules/RELEASE under the sysroot,
 * or under the context's modules root when it has one); -ENOENT without.
 */
int df_modules_open(struct df_ctx *ctx, struct df_modules **ret);
struct df_modules *df_modules_free(struct df_modules *m);
/* The modules whose aliases match @modalias. */
int df_modules_lookup(struct df_modules *m, const char *modalias, char ***ret, size_t *ret_n);
/*
 * Decide for a module not loaded yet, taken to provide a driver of its own
 * name on @bus: allowed when that name, or the name with '-' for '_', is.
 */
int df_module_decide(const struct df_policy *p, const char *bus, const char *module,
		     struct df_verdict *v);
/*
 * The modules to blacklist in fallback mode, sorted: those providing a denied
 * driver and no allowed one, judged by the exact drivers of loaded modules and
 * by name on their alias buses for the others. Modules without device aliases
 * are never listed.
 */
int df_modules_blacklist(struct df_modules *m, const struct df_policy *p, char ***ret,
			 size_t *ret_n);
/* The module tree @m reads: /lib/modules/RELEASE under the sysroot. */
const char *df_modules_dir(const struct df_modules *m);
/* How many modules the last df_modules_blacklist() judged: with device aliases, or loaded. */
size_t df_modules_known(const struct df_modules *m);

/*
 * After a driver is allowed at run time on a kernel without the filter: offer
 * it every unbound device of its bus through its bind file (the kernel binds
 * only the devices it matches). *@bound says how many it took.
 */
int df_bind_waiting(struct df_ctx *ctx, const char *bus, const char *driver, size_t *bound);

/* A module of this name exists (loadable or built in). */
bool df_modules_exists(struct df_modules *m, const char *name);
/*
 * Warnings for fallback mode: exact names in the policy that are neither a
 * registered driver on their bus nor a module's name, so that no module can
 * be tied to them before it loads.
 */
int df_policy_fallback_notes(const struct df_policy *p, const struct df_inventory *inv,
			     struct df_modules *m, struct df_diags *diags);

/* Fill in device labels from udev's hwdb; -ENOENT when there is no hwdb. */
int df_inventory_add_labels(struct df_inventory *inv);
/* Name the module of built-in drivers without a module link, from modules.builtin. */
int df_inventory_add_modules(struct df_inventory *inv, struct df_modules *m);
/* Fill in the candidate modules of unbound devices. */
int df_inventory_add_candidates(struct df_inventory *inv, struct df_modules *m);

/* ---- record: what drvfilter reads of a running system, as a tree for --sysroot ---- */

struct df_record_counts {
	size_t buses, drivers, devices, modules, initcalls, kmsg_records, files;
	size_t skipped; /* entries that could not be read or had unsafe names */
	size_t modules_unread; /* module files whose init function could not be read */
	bool initramfs; /* recorded inside an initramfs: its module tree is a subset */
};

/*
 * Record the context's system (the running one, or its sysroot) into the new
 * directory @dir, with the policy @policy (an absolute path of that system)
 * and its drop-in directory: the tree is built beside @dir and renamed into
 * place whole, so a failed recording leaves nothing. -EEXIST when @dir exists.
 */
int df_record_system(struct df_ctx *ctx, const char *dir, const char *policy,
		     struct df_record_counts *counts);

/* ---- cleanup attributes ---- */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_inventory *, df_inventory_free)
DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_modules *, df_modules_free)

#endif
