// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl status --format=prometheus: node_exporter's textfile format
 * (write it to *.prom in its directory), so that a fleet of guests is watched
 * with the tools operators already run.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "ctl.h"
#include "status.h"

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
 * Drift, one series per reason there is (the label "reason", as the JSON's
 * code), 1 for those that hold: an alert on drvfilter_drift == 1 names why.
 */
static void print_drift(const struct status *s)
{
	printf("# HELP drvfilter_drift 1 for each reason why what is enforced is not the policy "
	       "on disk (see status).\n"
	       "# TYPE drvfilter_drift gauge\n");
	for (int code = 0; code < STATUS_DRIFT_MAX; code++) {
		bool holds = false;

		for (size_t i = 0; i < s->ndrift; i++)
			holds |= s->drift[i].code == (enum status_drift_code)code;
		printf("drvfilter_drift{reason=\"%s\"} %d\n", status_drift_code_name(code), holds);
	}
}

void status_print_prometheus(const struct status *s)
{
	bool kernel = s->mode == DF_MODE_KERNEL;
	struct stat st;

	printf("# HELP drvfilter_info The enforcement mode and the policy's digest; always 1.\n"
	       "# TYPE drvfilter_info gauge\n"
	       "drvfilter_info{mode=\"%s\",policy_sha256=\"",
	       df_mode_name(s->mode));
	prom_label(s->policy_valid ? df_policy_sha256(s->policy) : "");
	printf("\"} 1\n");
	printf("# HELP drvfilter_drivers Registered drivers by the policy's decision.\n"
	       "# TYPE drvfilter_drivers gauge\n"
	       "drvfilter_drivers{decision=\"allowed\"} %zu\n"
	       "drvfilter_drivers{decision=\"denied\"} %zu\n",
	       s->allowed, s->denied);
	prom_metric("violations", "Devices bound to a denied driver.", NULL, (double)s->violations);
	prom_metric("kernel_mismatches",
		    "Allowed bits in the kernel that disagree with the policy or cannot be read.",
		    NULL, (double)s->mismatches);
	prom_metric("devices_unbound", "Devices no driver drives.", NULL, (double)s->nunbound);
	prom_metric("skipped", "Entries of /sys that could not be read or had unsafe names.", NULL,
		    (double)s->inv->skipped);
	prom_metric("audit", "1 in audit mode: nothing is enforced, violations are what would be.",
		    NULL, s->audit);
	prom_metric("locked", "1 when the kernel's policy is locked until reboot.", NULL,
		    kernel && s->inv->locked == 1);
	prom_metric("policy_valid", "1 when the policy on disk is valid.", NULL, s->policy_valid);
	print_drift(s);
	if (s->running_read) {
		prom_metric("boot_initcalls_skipped",
			    "Init calls the kernel command line skips (initcall_blacklist).", NULL,
			    (double)s->running.ninitcalls);
		prom_metric("boot_modules_refused",
			    "Modules the kernel command line refuses (module_blacklist).", NULL,
			    (double)s->running.nmodules);
		prom_metric("boot_options_missing",
			    "Boot options computed for this system that the command line lacks.",
			    NULL, (double)s->nmissing);
	}
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
		prom_metric("measured",
			    "1 when the last apply extended its event into a PCR or RTMR.", NULL,
			    s->state.measured_pcr >= 0 || s->state.measured_rtmr);
		prom_metric(
			"measurement_failed",
			"1 when a TPM or RTMR was there and the event was not extended or logged.",
			NULL, s->state.measure_failed);
	}
}
