// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fallback mode knows a module that is not loaded by its name only. A policy
 * name that is neither a registered driver nor a module's name cannot be
 * tied to a module before it loads: say so, once per name.
 */
#include <errno.h>
#include <stdio.h>

#include <libkmod.h>

#include "enforce/enforce-private.h"

static bool driver_registered(const struct df_inventory *inv, const char *bus, const char *name)
{
	const struct df_bus *b = df_inventory_bus(inv, bus);

	return b && df_bus_driver(b, name);
}

int df_policy_fallback_notes(const struct df_policy *p, const struct df_inventory *inv,
			     struct df_modules *m, struct df_diags *diags)
{
	for (size_t i = 0; i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];

		if (e->any_bus)
			continue;
		for (size_t j = 0; j < e->nrules; j++) {
			const struct df_rule *r = &e->rules[j];
			char modname[DF_NAME_MAX + 1];
			int ret;

			if (streq(r->name, "ALL") || df_name_is_glob(r->name) ||
			    driver_registered(inv, e->key, r->name))
				continue;
			if (df_modname_normalize(r->name, modname) == 0 &&
			    df_modules_exists(m, modname))
				continue;
			if (e->section == DF_SECTION_ALLOW)
				ret = df_diags_add(
					diags, DF_WARNING, e->line,
					"[allow] %s = %s: no driver of this name is "
					"registered and no module has it; in fallback "
					"mode a module named otherwise that provides it is "
					"blacklisted: allow the module's name too",
					e->key, r->name);
			else
				ret = df_diags_add(
					diags, DF_WARNING, e->line,
					"[deny] %s = %s: no driver of this name is "
					"registered and no module has it; fallback mode "
					"cannot blacklist its module, only unbind it once it "
					"binds",
					e->key, r->name);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}
