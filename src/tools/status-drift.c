// SPDX-License-Identifier: GPL-2.0-only
/*
 * Drift: why the running system does not run the policy on disk. Each reason
 * has a code, for machines (JSON, Prometheus labels), and a text, for people.
 * The state of the last apply gives at most one (the first that holds, as
 * each makes the later ones moot); the boot options one more.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"

/* The codes as JSON and the Prometheus labels name them. */
static const char *const drift_codes[STATUS_DRIFT_MAX] = {
	[STATUS_DRIFT_POLICY_MISSING] = "policy_missing",
	[STATUS_DRIFT_POLICY_INVALID] = "policy_invalid",
	[STATUS_DRIFT_NOT_APPLIED] = "not_applied",
	[STATUS_DRIFT_STATE_UNUSABLE] = "state_unusable",
	[STATUS_DRIFT_OVERRIDE] = "override",
	[STATUS_DRIFT_FAIL_CLOSED] = "fail_closed",
	[STATUS_DRIFT_MEASURE_FAILED] = "measure_failed",
	[STATUS_DRIFT_POLICY_CHANGED] = "policy_changed",
	[STATUS_DRIFT_INITRAMFS_FAILED] = "initramfs_failed_closed",
	[STATUS_DRIFT_INITRAMFS_NOT_APPLIED] = "initramfs_not_applied",
	[STATUS_DRIFT_INITRAMFS_POLICY] = "initramfs_policy",
	[STATUS_DRIFT_RUNTIME_CHANGES] = "runtime_changes",
	[STATUS_DRIFT_MODE_CHANGED] = "mode_changed",
	[STATUS_DRIFT_AUDIT_CHANGED] = "audit_changed",
	[STATUS_DRIFT_APPLY_ERRORS] = "apply_errors",
	[STATUS_DRIFT_KERNEL_LISTS] = "kernel_lists",
	[STATUS_DRIFT_BLACKLIST_MISSING] = "blacklist_missing",
	[STATUS_DRIFT_BLACKLIST_STALE] = "blacklist_stale",
	[STATUS_DRIFT_CMDLINE_AUDIT] = "cmdline_enforces_audit",
	[STATUS_DRIFT_CMDLINE_FILTER_DISTRUSTED] = "cmdline_filter_distrusted",
	[STATUS_DRIFT_CMDLINE_FILTER_STALE] = "cmdline_filter_stale",
	[STATUS_DRIFT_CMDLINE_MISSING] = "cmdline_missing",
};

const char *status_drift_code_name(enum status_drift_code code)
{
	return code < STATUS_DRIFT_MAX ? drift_codes[code] : NULL;
}

int status_add_drift(struct status *s, enum status_drift_code code, const char *fmt, ...)
{
	struct status_drift *d;
	va_list ap;
	int n;

	if (s->ndrift == ARRAY_SIZE(s->drift))
		return -E2BIG;
	d = &s->drift[s->ndrift];
	va_start(ap, fmt);
	n = vasprintf(&d->text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	d->code = code;
	s->ndrift++;
	return 0;
}

/* Fallback mode stands on its blacklist: it must be there, written for the policy applied. */
static int blacklist_drift(struct status *s)
{
	char sha[DF_BLACKLIST_SHA_SIZE];
	int r = df_blacklist_policy(ctl_ctx, sha);

	if (r == -ENOMEM)
		return r;
	if (r < 0 && r != -EBADMSG)
		return status_add_drift(s, STATUS_DRIFT_BLACKLIST_MISSING,
					"the module blacklist " DF_BLACKLIST_PATH
					" is missing or cannot be "
					"read: modules the policy denies can be loaded");
	if (r < 0 || !streq(sha, s->state.policy_sha256))
		return status_add_drift(s, STATUS_DRIFT_BLACKLIST_STALE,
					"the module blacklist " DF_BLACKLIST_PATH
					" was not written for the "
					"policy applied: rerun drvfilter-apply");
	return 0;
}

/* Kernel mode stands on the lists in the kernel: they must read back as the policy's. */
static int kernel_lists_drift(struct status *s)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	char cur[DF_KERNEL_LIST_MAX + 2];

	if (df_policy_kernel_lists(s->policy, &allow, &deny) < 0)
		return 0;
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "deny" : "allow", *want = k ? deny : allow;
		char path[64];

		snprintf(path, sizeof(path), "/sys/kernel/driver_filter/%s", name);
		if (df_read_file(ctl_ctx, path, cur, sizeof(cur)) >= 0 && streq(cur, want))
			continue;
		return status_add_drift(s, STATUS_DRIFT_KERNEL_LISTS,
					"the kernel's %s list is not the policy's: it was changed "
					"after apply, or not written whole",
					name);
	}
	return 0;
}

/*
 * The runtime drop-ins, for the texts: "/run/drvfilter.conf.d/50-drvfilterctl.conf",
 * "... and 2 more"; escaped, as they are names read from a directory.
 */
static int runtime_dropins(const struct status *s, struct strbuf *sb)
{
	int r = strbuf_append_escaped(sb, s->runtime_dropin);

	if (r >= 0 && s->nruntime > 1)
		r = strbuf_appendf(sb, " and %zu more", s->nruntime - 1);
	return r;
}

/*
 * What the state file says that the policy on disk is not: the boot's own
 * failures first. The runtime drop-ins are never in an initramfs and end at
 * reboot: when they make the whole difference, the text says so instead of
 * sending the administrator to rebuild the initramfs.
 */
static int boot_drift(struct status *s, const char *sha)
{
	const char *boot_sha = s->boot_policy ? df_policy_sha256(s->boot_policy) : NULL;
	_cleanup_(strbuf_release) struct strbuf rt = STRBUF_INIT;

	if (s->runtime_dropin && runtime_dropins(s, &rt) < 0)
		return -ENOMEM;
	if (s->state.override)
		return status_add_drift(s, STATUS_DRIFT_OVERRIDE,
					"drvfilter=off was on the kernel command line: nothing was "
					"enforced");
	if (s->state.fail_closed)
		return status_add_drift(
			s, STATUS_DRIFT_FAIL_CLOSED,
			"enforcement failed closed at boot (the policy could not be "
			"used, or the kernel did not take it; journalctl -k -g "
			"drvfilter says why)");
	if (s->state.measure_failed)
		return status_add_drift(
			s, STATUS_DRIFT_MEASURE_FAILED,
			"the policy was not measured as it must be (%s): no verifier "
			"can trust this boot",
			s->state.measure_error ? s->state.measure_error
					       : "journalctl -k -g drvfilter says why");
	if (!streq(s->state.policy_sha256, sha) && boot_sha &&
	    streq(s->state.policy_sha256, boot_sha))
		return status_add_drift(
			s, STATUS_DRIFT_POLICY_CHANGED,
			"the runtime drop-in %s is not applied (the policy applied, sha256 %.12s, "
			"is the one without it): run 'drvfilterctl apply'; a reboot drops it",
			strbuf_str(&rt), s->state.policy_sha256);
	if (!streq(s->state.policy_sha256, sha))
		return status_add_drift(
			s, STATUS_DRIFT_POLICY_CHANGED,
			"the policy applied at boot (sha256 %.12s) is not the one on "
			"disk (sha256 %.12s): rebuild the initramfs (dracut -f) and "
			"reboot%s%s%s",
			s->state.policy_sha256, sha, rt.len ? "; the runtime drop-in " : "",
			strbuf_str(&rt), rt.len ? ", part of the one on disk, ends at reboot" : "");
	/* The real root's run, and the initramfs's left no record: it never applied it. */
	if (s->state.real_root && !s->state.in_initramfs && !s->state.initramfs_sha256)
		return status_add_drift(
			s, STATUS_DRIFT_INITRAMFS_NOT_APPLIED,
			"the initramfs did not apply the policy (built without drvfilter, or "
			"with its hook left out): its coldplug loaded and bound drivers "
			"unchecked before the real root applied it; rebuild the initramfs "
			"(update-initramfs -u, or dracut -f) and reboot");
	/* Applied again from the real root, but the initramfs carries another policy. */
	if (!s->state.in_initramfs && s->state.initramfs_sha256 && !*s->state.initramfs_sha256)
		return status_add_drift(s, STATUS_DRIFT_INITRAMFS_FAILED,
					"the initramfs could not use its policy and failed closed: "
					"rebuild the initramfs (dracut -f) and reboot");
	if (s->state.in_initramfs || !s->state.initramfs_sha256 ||
	    streq(s->state.initramfs_sha256, sha))
		return 1;
	if (boot_sha && streq(s->state.initramfs_sha256, boot_sha))
		return status_add_drift(
			s, STATUS_DRIFT_RUNTIME_CHANGES,
			"the runtime drop-in %s (drvfilterctl allow or deny) changed the policy "
			"the initramfs enforced (sha256 %.12s): a reboot drops it; to keep the "
			"change, make it with --permanent and rebuild the initramfs (dracut -f)",
			strbuf_str(&rt), s->state.initramfs_sha256);
	return status_add_drift(s, STATUS_DRIFT_INITRAMFS_POLICY,
				"the initramfs enforced another policy (sha256 %.12s) than "
				"the one on disk: rebuild the initramfs (dracut -f) and "
				"reboot%s%s%s",
				s->state.initramfs_sha256, rt.len ? "; the runtime drop-in " : "",
				strbuf_str(&rt),
				rt.len ? ", part of the one on disk, ends at reboot" : "");
}

/* What the last apply left that is not the policy's now. */
static int apply_drift(struct status *s)
{
	if (s->state.mode_kernel != (s->mode == DF_MODE_KERNEL))
		return status_add_drift(
			s, STATUS_DRIFT_MODE_CHANGED,
			"the policy was applied in %s mode, but this system enforces "
			"in %s mode: rerun drvfilter-apply",
			s->state.mode, df_mode_name(s->mode));
	if (s->state.audit != s->audit)
		return status_add_drift(
			s, STATUS_DRIFT_AUDIT_CHANGED, "%s",
			s->audit ? "the policy says mode = audit, but it was applied enforcing: "
				   "rerun drvfilter-apply"
				 : "the policy was applied in audit mode (nothing enforced), but "
				   "it now enforces: rebuild the initramfs (dracut -f) and reboot");
	if (s->state.errors > 0)
		return status_add_drift(s, STATUS_DRIFT_APPLY_ERRORS,
					"the last apply failed %lld action%s (journalctl -k -g "
					"drvfilter says which): the policy is not fully enforced",
					s->state.errors, s->state.errors == 1 ? "" : "s");
	/* Audit mode wrote nothing: no list or blacklist to compare. */
	if (s->audit)
		return 0;
	if (s->state.mode_kernel)
		return kernel_lists_drift(s);
	return s->mods ? blacklist_drift(s) : 0;
}

int status_find_drift(struct status *s)
{
	int r;

	if (s->policy_missing)
		return status_add_drift(s, STATUS_DRIFT_POLICY_MISSING,
					"there is no policy on disk: boot would fail closed");
	if (!s->policy_valid)
		return status_add_drift(s, STATUS_DRIFT_POLICY_INVALID,
					"the policy on disk is not valid: boot would fail closed");
	if (s->state_r == -ENOENT)
		return status_add_drift(s, STATUS_DRIFT_NOT_APPLIED,
					"no run of drvfilter-apply has finished since boot (one "
					"its watchdog stopped leaves no state): the policy is not "
					"enforced");
	if (s->state_r < 0)
		return status_add_drift(s, STATUS_DRIFT_STATE_UNUSABLE,
					"the state file cannot be used: %s", s->state_why);
	r = boot_drift(s, df_policy_sha256(s->policy));
	return r <= 0 ? r : apply_drift(s);
}
