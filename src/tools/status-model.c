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
			/*
			 * The bit reads 1 for an allowed driver, 0 for a denied one,
			 * kept or not; one that is missing or reads otherwise leaves
			 * the kernel's decision unknown, which is no agreement.
			 * Audit mode writes none: nothing to compare.
			 */
			d->mismatch = !s->audit && s->mode == DF_MODE_KERNEL &&
				      d->drv->allowed != (int)d->verdict.allowed;
			s->mismatches += d->mismatch;
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

/* The runtime drop-ins of a valid policy, and the policy without them: the next boot's. */
static int find_runtime_dropins(struct status *s)
{
	_cleanup_free_ char *dir = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR "/");

	if (!dir)
		return -ENOMEM;
	for (size_t i = 0; i < df_policy_nfiles(s->policy); i++) {
		const char *file = df_policy_file(s->policy, i);

		if (!startswith(file, dir))
			continue;
		if (!s->nruntime++)
			s->runtime_dropin = file;
	}
	/* An error is printed; the texts that need it then say nothing of the next boot. */
	if (s->nruntime && ctl_load_boot_policy(&s->boot_policy) != EXIT_FINE)
		s->boot_policy = NULL;
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
		s->policy_missing = r == -ENOENT;
		r = df_policy_new_fail_closed(path, &s->policy);
	} else {
		s->policy_valid = true;
	}
	df_diags_release(&d);
	if (r >= 0 && s->policy_valid)
		r = find_runtime_dropins(s);
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
	r = status_find_drift(s);
	if (r >= 0)
		r = status_find_cmdline(s);
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
	for (size_t i = 0; i < s->ndrift; i++)
		free(s->drift[i].text);
	df_state_release(&s->state);
	df_modules_free(s->mods);
	df_inventory_free(s->inv);
	df_policy_free(s->boot_policy);
	df_policy_free(s->policy);
	*s = (struct status){ 0 };
}
