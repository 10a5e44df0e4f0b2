// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl status as text: the summary (mode, guarantee, violations and
 * drift first), the violations, the table of drivers (status-table.c), the
 * rest; every line laid out for the view's width.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "macro.h"
#include "status.h"
#include "strbuf.h"

/*
 * @text after @first, its words wrapped at the view's width onto lines that
 * begin with @cont; a word longer than a line (a path) goes on in pieces.
 * @red: in red (a violation, on a terminal).
 */
static void wrap_red(const struct status_view *v, const char *first, const char *cont,
		     const char *text, bool red)
{
	const char *on = red ? STATUS_RED : "", *off = red ? STATUS_RESET : "";
	size_t col = strlen(first), indent = strlen(cont);
	/* A terminal too narrow for the indent and a few letters: no word is cut. */
	bool cut = v->width > indent + 8 && v->width > col + 8;
	bool bol = true; /* nothing of @text on this line yet */

	printf("%s%s", first, on);
	while (*text) {
		size_t n = strcspn(text, " ");

		if (n == 0) {
			text++;
			continue;
		}
		if (!bol && col + 1 + n <= v->width) {
			putchar(' ');
			col++;
		} else if (!bol) {
			printf("%s\n%s%s", off, cont, on);
			col = indent;
		}
		for (; cut && col + n > v->width; col = indent) {
			fwrite(text, 1, v->width - col, stdout);
			text += v->width - col;
			n -= v->width - col;
			printf("%s\n%s%s", off, cont, on);
		}
		fwrite(text, 1, n, stdout);
		col += n;
		bol = false;
		text += n;
	}
	printf("%s\n", off);
}

static void wrap(const struct status_view *v, const char *first, const char *cont, const char *text)
{
	wrap_red(v, first, cont, text, false);
}

/* A section's heading, after a blank line. */
static void heading(const struct status_view *v, const char *text)
{
	putchar('\n');
	wrap(v, "", "", text);
}

#define LABEL_WIDTH 12

/* "Label:      text", wrapped under the text. */
_printf_(4, 0) static void vfield(const struct status_view *v, const char *label, bool red,
				  const char *fmt, va_list ap)
{
	_cleanup_free_ char *text = NULL;
	char first[LABEL_WIDTH + 32];

	if (vasprintf(&text, fmt, ap) < 0)
		return;
	snprintf(first, sizeof(first), "%-*s", LABEL_WIDTH, label);
	wrap_red(v, first, "            ", text, red);
}

_printf_(3, 4) static void field(const struct status_view *v, const char *label, const char *fmt,
				 ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfield(v, label, false, fmt, ap);
	va_end(ap);
}

/* A field in red on a terminal: the violations. */
_printf_(3, 4) static void field_red(const struct status_view *v, const char *label,
				     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfield(v, label, v->colour, fmt, ap);
	va_end(ap);
}

/* Which module set the blacklist was computed from: in the initramfs, only its own. */
static void print_blacklist(const struct status *s, const struct status_view *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s->state.blacklist_dir)
		return;
	field(v, "Blacklist:", "computed %s from %lld modules of %s%s",
	      s->state.in_initramfs ? "in the initramfs" : "in the real root",
	      s->state.blacklist_modules, ctl_esc(&sb, s->state.blacklist_dir),
	      s->state.in_initramfs ? ": modules outside it are not covered until the real "
				      "root applies the policy again"
				    : "");
	strbuf_release(&sb);
}

static void print_applied(const struct status *s, const struct status_view *v)
{
	time_t t = (time_t)(s->state.applied_usec / 1000000);
	char when[sizeof("YYYY-MM-DD HH:MM:SS UTC") + 16] = "";
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	field(v, "Applied:", "%s in %lld.%03lld ms, %s mode, %lld error%s", when,
	      s->state.duration_usec / 1000, s->state.duration_usec % 1000, s->state.mode,
	      s->state.errors, s->state.errors == 1 ? "" : "s");
	/* Who applied it: the initramfs (its builder), the real root after it, or alone. */
	if (s->state.in_initramfs)
		field(v, "By:", "the initramfs (%s)",
		      s->state.initramfs_builder ? s->state.initramfs_builder : "unknown");
	else if (s->state.initramfs_sha256)
		field(v, "By:", "the real root, after the initramfs (%s) applied it",
		      s->state.initramfs_builder ? s->state.initramfs_builder : "unknown");
	else if (s->state.real_root)
		field(v, "By:", "the real root only: the initramfs did not apply it");
	if (s->state.measure_failed)
		field(v, "Measured:", "FAILED: %s",
		      s->state.measure_error ? s->state.measure_error : "?");
	else if (s->state.measured_pcr >= 0 && s->state.measured_rtmr)
		field(v, "Measured:", "PCR %lld and RTMR %d (drvfilterctl verify checks them)",
		      s->state.measured_pcr, DF_RTMR_INDEX);
	else if (s->state.measured_pcr >= 0)
		field(v, "Measured:", "PCR %lld (drvfilterctl verify checks it)",
		      s->state.measured_pcr);
	else if (s->state.measured_rtmr)
		field(v, "Measured:", "RTMR %d (drvfilterctl verify checks it)", DF_RTMR_INDEX);
	else
		field(v, "Measured:", "no: no TPM or TDX RTMR, or measure = no");
	print_blacklist(s, v);
}

/* What an operator wants first: the mode and its guarantee, violations, drift; then the rest. */
static void print_summary(const struct status *s, const struct status_view *v)
{
	const struct df_inventory *inv = s->inv;
	bool kernel = s->mode == DF_MODE_KERNEL;

	field(v, "Mode:", "%s%s", s->audit ? "audit, enforcing nothing; would enforce in " : "",
	      kernel ? "kernel (patched kernel: /sys/kernel/driver_filter)"
		     : "fallback (no /sys/kernel/driver_filter)");
	field(v, "Guarantee:", "%s", s->guarantee);
	if (kernel)
		field(v, "Lock:", "%s",
		      inv->locked == 1	 ? "locked until reboot"
		      : inv->locked == 0 ? "not locked: root can change the kernel policy"
					 : "unknown");
	if (s->violations)
		field_red(v, "Violations:", "%zu device%s bound to %s (listed below)",
			  s->violations, s->violations == 1 ? "" : "s",
			  s->audit ? "denied drivers: enforcing would detach them"
				   : "denied drivers or refused by device rules");
	else
		field(v, "Violations:", "none");
	if (s->mismatches)
		field(v, "Kernel:", "%zu allowed bits disagree with the policy or cannot be read",
		      s->mismatches);
	/* Two reasons or more: one item each. */
	for (size_t i = 0; s->ndrift > 1 && i < s->ndrift; i++)
		wrap(v, i ? "            - " : "Drift:      - ", "              ",
		     s->drift[i].text);
	if (s->ndrift == 1)
		field(v, "Drift:", "%s", s->drift[0].text);
	if (!s->ndrift)
		field(v, "Drift:", "%s",
		      s->audit ? "none: the policy on disk is the one applied, in audit mode"
			       : "none: the policy on disk is enforced");
	field(v, "Policy:", "%s%s", df_policy_path(s->policy),
	      s->policy_missing ? " (missing)"
	      : s->policy_valid ? ""
				: " INVALID");
	if (s->policy_valid)
		field(v, "SHA-256:", "%s", df_policy_sha256(s->policy));
	for (size_t i = 1; i < df_policy_nfiles(s->policy); i++)
		field(v, i == 1 ? "Drop-ins:" : "", "%s", df_policy_file(s->policy, i));
	if (s->state_r == 0)
		print_applied(s, v);
	field(v, "Drivers:", "%zu allowed, %zu denied; devices: %zu, %zu unbound", s->allowed,
	      s->denied, s->devices, s->nunbound);
	if (s->running_read && s->options)
		field(v, "Boot:",
		      "%zu init calls skipped (initcall_blacklist), %zu modules refused "
		      "(module_blacklist)%s",
		      s->running.ninitcalls, s->running.nmodules,
		      s->running.filter_allow || s->running.filter_deny ? ", filter_* lists" : "");
	else if (s->running_read)
		field(v, "Boot:", "no drvfilter boot options on the kernel command line");
	if (inv->skipped) {
		field(v, "Skipped:", "%zu entries of /sys could not be read or had unsafe names:",
		      inv->skipped);
		for (size_t i = 0; i < inv->nskipped_what; i++)
			wrap(v, "            - ", "              ", inv->skipped_what[i]);
	}
	if ((inv->skipped || s->state_r == -EACCES) && geteuid() != 0)
		field(v, "Note:", "not run as root: what only root may read is missing above");
}

static void print_violations(const struct status *s, const struct status_view *v, struct strbuf *a,
			     struct strbuf *b, struct strbuf *c)
{
	struct strbuf line = STRBUF_INIT;

	if (!s->violations)
		return;
	heading(v, s->audit ? "Would be detached (devices bound to denied drivers):"
			    : "Violations (devices bound to denied drivers):");
	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];

		for (size_t k = 0; !d->verdict.allowed && k <= d->drv->ndevices; k++) {
			strbuf_clear(&line);
			if (k < d->drv->ndevices)
				(void)strbuf_appendf(
					&line, "%s %s bound to %s", ctl_esc(a, d->bus->name),
					ctl_esc(b, d->drv->devices[k]), ctl_esc(c, d->drv->name));
			else if (d->drv->nunknown)
				(void)strbuf_appendf(
					&line,
					"%s: %zu links of %s unreadable or with unsafe "
					"names, maybe bound devices",
					ctl_esc(a, d->bus->name), d->drv->nunknown,
					ctl_esc(c, d->drv->name));
			if (line.len)
				wrap_red(v, "  ", "    ", strbuf_str(&line), v->colour);
		}
		for (size_t k = 0; k < d->nchecks; k++) {
			if (!d->checks[k].bound || d->checks[k].verdict.allowed)
				continue;
			strbuf_clear(&line);
			(void)strbuf_appendf(
				&line, "%s %s bound to %s, which its device rules refuse it",
				ctl_esc(a, d->bus->name), ctl_esc(b, d->checks[k].device),
				ctl_esc(c, d->drv->name));
			wrap_red(v, "  ", "    ", strbuf_str(&line), v->colour);
		}
	}
	strbuf_release(&line);
}

static void print_drivers(const struct status *s, const struct status_view *v)
{
	_cleanup_free_ char *text = NULL;
	size_t hidden, builtin = 0;

	putchar('\n');
	hidden = status_print_table(s, v, &builtin);
	if (!hidden)
		return;
	if (asprintf(&text,
		     "... and %zu more drivers, denied and driving nothing (%zu of them built in): "
		     "--all lists them",
		     hidden, builtin) >= 0)
		wrap(v, "", "    ", text);
}

/* The devices of drivers with device rules: their IDs, and the rule that decides. */
static void print_device_rules(const struct status *s, const struct status_view *v,
			       struct strbuf *a, struct strbuf *b, struct strbuf *c)
{
	struct strbuf line = STRBUF_INIT;
	bool any = false;

	for (size_t i = 0; i < s->ndrivers; i++) {
		const struct status_driver *d = &s->drivers[i];

		for (size_t k = 0; k < d->nchecks; k++) {
			const struct status_devcheck *ck = &d->checks[k];

			if (!any)
				heading(v, "Devices under device rules:");
			any = true;
			strbuf_clear(&line);
			(void)strbuf_appendf(&line, "%s %s%s (%s) %s: ", ctl_esc(a, d->bus->name),
					     ctl_esc(b, ck->device), ck->bound ? "" : " unbound",
					     ck->id.n ? ck->id.ids[0] : "IDs unreadable",
					     ctl_esc(c, d->drv->name));
			if (ck->verdict.allowed)
				(void)strbuf_appendf(&line, "allowed by %s", ck->rule);
			else
				(void)strbuf_appendf(&line,
						     "refused: no device rule of the driver "
						     "matches (%s, ...)",
						     ck->rule);
			wrap(v, "  ", "    ", strbuf_str(&line));
		}
	}
	strbuf_release(&line);
}

static void print_unbound(const struct status *s, const struct status_view *v, struct strbuf *a,
			  struct strbuf *b, struct strbuf *c)
{
	struct strbuf line = STRBUF_INIT;
	size_t quiet = 0;
	char text[96];
	bool any = false;

	if (!s->nunbound)
		return;
	for (size_t i = 0; i < s->nunbound; i++)
		any |= s->unbound[i].dev->ncandidates > 0;
	/* Only devices a module exists for: the rest (cpu, memory, ...) is noise here. */
	if (any)
		heading(v, "Unbound devices a module could drive:");
	else
		heading(v, "Unbound devices: none a module could drive");
	for (size_t i = 0; i < s->nunbound; i++) {
		const struct status_device *u = &s->unbound[i];
		const struct df_device *dev = u->dev;

		if (dev->ncandidates == 0) {
			quiet++;
			continue;
		}
		strbuf_clear(&line);
		(void)strbuf_appendf(&line, "%s %s", ctl_esc(a, u->bus->name),
				     ctl_esc(b, dev->name));
		if (dev->label)
			(void)strbuf_appendf(&line, " %s", ctl_esc(c, dev->label));
		for (size_t k = 0; k < dev->ncandidates; k++)
			(void)strbuf_appendf(&line, "%s%s (%s)",
					     k ? ", " : " - would be driven by ",
					     ctl_esc(c, dev->candidates[k]),
					     u->candidate_allowed[k] ? "allowed" : "denied");
		wrap(v, "  ", "    ", strbuf_str(&line));
	}
	if (quiet && any)
		(void)snprintf(text, sizeof(text),
			       "and %zu more with no module for them (see --json)", quiet);
	else if (quiet)
		(void)snprintf(text, sizeof(text), "(%zu unbound; see --json)", quiet);
	if (quiet)
		wrap(v, "  ", "    ", text);
	strbuf_release(&line);
}

/* "a, b, c" of @n names, at most @max of them, escaped. */
static void append_names(struct strbuf *line, char **v, size_t n, size_t max, struct strbuf *sb)
{
	for (size_t i = 0; i < n && i < max; i++)
		(void)strbuf_appendf(line, "%s%s", i ? ", " : "", ctl_esc(sb, v[i]));
	if (n > max)
		(void)strbuf_appendf(line, " and %zu more", n - max);
}

/* Listed one by one: built-in drivers, and modules that drive a device here. */
static bool listed(const struct df_uncovered *u)
{
	return !u->module || u->tier != DF_TIER_MODULE;
}

static void print_cmdline(const struct status *s, const struct status_view *v, struct strbuf *a,
			  struct strbuf *b)
{
	const struct df_bootopts *o = s->bootopts;
	struct strbuf line = STRBUF_INIT;

	if (!s->running_read || !(s->options || s->nmissing || (o && o->nuncovered)))
		return;
	heading(v, "Boot options (the kernel command line):");
	if (s->running.ninitcalls) {
		(void)strbuf_append(&line, "never ran (initcall_blacklist):");
		for (size_t i = 0; i < s->running.ninitcalls; i++) {
			const char *m =
				o ? df_bootopts_initcall_module(o, s->running.initcalls[i]) : NULL;

			(void)strbuf_appendf(&line, "%s %s", i ? "," : "",
					     ctl_esc(a, s->running.initcalls[i]));
			if (m)
				(void)strbuf_appendf(&line, " (%s)", ctl_esc(a, m));
			else
				(void)strbuf_append(&line, " (not an init call of this kernel)");
		}
		wrap(v, "  ", "    ", strbuf_str(&line));
	}
	if (s->running.nmodules) {
		strbuf_clear(&line);
		(void)strbuf_append(&line, "refused by the kernel, insmod included "
					   "(module_blacklist): ");
		append_names(&line, s->running.modules, s->running.nmodules, 12, a);
		wrap(v, "  ", "    ", strbuf_str(&line));
	}
	if (s->nmissing) {
		strbuf_clear(a);
		(void)status_missing_text(s, 12, a);
		strbuf_clear(&line);
		(void)strbuf_appendf(&line, "missing, computed for this system (drift): %s",
				     strbuf_str(a));
		wrap(v, "  ", "    ", strbuf_str(&line));
	}
	for (size_t i = 0; o && i < o->nuncovered; i++) {
		const struct df_uncovered *u = &o->uncovered[i];
		bool seen = false;
		size_t shown = 0;

		for (size_t k = 0; k < i && !seen; k++)
			seen = listed(&o->uncovered[k]) && streq(o->uncovered[k].reason, u->reason);
		if (!listed(u) || seen)
			continue;
		strbuf_clear(&line);
		(void)strbuf_append(&line, "not coverable: ");
		for (size_t k = i; k < o->nuncovered; k++) {
			const struct df_uncovered *w = &o->uncovered[k];

			if (!listed(w) || !streq(w->reason, u->reason))
				continue;
			(void)strbuf_appendf(&line, "%s%s%s", shown++ ? ", " : "",
					     w->module ? "module " : "", ctl_esc(a, w->subject));
		}
		(void)strbuf_appendf(&line, ": %s", ctl_esc(b, u->reason));
		wrap(v, "  ", "    ", strbuf_str(&line));
	}
	strbuf_release(&line);
}

void status_print_text(const struct status *s, const struct status_view *v)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	size_t builtin;

	if (v->alone) {
		/* -o, -n, -r: the table alone, as lsblk prints it. */
		(void)status_print_table(s, v, &builtin);
		return;
	}
	print_summary(s, v);
	print_violations(s, v, &a, &b, &c);
	print_drivers(s, v);
	print_device_rules(s, v, &a, &b, &c);
	print_cmdline(s, v, &a, &b);
	if (s->notes.count) {
		heading(v, "Notes on fallback mode:");
		for (size_t i = 0; i < s->notes.count; i++) {
			char first[32];

			snprintf(first, sizeof(first), "  line %u: ", s->notes.items[i].line);
			wrap(v, first, "    ", s->notes.items[i].message);
		}
	}
	print_unbound(s, v, &a, &b, &c);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}
