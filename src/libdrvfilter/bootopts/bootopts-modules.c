// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loadable modules' judgement: their init functions (a built-in init
 * call named as one cannot be skipped), and whether module_blacklist= can
 * name a module whose drivers are all denied or why it stays uncovered.
 */
#include <errno.h>
#include <stdio.h>
#include <strings.h>

#include "bootopts/bootopts-private.h"
#include "strv.h"

/* ---- loadable modules' init functions, for name collisions ---- */

/* modules.initfn of a recording: "MODULE FUNCTION" lines, for trees without the module files. */
static int read_initfn_index(struct df_bootwork *w, struct strmap *index, struct strv *keys)
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
int df_bootopts_read_module_inits(struct df_bootwork *w)
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

/* ---- loadable modules ---- */

/*
 * Allowed exact names nothing resolves (no registered driver, no module of
 * that name) on @bus: a module not loaded may be what provides them.
 */
static const char *unresolved_allowed(struct df_bootwork *w, const char *bus)
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
			    df_bootopts_inv_driver(w->inv, key, NULL))
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

static int find_device_modules(struct df_bootwork *w)
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

int df_bootopts_module_options(struct df_bootwork *w)
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
			r = df_bootopts_add_uncovered(w, mi->name, true, tier,
						      "its name holds bytes a command line cannot");
		else if (mi->dependents)
			r = df_bootopts_add_uncovered(
				w, mi->name, true, tier,
				"%zu other modules need it (a bus or library they build "
				"on): refusing it would refuse them",
				mi->dependents);
		else if (why)
			r = df_bootopts_add_uncovered(
				w, mi->name, true, tier,
				"it may provide the allowed driver '%s', which no module "
				"or registered driver is named after",
				why);
		else if (!df_bootopts_add_entry(w, DF_BOOTOPT_MODULE, tier, mi->name, mi->name,
						&mi->drivers))
			r = -ENOMEM;
	}
	return r;
}
