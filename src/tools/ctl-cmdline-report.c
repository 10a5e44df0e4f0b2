// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl cmdline's report on standard error: the target kernel, the
 * init calls and modules named and those that did not fit, what boot options
 * cannot cover, and the bytes of the command line used.
 */
#include <stdio.h>
#include <string.h>

#include "ctl-cmdline.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

static size_t count_kind(const struct df_bootopts *b, enum df_bootopt_kind kind, bool fits)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nentries; i++)
		n += b->entries[i].kind == kind && b->entries[i].fits == fits;
	return n;
}

/* The options of @kind beyond the budget (modules: those that drive a device here). */
static const char *left_names(const struct df_bootopts *b, enum df_bootopt_kind kind,
			      struct strbuf *sb)
{
	strbuf_clear(sb);
	for (size_t i = 0; i < b->nentries; i++) {
		const struct df_bootopt *o = &b->entries[i];

		if (o->kind != kind || o->fits ||
		    (kind == DF_BOOTOPT_MODULE && o->tier != DF_TIER_DEVICE_MODULE))
			continue;
		(void)strbuf_append(sb, sb->len ? ", " : "");
		(void)strbuf_append_escaped(sb, o->name);
	}
	return strbuf_str(sb);
}

/* Listed one by one: built-in drivers, and modules that drive a device here. */
static bool listed(const struct df_uncovered *u)
{
	return !u->module || u->tier != DF_TIER_MODULE;
}

/* The denied drivers and modules boot options cannot cover: one line per reason. */
static void report_uncovered(const struct df_bootopts *b, struct strbuf *a, struct strbuf *c)
{
	size_t tree_uncovered = 0;
	bool any = false;

	for (size_t i = 0; i < b->nuncovered; i++) {
		if (listed(&b->uncovered[i]))
			any = true;
		else
			tree_uncovered++;
	}
	if (any)
		log_info("not coverable by boot options (the userspace layers still act on them):");
	/* One line per reason, naming what it holds for, in the order of the first. */
	for (size_t i = 0; i < b->nuncovered; i++) {
		const struct df_uncovered *u = &b->uncovered[i];
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = listed(&b->uncovered[k]) && streq(b->uncovered[k].reason, u->reason);
		if (!listed(u) || seen)
			continue;
		strbuf_clear(c);
		for (size_t k = i; k < b->nuncovered; k++) {
			const struct df_uncovered *v = &b->uncovered[k];

			if (!listed(v) || !streq(v->reason, u->reason))
				continue;
			(void)strbuf_append(c, c->len ? ", " : "");
			(void)strbuf_append(c, v->module ? "module " : "");
			(void)strbuf_append_escaped(c, v->subject);
		}
		log_info("  %s: %s", strbuf_str(c), ctl_esc(a, u->reason));
	}
	if (tree_uncovered)
		log_info("and %zu more denied modules of the tree not coverable (see --json)",
			 tree_uncovered);
}

/* The init calls and modules named, and those that did not fit. */
static void report_entries(const struct df_bootopts *b, struct strbuf *c)
{
	size_t ic_fit = count_kind(b, DF_BOOTOPT_INITCALL, true);
	size_t ic_left = count_kind(b, DF_BOOTOPT_INITCALL, false);
	size_t mod_fit = count_kind(b, DF_BOOTOPT_MODULE, true);
	size_t mod_left = count_kind(b, DF_BOOTOPT_MODULE, false);

	if (!b->trace)
		log_info("initcall_blacklist: none: %s", b->trace_why);
	else
		log_info(
			"initcall_blacklist: %zu init calls (%zu of built-in modules whose drivers "
			"drove a device the host offers)",
			ic_fit, b->fit[DF_TIER_BOUND]);
	if (ic_left)
		log_info("  %zu did not fit: %s", ic_left, left_names(b, DF_BOOTOPT_INITCALL, c));
	if (!b->modules) {
		log_info("module_blacklist: none: no module tree for this kernel");
		return;
	}
	log_info("module_blacklist: %zu of %zu modules whose drivers are all denied (%zu of %zu "
		 "that drive a device here); %zu did not fit: the modprobe.d blacklist keeps them "
		 "from alias loading, not from insmod",
		 mod_fit, mod_fit + mod_left, b->fit[DF_TIER_DEVICE_MODULE],
		 b->fit[DF_TIER_DEVICE_MODULE] + b->left[DF_TIER_DEVICE_MODULE], mod_left);
	if (b->left[DF_TIER_DEVICE_MODULE])
		log_info("  of those that drive a device here: %s",
			 left_names(b, DF_BOOTOPT_MODULE, c));
}

void cmdline_report(const struct df_bootopts *b, bool installed)
{
	struct strbuf a = STRBUF_INIT, c = STRBUF_INIT;

	if (!*b->release) {
		log_info("no kernel is recorded%s: only the filter_* options of the patched kernel",
			 arg_sysroot ? " under the sysroot" : "");
		return;
	}
	if (installed && !b->initcalls)
		/* Another kernel than the one running: its kallsyms is not there to count. */
		log_info("kernel %s (%s): installed, not running; options from its module tree",
			 ctl_esc(&a, b->release),
			 b->patched  ? "patched: the driver filter"
			 : b->filter ? "not known to lack the driver filter: filter_* included"
				     : "stock: no driver filter");
	else
		log_info("kernel %s (%s): %zu init calls in kallsyms; %s", ctl_esc(&a, b->release),
			 b->patched  ? "patched: the driver filter"
			 : b->filter ? "not known to lack the driver filter: filter_* included"
				     : "stock: no driver filter",
			 b->ninitcalls,
			 b->trace ? "an init-call trace ties built-in drivers to them"
				  : "no init-call trace");
	if (b->record_skipped)
		log_info("the recording left %zu entries out (see its drvfilter-record): what it "
			 "lacks is not covered",
			 b->record_skipped);
	if (b->trace_skipped)
		log_info(
			"the traced boot had initcall_blacklist= (%zu init calls): what they "
			"skipped is not in its trace and is not named again; record a boot without "
			"the boot options",
			b->trace_skipped);
	report_entries(b, &c);
	if (b->unreadable)
		log_info("%zu module files could not be read for their init function's name",
			 b->unreadable);
	report_uncovered(b, &a, &c);
	if (b->headroom)
		log_info("%zu of %zu bytes used; the rest of the kernel command line takes %zu of "
			 "%d, and %zu are left free for options added later (--max-bytes may use "
			 "them)",
			 strlen(b->line), b->max_bytes, strlen(b->rest) + (*b->rest ? 1 : 0),
			 DF_KERNEL_CMDLINE_MAX - 1, b->headroom);
	else
		log_info("%zu of %zu bytes used; the rest of the kernel command line takes %zu of "
			 "%d",
			 strlen(b->line), b->max_bytes, strlen(b->rest) + (*b->rest ? 1 : 0),
			 DF_KERNEL_CMDLINE_MAX - 1);
	strbuf_release(&a);
	strbuf_release(&c);
}
