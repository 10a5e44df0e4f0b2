// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl status --json: the model for monitoring (the fields drvfilterctl(8) lists). */
#include "ctl.h"
#include "status.h"

static void print_applied(struct json *j, const struct status *s)
{
	json_key(j, "applied");
	if (s->state_r != 0) {
		json_string(j, NULL);
		return;
	}
	json_object_begin(j);
	json_field_string(j, "mode", s->state.mode);
	json_field_string(j, "sha256", s->state.policy_sha256);
	json_field_int(j, "usec", s->state.applied_usec);
	json_field_int(j, "duration_usec", s->state.duration_usec);
	json_field_int(j, "errors", s->state.errors);
	json_field_bool(j, "override", s->state.override);
	json_field_bool(j, "fail_closed", s->state.fail_closed);
	json_key(j, "measured");
	json_object_begin(j);
	json_key(j, "pcr");
	if (s->state.measured_pcr >= 0)
		json_int(j, s->state.measured_pcr);
	else
		json_string(j, NULL);
	json_key(j, "rtmr");
	if (s->state.measured_rtmr)
		json_int(j, DF_RTMR_INDEX);
	else
		json_string(j, NULL);
	json_field_bool(j, "failed", s->state.measure_failed);
	json_field_string(j, "error", s->state.measure_error);
	json_object_end(j);
	json_field_bool(j, "initramfs", s->state.in_initramfs);
	json_field_string(j, "initramfs_sha256", s->state.initramfs_sha256);
	json_field_string(j, "initramfs_builder", s->state.initramfs_builder);
	json_field_bool(j, "real_root", s->state.real_root);
	/* Which module set the blacklist was computed from (fallback mode). */
	json_key(j, "blacklist");
	if (s->state.blacklist_dir) {
		json_object_begin(j);
		json_field_string(j, "modules_dir", s->state.blacklist_dir);
		json_field_int(j, "modules", s->state.blacklist_modules);
		json_object_end(j);
	} else {
		json_string(j, NULL);
	}
	json_object_end(j);
}

static void print_counts(struct json *j, const struct status *s)
{
	json_key(j, "counts");
	json_object_begin(j);
	json_field_int(j, "allowed", (long long)s->allowed);
	json_field_int(j, "denied", (long long)s->denied);
	json_field_int(j, "devices", (long long)s->devices);
	json_field_int(j, "unbound", (long long)s->nunbound);
	json_field_int(j, "violations", (long long)s->violations);
	json_field_int(j, "mismatches", (long long)s->mismatches);
	json_field_int(j, "skipped", (long long)s->inv->skipped);
	json_object_end(j);
}

static void print_driver(struct json *j, const struct status_driver *d)
{
	const struct df_driver *drv = d->drv;

	json_object_begin(j);
	json_field_string(j, "bus", d->bus->name);
	json_field_string(j, "name", drv->name);
	json_field_string(j, "module", drv->module);
	json_field_bool(j, "builtin", drv->builtin);
	json_field_string(j, "decision", d->verdict.allowed ? "allowed" : "denied");
	json_field_string(j, "rule", d->rule);
	json_key(j, "kernel_allowed");
	if (drv->allowed >= 0)
		json_bool(j, drv->allowed == 1);
	else
		json_string(j, NULL);
	json_key(j, "devices");
	json_array_begin(j);
	for (size_t k = 0; k < drv->ndevices; k++)
		json_string(j, drv->devices[k]);
	json_array_end(j);
	json_object_end(j);
}

static void print_unbound(struct json *j, const struct status_device *u)
{
	const struct df_device *dev = u->dev;

	json_object_begin(j);
	json_field_string(j, "bus", u->bus->name);
	json_field_string(j, "device", dev->name);
	json_field_string(j, "modalias", dev->modalias);
	json_field_string(j, "label", dev->label);
	json_key(j, "candidates");
	json_array_begin(j);
	for (size_t k = 0; k < dev->ncandidates; k++) {
		json_object_begin(j);
		json_field_string(j, "module", dev->candidates[k]);
		json_field_string(j, "decision", u->candidate_allowed[k] ? "allowed" : "denied");
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* The boot options: on the command line, missing from it, and what they cannot cover. */
static void print_cmdline(struct json *j, const struct status *s)
{
	const struct df_bootopts *b = s->bootopts;

	json_key(j, "cmdline");
	if (!s->running_read) {
		json_string(j, NULL);
		return;
	}
	json_object_begin(j);
	json_field_bool(j, "options", s->options);
	json_field_bool(j, "trace", b && b->trace);
	json_key(j, "initcall_blacklist");
	json_array_begin(j);
	for (size_t i = 0; i < s->running.ninitcalls; i++) {
		json_object_begin(j);
		json_field_string(j, "function", s->running.initcalls[i]);
		json_field_string(j, "module",
				  b ? df_bootopts_initcall_module(b, s->running.initcalls[i])
				    : NULL);
		json_object_end(j);
	}
	json_array_end(j);
	json_key(j, "module_blacklist");
	json_array_begin(j);
	for (size_t i = 0; i < s->running.nmodules; i++)
		json_string(j, s->running.modules[i]);
	json_array_end(j);
	json_key(j, "missing");
	json_array_begin(j);
	for (size_t i = 0; i < s->nmissing; i++)
		json_string(j, s->missing[i]);
	json_array_end(j);
	json_field_bool(j, "filter_stale", s->filter_stale);
	json_key(j, "not_coverable");
	json_array_begin(j);
	for (size_t i = 0; b && i < b->nuncovered; i++) {
		const struct df_uncovered *u = &b->uncovered[i];

		if (u->module && u->tier == DF_TIER_MODULE)
			continue;
		json_object_begin(j);
		json_field_string(j, u->module ? "module" : "driver", u->subject);
		json_field_string(j, "reason", u->reason);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void print_policy(struct json *j, const struct status *s)
{
	json_key(j, "policy");
	json_object_begin(j);
	json_field_string(j, "path", df_policy_path(s->policy));
	json_field_string(j, "sha256", s->policy_valid ? df_policy_sha256(s->policy) : NULL);
	json_field_bool(j, "valid", s->policy_valid);
	json_key(j, "files");
	json_array_begin(j);
	for (size_t i = 0; i < df_policy_nfiles(s->policy); i++)
		json_string(j, df_policy_file(s->policy, i));
	json_array_end(j);
	json_object_end(j);
}

/* Drift: each reason, its code for machines and its text for people; [] for none. */
static void print_drift(struct json *j, const struct status *s)
{
	json_key(j, "drift");
	json_array_begin(j);
	for (size_t i = 0; i < s->ndrift; i++) {
		json_object_begin(j);
		json_field_string(j, "code", status_drift_code_name(s->drift[i].code));
		json_field_string(j, "text", s->drift[i].text);
		json_object_end(j);
	}
	json_array_end(j);
}

/* A violation's object, begun: the caller adds to it, and ends it. */
static void print_violation(struct json *j, const struct status_driver *d, const char *device)
{
	json_object_begin(j);
	json_field_string(j, "bus", d->bus->name);
	json_field_string(j, "driver", d->drv->name);
	json_field_string(j, "device", device);
}

static void print_violations(struct json *j, const struct status *s)
{
	json_key(j, "violations");
	json_array_begin(j);
	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];

		for (size_t k = 0; !d->verdict.allowed && k < d->drv->ndevices; k++) {
			print_violation(j, d, d->drv->devices[k]);
			json_object_end(j);
		}
		if (!d->verdict.allowed && d->drv->nunknown) {
			/* Links that may be bound devices, their names unreadable or unsafe. */
			print_violation(j, d, NULL);
			json_field_int(j, "unknown", (long long)d->drv->nunknown);
			json_object_end(j);
		}
		for (size_t k = 0; k < d->nchecks; k++) {
			if (!d->checks[k].bound || d->checks[k].verdict.allowed)
				continue;
			print_violation(j, d, d->checks[k].device);
			json_field_string(j, "refused_by", "device rules");
			json_object_end(j);
		}
	}
	json_array_end(j);
}

/* The devices of drivers with device rules: IDs, decision, the rule. */
static void print_device_rules(struct json *j, const struct status *s)
{
	json_key(j, "device_rules");
	json_array_begin(j);
	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];

		for (size_t k = 0; k < d->nchecks; k++) {
			const struct status_devcheck *c = &d->checks[k];

			json_object_begin(j);
			json_field_string(j, "bus", d->bus->name);
			json_field_string(j, "device", c->device);
			json_key(j, "ids");
			json_array_begin(j);
			for (size_t n = 0; n < c->id.n; n++)
				json_string(j, c->id.ids[n]);
			json_array_end(j);
			json_field_string(j, "driver", d->drv->name);
			json_field_bool(j, "bound", c->bound);
			json_field_string(j, "decision",
					  c->verdict.allowed ? "allowed" : "refused");
			json_field_string(j, "rule", c->rule);
			json_object_end(j);
		}
	}
	json_array_end(j);
}

void status_print_json(const struct status *s)
{
	bool kernel = s->mode == DF_MODE_KERNEL;
	struct json j;

	ctl_json_init(&j);
	json_object_begin(&j);
	json_field_string(&j, "mode", df_mode_name(s->mode));
	json_field_bool(&j, "audit", s->audit);
	json_field_string(&j, "guarantee", s->guarantee);
	json_key(&j, "locked");
	if (kernel && s->inv->locked >= 0)
		json_bool(&j, s->inv->locked == 1);
	else
		json_string(&j, NULL);
	print_policy(&j, s);
	print_applied(&j, s);
	print_drift(&j, s);
	print_counts(&j, s);
	print_cmdline(&j, s);
	json_key(&j, "notes");
	json_array_begin(&j);
	for (size_t i = 0; i < s->notes.count; i++)
		json_string(&j, s->notes.items[i].message);
	json_array_end(&j);
	json_key(&j, "drivers");
	json_array_begin(&j);
	for (size_t i = 0; i < s->ndrivers; i++)
		print_driver(&j, &s->drivers[i]);
	json_array_end(&j);
	print_violations(&j, s);
	print_device_rules(&j, s);
	json_key(&j, "unbound");
	json_array_begin(&j);
	for (size_t i = 0; i < s->nunbound; i++)
		print_unbound(&j, &s->unbound[i]);
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}
