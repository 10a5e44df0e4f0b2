/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: the policy as kernel boot options, for the patched kernel and any other. */
#ifndef DRVFILTER_BOOTOPTS_H
#define DRVFILTER_BOOTOPTS_H

#include "system/system.h"

/* ---- boot options on every kernel: initcall_blacklist= and module_blacklist= ---- */

enum df_bootopt_kind {
	DF_BOOTOPT_INITCALL, /* initcall_blacklist=FN: a built-in module's init never runs */
	DF_BOOTOPT_MODULE, /* module_blacklist=M: the kernel refuses to load M, insmod included */
};

/* Why an option ranks where it does, most urgent first. */
enum df_bootopt_tier {
	DF_TIER_BOUND, /* built in, a denied driver of it drove a device the host offers */
	DF_TIER_HOST_BUS, /* built in, denied drivers on a bus the host populates */
	DF_TIER_OTHER_BUS, /* built in, denied drivers on other buses */
	DF_TIER_DEVICE_MODULE, /* loadable, drives a device of this system (or was loaded) */
	DF_TIER_MODULE, /* loadable, the rest of the module tree */
	DF_TIER_COUNT,
};

struct df_bootopt {
	enum df_bootopt_kind kind;
	enum df_bootopt_tier tier;
	char *name; /* the init function, or the module */
	char *module; /* the module */
	char **drivers; /* "bus:driver" it keeps from running, when known */
	size_t ndrivers;
	bool fits; /* within the budget: on the command line */
};

/* A denied built-in driver or module the boot options cannot cover, and why. */
struct df_uncovered {
	char *subject; /* "bus:driver" (built in), or a module's name */
	bool module;
	enum df_bootopt_tier tier; /* as it would have ranked */
	char *reason;
};

struct df_bootopts {
	char release[DF_NAME_MAX + 1]; /* the target kernel; "" when none is known */
	bool patched; /* it has the driver filter */
	bool filter; /* the filter_* options are included (patched, or not known to lack it) */
	bool trace; /* an init-call trace tells what each built-in init call registers */
	char trace_why[192]; /* when not: why */
	bool initcalls; /* kallsyms named the init calls */
	size_t ninitcalls;
	bool modules; /* a module tree was read */
	size_t nmodules; /* loadable modules whose drivers are all denied */
	size_t unreadable; /* module files whose init function could not be read */
	size_t trace_skipped; /* init calls the traced boot itself skipped: not in its trace */
	size_t record_skipped; /* entries the recording under the sysroot says it left out */
	char *line; /* the options ("" when none) */
	char *rest; /* the target's command line without the options drvfilter sets */
	size_t max_bytes; /* the budget for @line */
	size_t headroom; /* left free of the command line past it (0: an explicit budget) */
	struct df_bootopt *entries; /* every option, ranked; fits says which are on the line */
	size_t nentries;
	struct df_uncovered *uncovered; /* sorted by subject */
	size_t nuncovered;
	size_t fit[DF_TIER_COUNT],
		left[DF_TIER_COUNT]; /* options on the line, and beyond the budget */
	struct df_initcalls *kallsyms; /* internal */
};

/* Use the default budget: what the target's recorded command line leaves of 2047 bytes. */
#define DF_BOOTOPTS_DEFAULT_BUDGET 0

/*
 * The boot options for @p on the target kernel: the running one, or the one
 * recorded under the context's sysroot (its kallsyms, kernel log, /sys,
 * /proc/cmdline and /lib/modules). @inv (with devices) and @m may be NULL:
 * they are then read here. Returns 0, -ENOMEM, or -E2BIG when the filter_*
 * options alone exceed the budget (the result is still returned).
 */
int df_bootopts_compute(struct df_ctx *ctx, const struct df_policy *p,
			const struct df_inventory *inv, struct df_modules *m, size_t max_bytes,
			struct df_bootopts **ret);
struct df_bootopts *df_bootopts_free(struct df_bootopts *b);
/* The module of the built-in init function @fn, from kallsyms; NULL when not known. */
const char *df_bootopts_initcall_module(const struct df_bootopts *b, const char *fn);
const char *df_bootopt_tier_name(enum df_bootopt_tier tier);

/* ---- cleanup attributes ---- */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_bootopts *, df_bootopts_free)

#endif
