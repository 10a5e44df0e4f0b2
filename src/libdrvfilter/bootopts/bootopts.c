// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot options that keep denied code from ever running, on any kernel:
 * initcall_blacklist= for the init calls of built-in modules whose drivers
 * are all denied, module_blacklist= for loadable modules whose drivers are all
 * denied, and on a patched kernel the filter_* lists first.
 *
 * An x86 command line holds 2047 bytes and is cut silently beyond, so the
 * options are ranked and only what fits is printed, a tenth of the line left
 * free for what is added later (DF_KERNEL_CMDLINE_HEADROOM): built-in init calls first
 * (nothing else can stop them), those of modules whose drivers drove a device
 * the host offers before the rest, then modules that drive a device of this
 * system, then the rest of the module tree (which the modprobe.d blacklist
 * already keeps from alias loading).
 *
 * What a built-in init call registers is known only from an init-call trace
 * (initcalls.c): without one, no init call is named. An init call is never
 * named when its module registers an allowed driver, a bus or a class, when
 * it is not a device-level (module_init) call, when another init call or a
 * loadable module's init function shares its name (the kernel matches names),
 * or when it only drives devices the kernel creates itself. A module is never
 * named when other modules need it or when it may provide an allowed driver
 * no name ties to a module.
 *
 * This file holds the entry point, the result, what is known of the target
 * kernel and the budget; bootopts-builtin.c judges the built-in init calls,
 * bootopts-modules.c the loadable modules, and bootopts-line.c ranks the
 * options and writes the line.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "array.h"
#include "bootopts/bootopts-private.h"
#include "strv.h"

const char *df_bootopt_tier_name(enum df_bootopt_tier tier)
{
	static const char *const names[] = {
		[DF_TIER_BOUND] = "bound",	   [DF_TIER_HOST_BUS] = "host-bus",
		[DF_TIER_OTHER_BUS] = "other-bus", [DF_TIER_DEVICE_MODULE] = "device-module",
		[DF_TIER_MODULE] = "module",
	};

	return tier < DF_TIER_COUNT ? names[tier] : "?";
}

/* ---- the result ---- */

static void bootopt_release(struct df_bootopt *o)
{
	free(o->name);
	free(o->module);
	strv_free_array(o->drivers, o->ndrivers);
}

struct df_bootopts *df_bootopts_free(struct df_bootopts *b)
{
	if (!b)
		return NULL;
	for (size_t i = 0; i < b->nentries; i++)
		bootopt_release(&b->entries[i]);
	for (size_t i = 0; i < b->nuncovered; i++) {
		free(b->uncovered[i].subject);
		free(b->uncovered[i].reason);
	}
	free(b->entries);
	free(b->uncovered);
	free(b->line);
	free(b->rest);
	if (b->kallsyms) {
		df_initcalls_release(b->kallsyms);
		free(b->kallsyms);
	}
	free(b);
	return NULL;
}

const char *df_bootopts_initcall_module(const struct df_bootopts *b, const char *fn)
{
	const struct df_initcall *c = b->kallsyms ? strmap_get(&b->kallsyms->by_fn, fn) : NULL;

	return c ? c->module : NULL;
}

struct df_bootopt *df_bootopts_add_entry(struct df_bootwork *w, enum df_bootopt_kind kind,
					 enum df_bootopt_tier tier, const char *name,
					 const char *module, const struct strv *drivers)
{
	struct df_bootopt *o = ARRAY_GROW(w->b->entries, w->capentries, w->b->nentries);
	struct strv copy = STRV_INIT;

	if (!o)
		return NULL;
	*o = (struct df_bootopt){ .kind = kind, .tier = tier };
	for (size_t i = 0; drivers && i < drivers->n; i++)
		if (strv_push(&copy, drivers->v[i]) < 0) {
			strv_release(&copy);
			return NULL;
		}
	strv_sort(&copy);
	o->name = strdup(name);
	o->module = strdup(module);
	o->drivers = strv_steal(&copy, &o->ndrivers);
	if (!o->name || !o->module) {
		bootopt_release(o);
		return NULL;
	}
	w->b->nentries++;
	return o;
}

int df_bootopts_add_uncovered(struct df_bootwork *w, const char *subject, bool module,
			      enum df_bootopt_tier tier, const char *fmt, ...)
{
	struct df_uncovered *u;
	va_list ap;
	int n;

	/* Once each: the first reason found stands (two modules may share one driver). */
	for (size_t i = 0; i < w->b->nuncovered; i++)
		if (w->b->uncovered[i].module == module &&
		    streq(w->b->uncovered[i].subject, subject))
			return 0;
	u = ARRAY_GROW(w->b->uncovered, w->capuncovered, w->b->nuncovered);
	if (!u)
		return -ENOMEM;
	*u = (struct df_uncovered){ .module = module, .tier = tier, .subject = strdup(subject) };
	va_start(ap, fmt);
	n = vasprintf(&u->reason, fmt, ap);
	va_end(ap);
	if (n < 0 || !u->subject) {
		free(u->subject);
		if (n >= 0)
			free(u->reason);
		return -ENOMEM;
	}
	w->b->nuncovered++;
	return 0;
}

const struct df_driver *df_bootopts_inv_driver(const struct df_inventory *inv, const char *busdrv,
					       const struct df_bus **busp)
{
	const char *colon = strchr(busdrv, ':');
	char bus[DF_NAME_MAX + 1];
	const struct df_bus *b;

	if (!inv || !colon || (size_t)(colon - busdrv) > DF_NAME_MAX)
		return NULL;
	snprintf(bus, sizeof(bus), "%.*s", (int)(colon - busdrv), busdrv);
	b = df_inventory_bus(inv, bus);
	if (busp)
		*busp = b;
	return b ? df_bus_driver(b, colon + 1) : NULL;
}

/* ---- the target kernel ---- */

/* The kernel has the driver filter: 1, 0 when known to lack it, -1 when not known. */
static int kernel_patched(struct df_ctx *ctx, const struct df_inventory *inv, const char *release)
{
	_cleanup_free_ char *sys = NULL, *config = NULL, *rel = NULL, *line = NULL;
	size_t size = 0;
	FILE *f = NULL;
	int found = 0;

	/* The running kernel's filter says nothing of another one being installed. */
	if (!df_kernel_is_other(ctx)) {
		if (inv && inv->kernel_filter)
			return 1;
		sys = df_ctx_path(ctx, "/sys/bus");
		if (sys && access(sys, F_OK) == 0)
			return 0;
	}
	/* An image's tree without /sys, or another kernel: its config tells (Debian's, Fedora's). */
	if (!*release)
		return -1;
	for (int i = 0; i < 2 && !f; i++) {
		free(rel);
		free(config);
		config = NULL;
		if (asprintf(&rel, i ? "/lib/modules/%s/config" : "/boot/config-%s", release) < 0) {
			rel = NULL;
			return -1;
		}
		config = df_ctx_path(ctx, rel);
		f = config ? fopen(config, "re") : NULL;
	}
	if (!f)
		return -1;
	while (!found && getline(&line, &size, f) > 0)
		found = streq(line, "CONFIG_DRIVER_FILTER=y\n");
	fclose(f);
	return found;
}

static void work_release(struct df_bootwork *w)
{
	df_initcalls_release(&w->ic);
	df_trace_release(&w->trace);
	df_modtable_release(&w->mt);
	strmap_release(&w->attributed);
	strv_release(&w->attributed_keys);
	strmap_release(&w->device_modules);
	strv_release(&w->device_module_keys);
	strmap_release(&w->module_inits);
	strv_release(&w->module_init_keys);
}

/* The entries a recording says it left out (drvfilterctl record's manifest), or 0. */
static size_t record_skipped(struct df_ctx *ctx)
{
	char buf[512];
	const char *s;

	if (!df_ctx_get_sysroot(ctx) ||
	    df_read_file(ctx, "/drvfilter-record", buf, sizeof(buf)) < 0)
		return 0;
	s = strstr(buf, "\nskipped=");
	return s ? strtoul(s + strlen("\nskipped="), NULL, 10) : 0;
}

static void load_trace(struct df_bootwork *w)
{
	struct df_bootopts *b = w->b;
	int r = df_trace_load(w->ctx, &w->trace);

	if (!b->initcalls)
		snprintf(b->trace_why, sizeof(b->trace_why),
			 "kallsyms cannot be read: the kernel's init calls are not known");
	else if (r < 0)
		snprintf(b->trace_why, sizeof(b->trace_why),
			 "the kernel log cannot be read (%s), so no init call can be tied to it",
			 strerror(-r));
	else if (!w->trace.ncalls_seen)
		snprintf(b->trace_why, sizeof(b->trace_why),
			 "no init-call trace in the kernel log (only a recording boot has one, see "
			 "drvfilterctl(8)), so it cannot be tied to an init call");
	else if (!w->trace.registrations)
		snprintf(b->trace_why, sizeof(b->trace_why),
			 "the init-call trace has no driver registrations: add dyndbg=\"file "
			 "drivers/base/bus.c +p; file drivers/base/class.c +p\"");
	else
		b->trace = true;
}

/* ---- the entry point, and the budget ---- */

/* The budget: @max_bytes, or what the target's command line leaves free but the headroom. */
static int set_budget(struct df_ctx *ctx, struct df_bootopts *b, size_t max_bytes)
{
	size_t rest_len, free_len;
	int r = df_cmdline_rest(ctx, &b->rest);

	if (r < 0)
		return r;
	rest_len = strlen(b->rest) + (*b->rest ? 1 : 0);
	/* The headroom is what is really free past the budget: less when the rest is long. */
	free_len = rest_len < DF_KERNEL_CMDLINE_MAX - 1 ? DF_KERNEL_CMDLINE_MAX - 1 - rest_len : 0;
	b->headroom = max_bytes				      ? 0
		      : free_len < DF_KERNEL_CMDLINE_HEADROOM ? free_len
							      : DF_KERNEL_CMDLINE_HEADROOM;
	b->max_bytes = max_bytes ? max_bytes : free_len - b->headroom;
	return 0;
}

/* Whether the target has the filter, and its filter_* options: 0, -ENOMEM or -E2BIG (too long). */
static int filter_options(struct df_bootwork *w, char **filter)
{
	struct df_bootopts *b = w->b;
	int patched = kernel_patched(w->ctx, w->inv, b->release);
	int r = 0;

	b->patched = patched == 1;
	b->filter = patched != 0;
	if (b->filter) {
		r = df_policy_kernel_options(w->p, filter);
		if (r == -ENOMEM)
			return r;
		if (strlen(*filter) > b->max_bytes)
			r = -E2BIG;
	}
	return r;
}

/* What the target kernel tells: its init calls, their trace, what its boot skipped. */
static void read_kernel(struct df_bootwork *w)
{
	struct df_bootopts *b = w->b;

	if (*b->release && df_kernel_is_other(w->ctx)) {
		/* Its init calls are in its own kallsyms, seen only once it runs. */
		snprintf(b->trace_why, sizeof(b->trace_why),
			 "kernel %.80s is not the one running (or recorded): its init calls are "
			 "not known",
			 b->release);
	} else if (*b->release) {
		struct df_cmdline_opts recorded;

		b->initcalls = df_initcalls_load(w->ctx, &w->ic) >= 0;
		b->ninitcalls = w->ic.n;
		load_trace(w);
		/* What that boot's own initcall_blacklist= skipped is not in its trace. */
		if (b->trace && df_cmdline_opts_read(w->ctx, &recorded) >= 0) {
			b->trace_skipped = recorded.ninitcalls;
			df_cmdline_opts_release(&recorded);
		}
		b->record_skipped = record_skipped(w->ctx);
	} else {
		snprintf(b->trace_why, sizeof(b->trace_why), "no kernel is known");
	}
}

/* Every option, and every denied driver or module they cannot cover. */
static int judge(struct df_bootwork *w)
{
	struct df_bootopts *b = w->b;
	int r = 0;

	if (w->mods) {
		r = df_modtable_load(w->mods, &w->mt);
		if (r == -ENOMEM)
			return r;
		b->modules = r >= 0;
		r = 0;
	}
	if (b->trace)
		r = df_bootopts_builtin_options(w);
	/* The drivers registered now are the running kernel's. */
	if (r >= 0 && w->inv && !df_kernel_is_other(w->ctx))
		r = df_bootopts_unattributed_builtins(w);
	if (r >= 0 && b->modules)
		r = df_bootopts_module_options(w);
	return r;
}

int df_bootopts_compute(struct df_ctx *ctx, const struct df_policy *p,
			const struct df_inventory *inv, struct df_modules *m, size_t max_bytes,
			struct df_bootopts **ret)
{
	_cleanup_(df_inventory_freep) struct df_inventory *own_inv = NULL;
	_cleanup_(df_modules_freep) struct df_modules *own_mods = NULL;
	_cleanup_free_ char *filter = NULL;
	struct df_bootwork w = { .ctx = ctx, .p = p, .inv = inv, .mods = m };
	struct df_bootopts *b = calloc(1, sizeof(*b));
	int r, filter_r;

	if (!b)
		return -ENOMEM;
	w.b = b;
	if (df_osrelease(ctx, b->release, sizeof(b->release)) < 0)
		b->release[0] = '\0';
	if (!w.inv && *b->release && df_inventory_load(ctx, DF_INV_DEVICES, &own_inv) >= 0)
		w.inv = own_inv;
	if (!w.mods && *b->release && df_modules_open(ctx, &own_mods) >= 0)
		w.mods = own_mods;
	r = set_budget(ctx, b, max_bytes);
	if (r < 0)
		goto out;
	filter_r = filter_options(&w, &filter);
	if (filter_r == -ENOMEM) {
		r = filter_r;
		goto out;
	}
	read_kernel(&w);
	r = judge(&w);
	if (r < 0)
		goto out;
	df_bootopts_rank(&w);
	r = df_bootopts_build_line(b, filter_r == -E2BIG ? "" : filter ? filter : "");
	if (r < 0)
		goto out;
	if (filter_r == -E2BIG) {
		/* Said by the caller, which has the length: the whole filter_* text is the line. */
		free(b->line);
		b->line = TAKE_PTR(filter);
		r = -E2BIG;
	}
	b->kallsyms = malloc(sizeof(*b->kallsyms));
	if (!b->kallsyms) {
		r = -ENOMEM;
		goto out;
	}
	*b->kallsyms = w.ic;
	w.ic = (struct df_initcalls){ 0 };
out:
	work_release(&w);
	if (r < 0 && r != -E2BIG) {
		df_bootopts_free(b);
		return r;
	}
	*ret = b;
	return r;
}
