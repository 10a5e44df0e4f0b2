// SPDX-License-Identifier: GPL-2.0-only
/* Compiled rule sets and the decision. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "array.h"
#include "policy/policy-private.h"

static int busrules_add(struct df_busrules *br, const struct df_rule *r)
{
	if (streq(r->name, "ALL")) {
		if (br->all)
			return -EEXIST;
		br->all = r;
		return 0;
	}
	if (!df_name_is_glob(r->name))
		return strmap_put(&br->exact, r->name, (void *)r, NULL);
	for (size_t i = 0; i < br->nglobs; i++)
		if (streq(br->globs[i]->name, r->name))
			return -EEXIST;
	if (!ARRAY_GROW(br->globs, br->capglobs, br->nglobs))
		return -ENOMEM;
	br->globs[br->nglobs++] = r;
	return 0;
}

static void busrules_release(struct df_busrules *br)
{
	strmap_release(&br->exact);
	free(br->globs);
}

int df_ruleset_add(struct df_ruleset *set, const struct df_rule *r, bool any_bus)
{
	struct df_busrules *br;

	if (any_bus)
		return busrules_add(&set->any, r);
	br = strmap_get(&set->buses, r->key);
	if (!br) {
		int ret;

		br = calloc(1, sizeof(*br));
		if (!br)
			return -ENOMEM;
		ret = strmap_put(&set->buses, r->key, br, NULL);
		if (ret < 0) {
			free(br);
			return ret;
		}
	}
	return busrules_add(br, r);
}

void df_ruleset_release(struct df_ruleset *set)
{
	for (size_t i = 0; i < set->buses.cap; i++) {
		struct df_busrules *br = set->buses.slots[i].value;

		if (br) {
			busrules_release(br);
			free(br);
		}
	}
	strmap_release(&set->buses);
	busrules_release(&set->any);
}

const struct df_rule *df_busrules_match(const struct df_busrules *br, const char *driver)
{
	const struct df_rule *r = strmap_get(&br->exact, driver);

	if (r)
		return r;
	for (size_t i = 0; i < br->nglobs; i++)
		if (df_glob_match(br->globs[i]->name, driver))
			return br->globs[i];
	return br->all;
}

const struct df_rule *df_ruleset_match(const struct df_ruleset *set, const char *bus,
				       const char *driver)
{
	const struct df_busrules *br = bus ? strmap_get(&set->buses, bus) : NULL;
	const struct df_rule *r = br ? df_busrules_match(br, driver) : NULL;

	return r ? r : df_busrules_match(&set->any, driver);
}

int df_devrules_add(struct strmap *map, const struct df_rule *r)
{
	_cleanup_free_ char *key = NULL;
	struct df_devrules *d;

	if (asprintf(&key, "%s:%s", r->key, r->name) < 0)
		return -ENOMEM;
	d = strmap_get(map, key);
	if (!d) {
		int ret;

		d = calloc(1, sizeof(*d));
		if (!d)
			return -ENOMEM;
		d->key = TAKE_PTR(key);
		ret = strmap_put(map, d->key, d, NULL);
		if (ret < 0) {
			free(d->key);
			free(d);
			return ret;
		}
	}
	for (size_t i = 0; i < d->n; i++)
		if (strcasecmp(d->v[i]->device, r->device) == 0)
			return -EEXIST;
	if (!ARRAY_GROW(d->v, d->cap, d->n))
		return -ENOMEM;
	d->v[d->n++] = r;
	return 0;
}

void df_devrules_release(struct strmap *map)
{
	for (size_t i = 0; i < map->cap; i++) {
		struct df_devrules *d = map->slots[i].value;

		if (d) {
			free(d->v);
			free(d->key);
			free(d);
		}
	}
	strmap_release(map);
}

/* The device rules of @driver on @bus (@key: the bus in lower case), or NULL. */
static const struct df_devrules *devrules_of(const struct df_policy *p, const char *key,
					     const char *driver)
{
	char k[2 * DF_NAME_MAX + 2];

	if (!p->devrules.count || !key || strlen(key) + strlen(driver) + 2 > sizeof(k))
		return NULL;
	snprintf(k, sizeof(k), "%s:%s", key, driver);
	return strmap_get(&p->devrules, k);
}

void df_policy_bus_init(const struct df_policy *p, const char *bus, struct df_policy_bus *pb)
{
	size_t n = strlen(bus);

	pb->p = p;
	pb->key = NULL;
	pb->allow = pb->deny = NULL;
	/* Policy keys are lower case (iniparser folds them); a longer name matches no key. */
	if (n > DF_NAME_MAX)
		return;
	for (size_t i = 0; i <= n; i++)
		pb->lower[i] = (char)tolower((unsigned char)bus[i]);
	pb->key = pb->lower;
	pb->allow = strmap_get(&p->allow.buses, pb->key);
	pb->deny = strmap_get(&p->deny.buses, pb->key);
}

/* df_ruleset_match() with the bus's rules of the set found already (@br, or NULL). */
static const struct df_rule *set_match(const struct df_ruleset *set, const struct df_busrules *br,
				       const char *driver)
{
	const struct df_rule *r = br ? df_busrules_match(br, driver) : NULL;

	return r ? r : df_busrules_match(&set->any, driver);
}

static const struct df_devrules *decide_on(const struct df_policy_bus *pb, const char *driver,
					   struct df_verdict *v)
{
	const struct df_policy *p = pb->p;
	const struct df_devrules *d;
	const struct df_rule *r;

	r = set_match(&p->allow, pb->allow, driver);
	if (r) {
		*v = (struct df_verdict){ true, r, false };
		return NULL;
	}
	/* Allowed, but only for the devices its device rules name: before deny, as allow is. */
	d = devrules_of(p, pb->key, driver);
	if (d) {
		*v = (struct df_verdict){ true, d->v[0], true };
		return d;
	}
	r = set_match(&p->deny, pb->deny, driver);
	if (r) {
		*v = (struct df_verdict){ false, r, false };
		return NULL;
	}
	*v = (struct df_verdict){ p->default_allows, &p->default_rule, false };
	return NULL;
}

static const struct df_devrules *decide(const struct df_policy *p, const char *bus,
					const char *driver, struct df_verdict *v)
{
	struct df_policy_bus pb;

	df_policy_bus_init(p, bus, &pb);
	return decide_on(&pb, driver, v);
}

void df_policy_decide(const struct df_policy *p, const char *bus, const char *driver,
		      struct df_verdict *v)
{
	(void)decide(p, bus, driver, v);
}

void df_policy_decide_on(const struct df_policy_bus *pb, const char *driver, struct df_verdict *v)
{
	(void)decide_on(pb, driver, v);
}

void df_policy_decide_device(const struct df_policy *p, const char *bus, const char *driver,
			     const struct df_device_id *id, struct df_verdict *v)
{
	const struct df_devrules *d = decide(p, bus, driver, v);

	if (!d)
		return;
	for (size_t i = 0; id && i < d->n; i++)
		if (df_device_match(d->v[i]->device, id)) {
			v->rule = d->v[i];
			return;
		}
	v->allowed = false;
}

bool df_policy_has_device_rules(const struct df_policy *p)
{
	return p->devrules.count > 0;
}

char *df_rule_describe(const struct df_rule *r)
{
	static const char *const sections[] = {
		[DF_SECTION_ALLOW] = "allow",
		[DF_SECTION_DENY] = "deny",
		[DF_SECTION_FILTER] = "filter",
	};
	char *s;

	if (r->section == DF_SECTION_FILTER && streq(r->key, "fail-closed"))
		return strdup("fail closed: the policy is not valid");
	if (asprintf(&s, "[%s] %s = %s%s%s%s", sections[r->section], r->key, r->name,
		     r->device ? "@" : "", r->device ? r->device : "",
		     r->line == 0 ? " (implicit)" : "") < 0)
		return NULL;
	return s;
}
