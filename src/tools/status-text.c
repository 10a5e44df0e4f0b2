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
	}
	printf("Drift:      %s\n",
	       s->drift	  ? s->drift
	       : s->audit ? "none: the policy on disk is the one applied, in audit mode"
			  : "none: the policy on disk is enforced");
	printf("Drivers:    %zu allowed, %zu denied; devices: %zu, %zu unbound; violations: %zu\n",
	       s->allowed, s->denied, s->devices, s->nunbound, s->violations);
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

void status_print_text(const struct status *s)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	print_summary(s);
	print_drivers(s, &a, &b, &c);
	print_device_rules(s, &a, &b, &c);
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
