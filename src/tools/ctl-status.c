// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl status: the truth about a running system. The mode and what it
 * guarantees, the lock, the policy and whether it is the one applied at boot,
 * every driver with its decision, devices bound to denied drivers, and unbound
 * devices with the modules that would drive them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "macro.h"
#include "strbuf.h"

struct status {
	struct df_policy *policy;
	bool policy_valid;
	struct df_inventory *inv;
	struct df_modules *mods;
	struct df_state state;
	int state_r; /* 0, -ENOENT, -EBADMSG, -errno */
	char state_why[128];
	const char *drift; /* why the system does not run the policy on disk, or NULL */
	char drift_buf[256];
	size_t violations, mismatches, unbound, devices, allowed, denied;
	struct df_diags notes; /* fallback mode: names no module can be tied to */
};

static const char *guarantee(bool kernel)
{
	if (kernel)
		return "the kernel refuses every denied driver before it can probe a device; "
		       "with the boot options from 'drvfilterctl cmdline' built-in drivers too";
	return "best effort from userspace: denied modules are blacklisted before coldplug "
	       "and devices bound to denied drivers are unbound; a built-in driver can "
	       "probe before userspace runs";
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
		s->drift = "the policy was not usable at boot: it was enforced fail closed";
	else if (!streq(s->state.policy_sha256, sha)) {
		snprintf(s->drift_buf, sizeof(s->drift_buf),
			 "the policy applied at boot (sha256 %.12s) is not the one on disk "
			 "(sha256 %.12s): rebuild the initramfs (dracut -f) and reboot",
			 s->state.policy_sha256, sha);
		s->drift = s->drift_buf;
	}
}

/* What the kernel's allowed bit should be, or -1 when it does not matter. */
static int expected_allowed(const struct status *s, const struct df_driver *drv, bool allowed)
{
	if (allowed)
		return 1;
	return drv->ndevices > 0 && df_policy_bound(s->policy) == DF_BOUND_KEEP ? 1 : 0;
}

static void count(struct status *s)
{
	for (size_t i = 0; i < s->inv->nbuses; i++) {
		const struct df_bus *bus = &s->inv->buses[i];

		for (size_t j = 0; j < bus->ndrivers; j++) {
			const struct df_driver *drv = &bus->drivers[j];
			struct df_verdict v;

			df_policy_decide(s->policy, bus->name, drv->name, &v);
			if (v.allowed) {
				s->allowed++;
			} else {
				s->denied++;
				s->violations += drv->ndevices;
			}
			if (s->inv->kernel_filter && drv->allowed >= 0 &&
			    drv->allowed != expected_allowed(s, drv, v.allowed))
				s->mismatches++;
		}
		for (size_t j = 0; j < bus->ndevices; j++) {
			s->devices++;
			if (!bus->devices[j].driver)
				s->unbound++;
		}
	}
}

static const char *allowed_str(int a)
{
	return a < 0 ? "-" : a ? "1" : "0";
}

static void print_time(long long usec)
{
	time_t t = (time_t)(usec / 1000000);
	struct tm tm;
	char buf[64];

	if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		fputs(buf, stdout);
}

/* Names from sysfs and labels from the hwdb, printed escaped. */
static const char *esc(struct strbuf *sb, const char *s)
{
	sb->len = 0;
	if (sb->s)
		sb->s[0] = '\0';
	(void)strbuf_append_escaped(sb, s ? s : "");
	return strbuf_str(sb);
}

static void print_text(struct status *s)
{
	const struct df_inventory *inv = s->inv;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	bool kernel = inv->kernel_filter && df_policy_mode(s->policy) != DF_MODE_FALLBACK;

	printf("Mode:       %s\n", kernel ? "kernel (patched kernel: /sys/kernel/driver_filter)"
					  : "fallback (no /sys/kernel/driver_filter)");
	printf("Guarantee:  %s\n", guarantee(kernel));
	if (kernel)
		printf("Lock:       %s\n", inv->locked == 1 ? "locked until reboot"
					   : inv->locked == 0
						   ? "not locked: root can change the kernel policy"
						   : "unknown");
	printf("Policy:     %s (sha256 %s)%s\n", df_policy_path(s->policy),
	       s->policy_valid ? df_policy_sha256(s->policy) : "-",
	       s->policy_valid ? "" : " INVALID");
	if (s->state_r == 0) {
		printf("Applied:    ");
		print_time(s->state.applied_usec);
		printf(" in %lld.%03lld ms, %s mode, %lld errors\n", s->state.duration_usec / 1000,
		       s->state.duration_usec % 1000, s->state.mode, s->state.errors);
	}
	printf("Drift:      %s\n", s->drift ? s->drift : "none: the policy on disk is enforced");
	printf("Drivers:    %zu allowed, %zu denied; devices: %zu, %zu unbound; violations: %zu\n",
	       s->allowed, s->denied, s->devices, s->unbound, s->violations);
	if (s->mismatches)
		printf("Kernel:     %zu allowed bits disagree with the policy\n", s->mismatches);
	if (inv->skipped)
		printf("Skipped:    %zu entries could not be read or had unsafe names\n",
		       inv->skipped);
	if ((inv->skipped || s->state_r == -EACCES) && geteuid() != 0)
		printf("Note:       not run as root: what only root may read is missing above\n");

	printf("\n%-12s %-20s %-16s %-8s %-3s %s\n", "BUS", "DRIVER", "MODULE", "DECISION", "BIT",
	       "RULE / DEVICES");
	for (size_t i = 0; i < inv->nbuses; i++) {
		const struct df_bus *bus = &inv->buses[i];

		for (size_t j = 0; j < bus->ndrivers; j++) {
			const struct df_driver *drv = &bus->drivers[j];
			_cleanup_free_ char *rule = NULL;
			struct df_verdict v;

			df_policy_decide(s->policy, bus->name, drv->name, &v);
			rule = df_rule_describe(v.rule);
			esc(&c, drv->module ? drv->module : "");
			if (drv->builtin)
				(void)strbuf_append(&c, drv->module ? " (built-in)" : "(built-in)");
			printf("%-12s %-20s %-16s %-8s %-3s %s", esc(&a, bus->name),
			       esc(&b, drv->name), strbuf_str(&c), v.allowed ? "allowed" : "denied",
			       allowed_str(drv->allowed), rule ? rule : "?");
			for (size_t k = 0; k < drv->ndevices; k++)
				printf("%s%s", k ? ", " : " -> ", esc(&a, drv->devices[k]));
			putchar('\n');
		}
	}
	if (s->violations) {
		printf("\nViolations (devices bound to denied drivers):\n");
		for (size_t i = 0; i < inv->nbuses; i++)
			for (size_t j = 0; j < inv->buses[i].ndrivers; j++) {
				const struct df_driver *drv = &inv->buses[i].drivers[j];
				struct df_verdict v;

				df_policy_decide(s->policy, inv->buses[i].name, drv->name, &v);
				for (size_t k = 0; !v.allowed && k < drv->ndevices; k++)
					printf("  %s %s bound to %s\n", esc(&a, inv->buses[i].name),
					       esc(&b, drv->devices[k]), esc(&c, drv->name));
			}
	}
	if (s->notes.count) {
		printf("\nNotes on fallback mode:\n");
		for (size_t i = 0; i < s->notes.count; i++)
			printf("  line %u: %s\n", s->notes.items[i].line,
			       s->notes.items[i].message);
	}
	if (s->unbound) {
		size_t quiet = 0;

		bool any = false;

		for (size_t i = 0; i < inv->nbuses; i++)
			for (size_t j = 0; j < inv->buses[i].ndevices; j++)
				any |= !inv->buses[i].devices[j].driver &&
				       inv->buses[i].devices[j].ncandidates > 0;
		/* Only devices a module exists for: the rest (cpu, memory, ...) is noise here. */
		if (any)
			printf("\nUnbound devices a module could drive:\n");
		else
			printf("\nUnbound devices: none a module could drive\n");
		for (size_t i = 0; i < inv->nbuses; i++)
			for (size_t j = 0; j < inv->buses[i].ndevices; j++) {
				const struct df_device *dev = &inv->buses[i].devices[j];

				if (dev->driver)
					continue;
				if (dev->ncandidates == 0) {
					quiet++;
					continue;
				}
				printf("  %s %s", esc(&a, inv->buses[i].name), esc(&b, dev->name));
				if (dev->label)
					printf(" %s", esc(&c, dev->label));
				for (size_t k = 0; k < dev->ncandidates; k++) {
					struct df_verdict v;

					df_module_decide(s->policy, inv->buses[i].name,
							 dev->candidates[k], &v);
					printf("%s%s (%s)", k ? ", " : " - would be driven by ",
					       esc(&c, dev->candidates[k]),
					       v.allowed ? "allowed" : "denied");
				}
				putchar('\n');
			}
		if (quiet && any)
			printf("  and %zu more with no module for them (see --json)\n", quiet);
		else if (quiet)
			printf("  (%zu unbound; see --json)\n", quiet);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

static void print_json(struct status *s)
{
	const struct df_inventory *inv = s->inv;
	bool kernel = inv->kernel_filter && df_policy_mode(s->policy) != DF_MODE_FALLBACK;
	struct json j;

	ctl_json_init(&j);
	json_object_begin(&j);
	json_key(&j, "mode");
	json_string(&j, kernel ? "kernel" : "fallback");
	json_key(&j, "guarantee");
	json_string(&j, guarantee(kernel));
	json_key(&j, "locked");
	if (kernel && inv->locked >= 0)
		json_bool(&j, inv->locked == 1);
	else
		json_string(&j, NULL);
	json_key(&j, "policy");
	json_object_begin(&j);
	json_key(&j, "path");
	json_string(&j, df_policy_path(s->policy));
	json_key(&j, "sha256");
	json_string(&j, s->policy_valid ? df_policy_sha256(s->policy) : NULL);
	json_key(&j, "valid");
	json_bool(&j, s->policy_valid);
	json_object_end(&j);
	json_key(&j, "applied");
	if (s->state_r == 0) {
		json_object_begin(&j);
		json_key(&j, "mode");
		json_string(&j, s->state.mode);
		json_key(&j, "sha256");
		json_string(&j, s->state.policy_sha256);
		json_key(&j, "usec");
		json_int(&j, s->state.applied_usec);
		json_key(&j, "duration_usec");
		json_int(&j, s->state.duration_usec);
		json_key(&j, "errors");
		json_int(&j, s->state.errors);
		json_key(&j, "override");
		json_bool(&j, s->state.override);
		json_key(&j, "fail_closed");
		json_bool(&j, s->state.fail_closed);
		json_object_end(&j);
	} else {
		json_string(&j, NULL);
	}
	json_key(&j, "drift");
	json_string(&j, s->drift);
	json_key(&j, "counts");
	json_object_begin(&j);
	json_key(&j, "allowed");
	json_int(&j, (long long)s->allowed);
	json_key(&j, "denied");
	json_int(&j, (long long)s->denied);
	json_key(&j, "devices");
	json_int(&j, (long long)s->devices);
	json_key(&j, "unbound");
	json_int(&j, (long long)s->unbound);
	json_key(&j, "violations");
	json_int(&j, (long long)s->violations);
	json_key(&j, "mismatches");
	json_int(&j, (long long)s->mismatches);
	json_key(&j, "skipped");
	json_int(&j, (long long)inv->skipped);
	json_object_end(&j);

	json_key(&j, "notes");
	json_array_begin(&j);
	for (size_t i = 0; i < s->notes.count; i++)
		json_string(&j, s->notes.items[i].message);
	json_array_end(&j);

	json_key(&j, "drivers");
	json_array_begin(&j);
	for (size_t i = 0; i < inv->nbuses; i++)
		for (size_t k = 0; k < inv->buses[i].ndrivers; k++) {
			const struct df_driver *drv = &inv->buses[i].drivers[k];
			_cleanup_free_ char *rule = NULL;
			struct df_verdict v;

			df_policy_decide(s->policy, inv->buses[i].name, drv->name, &v);
			rule = df_rule_describe(v.rule);
			json_object_begin(&j);
			json_key(&j, "bus");
			json_string(&j, inv->buses[i].name);
			json_key(&j, "name");
			json_string(&j, drv->name);
			json_key(&j, "module");
			json_string(&j, drv->module);
			json_key(&j, "builtin");
			json_bool(&j, drv->builtin);
			json_key(&j, "decision");
			json_string(&j, v.allowed ? "allowed" : "denied");
			json_key(&j, "rule");
			json_string(&j, rule);
			json_key(&j, "kernel_allowed");
			if (drv->allowed >= 0)
				json_bool(&j, drv->allowed == 1);
			else
				json_string(&j, NULL);
			json_key(&j, "devices");
			json_array_begin(&j);
			for (size_t d = 0; d < drv->ndevices; d++)
				json_string(&j, drv->devices[d]);
			json_array_end(&j);
			json_object_end(&j);
		}
	json_array_end(&j);

	json_key(&j, "violations");
	json_array_begin(&j);
	for (size_t i = 0; i < inv->nbuses; i++)
		for (size_t k = 0; k < inv->buses[i].ndrivers; k++) {
			const struct df_driver *drv = &inv->buses[i].drivers[k];
			struct df_verdict v;

			df_policy_decide(s->policy, inv->buses[i].name, drv->name, &v);
			for (size_t d = 0; !v.allowed && d < drv->ndevices; d++) {
				json_object_begin(&j);
				json_key(&j, "bus");
				json_string(&j, inv->buses[i].name);
				json_key(&j, "driver");
				json_string(&j, drv->name);
				json_key(&j, "device");
				json_string(&j, drv->devices[d]);
				json_object_end(&j);
			}
		}
	json_array_end(&j);

	json_key(&j, "unbound");
	json_array_begin(&j);
	for (size_t i = 0; i < inv->nbuses; i++)
		for (size_t k = 0; k < inv->buses[i].ndevices; k++) {
			const struct df_device *dev = &inv->buses[i].devices[k];

			if (dev->driver)
				continue;
			json_object_begin(&j);
			json_key(&j, "bus");
			json_string(&j, inv->buses[i].name);
			json_key(&j, "device");
			json_string(&j, dev->name);
			json_key(&j, "modalias");
			json_string(&j, dev->modalias);
			json_key(&j, "label");
			json_string(&j, dev->label);
			json_key(&j, "candidates");
			json_array_begin(&j);
			for (size_t c = 0; c < dev->ncandidates; c++) {
				struct df_verdict v;

				df_module_decide(s->policy, inv->buses[i].name, dev->candidates[c],
						 &v);
				json_object_begin(&j);
				json_key(&j, "module");
				json_string(&j, dev->candidates[c]);
				json_key(&j, "decision");
				json_string(&j, v.allowed ? "allowed" : "denied");
				json_object_end(&j);
			}
			json_array_end(&j);
			json_object_end(&j);
		}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

/* A label value in the exposition format: \\, \" and \n escaped. */
static void prom_label(const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			printf("\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else
			putchar(*s);
	}
}

static void prom_metric(const char *name, const char *help, const char *labels, double value)
{
	/* Whole numbers as such, the rest (times in seconds) to the microsecond. */
	bool whole = value == (double)(long long)value;

	printf("# HELP drvfilter_%s %s\n# TYPE drvfilter_%s gauge\ndrvfilter_%s%s ", name, help,
	       name, name, labels ? labels : "");
	printf(whole ? "%.0f\n" : "%.6f\n", value);
}

/*
 * node_exporter's textfile format (write it to *.prom in its directory): a
 * fleet of guests watched with the tools operators already run.
 */
static void print_prometheus(struct status *s)
{
	const struct df_inventory *inv = s->inv;
	bool kernel = inv->kernel_filter && df_policy_mode(s->policy) != DF_MODE_FALLBACK;
	struct stat st;

	printf("# HELP drvfilter_info The enforcement mode and the policy's digest; always 1.\n"
	       "# TYPE drvfilter_info gauge\n"
	       "drvfilter_info{mode=\"%s\",policy_sha256=\"",
	       kernel ? "kernel" : "fallback");
	prom_label(s->policy_valid ? df_policy_sha256(s->policy) : "");
	printf("\"} 1\n");
	printf("# HELP drvfilter_drivers Registered drivers by the policy's decision.\n"
	       "# TYPE drvfilter_drivers gauge\n"
	       "drvfilter_drivers{decision=\"allowed\"} %zu\n"
	       "drvfilter_drivers{decision=\"denied\"} %zu\n",
	       s->allowed, s->denied);
	prom_metric("violations", "Devices bound to a denied driver.", NULL, (double)s->violations);
	prom_metric("kernel_mismatches",
		    "Allowed bits in the kernel that disagree with the policy.", NULL,
		    (double)s->mismatches);
	prom_metric("devices_unbound", "Devices no driver drives.", NULL, (double)s->unbound);
	prom_metric("skipped", "Entries of /sys that could not be read or had unsafe names.", NULL,
		    (double)inv->skipped);
	prom_metric("locked", "1 when the kernel's policy is locked until reboot.", NULL,
		    kernel && inv->locked == 1);
	prom_metric("policy_valid", "1 when the policy on disk is valid.", NULL, s->policy_valid);
	prom_metric("drift", "1 when what is enforced is not the policy on disk (see status).",
		    NULL, s->drift != NULL);
	if (stat(df_policy_path(s->policy), &st) == 0)
		prom_metric("policy_mtime_seconds",
			    "When the policy file last changed (its age: time() - this).", NULL,
			    (double)st.st_mtim.tv_sec);
	if (s->state_r == 0) {
		prom_metric("applied_timestamp_seconds", "When drvfilter-apply last ran.", NULL,
			    (double)s->state.applied_usec / 1e6);
		prom_metric("apply_duration_seconds", "How long drvfilter-apply took.", NULL,
			    (double)s->state.duration_usec / 1e6);
		prom_metric("apply_errors", "Actions drvfilter-apply could not carry out.", NULL,
			    (double)s->state.errors);
		prom_metric("fail_closed", "1 when the policy could not be used at boot.", NULL,
			    s->state.fail_closed);
	}
}

int verb_status(int argc, char **argv)
{
	_cleanup_free_ char *path = ctl_policy_path();
	struct status s = { 0 };
	struct df_diags d;
	int r, ret = EXIT_FINE;

	if (!path)
		return EXIT_ERROR;
	df_diags_init(&d);
	r = df_policy_load(ctl_ctx, path, ctl_load_flags(), &d, &s.policy);
	if (r < 0) {
		ctl_print_diags(&d, stderr, true);
		fprintf(stderr, "drvfilterctl: showing what boot would do: fail closed\n");
		r = df_policy_new_fail_closed(path, &s.policy);
	} else {
		s.policy_valid = true;
	}
	df_diags_release(&d);
	if (r < 0)
		goto oom;
	r = df_inventory_load(ctl_ctx, DF_INV_DEVICES, &s.inv);
	if (r == -ENOMEM)
		goto oom;
	if (r < 0) {
		fprintf(stderr, "drvfilterctl: cannot read /sys/bus: %s\n", strerror(-r));
		df_policy_free(s.policy);
		return EXIT_ERROR;
	}
	(void)df_inventory_add_labels(s.inv);
	if (df_modules_open(ctl_ctx, &s.mods) >= 0 &&
	    (df_inventory_add_candidates(s.inv, s.mods) == -ENOMEM ||
	     df_inventory_add_modules(s.inv, s.mods) == -ENOMEM))
		goto oom;
	s.state_r = df_state_read(ctl_ctx, &s.state, s.state_why, sizeof(s.state_why));
	if (s.state_r == -ENOMEM)
		goto oom;
	find_drift(&s);
	count(&s);
	df_diags_init(&s.notes);
	if (s.policy_valid &&
	    !(s.inv->kernel_filter && df_policy_mode(s.policy) != DF_MODE_FALLBACK) &&
	    df_policy_fallback_notes(s.policy, s.inv, s.mods, &s.notes) == -ENOMEM)
		goto oom;
	if (arg_prometheus)
		print_prometheus(&s);
	else if (arg_json != JSON_OFF)
		print_json(&s);
	else
		print_text(&s);
	/* The metrics carry the violations; a textfile job needs "written" = 0. */
	if ((s.drift || s.violations || s.mismatches) && !arg_prometheus)
		ret = EXIT_VIOLATION;
	df_diags_release(&s.notes);
	df_state_release(&s.state);
	df_modules_free(s.mods);
	df_inventory_free(s.inv);
	df_policy_free(s.policy);
	return ret;
oom:
	fprintf(stderr, "drvfilterctl: out of memory\n");
	return EXIT_ERROR;
}
