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
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "bootopts/bootopts-private.h"
#include "strbuf.h"
#include "strv.h"

/* Buses whose devices the host offers, in the order their drivers rank; the others after. */
static int bus_rank(const char *bus)
{
	static const char *const host[] = { "pci", "pnp", "acpi", "platform", "serio", "virtio" };
	static const int rank[] = { 0, 1, 1, 2, 3, 4 };

	for (size_t i = 0; i < ARRAY_SIZE(host); i++)
		if (streq(bus, host[i]))
			return rank[i];
	return 5;
}

static bool host_bus(const char *bus)
{
	return bus_rank(bus) < 5;
}

/* The best rank of the buses of "bus:driver" names. */
static int drivers_rank(char **drivers, size_t n)
{
	int best = 99;

	for (size_t i = 0; i < n; i++) {
		char bus[DF_NAME_MAX + 1];

		snprintf(bus, sizeof(bus), "%.*s", (int)strcspn(drivers[i], ":"), drivers[i]);
		if (bus_rank(bus) < best)
			best = bus_rank(bus);
	}
	return best;
}

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

/* Everything the computation reads, and what it builds. */
struct work {
	struct df_ctx *ctx;
	const struct df_policy *p;
	const struct df_inventory *inv;
	struct df_modules *mods;
	struct df_bootopts *b;
	struct df_initcalls ic;
	struct df_trace trace;
	struct df_modtable mt;
	size_t capentries, capuncovered;
	struct strmap attributed; /* "bus:driver" a built-in init call registered -> non-NULL */
	struct strv attributed_keys;
	struct strmap device_modules; /* modules that drive a device of this system */
	struct strv device_module_keys;
	struct strmap module_inits; /* init function of a loadable module not denied -> module */
	struct strv module_init_keys;
	bool module_inits_read;
};

static struct df_bootopt *add_entry(struct work *w, enum df_bootopt_kind kind,
				    enum df_bootopt_tier tier, const char *name, const char *module,
				    const struct strv *drivers)
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

_printf_(5, 6) static int add_uncovered(struct work *w, const char *subject, bool module,
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

static bool driver_denied(const struct df_policy *p, const char *busdrv)
{
	const char *colon = strchr(busdrv, ':');
	char bus[DF_NAME_MAX + 1];
	struct df_verdict v;

	if (!colon || (size_t)(colon - busdrv) > DF_NAME_MAX)
		return false;
	snprintf(bus, sizeof(bus), "%.*s", (int)(colon - busdrv), busdrv);
	df_policy_decide(p, bus, colon + 1, &v);
	return !v.allowed;
}

static const struct df_driver *inv_driver(const struct df_inventory *inv, const char *busdrv,
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

static const struct df_device *bus_device(const struct df_bus *bus, const char *name)
{
	for (size_t i = 0; i < bus->ndevices; i++)
		if (streq(bus->devices[i].name, name))
			return &bus->devices[i];
	return NULL;
}

/* ---- loadable modules' init functions, for name collisions ---- */

/* modules.initfn of a recording: "MODULE FUNCTION" lines, for trees without the module files. */
static int read_initfn_index(struct work *w, struct strmap *index, struct strv *keys)
{
	_cleanup_free_ char *path = NULL, *line = NULL;
	size_t size = 0;
	FILE *f;
	int r = 0;

	if (asprintf(&path, "%s/modules.initfn", df_modules_dir(w->mods)) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (r >= 0 && getline(&line, &size, f) > 0) {
		char *save = NULL, *mod = strtok_r(line, " \t\n", &save);
		char *fn = strtok_r(NULL, " \t\n", &save);

		if (!mod || !fn || !df_cmdline_name_ok(mod) ||
		    (!df_cmdline_name_ok(fn) && !streq(fn, "-")))
			continue;
		/* Keyed by module: the list of its init names, joined by ','. */
		r = strv_push(keys, mod);
		if (r >= 0)
			r = strv_push(keys, fn);
	}
	fclose(f);
	for (size_t i = 0; r >= 0 && i + 1 < keys->n; i += 2) {
		r = strmap_put(index, keys->v[i], keys->v[i + 1], NULL);
		if (r == -EEXIST)
			r = 0; /* more than one name: rare (aliases); the first serves */
	}
	return r < 0 ? r : 1;
}

/* The init functions of every loadable module the policy does not deny, once. */
static int read_module_inits(struct work *w)
{
	struct strmap index = STRMAP_INIT;
	struct strv index_keys = STRV_INIT;
	int have_index, r = 0;

	if (w->module_inits_read)
		return 0;
	w->module_inits_read = true;
	have_index = read_initfn_index(w, &index, &index_keys);
	if (have_index < 0) {
		r = have_index;
		goto out;
	}
	for (size_t i = 0; r >= 0 && i < w->mt.n; i++) {
		const struct df_modinfo *mi = w->mt.all[i];
		struct strv names = STRV_INIT;

		/* A denied module refused by a shared name is no loss. */
		if ((mi->buses.n || mi->loaded) && df_modinfo_denied(w->p, mi))
			continue;
		r = mi->path ? df_module_init_names(mi->path, &names) : -ENOENT;
		if (r < 0 && r != -ENOMEM) {
			/* A recording's index: no line, no init function; "-", not known. */
			const char *fn = have_index > 0 ? strmap_get(&index, mi->name) : NULL;

			r = fn && !streq(fn, "-") ? strv_push(&names, fn) : 0;
			if (have_index <= 0 || (fn && streq(fn, "-")))
				w->b->unreadable++;
		}
		for (size_t k = 0; r >= 0 && k < names.n; k++) {
			r = strv_push(&w->module_init_keys, names.v[k]);
			if (r >= 0)
				r = strv_push(&w->module_init_keys, mi->name);
		}
		strv_release(&names);
	}
	for (size_t i = 0; r >= 0 && i + 1 < w->module_init_keys.n; i += 2) {
		r = strmap_put(&w->module_inits, w->module_init_keys.v[i],
			       w->module_init_keys.v[i + 1], NULL);
		if (r == -EEXIST)
			r = 0;
	}
out:
	strmap_release(&index);
	strv_release(&index_keys);
	return r;
}

/* ---- built-in modules ---- */

/* One built-in module: its init calls and what they registered. */
struct builtin {
	const char *module;
	struct strv device_fns; /* device-level calls that registered a driver */
	struct strv device_drivers; /* ... and their drivers */
	struct strv other; /* "bus:driver\tfn\tlevel" registered at other levels */
	struct strv buses, classes;
	struct strv missing; /* device-level calls the trace does not have */
	const char *shared; /* a device-level call with drivers whose name is not unique */
};

static void builtin_release(struct builtin *m)
{
	strv_release(&m->device_fns);
	strv_release(&m->device_drivers);
	strv_release(&m->other);
	strv_release(&m->buses);
	strv_release(&m->classes);
	strv_release(&m->missing);
}

static int push_all(struct strv *to, const struct strv *from)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < from->n; i++)
		r = strv_push_unique(to, from->v[i]);
	return r;
}

static int collect_builtin(struct work *w, const char *module, struct builtin *m)
{
	int r = 0;

	*m = (struct builtin){ .module = module };
	for (size_t i = 0; r >= 0 && i < w->ic.n; i++) {
		const struct df_initcall *c = &w->ic.v[i];
		const struct df_trace_call *t;

		if (!streq(c->module, module))
			continue;
		t = strmap_get(&w->trace.by_fn, c->fn);
		if (!t) {
			if (c->device)
				r = strv_push_unique(&m->missing, c->fn);
			continue;
		}
		if (t->drivers.n && c->device && (c->shared || t->ambiguous) && !m->shared)
			m->shared = c->fn;
		if (r >= 0)
			r = push_all(&m->buses, &t->buses);
		if (r >= 0)
			r = push_all(&m->classes, &t->classes);
		if (r < 0 || !t->drivers.n)
			continue;
		if (c->device) {
			r = strv_push_unique(&m->device_fns, c->fn);
			if (r >= 0)
				r = push_all(&m->device_drivers, &t->drivers);
			continue;
		}
		for (size_t k = 0; r >= 0 && k < t->drivers.n; k++) {
			_cleanup_free_ char *s = NULL;

			if (asprintf(&s, "%s\t%s\t%s", t->drivers.v[k], c->fn, c->level) < 0)
				return -ENOMEM;
			r = strv_push(&m->other, s);
		}
	}
	return r;
}

/* @busdrv is accounted for by an init call (indexed once all are seen). */
static int attribute(struct work *w, const char *busdrv)
{
	return strv_push(&w->attributed_keys, busdrv);
}

/*
 * How a built-in module ranks: BOUND when a denied driver of it drives a
 * device the host offers; -1 when its denied drivers drive only devices the
 * kernel creates itself (*@own names one); else by bus.
 */
static int builtin_tier(struct work *w, const struct builtin *m, const char **own)
{
	bool host_device = false, own_device = false, on_host_bus = false;

	for (size_t i = 0; i < m->device_drivers.n; i++) {
		const struct df_bus *bus = NULL;
		const struct df_driver *drv = inv_driver(w->inv, m->device_drivers.v[i], &bus);
		const char *name = m->device_drivers.v[i];
		size_t buslen = strcspn(name, ":");
		char busname[DF_NAME_MAX + 1];

		snprintf(busname, sizeof(busname), "%.*s", (int)buslen, name);
		on_host_bus |= host_bus(busname);
		for (size_t k = 0; drv && k < drv->ndevices; k++) {
			const struct df_device *dev = bus_device(bus, drv->devices[k]);

			if (streq(bus->name, "platform") && !(dev && dev->firmware_node)) {
				own_device = true;
				*own = drv->devices[k];
			} else if (host_bus(bus->name)) {
				host_device = true;
			}
		}
	}
	if (host_device)
		return DF_TIER_BOUND;
	if (own_device)
		return -1;
	return on_host_bus ? DF_TIER_HOST_BUS : DF_TIER_OTHER_BUS;
}

/* Every denied driver of @m is not covered, for @reason. */
_printf_(4, 5) static int uncover_all(struct work *w, const struct builtin *m, int tier,
				      const char *fmt, ...)
{
	_cleanup_free_ char *reason = NULL;
	va_list ap;
	int r = 0;

	va_start(ap, fmt);
	if (vasprintf(&reason, fmt, ap) < 0)
		reason = NULL;
	va_end(ap);
	if (!reason)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < m->device_drivers.n; i++)
		if (driver_denied(w->p, m->device_drivers.v[i]))
			r = add_uncovered(w, m->device_drivers.v[i], false,
					  tier < 0 ? DF_TIER_OTHER_BUS : (enum df_bootopt_tier)tier,
					  "%s", reason);
	return r;
}

static int judge_builtin(struct work *w, struct builtin *m)
{
	const char *allowed = NULL, *own = NULL;
	bool any_denied = false;
	int tier, r = 0;

	for (size_t i = 0; r >= 0 && i < m->device_drivers.n; i++)
		r = attribute(w, m->device_drivers.v[i]);
	/* Drivers registered outside module_init() stay: say which and why. */
	for (size_t i = 0; r >= 0 && i < m->other.n; i++) {
		char *drv = m->other.v[i], *fn = strchr(drv, '\t'), *level;

		*fn++ = '\0';
		level = strchr(fn, '\t');
		*level++ = '\0';
		r = attribute(w, drv);
		if (r >= 0 && driver_denied(w->p, drv))
			r = add_uncovered(w, drv, false, DF_TIER_OTHER_BUS,
					  "registered by %s (module %s) at init level %s; only "
					  "device-level init calls are skipped",
					  fn, m->module, level);
		if (!driver_denied(w->p, drv))
			allowed = drv;
	}
	if (r < 0 || !m->device_drivers.n)
		return r;
	for (size_t i = 0; i < m->device_drivers.n; i++) {
		if (driver_denied(w->p, m->device_drivers.v[i]))
			any_denied = true;
		else
			allowed = m->device_drivers.v[i];
	}
	if (!any_denied)
		return 0;
	tier = builtin_tier(w, m, &own);
	if (allowed)
		return uncover_all(w, m, tier, "its module %s also registers the allowed driver %s",
				   m->module, allowed);
	if (m->buses.n)
		return uncover_all(w, m, tier,
				   "its module %s registers the bus %s, which other drivers need",
				   m->module, m->buses.v[0]);
	if (m->classes.n)
		return uncover_all(w, m, tier,
				   "its module %s registers the device class %s, which other "
				   "drivers need",
				   m->module, m->classes.v[0]);
	if (m->shared)
		return uncover_all(w, m, tier,
				   "another init call is named %s too: the kernel would skip both",
				   m->shared);
	if (m->missing.n)
		return uncover_all(
			w, m, tier,
			"the init-call trace lacks %s of module %s (a cut kernel log, or "
			"skipped at the recorded boot)",
			m->missing.v[0], m->module);
	if (tier < 0)
		return uncover_all(
			w, m, tier,
			"it drives only devices the kernel creates itself (%s), not ones "
			"the host offers; its init may do more than register drivers",
			own);
	r = read_module_inits(w);
	if (r < 0)
		return r;
	for (size_t i = 0; i < m->device_fns.n; i++) {
		const char *other = strmap_get(&w->module_inits, m->device_fns.v[i]);

		if (other)
			return uncover_all(
				w, m, tier,
				"the init function of the loadable module %s is named %s "
				"too: it could not be loaded",
				other, m->device_fns.v[i]);
	}
	if (w->b->unreadable)
		return uncover_all(
			w, m, tier,
			"%zu module files could not be read (compressed, or not in the "
			"recording): one of them may have an init function of the same name",
			w->b->unreadable);
	for (size_t i = 0; i < m->device_fns.n; i++) {
		struct strv drivers = STRV_INIT;
		const struct df_trace_call *t = strmap_get(&w->trace.by_fn, m->device_fns.v[i]);

		r = push_all(&drivers, &t->drivers);
		if (r >= 0 && !add_entry(w, DF_BOOTOPT_INITCALL, (enum df_bootopt_tier)tier,
					 m->device_fns.v[i], m->module, &drivers))
			r = -ENOMEM;
		strv_release(&drivers);
		if (r < 0)
			return r;
	}
	return 0;
}

static int builtin_options(struct work *w)
{
	struct strv modules = STRV_INIT;
	int r = 0;

	for (size_t i = 0; r >= 0 && i < w->ic.n; i++)
		r = strv_push_unique(&modules, w->ic.v[i].module);
	strv_sort(&modules);
	for (size_t i = 0; r >= 0 && i < modules.n; i++) {
		struct builtin m;

		r = collect_builtin(w, modules.v[i], &m);
		if (r >= 0)
			r = judge_builtin(w, &m);
		builtin_release(&m);
	}
	strv_release(&modules);
	return r;
}

/* Denied built-in drivers registered now that no init call of the trace accounts for. */
static int unattributed_builtins(struct work *w)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < w->attributed_keys.n; i++)
		if (strmap_put(&w->attributed, w->attributed_keys.v[i], w, NULL) == -ENOMEM)
			r = -ENOMEM;
	for (size_t i = 0; r >= 0 && w->inv && i < w->inv->nbuses; i++) {
		const struct df_bus *bus = &w->inv->buses[i];

		for (size_t j = 0; r >= 0 && j < bus->ndrivers; j++) {
			const struct df_driver *drv = &bus->drivers[j];
			enum df_bootopt_tier tier = drv->ndevices && host_bus(bus->name)
							    ? DF_TIER_BOUND
						    : host_bus(bus->name) ? DF_TIER_HOST_BUS
									  : DF_TIER_OTHER_BUS;
			_cleanup_free_ char *key = NULL;
			struct df_verdict v;

			if (!drv->builtin)
				continue;
			df_policy_decide(w->p, bus->name, drv->name, &v);
			if (v.allowed)
				continue;
			if (asprintf(&key, "%s:%s", bus->name, drv->name) < 0)
				return -ENOMEM;
			if (strmap_get(&w->attributed, key))
				continue;
			if (!w->b->trace)
				r = add_uncovered(w, key, false, tier, "%s", w->b->trace_why);
			else
				r = add_uncovered(
					w, key, false, tier,
					"no built-in init call of the trace registered it "
					"(the driver core did, or a call the trace lacks)");
		}
	}
	return r;
}

/* ---- loadable modules ---- */

/*
 * Allowed exact names nothing resolves (no registered driver, no module of
 * that name) on @bus: a module not loaded may be what provides them.
 */
static const char *unresolved_allowed(struct work *w, const char *bus)
{
	const struct df_policy *p = w->p;

	for (size_t i = 0; i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];

		if (e->section != DF_SECTION_ALLOW || (!e->any_bus && strcasecmp(e->key, bus)))
			continue;
		for (size_t j = 0; j < e->nrules; j++) {
			const char *name = e->rules[j].name;
			char modname[DF_NAME_MAX + 1];
			_cleanup_free_ char *key = NULL;

			if (streq(name, "ALL") || df_name_is_glob(name))
				continue;
			if (asprintf(&key, "%s:%s", bus, name) >= 0 &&
			    inv_driver(w->inv, key, NULL))
				continue;
			if (df_modname_normalize(name, modname) == 0 &&
			    (strmap_get(&w->mt.map, modname) ||
			     df_modules_exists(w->mods, modname)))
				continue;
			return name;
		}
	}
	return NULL;
}

static int find_device_modules(struct work *w)
{
	int r = 0;

	for (size_t i = 0; w->inv && i < w->inv->nbuses; i++)
		for (size_t j = 0; j < w->inv->buses[i].ndevices; j++) {
			const struct df_device *dev = &w->inv->buses[i].devices[j];
			char **names = NULL;
			size_t n = 0;

			if (!dev->modalias ||
			    df_modules_lookup(w->mods, dev->modalias, &names, &n) < 0)
				continue;
			for (size_t k = 0; r >= 0 && k < n; k++)
				r = strv_push_unique(&w->device_module_keys, names[k]);
			strv_free_array(names, n);
			if (r < 0)
				return r;
		}
	for (size_t i = 0; r >= 0 && i < w->device_module_keys.n; i++)
		if (strmap_put(&w->device_modules, w->device_module_keys.v[i], w, NULL) == -ENOMEM)
			r = -ENOMEM;
	return r;
}

static int min_bus_rank(const struct df_modinfo *mi)
{
	int best = 99;

	for (size_t i = 0; i < mi->buses.n; i++)
		if (bus_rank(mi->buses.v[i]) < best)
			best = bus_rank(mi->buses.v[i]);
	return best;
}

static int module_options(struct work *w)
{
	int r = find_device_modules(w);

	for (size_t i = 0; r >= 0 && i < w->mt.n; i++) {
		const struct df_modinfo *mi = w->mt.all[i];
		enum df_bootopt_tier tier;
		const char *why = NULL;

		if ((!mi->buses.n && !mi->loaded) || !df_modinfo_denied(w->p, mi))
			continue;
		w->b->nmodules++;
		tier = mi->loaded || strmap_get(&w->device_modules, mi->name)
			       ? DF_TIER_DEVICE_MODULE
			       : DF_TIER_MODULE;
		for (size_t k = 0; !mi->loaded && !why && k < mi->buses.n; k++)
			why = unresolved_allowed(w, mi->buses.v[k]);
		if (!df_cmdline_name_ok(mi->name))
			r = add_uncovered(w, mi->name, true, tier,
					  "its name holds bytes a command line cannot");
		else if (mi->dependents)
			r = add_uncovered(w, mi->name, true, tier,
					  "%zu other modules need it (a bus or library they build "
					  "on): refusing it would refuse them",
					  mi->dependents);
		else if (why)
			r = add_uncovered(w, mi->name, true, tier,
					  "it may provide the allowed driver '%s', which no module "
					  "or registered driver is named after",
					  why);
		else if (!add_entry(w, DF_BOOTOPT_MODULE, tier, mi->name, mi->name, &mi->drivers))
			r = -ENOMEM;
	}
	return r;
}

/* ---- ranking and the budget ---- */

static int cmp_entry(const void *a, const void *b, void *data)
{
	const struct df_bootopt *x = a, *y = b;
	struct work *w = data;

	if (x->tier != y->tier)
		return x->tier < y->tier ? -1 : 1;
	/* Within a rank, by bus: pci, pnp and acpi, platform, serio, virtio, the others. */
	if (x->tier == DF_TIER_MODULE) {
		const struct df_modinfo *mx = strmap_get(&w->mt.map, x->module);
		const struct df_modinfo *my = strmap_get(&w->mt.map, y->module);
		int rx = mx ? min_bus_rank(mx) : 99, ry = my ? min_bus_rank(my) : 99;

		if (rx != ry)
			return rx < ry ? -1 : 1;
	} else if (x->kind == DF_BOOTOPT_INITCALL) {
		int rx = drivers_rank(x->drivers, x->ndrivers);
		int ry = drivers_rank(y->drivers, y->ndrivers);

		if (rx != ry)
			return rx < ry ? -1 : 1;
	}
	if (!streq(x->module, y->module))
		return strcmp(x->module, y->module);
	return strcmp(x->name, y->name);
}

static int cmp_uncovered(const void *a, const void *b)
{
	const struct df_uncovered *x = a, *y = b;

	if (x->module != y->module)
		return x->module ? 1 : -1;
	return strcmp(x->subject, y->subject);
}

static int build_line(struct df_bootopts *b, const char *filter)
{
	struct strbuf sb = STRBUF_INIT;
	bool full = false;
	int r = strbuf_append(&sb, filter);

	for (int kind = DF_BOOTOPT_INITCALL; r >= 0 && kind <= DF_BOOTOPT_MODULE; kind++) {
		const char *key =
			kind == DF_BOOTOPT_INITCALL ? "initcall_blacklist=" : "module_blacklist=";
		bool first = true;

		for (size_t i = 0; r >= 0 && i < b->nentries; i++) {
			struct df_bootopt *o = &b->entries[i];
			size_t need;

			if ((int)o->kind != kind)
				continue;
			need = first ? (sb.len ? 1 : 0) + strlen(key) + strlen(o->name)
				     : 1 + strlen(o->name);
			/* Strictly in rank order: once one does not fit, none after it goes in. */
			if (full || sb.len + need > b->max_bytes) {
				full = true;
				b->left[o->tier]++;
				continue;
			}
			if (first)
				r = strbuf_appendf(&sb, "%s%s%s", sb.len ? " " : "", key, o->name);
			else
				r = strbuf_appendf(&sb, ",%s", o->name);
			first = false;
			o->fits = true;
			b->fit[o->tier]++;
		}
	}
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	b->line = strbuf_steal(&sb);
	return b->line ? 0 : -ENOMEM;
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

static void work_release(struct work *w)
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

static void load_trace(struct work *w)
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

int df_bootopts_compute(struct df_ctx *ctx, const struct df_policy *p,
			const struct df_inventory *inv, struct df_modules *m, size_t max_bytes,
			struct df_bootopts **ret)
{
	_cleanup_(df_inventory_freep) struct df_inventory *own_inv = NULL;
	_cleanup_(df_modules_freep) struct df_modules *own_mods = NULL;
	_cleanup_free_ char *filter = NULL;
	struct work w = { .ctx = ctx, .p = p, .inv = inv, .mods = m };
	struct df_bootopts *b = calloc(1, sizeof(*b));
	int patched, r, filter_r = 0;
	size_t rest_len, free_len;

	if (!b)
		return -ENOMEM;
	w.b = b;
	if (df_osrelease(ctx, b->release, sizeof(b->release)) < 0)
		b->release[0] = '\0';
	if (!w.inv && *b->release && df_inventory_load(ctx, DF_INV_DEVICES, &own_inv) >= 0)
		w.inv = own_inv;
	if (!w.mods && *b->release && df_modules_open(ctx, &own_mods) >= 0)
		w.mods = own_mods;
	r = df_cmdline_rest(ctx, &b->rest);
	if (r < 0)
		goto out;
	rest_len = strlen(b->rest) + (*b->rest ? 1 : 0);
	/* The headroom is what is really free past the budget: less when the rest is long. */
	free_len = rest_len < DF_KERNEL_CMDLINE_MAX - 1 ? DF_KERNEL_CMDLINE_MAX - 1 - rest_len : 0;
	b->headroom = max_bytes				      ? 0
		      : free_len < DF_KERNEL_CMDLINE_HEADROOM ? free_len
							      : DF_KERNEL_CMDLINE_HEADROOM;
	b->max_bytes = max_bytes ? max_bytes : free_len - b->headroom;
	patched = kernel_patched(ctx, w.inv, b->release);
	b->patched = patched == 1;
	b->filter = patched != 0;
	if (b->filter) {
		filter_r = df_policy_kernel_options(p, &filter);
		if (filter_r == -ENOMEM) {
			r = filter_r;
			goto out;
		}
		if (strlen(filter) > b->max_bytes)
			filter_r = -E2BIG;
	}
	if (*b->release && df_kernel_is_other(ctx)) {
		/* Its init calls are in its own kallsyms, seen only once it runs. */
		snprintf(b->trace_why, sizeof(b->trace_why),
			 "kernel %.80s is not the one running (or recorded): its init calls are "
			 "not known",
			 b->release);
	} else if (*b->release) {
		struct df_cmdline_opts recorded;

		b->initcalls = df_initcalls_load(ctx, &w.ic) >= 0;
		b->ninitcalls = w.ic.n;
		load_trace(&w);
		/* What that boot's own initcall_blacklist= skipped is not in its trace. */
		if (b->trace && df_cmdline_opts_read(ctx, &recorded) >= 0) {
			b->trace_skipped = recorded.ninitcalls;
			df_cmdline_opts_release(&recorded);
		}
		b->record_skipped = record_skipped(ctx);
	} else {
		snprintf(b->trace_why, sizeof(b->trace_why), "no kernel is known");
	}
	if (w.mods) {
		r = df_modtable_load(w.mods, &w.mt);
		if (r == -ENOMEM)
			goto out;
		b->modules = r >= 0;
		r = 0;
	}
	if (b->trace)
		r = builtin_options(&w);
	/* The drivers registered now are the running kernel's. */
	if (r >= 0 && w.inv && !df_kernel_is_other(ctx))
		r = unattributed_builtins(&w);
	if (r >= 0 && b->modules)
		r = module_options(&w);
	if (r < 0)
		goto out;
	if (b->nentries > 1)
		qsort_r(b->entries, b->nentries, sizeof(*b->entries), cmp_entry, &w);
	if (b->nuncovered > 1)
		qsort(b->uncovered, b->nuncovered, sizeof(*b->uncovered), cmp_uncovered);
	r = build_line(b, filter_r == -E2BIG ? "" : filter ? filter : "");
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
