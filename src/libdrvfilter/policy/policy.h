/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: the policy, its rules and device rules, and the decision. */
#ifndef DRVFILTER_POLICY_H
#define DRVFILTER_POLICY_H

#include "core/core.h"

/* ---- devices: the identities device rules match ---- */

/* What a device is, as device rules see it: one or more IDs of its bus's form. */
struct df_device_id {
	const char *bus;
	char ids[8][32]; /* pci "1af4:1041:1af4:1100", virtio "1:1af4", pnp/acpi "PNP0501" */
	size_t n;
};

/* 0 when @pattern is a device ID (with '?', '*') of @bus's form, else -EINVAL and why. */
int df_device_pattern_check(const char *bus, const char *pattern, const char **why);
/* Whether one of @id's IDs matches @pattern (a shorter PCI pattern ignores the subsystem). */
bool df_device_match(const char *pattern, const struct df_device_id *id);
/* The IDs of device @device of @bus, from sysfs: -EOPNOTSUPP for a bus without them. */
int df_device_id_read(struct df_ctx *ctx, const char *bus, const char *device,
		      struct df_device_id *id);

/* ---- policy ---- */

enum df_section {
	DF_SECTION_ALLOW,
	DF_SECTION_DENY,
	DF_SECTION_FILTER,
};

enum df_bound {
	DF_BOUND_UNBIND,
	DF_BOUND_KEEP,
};

enum df_mode {
	DF_MODE_AUTO,
	DF_MODE_KERNEL,
	DF_MODE_FALLBACK,
	/* A policy's mode only: decide and log what auto would do, enforce nothing. */
	DF_MODE_AUDIT,
};

/* One name of one KEY = LIST line, or the default. */
struct df_rule {
	enum df_section section;
	const char *key; /* a bus, "ALL", or "default" */
	const char *name; /* a driver name, a glob, "ALL", or "allow"/"deny" for the default */
	unsigned line; /* 0: not written in the file (the implicit default) */
	const char
		*file; /* the file it is written in (the policy's or a drop-in); NULL with line 0 */
	const char *device; /* [allow] DRIVER@ID: the devices it may take; NULL: any */
};

/* [filter] measure: where apply extends its event (see drvfilter-apply(8)). */
enum df_measure {
	DF_MEASURE_NO,
	DF_MEASURE_AUTO, /* the TPM and the TDX RTMR when there are, PCR DF_MEASURE_PCR_DEFAULT */
	DF_MEASURE_PCR, /* pcr:N: a TPM must be there */
};

/*
 * PCR 15: the one register of the operating system's range (8-15) that no
 * firmware, shim (14), GRUB (8, 9), systemd-stub (11-13), the kernel's EFI
 * stub (9) or IMA (10) extends; only systemd's own user space does (the
 * machine ID, file systems, volume keys), and it logs those in the log
 * drvfilter appends to, so one log replays it. 16 and 23 are resettable,
 * 17-22 are the dynamic root of trust's. PCR 8 (the default before 2026-12)
 * carries GRUB's command line and CoCo's init data. Its RTMR is 2 (the UEFI
 * CC mapping of PCRs 8-15). See drvfilter.conf(5).
 */
#define DF_MEASURE_PCR_DEFAULT 15

struct df_verdict {
	bool allowed;
	const struct df_rule *rule; /* never NULL */
	/*
	 * Allowed by device rules only (DRIVER@ID): only the devices one of them
	 * matches (df_policy_decide_device()). For a device, with allowed false:
	 * refused because no device rule of the driver matches it (rule: the first).
	 */
	bool restricted;
};

struct df_policy;

/* The policy file may belong to another user and be writable by others (tests, sysroots). */
#define DF_LOAD_ANY_OWNER (1u << 0)
/* Read the drop-ins too: PATH.d/NAME.conf after PATH, in lexical order. */
#define DF_LOAD_DROPINS (1u << 1)
/* ... and the runtime ones, /run/drvfilter.conf.d/NAME.conf (under the sysroot), last. */
#define DF_LOAD_RUNTIME (1u << 2)
/* Where the runtime drop-ins are (drvfilterctl allow/deny write there). */
#define DF_RUNTIME_DROPIN_DIR "/run/drvfilter.conf.d"

/*
 * Read and validate the policy at @path, with its drop-ins as @flags say:
 * one set, in order; lists of one section and key are joined across files; a
 * [filter] setting is made in one file only. Every problem goes into @diags,
 * which the caller initialised, with its file; the diags' file is @path.
 * Returns 0 and the policy when there is no error (warnings allowed), -EINVAL
 * when the file has errors, another negative errno when it could not be read.
 */
int df_policy_load(struct df_ctx *ctx, const char *path, unsigned flags, struct df_diags *diags,
		   struct df_policy **ret);
/* A file of a policy's set as it would be: new text for it, not yet on disk. */
struct df_policy_source {
	const char *path; /* the policy's path, or a drop-in's as the loader names it */
	const char *buf;
	size_t len;
};

/*
 * df_policy_load() with @edited standing in for the file at its path (a
 * drop-in that does not exist yet joins the set): what `edit` checks before
 * it installs exactly these bytes.
 */
int df_policy_load_edited(struct df_ctx *ctx, const char *path, unsigned flags,
			  const struct df_policy_source *edited, struct df_diags *diags,
			  struct df_policy **ret);
/*
 * The policy text @text (@len bytes) with @name added to (@add) or taken out
 * of the list of @key in [@section] (allow or deny), and every other byte as
 * it was: the list's own line changes, or a "KEY = NAME" line ends the
 * section, or a new section ends the file; a list left empty loses its line,
 * a section left empty (no key, no comment) its header. Only a name written
 * alone is taken out, never a device rule (NAME@ID). Returns 1 and the new
 * text (*@ret, *@ret_len), 0 when there is nothing to change, -EINVAL with
 * the reason in @diags (the scan's errors, a list continued over lines, a
 * line that would be too long, or a result that would read otherwise than
 * the one change), -ENOMEM.
 */
int df_policy_edit_list(const char *text, size_t len, enum df_section section, const char *key,
			const char *name, bool add, struct df_diags *diags, char **ret,
			size_t *ret_len);
struct df_policy *df_policy_free(struct df_policy *p);
/*
 * What boot enforces when the policy at @path cannot be read or is invalid:
 * every driver denied, devices bound now left bound (bound = keep), locked.
 */
int df_policy_new_fail_closed(const char *path, struct df_policy **ret);

const char *df_policy_path(const struct df_policy *p);
/* The files read, @path first, then the drop-ins in the order they were read. */
size_t df_policy_nfiles(const struct df_policy *p);
const char *df_policy_file(const struct df_policy *p, size_t i);
/*
 * The policy's digest, in hex: the SHA-256 of the file's bytes as read when
 * it is one file; with drop-ins, of each file's name and bytes in order (see
 * drvfilter.conf(5)). "" for a fail-closed policy.
 */
const char *df_policy_sha256(const struct df_policy *p);
bool df_policy_default_allows(const struct df_policy *p);
enum df_bound df_policy_bound(const struct df_policy *p);
enum df_mode df_policy_mode(const struct df_policy *p);
bool df_policy_lock(const struct df_policy *p);
/* The measure setting, and in @pcr (may be NULL) the PCR it names or the default. */
enum df_measure df_policy_measure(const struct df_policy *p, unsigned *pcr);

/*
 * Decide for driver @driver on bus @bus: an [allow] match wins, then a [deny]
 * match, then the default. Within a list the most specific rule is reported:
 * the exact name, then a glob (in file order), then ALL; the bus's own key
 * before the ALL key. Bus names compare without regard to case.
 */
void df_policy_decide(const struct df_policy *p, const char *bus, const char *driver,
		      struct df_verdict *v);

/*
 * The rules of one bus, looked up once for all of its drivers: the walk
 * decides thousands of drivers of a bus, and the bus's name folded to lower
 * case and found in [allow] and [deny] is the same for each.
 * df_policy_decide_on() decides as df_policy_decide() does for that bus.
 */
struct df_busrules;
struct df_policy_bus {
	const struct df_policy *p;
	const char *key; /* the bus in lower case (lower), or NULL when too long for a key */
	const struct df_busrules *allow, *deny; /* the bus's own rules, or NULL */
	char lower[DF_NAME_MAX + 1];
};

void df_policy_bus_init(const struct df_policy *p, const char *bus, struct df_policy_bus *pb);
void df_policy_decide_on(const struct df_policy_bus *pb, const char *driver, struct df_verdict *v);

/* The [allow] and [deny] rules, in the order of the files and their lines. */
size_t df_policy_nrules(const struct df_policy *p);
const struct df_rule *df_policy_rule(const struct df_policy *p, size_t i);

/*
 * The same for one device (@id, of the bus's IDs, as df_device_id_read()
 * gives them): a driver allowed by device rules only is allowed for it when
 * one of them matches, else refused (allowed false, restricted true). @id
 * NULL or without IDs: such a driver is refused.
 */
void df_policy_decide_device(const struct df_policy *p, const char *bus, const char *driver,
			     const struct df_device_id *id, struct df_verdict *v);
/* Whether the policy has device rules at all. */
bool df_policy_has_device_rules(const struct df_policy *p);

/* "[allow] pci = e1000", "[filter] default = deny"; a new string, NULL without memory. */
char *df_rule_describe(const struct df_rule *r);

/* pnp:tpm_tis, platform:tpm_tis, acpi:tpm_crb, platform:tpm_crb: what measuring needs. */
bool df_is_tpm_driver(const char *bus, const char *driver);
/*
 * Why @driver on @bus is risky in a confidential guest (an emulated device
 * model, a host's say in memory, input or randomness), or NULL: what
 * generate leaves out unless the boot devices need it (risky.c).
 */
const char *df_driver_risk(const char *bus, const char *driver);
/* "no", "auto" or "pcr:N" into @buf. */
const char *df_measure_setting_name(enum df_measure m, unsigned pcr, char buf[16]);

/* ---- the policy in the kernel filter's syntax (kernel-lists.c) ---- */

/*
 * The boot options equivalent to @p ("\"filter_deny_drivers=...\" \"filter_allow_drivers=...\"":
 * deny first, so that a line cut short fails closed, and each option quoted
 * whole, so that GRUB keeps ';' and blanks), "" for a policy that allows everything.
 * Returns 0, -ENOMEM, or -E2BIG when they would not fit on a kernel command
 * line (the string is still returned, so the caller can say how long it is).
 */
int df_policy_kernel_options(const struct df_policy *p, char **ret);
/*
 * The two lists as /sys/kernel/driver_filter/{allow,deny} take them: the boot
 * options' values, unquoted ("" for an empty list). Each goes in one write
 * with its newline, which sysfs takes up to a page: at most
 * DF_KERNEL_LIST_MAX bytes and the newline (the loader refuses a longer one
 * unless mode = fallback).
 */
#define DF_KERNEL_LIST_MAX 4094
int df_policy_kernel_lists(const struct df_policy *p, char **allow, char **deny);

/* ---- cleanup attributes ---- */

DEFINE_TRIVIAL_CLEANUP_FUNC(struct df_policy *, df_policy_free)

#endif
