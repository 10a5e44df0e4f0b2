/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drvfilterctl status: one model of the running system, computed once (every
 * driver's verdict and rule, drift, counts, the guarantee), and three views
 * of it: text, JSON and Prometheus.
 */
#ifndef DRVFILTER_STATUS_H
#define DRVFILTER_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "drvfilter.h"
#include "macro.h"

/*
 * A device a driver with device rules drives, or an unbound one it could drive
 * (status-model.c says how that is told), and what its rules say of it.
 */
struct status_devcheck {
	const char *device;
	bool bound;
	struct df_device_id id; /* n == 0: its IDs could not be read */
	struct df_verdict verdict;
	char *rule;
};

struct status_driver {
	const struct df_bus *bus;
	const struct df_driver *drv;
	struct df_verdict verdict;
	char *rule; /* the verdict's rule, described */
	struct status_devcheck *checks; /* verdict.restricted: bound devices, then unbound */
	size_t nchecks;
	bool mismatch; /* kernel mode: its allowed bit disagrees or cannot be read */
};

/* An unbound device, and the policy's decision for each module that could drive it. */
struct status_device {
	const struct df_bus *bus;
	const struct df_device *dev;
	bool *candidate_allowed; /* one per dev->candidates */
};

/* Why the system does not run the policy on disk: a reason of drift. */
enum status_drift_code {
	STATUS_DRIFT_POLICY_MISSING,
	STATUS_DRIFT_POLICY_INVALID,
	STATUS_DRIFT_NOT_APPLIED,
	STATUS_DRIFT_STATE_UNUSABLE,
	STATUS_DRIFT_OVERRIDE,
	STATUS_DRIFT_FAIL_CLOSED,
	STATUS_DRIFT_MEASURE_FAILED,
	STATUS_DRIFT_POLICY_CHANGED,
	STATUS_DRIFT_INITRAMFS_FAILED,
	STATUS_DRIFT_INITRAMFS_NOT_APPLIED,
	STATUS_DRIFT_INITRAMFS_POLICY,
	STATUS_DRIFT_RUNTIME_CHANGES,
	STATUS_DRIFT_MODE_CHANGED,
	STATUS_DRIFT_AUDIT_CHANGED,
	STATUS_DRIFT_APPLY_ERRORS,
	STATUS_DRIFT_KERNEL_LISTS,
	STATUS_DRIFT_BLACKLIST_MISSING,
	STATUS_DRIFT_BLACKLIST_STALE,
	STATUS_DRIFT_CMDLINE_AUDIT,
	STATUS_DRIFT_CMDLINE_FILTER_DISTRUSTED,
	STATUS_DRIFT_CMDLINE_FILTER_STALE,
	STATUS_DRIFT_CMDLINE_MISSING,
	STATUS_DRIFT_MAX,
};

struct status_drift {
	enum status_drift_code code;
	char *text;
};

struct status {
	struct df_policy *policy;
	bool policy_valid;
	bool policy_missing; /* there is no policy file */
	/*
	 * The runtime drop-ins of the policy (drvfilterctl allow/deny write
	 * one), which a reboot drops: the first, and how many; and the policy
	 * without them, the next boot's (NULL when there are none).
	 */
	const char *runtime_dropin;
	size_t nruntime;
	struct df_policy *boot_policy;
	struct df_inventory *inv;
	struct df_modules *mods;
	struct df_state state;
	int state_r; /* 0, -ENOENT, -EBADMSG, -errno */
	char state_why[128];
	enum df_mode mode; /* the one enforcing: kernel or fallback */
	bool audit; /* mode = audit: nothing is enforced, what would be is shown */
	const char *guarantee;
	/* Why the system does not run the policy on disk: the last apply's state, the boot options. */
	struct status_drift drift[4];
	size_t ndrift;
	struct status_driver *drivers; /* every registered driver, bus by bus */
	size_t ndrivers;
	struct status_device *unbound;
	size_t nunbound;
	size_t allowed, denied, violations, mismatches, devices;
	struct df_diags notes; /* fallback mode: names no module can be tied to */
	/* The boot options: what `cmdline` computes for this system, what /proc/cmdline carries. */
	struct df_bootopts *bootopts; /* NULL when the policy is not valid */
	struct df_cmdline_opts running;
	bool running_read; /* /proc/cmdline could be read */
	bool options; /* it carries drvfilter's boot options */
	char **missing; /* options `cmdline` computes that fit but the command line lacks */
	size_t nmissing;
	bool filter_stale; /* its filter_* lists are not the policy's */
	/* why the kernel denied every driver for its filter_* options, or NULL */
	const char *filter_distrust;
};

/* Read everything status shows. 0, or a negative errno with the reason printed. */
int status_load(struct status *s);
void status_release(struct status *s);

/* Drift (status-drift.c): the code's name, as JSON and Prometheus give it. */
const char *status_drift_code_name(enum status_drift_code code);
/* Another reason of drift: 0, or -ENOMEM. */
_printf_(3, 4) int status_add_drift(struct status *s, enum status_drift_code code, const char *fmt,
				    ...);
/* The reason the last apply's state gives, if any: 0, or -ENOMEM. */
int status_find_drift(struct status *s);
/* The boot options (status-cmdline.c): on the command line, missing from it; drift. */
int status_find_cmdline(struct status *s);

/* The missing boot options, "initcall_blacklist: a, b; module_blacklist: c", @max per option. */
struct strbuf;
int status_missing_text(const struct status *s, size_t max, struct strbuf *sb);

/* The table's columns, for --output. */
enum status_col {
	STATUS_COL_BUS,
	STATUS_COL_DRIVER,
	STATUS_COL_MODULE,
	STATUS_COL_DECISION,
	STATUS_COL_BIT,
	STATUS_COL_RULE,
	STATUS_COL_DEVICES,
	STATUS_NCOLS,
};

/*
 * A column of the table (status-columns.c), as util-linux's colinfo: its
 * header; the width hint, as narrow as it is folded before the next column
 * is (then any column down to its header); when it folds (0: never, else in
 * this order); STATUS_COL_* flags; what it shows.
 */
struct status_colinfo {
	const char *name;
	size_t whint;
	unsigned fold;
	unsigned flags;
	const char *help;
};

enum {
	STATUS_COL_KERNEL = 1u << 0, /* a default column in kernel mode only */
	STATUS_COL_LAST = 1u << 1, /* folded only when nothing else can be */
};

const struct status_colinfo *status_colinfo(enum status_col c);
/* A cell's preferred break: between a module and "(built-in)", a rule's section and the rule. */
#define STATUS_SOFT_BREAK '\t'
/* A cell of @d's row as it reads unfolded, with its preferred break (raw: a blank there). */
void status_cell(struct strbuf *sb, const struct status_driver *d, enum status_col c, bool raw);

/*
 * How the text view is laid out: --all, --output, --noheadings, --raw, the
 * width, colour; alone: the table without the rest (-o, -n, -r, as lsblk).
 */
struct status_view {
	size_t width; /* the terminal's; else $COLUMNS; else 80 */
	bool all, noheadings, raw, alone;
	bool colour; /* violations in red: a terminal, without NO_COLOR */
	bool plus; /* --output=+COLUMNS: after the default columns */
	enum status_col extra[2 * STATUS_NCOLS]; /* --output's columns */
	size_t nextra;
	enum status_col cols[3 * STATUS_NCOLS]; /* the columns shown */
	size_t ncols;
};

#define STATUS_RED "\033[1;31m"
#define STATUS_RESET "\033[0m"

/* --output's list ("BUS,DRIVER", "+RULE"), any case: EXIT_FINE, or the exit code of the error printed. */
int status_view_columns(struct status_view *v, const char *spec);
/* The columns shown: the default ones (the kernel's bit only where there is one), then --output's. */
void status_view_finish(struct status_view *v, bool kernel);
/* --list-columns: each column's name and what it shows. */
void status_list_columns(void);
/* The drivers' table (status-table.c): how many drivers it left out, @builtin of them built in. */
size_t status_print_table(const struct status *s, const struct status_view *v, size_t *builtin);

void status_print_text(const struct status *s, const struct status_view *v);
void status_print_json(const struct status *s);
void status_print_prometheus(const struct status *s);

#endif
