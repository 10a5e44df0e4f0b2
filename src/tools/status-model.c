// SPDX-License-Identifier: GPL-2.0-only
/*
 * The status model: the policy on disk (or what boot would enforce instead),
 * the inventory of /sys, the state file of the last apply, and what follows
 * from them, each computed once for the three views.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"
#include "strv.h"

/* What holds in @mode, with or without drvfilter's boot options on the command line. */
static const char *guarantee(enum df_mode mode, bool audit, bool options)
{
	if (audit)
		return "none: audit mode enforces nothing, every driver may bind; the kernel log "
		       "(action=would-...) and this page say what enforcement would do";
	if (mode == DF_MODE_KERNEL && options)
		return "the kernel refuses every denied driver before it can probe a device, "
		       "built-in ones from the first instant (the boot options); init calls "
		       "they skip never ran, modules they name are refused, insmod included";
	if (mode == DF_MODE_KERNEL)
		return "the kernel refuses every denied driver before it can probe a device once "
		       "drvfilter-apply has run; before that a denied built-in driver can probe "
		       "(no boot options: see 'drvfilterctl cmdline')";
	if (options)
		return "denied built-in drivers whose init calls the boot options skip never ran, "
		       "and modules they name are refused, insmod included; the rest is best "
		       "effort from userspace: denied modules are blacklisted before coldplug, "
		       "devices bound to denied drivers are unbound, and a denied built-in driver "
		       "the options cannot cover can probe before userspace runs";
	return "best effort from userspace: denied modules are blacklisted before coldplug "
	       "and devices bound to denied drivers are unbound; a built-in driver can "
	       "probe before userspace runs, and insmod can load a denied module (no boot "
	       "options: see 'drvfilterctl cmdline')";
}

#define BLACKLIST "/run/modprobe.d/drvfilter.conf"

/* Fallback mode stands on its blacklist: it must be there, written for the policy applied. */
static void blacklist_drift(struct status *s)
{
	char head[512];
	const char *sha;
	ssize_t n = df_read_file(ctl_ctx, BLACKLIST, head, sizeof(head));

	if (n == -EFBIG) {
		/* Longer than the buffer is fine: only its first line matters. */
		_cleanup_free_ char *path = df_ctx_path(ctl_ctx, BLACKLIST);
		FILE *f = path ? fopen(path, "re") : NULL;

		n = f && fgets(head, sizeof(head), f) ? (ssize_t)strlen(head) : -EIO;
		if (f)
			fclose(f);
	}
	if (n < 0) {
		s->drift =
			"the module blacklist " BLACKLIST " is missing or cannot be read: modules "
			"the policy denies can be loaded";
		return;
	}
	sha = strstr(head, "(sha256 ");
	if (!sha || strncmp(sha + 8, s->state.policy_sha256, strlen(s->state.policy_sha256)) != 0 ||
	    sha[8 + strlen(s->state.policy_sha256)] != ')') {
		s->drift = "the module blacklist " BLACKLIST " was not written for the policy "
			   "applied: rerun drvfilter-apply";
	}
}

/* Kernel mode stands on the lists in the kernel: they must read back as the policy's. */
static void kernel_lists_drift(struct status *s)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	char cur[DF_KERNEL_LIST_MAX + 2];

	if (df_policy_kernel_lists(s->policy, &allow, &deny) < 0)
		return;
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "deny" : "allow", *want = k ? deny : allow;
		char path[64];

		snprintf(path, sizeof(path), "/sys/kernel/driver_filter/%s", name);
		if (df_read_file(ctl_ctx, path, cur, sizeof(cur)) >= 0 && streq(cur, want))
			continue;
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the kernel's %s list is not the policy's: it was changed after apply, or "
			 "not written whole",
			 name);
		s->drift = s->drift_buf;
		return;
	}
}

static void find_drift(struct status *s)
{
	const char *sha = df_policy_sha256(s->policy);

	if (!s->policy_valid)
		s->drift = "the policy on disk is not valid: boot would fail closed";
	else if (s->state_r == -ENOENT)
		s->drift = "drvfilter-apply has not run since boot: nothing is enforced";
	else if (s->state_r < 0) {
		snprintf(s->drift_buf, sizeof(s->drift_buf), "the state file cannot be used: %s",
			 s->state_why);
		s->drift = s->drift_buf;
	} else if (s->state.override)
		s->drift = "drvfilter=off was on the kernel command line: nothing was enforced";
	else if (s->state.fail_closed)
		s->drift =
			"enforcement failed closed at boot (the policy could not be used, or the "
			"kernel did not take it; journalctl -k -g drvfilter says why)";
	else if (s->state.measure_failed) {
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the policy was not measured as it must be (%s): no verifier can trust "
			 "this boot",
			 s->state.measure_error ? s->state.measure_error
						: "journalctl -k -g drvfilter says why");
		s->drift = s->drift_buf;
	} else if (!streq(s->state.policy_sha256, sha)) {
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the policy applied at boot (sha256 %.12s) is not the one on disk "
			 "(sha256 %.12s): rebuild the initramfs (dracut -f) and reboot",
			 s->state.policy_sha256, sha);
		s->drift = s->drift_buf;
	} else if (!s->state.in_initramfs && s->state.initramfs_sha256 &&
		   !streq(s->state.initramfs_sha256, sha)) {
		/* Applied again from the real root, but the initramfs carries another policy. */
		if (!*s->state.initramfs_sha256)
			s->drift =
				"the initramfs could not use its policy and failed closed: rebuild "
				"the initramfs (dracut -f) and reboot";
		else {
			snprintf(
				s->drift_buf, sizeof(s->drift_buf),
				"the initramfs enforced another policy (sha256 %.12s) than the one "
				"on disk: rebuild the initramfs (dracut -f) and reboot",
				s->state.initramfs_sha256);
			s->drift = s->drift_buf;
		}
	} else if (s->state.mode_kernel != (s->mode == DF_MODE_KERNEL)) {
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the policy was applied in %s mode, but this system enforces in %s mode: "
			 "rerun drvfilter-apply",
			 s->state.mode, df_mode_name(s->mode));
		s->drift = s->drift_buf;
	} else if (s->state.audit != s->audit) {
		s->drift =
			s->audit ? "the policy says mode = audit, but it was applied enforcing: "
				   "rerun drvfilter-apply"
				 : "the policy was applied in audit mode (nothing enforced), but "
				   "it now enforces: rebuild the initramfs (dracut -f) and reboot";
	} else if (s->state.errors > 0) {
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the last apply failed %lld actions (journalctl -k -g drvfilter says "
			 "which): the policy is not fully enforced",
			 s->state.errors);
		s->drift = s->drift_buf;
	} else if (s->audit) {
		/* Nothing was written: no list or blacklist to compare. */
	} else if (s->state.mode_kernel) {
		kernel_lists_drift(s);
	} else if (s->mods) {
		blacklist_drift(s);
	}
}

/* What the kernel's allowed bit should read: 1 for an allowed driver, 0 for a denied one (kept or not). */
static int expected_allowed(const struct status *s, const struct df_driver *drv, bool allowed)
{
	(void)s;
	(void)drv;
	return allowed ? 1 : 0;
}

static int check_device(struct status *s, struct status_driver *d, const char *device, bool bound)
{
	struct status_devcheck *c = &d->checks[d->nchecks++];
	bool known;

	c->device = device;
	c->bound = bound;
	known = df_device_id_read(ctl_ctx, d->bus->name, c->device, &c->id) >= 0;
	df_policy_decide_device(s->policy, d->bus->name, d->drv->name, known ? &c->id : NULL,
				&c->verdict);
	c->rule = df_rule_describe(c->verdict.rule);
	if (!c->rule)
		return -ENOMEM;
	if (bound && !c->verdict.allowed)
		s->violations++;
	return 0;
}

/* Whether the driver's module is a candidate for the unbound device @dev (a module alias matches). */
static bool module_candidate(const struct df_driver *drv, const struct df_device *dev)
{
	char name[DF_NAME_MAX + 1];
	const char *module = drv->module;

	if (!module && df_modname_normalize(drv->name, name) < 0)
		return false;
	for (size_t k = 0; k < dev->ncandidates; k++)
		if (streq(dev->candidates[k], module ? module : name))
			return true;
	return false;
}

/*
 * Whether the IDs of an unbound device have the first field (PCI vendor,
 * virtio device ID, hardware ID) of one of the driver's device rules. The
 * kernel gives no aliases for the ID tables of its built-in drivers, so
 * libkmod cannot say which devices such a driver would take.
 */
static bool like_its_rules(const struct status *s, const struct status_driver *d,
			   const char *device)
{
	struct df_device_id id;

	if (df_device_id_read(ctl_ctx, d->bus->name, device, &id) < 0)
		return false;
	for (size_t i = 0; i < df_policy_nrules(s->policy); i++) {
		const struct df_rule *r = df_policy_rule(s->policy, i);
		char first[DF_NAME_MAX + 1];

		if (!r->device || strcasecmp(r->key, d->bus->name) || !streq(r->name, d->drv->name))
			continue;
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(r->device, ":"), r->device);
		if (!streq(first, "*") && df_device_match(first, &id))
			return true;
	}
	return false;
}

/*
 * A driver with device rules: what they say of each device it drives (a
 * refused one is a violation), and of each unbound device it could drive,
 * which they may have refused it (in kernel mode it never bound, in
 * fallback mode it was unbound and pinned): one its module's aliases match
 * or, for a built-in driver, one like its rules.
 */
static int check_devices(struct status *s, struct status_driver *d)
{
	int r = 0;

	d->checks = calloc(d->drv->ndevices + d->bus->ndevices + 1, sizeof(*d->checks));
	if (!d->checks)
		return -ENOMEM;
	for (size_t k = 0; k < d->drv->ndevices && r >= 0; k++)
		r = check_device(s, d, d->drv->devices[k], true);
	for (size_t k = 0; k < d->bus->ndevices && r >= 0; k++) {
		const struct df_device *dev = &d->bus->devices[k];

		if (!dev->driver && (module_candidate(d->drv, dev) ||
				     (d->drv->builtin && like_its_rules(s, d, dev->name))))
			r = check_device(s, d, dev->name, false);
	}
	return r;
}

static int decide_drivers(struct status *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->inv->nbuses; i++)
		n += s->inv->buses[i].ndrivers;
	s->drivers = calloc(n ? n : 1, sizeof(*s->drivers));
	if (!s->drivers)
		return -ENOMEM;
	for (size_t i = 0; i < s->inv->nbuses; i++) {
		const struct df_bus *bus = &s->inv->buses[i];

		for (size_t j = 0; j < bus->ndrivers; j++) {
			struct status_driver *d = &s->drivers[s->ndrivers++];

			d->bus = bus;
			d->drv = &bus->drivers[j];
			df_policy_decide(s->policy, bus->name, d->drv->name, &d->verdict);
			d->rule = df_rule_describe(d->verdict.rule);
			if (!d->rule)
				return -ENOMEM;
			if (d->verdict.allowed) {
				s->allowed++;
				if (d->verdict.restricted && check_devices(s, d) < 0)
					return -ENOMEM;
			} else {
				s->denied++;
				/*
				 * A link that cannot be read may be a bound device: not
				 * knowing counts as a violation, never as "drives nothing".
				 */
				s->violations += d->drv->ndevices + d->drv->nunknown;
			}
			/* Audit mode writes no bit: the kernel's are not the policy's to compare. */
			if (!s->audit && s->inv->kernel_filter && d->drv->allowed >= 0 &&
			    d->drv->allowed != expected_allowed(s, d->drv, d->verdict.allowed))
				s->mismatches++;
		}
	}
	return 0;
}

static int decide_unbound(struct status *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->inv->nbuses; i++)
		n += s->inv->buses[i].ndevices;
	s->devices = n;
	s->unbound = calloc(n ? n : 1, sizeof(*s->unbound));
	if (!s->unbound)
		return -ENOMEM;
	for (size_t i = 0; i < s->inv->nbuses; i++) {
		const struct df_bus *bus = &s->inv->buses[i];

		for (size_t j = 0; j < bus->ndevices; j++) {
			const struct df_device *dev = &bus->devices[j];
			struct status_device *u;

			if (dev->driver)
				continue;
			u = &s->unbound[s->nunbound++];
			u->bus = bus;
			u->dev = dev;
			u->candidate_allowed = calloc(dev->ncandidates + 1, sizeof(bool));
			if (!u->candidate_allowed)
				return -ENOMEM;
			for (size_t k = 0; k < dev->ncandidates; k++) {
				struct df_verdict v;

				df_module_decide(s->policy, bus->name, dev->candidates[k], &v);
				u->candidate_allowed[k] = v.allowed;
			}
		}
	}
	return 0;
}

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
/* The policy has runtime drop-ins (drvfilterctl allow/deny): they end at reboot. */
static bool has_runtime_dropins(const struct df_policy *p)
{
	_cleanup_free_ char *dir = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR "/");

	for (size_t i = 0; dir && i < df_policy_nfiles(p); i++)
		if (startswith(df_policy_file(p, i), dir))
			return true;
	return false;
}

static int compare_filter(struct status *s, const struct df_policy *p, struct strv *missing)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r = df_policy_kernel_lists(p, &allow, &deny);

	if (r < 0)
		return r;
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
 * What the command line covers, and what `cmdline` computes for this system
 * that it lacks: the options that matter most (built-ins that drove a device
 * the host offers, modules that drive a device here, a patched kernel's
 * filter_* lists), when there is room for them. Either is drift.
 */
static int find_cmdline(struct status *s)
{
	_cleanup_(df_policy_freep) struct df_policy *boot = NULL;
	struct strv missing = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;
	const struct df_bootopts *b;
	int r;

	s->running_read = df_cmdline_opts_read(ctl_ctx, &s->running) >= 0;
	if (!s->running_read && df_cmdline_opts_parse("", &s->running) < 0)
		return -ENOMEM;
	s->options =
		s->running.ninitcalls || s->running.nmodules ||
		(s->mode == DF_MODE_KERNEL && (s->running.filter_allow || s->running.filter_deny));
	if (!s->policy_valid)
		return 0;
	if (s->audit) {
		/* Audit mode needs no boot option; one there enforces, which audit must not. */
		if (s->options && !s->drift)
			s->drift =
				"the kernel command line holds boot options that enforce, but the "
				"policy is in audit mode: remove them, or leave audit mode";
		return 0;
	}
	/* The boot options are the next boot's: from the policy without runtime changes. */
	if (has_runtime_dropins(s->policy) && ctl_load_boot_policy(&boot) != EXIT_FINE)
		return 0;
	r = df_bootopts_compute(ctl_ctx, boot ? boot : s->policy, s->inv, s->mods,
				DF_BOOTOPTS_DEFAULT_BUDGET, &s->bootopts);
	if (r < 0 && r != -E2BIG)
		return r;
	b = s->bootopts;
	r = 0;
	if (!s->running_read || !*b->release)
		return 0;
	if (b->patched && s->mode == DF_MODE_KERNEL)
		r = compare_filter(s, boot ? boot : s->policy, &missing);
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
	if (s->drift)
		return 0;
	if (s->filter_stale) {
		s->drift = "the kernel command line's filter_* lists are not the policy's: put "
			   "the output of 'drvfilterctl cmdline' on it";
		return 0;
	}
	if (!s->nmissing)
		return 0;
	(void)status_missing_text(s, 4, &sb);
	snprintf(s->cmdline_drift_buf, sizeof(s->cmdline_drift_buf),
		 "the kernel command line lacks boot options computed for this system (%s): add "
		 "'drvfilterctl cmdline' to the kernel command line",
		 strbuf_str(&sb));
	strbuf_release(&sb);
	s->drift = s->cmdline_drift_buf;
	return 0;
}

int status_load(struct status *s)
{
	_cleanup_free_ char *path = ctl_policy_path();
	struct df_diags d;
	int r;

	*s = (struct status){ 0 };
	df_diags_init(&s->notes);
	if (!path)
		return -ENOMEM;
	df_diags_init(&d);
	r = df_policy_load(ctl_ctx, path, ctl_load_flags(), &d, &s->policy);
	if (r < 0) {
		ctl_print_diags(&d, stderr, true);
		log_error("showing what boot would do: fail closed");
		r = df_policy_new_fail_closed(path, &s->policy);
	} else {
		s->policy_valid = true;
	}
	df_diags_release(&d);
	if (r < 0)
		return r;
	r = df_inventory_load(ctl_ctx, DF_INV_DEVICES, &s->inv);
	if (r < 0) {
		if (r != -ENOMEM)
			log_error_errno(r, "cannot read '/sys/bus': %m");
		return r;
	}
	s->mode = df_effective_mode(s->policy, s->inv->kernel_filter);
	s->audit = df_policy_mode(s->policy) == DF_MODE_AUDIT;
	(void)df_inventory_add_labels(s->inv);
	if (df_modules_open(ctl_ctx, &s->mods) >= 0 &&
	    (df_inventory_add_candidates(s->inv, s->mods) == -ENOMEM ||
	     df_inventory_add_modules(s->inv, s->mods) == -ENOMEM))
		return -ENOMEM;
	s->state_r = df_state_read(ctl_ctx, &s->state, s->state_why, sizeof(s->state_why));
	if (s->state_r == -ENOMEM)
		return -ENOMEM;
	find_drift(s);
	r = find_cmdline(s);
	if (r < 0)
		return r;
	s->guarantee = guarantee(s->mode, s->audit, s->options);
	r = decide_drivers(s);
	if (r >= 0)
		r = decide_unbound(s);
	if (r >= 0 && s->policy_valid && s->mode == DF_MODE_FALLBACK)
		r = df_policy_fallback_notes(s->policy, s->inv, s->mods, &s->notes);
	return r < 0 ? r : 0;
}

void status_release(struct status *s)
{
	for (size_t i = 0; i < s->ndrivers; i++) {
		for (size_t k = 0; k < s->drivers[i].nchecks; k++)
			free(s->drivers[i].checks[k].rule);
		free(s->drivers[i].checks);
		free(s->drivers[i].rule);
	}
	free(s->drivers);
	for (size_t i = 0; i < s->nunbound; i++)
		free(s->unbound[i].candidate_allowed);
	free(s->unbound);
	df_diags_release(&s->notes);
	df_bootopts_free(s->bootopts);
	df_cmdline_opts_release(&s->running);
	strv_free_array(s->missing, s->nmissing);
	df_state_release(&s->state);
	df_modules_free(s->mods);
	df_inventory_free(s->inv);
	df_policy_free(s->policy);
	*s = (struct status){ 0 };
}
