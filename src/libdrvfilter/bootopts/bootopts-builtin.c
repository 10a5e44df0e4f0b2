// SPDX-License-Identifier: GPL-2.0-only
/*
 * The built-in init calls' judgement: what each built-in module's init calls
 * registered, by the init-call trace, and whether initcall_blacklist= can name
 * its device-level calls or why its denied drivers stay uncovered; and the
 * denied built-in drivers registered now that no init call accounts for.
 */
#include <errno.h>
#include <stdio.h>

#include "bootopts/bootopts-private.h"
#include "strv.h"

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

static const struct df_device *bus_device(const struct df_bus *bus, const char *name)
{
	for (size_t i = 0; i < bus->ndevices; i++)
		if (streq(bus->devices[i].name, name))
			return &bus->devices[i];
	return NULL;
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

static int collect_builtin(struct df_bootwork *w, const char *module, struct builtin *m)
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
static int attribute(struct df_bootwork *w, const char *busdrv)
{
	return strv_push(&w->attributed_keys, busdrv);
}

/*
 * How a built-in module ranks: BOUND when a denied driver of it drives a
 * device the host offers; -1 when its denied drivers drive only devices the
 * kernel creates itself (*@own names one); else by bus.
 */
static int builtin_tier(struct df_bootwork *w, const struct builtin *m, const char **own)
{
	bool host_device = false, own_device = false, on_host_bus = false;

	for (size_t i = 0; i < m->device_drivers.n; i++) {
		const struct df_bus *bus = NULL;
		const struct df_driver *drv =
			df_bootopts_inv_driver(w->inv, m->device_drivers.v[i], &bus);
		const char *name = m->device_drivers.v[i];
		size_t buslen = strcspn(name, ":");
		char busname[DF_NAME_MAX + 1];

		snprintf(busname, sizeof(busname), "%.*s", (int)buslen, name);
		on_host_bus |= df_bootopts_host_bus(busname);
		for (size_t k = 0; drv && k < drv->ndevices; k++) {
			const struct df_device *dev = bus_device(bus, drv->devices[k]);

			if (streq(bus->name, "platform") && !(dev && dev->firmware_node)) {
				own_device = true;
				*own = drv->devices[k];
			} else if (df_bootopts_host_bus(bus->name)) {
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
_printf_(4, 5) static int uncover_all(struct df_bootwork *w, const struct builtin *m, int tier,
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
			r = df_bootopts_add_uncovered(w, m->device_drivers.v[i], false,
						      tier < 0 ? DF_TIER_OTHER_BUS
							       : (enum df_bootopt_tier)tier,
						      "%s", reason);
	return r;
}

/* Account for every driver @m registered; *@allowed names one it registers that is allowed. */
static int attribute_drivers(struct df_bootwork *w, struct builtin *m, const char **allowed)
{
	int r = 0;

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
			r = df_bootopts_add_uncovered(
				w, drv, false, DF_TIER_OTHER_BUS,
				"registered by %s (module %s) at init level %s; only "
				"device-level init calls are skipped",
				fn, m->module, level);
		if (!driver_denied(w->p, drv))
			*allowed = drv;
	}
	return r;
}

/* The device-level init calls of @m as options of rank @tier. */
static int add_initcalls(struct df_bootwork *w, const struct builtin *m, enum df_bootopt_tier tier)
{
	for (size_t i = 0; i < m->device_fns.n; i++) {
		struct strv drivers = STRV_INIT;
		const struct df_trace_call *t = strmap_get(&w->trace.by_fn, m->device_fns.v[i]);
		int r = push_all(&drivers, &t->drivers);

		if (r >= 0 && !df_bootopts_add_entry(w, DF_BOOTOPT_INITCALL, tier,
						     m->device_fns.v[i], m->module, &drivers))
			r = -ENOMEM;
		strv_release(&drivers);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The last test: no loadable module's init function is (or may be) named as one of @m's calls. */
static int judge_names(struct df_bootwork *w, const struct builtin *m, int tier)
{
	int r = df_bootopts_read_module_inits(w);

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
	return add_initcalls(w, m, (enum df_bootopt_tier)tier);
}

/* The options of one built-in module, or why its denied drivers are not covered. */
static int judge_builtin(struct df_bootwork *w, struct builtin *m)
{
	const char *allowed = NULL, *own = NULL;
	bool any_denied = false;
	int tier, r;

	r = attribute_drivers(w, m, &allowed);
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
	return judge_names(w, m, tier);
}

int df_bootopts_builtin_options(struct df_bootwork *w)
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
int df_bootopts_unattributed_builtins(struct df_bootwork *w)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < w->attributed_keys.n; i++)
		if (strmap_put(&w->attributed, w->attributed_keys.v[i], w, NULL) == -ENOMEM)
			r = -ENOMEM;
	for (size_t i = 0; r >= 0 && w->inv && i < w->inv->nbuses; i++) {
		const struct df_bus *bus = &w->inv->buses[i];

		for (size_t j = 0; r >= 0 && j < bus->ndrivers; j++) {
			const struct df_driver *drv = &bus->drivers[j];
			enum df_bootopt_tier tier =
				drv->ndevices && df_bootopts_host_bus(bus->name) ? DF_TIER_BOUND
				: df_bootopts_host_bus(bus->name)		 ? DF_TIER_HOST_BUS
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
				r = df_bootopts_add_uncovered(w, key, false, tier, "%s",
							      w->b->trace_why);
			else
				r = df_bootopts_add_uncovered(
					w, key, false, tier,
					"no built-in init call of the trace registered it "
					"(the driver core did, or a call the trace lacks)");
		}
	}
	return r;
}
