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

static const char *guarantee(enum df_mode mode, bool audit)
{
	if (audit)
		return "none: audit mode enforces nothing, every driver may bind; the kernel log "
		       "(action=would-...) and this page say what enforcement would do";
	if (mode == DF_MODE_KERNEL)
		return "the kernel refuses every denied driver before it can probe a device; "
		       "with the boot options from 'drvfilterctl cmdline' built-in drivers too";
	return "best effort from userspace: denied modules are blacklisted before coldplug "
	       "and devices bound to denied drivers are unbound; a built-in driver can "
	       "probe before userspace runs";
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
	else if (!streq(s->state.policy_sha256, sha)) {
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the policy applied at boot (sha256 %.12s) is not the one on disk "
			 "(sha256 %.12s): rebuild the initramfs (dracut -f) and reboot",
			 s->state.policy_sha256, sha);
		s->drift = s->drift_buf;
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
				s->violations += d->drv->ndevices;
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
	s->guarantee = guarantee(s->mode, s->audit);
	(void)df_inventory_add_labels(s->inv);
	if (df_modules_open(ctl_ctx, &s->mods) >= 0 &&
	    (df_inventory_add_candidates(s->inv, s->mods) == -ENOMEM ||
	     df_inventory_add_modules(s->inv, s->mods) == -ENOMEM))
		return -ENOMEM;
	s->state_r = df_state_read(ctl_ctx, &s->state, s->state_why, sizeof(s->state_why));
	if (s->state_r == -ENOMEM)
		return -ENOMEM;
	find_drift(s);
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
	df_state_release(&s->state);
	df_modules_free(s->mods);
	df_inventory_free(s->inv);
	df_policy_free(s->policy);
	*s = (struct status){ 0 };
}
