// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ranking of the options (by tier, then by the buses of their drivers)
 * and the option line: the filter_* options, then initcall_blacklist= and
 * module_blacklist= strictly in rank order, as far as the budget goes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bootopts/bootopts-private.h"
#include "strbuf.h"

/* ---- ranking and the budget ---- */

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

/* The bus @bus is one whose devices the host offers. */
bool df_bootopts_host_bus(const char *bus)
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

static int min_bus_rank(const struct df_modinfo *mi)
{
	int best = 99;

	for (size_t i = 0; i < mi->buses.n; i++)
		if (bus_rank(mi->buses.v[i]) < best)
			best = bus_rank(mi->buses.v[i]);
	return best;
}

static int cmp_entry(const void *a, const void *b, void *data)
{
	const struct df_bootopt *x = a, *y = b;
	struct df_bootwork *w = data;

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

/* Sort the options by rank, and the uncovered by subject. */
void df_bootopts_rank(struct df_bootwork *w)
{
	struct df_bootopts *b = w->b;

	if (b->nentries > 1)
		qsort_r(b->entries, b->nentries, sizeof(*b->entries), cmp_entry, w);
	if (b->nuncovered > 1)
		qsort(b->uncovered, b->nuncovered, sizeof(*b->uncovered), cmp_uncovered);
}

int df_bootopts_build_line(struct df_bootopts *b, const char *filter)
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
