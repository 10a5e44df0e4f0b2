// SPDX-License-Identifier: GPL-2.0-only
/*
 * status and the kernel command line: the boot options it carries, those
 * 'drvfilterctl cmdline' computes for this system that it lacks, and the
 * drift either is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"
#include "strv.h"

int status_missing_text(const struct status *s, size_t max, struct strbuf *sb)
{
	static const char *const keys[] = { "filter_allow_drivers", "filter_deny_drivers",
					    "initcall_blacklist", "module_blacklist" };
	int r = 0;

	for (size_t k = 0; r >= 0 && k < ARRAY_SIZE(keys); k++) {
		size_t n = 0;

		for (size_t i = 0; r >= 0 && i < s->nmissing; i++) {
			const char *name = startswith(s->missing[i], keys[k]);

			if (!name || *name++ != '=')
				continue;
			if (n < max)
				r = strbuf_appendf(sb, "%s%s%s",
						   n	     ? ", "
						   : sb->len ? "; "
							     : "",
						   n ? "" : keys[k], n ? "" : ": ");
			if (r >= 0 && n < max)
				r = strbuf_append_escaped(sb, name);
			n++;
		}
		if (r >= 0 && n > max)
			r = strbuf_appendf(sb, " and %zu more", n - max);
	}
	return r;
}

/* Room on the running command line for one more name (else it did not fit: no drift). */
static bool room_for(const struct status *s, const char *name)
{
	return s->running.len + strlen(" module_blacklist=") + strlen(name) + 1 <=
	       DF_KERNEL_CMDLINE_MAX - 1;
}

static int add_missing(struct strv *l, const char *key, const char *name)
{
	_cleanup_free_ char *s = NULL;

	if (asprintf(&s, "%s=%s", key, name) < 0)
		return -ENOMEM;
	return strv_push(l, s);
}

/* The filter_* lists of a patched kernel's command line, against the policy's. */
static int compare_filter(struct status *s, const struct df_policy *p, struct strv *missing)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r = df_policy_kernel_lists(p, &allow, &deny);

	if (r < 0)
		return r;
	s->filter_distrust = df_cmdline_filter_distrust(&s->running);
	if (*allow && !s->running.filter_allow)
		r = add_missing(missing, "filter_allow_drivers", allow);
	else if (s->running.filter_allow && !streq(s->running.filter_allow, allow))
		s->filter_stale = true;
	if (r >= 0 && *deny && !s->running.filter_deny)
		r = add_missing(missing, "filter_deny_drivers", deny);
	else if (s->running.filter_deny && !streq(s->running.filter_deny, deny))
		s->filter_stale = true;
	return r;
}

/*
 * The options `cmdline` computes for this system that the command line
 * lacks: those that matter most (built-ins that drove a device the host
 * offers, modules that drive a device here, a patched kernel's filter_*
 * lists), when there is room for them.
 */
static int find_missing(struct status *s, const struct df_policy *boot)
{
	const struct df_bootopts *b = s->bootopts;
	struct strv missing = STRV_INIT;
	int r = 0;

	if (b->patched && s->mode == DF_MODE_KERNEL)
		r = compare_filter(s, boot, &missing);
	for (size_t i = 0; r >= 0 && i < b->nentries; i++) {
		const struct df_bootopt *o = &b->entries[i];
		bool initcall = o->kind == DF_BOOTOPT_INITCALL;

		if (!o->fits || (o->tier != DF_TIER_BOUND && o->tier != DF_TIER_DEVICE_MODULE) ||
		    df_cmdline_opts_has(initcall ? s->running.initcalls : s->running.modules,
					initcall ? s->running.ninitcalls : s->running.nmodules,
					o->name) ||
		    !room_for(s, o->name))
			continue;
		r = add_missing(&missing, initcall ? "initcall_blacklist" : "module_blacklist",
				o->name);
	}
	if (r < 0) {
		strv_release(&missing);
		return r;
	}
	s->missing = strv_steal(&missing, &s->nmissing);
	return 0;
}

/* Stale filter_* lists, or missing options: drift. */
static int cmdline_drift(struct status *s)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	/* The kernel denied every driver at boot: built-in ones never probed. */
	if (s->filter_distrust)
		return status_add_drift(s, STATUS_DRIFT_CMDLINE_FILTER_DISTRUSTED,
					"the kernel denied every driver at boot, as its filter_* "
					"options cannot be trusted (%s): put the output of "
					"'drvfilterctl cmdline' on the kernel command line",
					s->filter_distrust);
	if (s->filter_stale)
		return status_add_drift(s, STATUS_DRIFT_CMDLINE_FILTER_STALE,
					"the kernel command line's filter_* lists are not the "
					"policy's: put the output of 'drvfilterctl cmdline' on it");
	if (!s->nmissing)
		return 0;
	r = status_missing_text(s, 4, &sb);
	if (r >= 0)
		r = status_add_drift(
			s, STATUS_DRIFT_CMDLINE_MISSING,
			"the kernel command line lacks boot options computed for this "
			"system (%s): add 'drvfilterctl cmdline' to the kernel command "
			"line",
			strbuf_str(&sb));
	strbuf_release(&sb);
	return r;
}

int status_find_cmdline(struct status *s)
{
	const struct df_policy *boot = s->nruntime ? s->boot_policy : s->policy;
	int r;

	s->running_read = df_cmdline_opts_read(ctl_ctx, &s->running) >= 0;
	if (!s->running_read && df_cmdline_opts_parse("", &s->running) < 0)
		return -ENOMEM;
	s->options =
		s->running.ninitcalls || s->running.nmodules ||
		(s->mode == DF_MODE_KERNEL && (s->running.filter_allow || s->running.filter_deny));
	if (!s->policy_valid)
		return 0;
	/* Audit mode needs no boot option; one there enforces, which audit must not. */
	if (s->audit)
		return !s->options
			       ? 0
			       : status_add_drift(s, STATUS_DRIFT_CMDLINE_AUDIT,
						  "the kernel command line holds boot options "
						  "that enforce, but the policy is in audit mode: "
						  "remove them, or leave audit mode");
	/* The boot options are the next boot's: from the policy without runtime changes. */
	if (!boot)
		return 0;
	r = df_bootopts_compute(ctl_ctx, boot, s->inv, s->mods, DF_BOOTOPTS_DEFAULT_BUDGET,
				&s->bootopts);
	if (r < 0 && r != -E2BIG)
		return r;
	if (!s->running_read || !*s->bootopts->release)
		return 0;
	r = find_missing(s, boot);
	return r < 0 ? r : cmdline_drift(s);
}
