// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl status as text: the summary first, then the table, the violations, the rest. */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"

static const char *allowed_str(int a)
{
	return a < 0 ? "-" : a ? "1" : "0";
}

static void print_time(long long usec)
{
	time_t t = (time_t)(usec / 1000000);
	struct tm tm;
	char buf[sizeof("YYYY-MM-DD HH:MM:SS UTC") + 16];

	if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		fputs(buf, stdout);
}

/* Names from sysfs and labels from the hwdb, printed escaped. */
static const char *esc(struct strbuf *sb, const char *s)
{
	strbuf_clear(sb);
	(void)strbuf_append_escaped(sb, s ? s : "");
	return strbuf_str(sb);
}

/* Which module set the blacklist was computed from: in the initramfs, only its own. */
static void print_blacklist(const struct status *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s->state.blacklist_dir)
		return;
	printf("Blacklist:  computed %s from %lld modules of %s%s\n",
	       s->state.in_initramfs ? "in the initramfs" : "in the real root",
	       s->state.blacklist_modules, esc(&sb, s->state.blacklist_dir),
	       s->state.in_initramfs ? ": modules outside it are not covered until the real "
				       "root applies the policy again"
				     : "");
	strbuf_release(&sb);
}

static void print_summary(const struct status *s)
{
	const struct df_inventory *inv = s->inv;
	bool kernel = s->mode == DF_MODE_KERNEL;

	printf("Mode:       %s%s\n", s->audit ? "audit, enforcing nothing; would enforce in " : "",
	       kernel ? "kernel (patched kernel: /sys/kernel/driver_filter)"
		      : "fallback (no /sys/kernel/driver_filter)");
	printf("Guarantee:  %s\n", s->guarantee);
	if (kernel)
		printf("Lock:       %s\n", inv->locked == 1 ? "locked until reboot"
					   : inv->locked == 0
						   ? "not locked: root can change the kernel policy"
						   : "unknown");
	printf("Policy:     %s (sha256 %s)%s\n", df_policy_path(s->policy),
	       s->policy_valid ? df_policy_sha256(s->policy) : "-",
	       s->policy_valid ? "" : " INVALID");
	for (size_t i = 1; i < df_policy_nfiles(s->policy); i++)
		printf("%s%s\n", i == 1 ? "Drop-ins:   " : "            ",
		       df_policy_file(s->policy, i));
	if (s->state_r == 0) {
		printf("Applied:    ");
		print_time(s->state.applied_usec);
		printf(" in %lld.%03lld ms, %s mode, %lld errors\n", s->state.duration_usec / 1000,
		       s->state.duration_usec % 1000, s->state.mode, s->state.errors);
		printf("Measured:   ");
		if (s->state.measure_failed)
			printf("FAILED: %s\n",
			       s->state.measure_error ? s->state.measure_error : "?");
		else if (s->state.measured_pcr >= 0 && s->state.measured_rtmr)
			printf("PCR %lld and RTMR %d (drvfilterctl verify checks them)\n",
			       s->state.measured_pcr, DF_RTMR_INDEX);
		else if (s->state.measured_pcr >= 0)
			printf("PCR %lld (drvfilterctl verify checks it)\n", s->state.measured_pcr);
		else if (s->state.measured_rtmr)
			printf("RTMR %d (drvfilterctl verify checks it)\n", DF_RTMR_INDEX);
		else
			printf("no: no TPM or TDX RTMR, or measure = no\n");
		print_blacklist(s);
	}
	printf("Drift:      %s\n",
	       s->drift	  ? s->drift
	       : s->audit ? "none: the policy on disk is the one applied, in audit mode"
			  : "none: the policy on disk is enforced");
	printf("Drivers:    %zu allowed, %zu denied; devices: %zu, %zu unbound; violations: %zu\n",
	       s->allowed, s->denied, s->devices, s->nunbound, s->violations);
	if (s->running_read && s->options)
		printf("Boot:       %zu init calls skipped (initcall_blacklist), %zu modules "
		       "refused "
		       "(module_blacklist)%s\n",
		       s->running.ninitcalls, s->running.nmodules,
		       s->running.filter_allow || s->running.filter_deny ? ", filter_* lists" : "");
	else if (s->running_read)
		printf("Boot:       no drvfilter boot options on the kernel command line\n");
	if (s->mismatches)
		printf("Kernel:     %zu allowed bits disagree with the policy\n", s->mismatches);
	if (inv->skipped)
		printf("Skipped:    %zu entries could not be read or had unsafe names\n",
		       inv->skipped);
	if ((inv->skipped || s->state_r == -EACCES) && geteuid() != 0)
		printf("Note:       not run as root: what only root may read is missing above\n");
}

static void print_drivers(const struct status *s, struct strbuf *a, struct strbuf *b,
			  struct strbuf *c)
{
	printf("\n%-12s %-20s %-16s %-8s %-3s %s\n", "BUS", "DRIVER", "MODULE", "DECISION", "BIT",
	       "RULE / DEVICES");
	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];
		const struct df_driver *drv = d->drv;

		esc(c, drv->module ? drv->module : "");
		if (drv->builtin)
			(void)strbuf_append(c, drv->module ? " (built-in)" : "(built-in)");
		printf("%-12s %-20s %-16s %-8s %-3s %s", esc(a, d->bus->name), esc(b, drv->name),
		       strbuf_str(c), d->verdict.allowed ? "allowed" : "denied",
		       allowed_str(drv->allowed), d->rule);
		for (size_t k = 0; k < drv->ndevices; k++)
			printf("%s%s", k ? ", " : " -> ", esc(a, drv->devices[k]));
		putchar('\n');
	}
	if (!s->violations)
		return;
	printf(s->audit ? "\nWould be detached (devices bound to denied drivers):\n"
			: "\nViolations (devices bound to denied drivers):\n");
	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];

		for (size_t k = 0; !d->verdict.allowed && k < d->drv->ndevices; k++)
			printf("  %s %s bound to %s\n", esc(a, d->bus->name),
			       esc(b, d->drv->devices[k]), esc(c, d->drv->name));
		for (size_t k = 0; k < d->nchecks; k++)
			if (d->checks[k].bound && !d->checks[k].verdict.allowed)
				printf("  %s %s bound to %s, which its device rules refuse it\n",
				       esc(a, d->bus->name), esc(b, d->checks[k].device),
				       esc(c, d->drv->name));
	}
}

/* The devices of drivers with device rules: their IDs, and the rule that decides. */
static void print_device_rules(const struct status *s, struct strbuf *a, struct strbuf *b,
			       struct strbuf *c)
{
	bool any = false;

	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];

		for (size_t k = 0; k < d->nchecks; k++) {
			const struct status_devcheck *ck = &d->checks[k];

			if (!any)
				printf("\nDevices under device rules:\n");
			any = true;
			printf("  %s %s%s (%s) %s: ", esc(a, d->bus->name), esc(b, ck->device),
			       ck->bound ? "" : " unbound",
			       ck->id.n ? ck->id.ids[0] : "IDs unreadable", esc(c, d->drv->name));
			if (ck->verdict.allowed)
				printf("allowed by %s\n", ck->rule);
			else
				printf("refused: no device rule of the driver matches (%s, ...)\n",
				       ck->rule);
		}
	}
}

static void print_unbound(const struct status *s, struct strbuf *a, struct strbuf *b,
			  struct strbuf *c)
{
	size_t quiet = 0;
	bool any = false;

	if (!s->nunbound)
		return;
	for (size_t i = 0; i < s->nunbound; i++)
		any |= s->unbound[i].dev->ncandidates > 0;
	/* Only devices a module exists for: the rest (cpu, memory, ...) is noise here. */
	if (any)
		printf("\nUnbound devices a module could drive:\n");
	else
		printf("\nUnbound devices: none a module could drive\n");
	for (size_t i = 0; i < s->nunbound; i++) {
		const struct status_device *u = &s->unbound[i];
		const struct df_device *dev = u->dev;

		if (dev->ncandidates == 0) {
			quiet++;
			continue;
		}
		printf("  %s %s", esc(a, u->bus->name), esc(b, dev->name));
		if (dev->label)
			printf(" %s", esc(c, dev->label));
		for (size_t k = 0; k < dev->ncandidates; k++)
			printf("%s%s (%s)", k ? ", " : " - would be driven by ",
			       esc(c, dev->candidates[k]),
			       u->candidate_allowed[k] ? "allowed" : "denied");
		putchar('\n');
	}
	if (quiet && any)
		printf("  and %zu more with no module for them (see --json)\n", quiet);
	else if (quiet)
		printf("  (%zu unbound; see --json)\n", quiet);
}

/* "a, b, c" of @n names, at most @max of them, escaped. */
static void print_names(char **v, size_t n, size_t max, struct strbuf *sb)
{
	for (size_t i = 0; i < n && i < max; i++)
		printf("%s%s", i ? ", " : "", esc(sb, v[i]));
	if (n > max)
		printf(" and %zu more", n - max);
}

/* Listed one by one: built-in drivers, and modules that drive a device here. */
static bool listed(const struct df_uncovered *u)
{
	return !u->module || u->tier != DF_TIER_MODULE;
}

static void print_cmdline(const struct status *s, struct strbuf *a, struct strbuf *b)
{
	const struct df_bootopts *o = s->bootopts;

	if (!s->running_read || !(s->options || s->nmissing || (o && o->nuncovered)))
		return;
	printf("\nBoot options (the kernel command line):\n");
	if (s->running.ninitcalls) {
		printf("  never ran (initcall_blacklist):");
		for (size_t i = 0; i < s->running.ninitcalls; i++) {
			const char *m =
				o ? df_bootopts_initcall_module(o, s->running.initcalls[i]) : NULL;

			printf("%s %s", i ? "," : "", esc(a, s->running.initcalls[i]));
			if (m)
				printf(" (%s)", esc(a, m));
			else
				printf(" (not an init call of this kernel)");
		}
		putchar('\n');
	}
	if (s->running.nmodules) {
		printf("  refused by the kernel, insmod included (module_blacklist): ");
		print_names(s->running.modules, s->running.nmodules, 12, a);
		putchar('\n');
	}
	if (s->nmissing) {
		strbuf_clear(a);
		(void)status_missing_text(s, 12, a);
		printf("  missing, computed for this system (drift): %s\n", strbuf_str(a));
	}
	for (size_t i = 0; o && i < o->nuncovered; i++) {
		const struct df_uncovered *u = &o->uncovered[i];
		bool seen = false;
		size_t shown = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = listed(&o->uncovered[k]) && streq(o->uncovered[k].reason, u->reason);
		if (!listed(u) || seen)
			continue;
		printf("  not coverable: ");
		for (size_t k = i; k < o->nuncovered; k++) {
			const struct df_uncovered *v = &o->uncovered[k];

			if (!listed(v) || !streq(v->reason, u->reason))
				continue;
			printf("%s%s%s", shown++ ? ", " : "", v->module ? "module " : "",
			       esc(a, v->subject));
		}
		printf(": %s\n", esc(b, u->reason));
	}
}

void status_print_text(const struct status *s)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	print_summary(s);
	print_drivers(s, &a, &b, &c);
	print_device_rules(s, &a, &b, &c);
	print_cmdline(s, &a, &b);
	if (s->notes.count) {
		printf("\nNotes on fallback mode:\n");
		for (size_t i = 0; i < s->notes.count; i++)
			printf("  line %u: %s\n", s->notes.items[i].line,
			       s->notes.items[i].message);
	}
	print_unbound(s, &a, &b, &c);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}
