// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warnings about rules that are valid but surprising: a driver both allowed and
 * denied (allow wins), a deny rule that an allow rule always overrides, a
 * device rule that cannot match, and a measure setting with no TPM driver
 * left to measure with. What needs the target is check/'s.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "policy/policy-private.h"

/* The allow rule that wins over every driver @deny could match, or NULL. */
static const struct df_rule *covering_allow(const struct df_policy *p, const struct df_entry *e,
					    const struct df_rule *deny)
{
	const struct df_busrules *br = e->any_bus ? NULL : strmap_get(&p->allow.buses, e->key);
	bool one_name = !streq(deny->name, "ALL") && !df_name_is_glob(deny->name);

	if (one_name)
		return e->any_bus ? df_busrules_match(&p->allow.any, deny->name)
				  : df_ruleset_match(&p->allow, e->key, deny->name);
	/* A glob or ALL is covered only by an allow rule for every driver of its buses. */
	if (br && br->all)
		return br->all;
	return p->allow.any.all;
}

/* "line N" for a rule of @file, "FILE:N" for one of another file. */
static const char *where_rule(const struct df_rule *r, const char *file, char *buf, size_t size)
{
	if (!r->file || !file || streq(r->file, file))
		snprintf(buf, size, "line %u", r->line);
	else
		snprintf(buf, size, "%s:%u", r->file, r->line);
	return buf;
}

static const char *where(const struct df_rule *r, const struct df_entry *from, char *buf,
			 size_t size)
{
	return where_rule(r, from->file, buf, size);
}

/* Device rules of a driver that a plain allow rule lets take every device: they never apply. */
static int lint_devrules(const struct df_policy *p, struct df_diags *diags)
{
	for (size_t i = 0; i < p->devrules.cap; i++) {
		const struct df_devrules *d = p->devrules.slots[i].value;
		const struct df_rule *first, *a;
		char at[PATH_MAX + 16];
		int r;

		if (!d)
			continue;
		first = d->v[0];
		a = df_ruleset_match(&p->allow, first->key, first->name);
		if (!a)
			continue;
		r = df_diags_set_file(diags, first->file);
		if (r >= 0)
			r = df_diags_add(
				diags, DF_WARNING, first->line,
				"the device rules of %s:%s never apply: [allow] %s = %s (%s) "
				"lets it take every device",
				first->key, first->name, a->key, a->name,
				where_rule(a, first->file, at, sizeof(at)));
		if (r < 0)
			return r;
	}
	return 0;
}

/* The TPM's drivers on the buses they register on (ACPI/PNP firmware, or a platform device). */
static const char *const tpm_drivers[][2] = {
	{ "pnp", "tpm_tis" },
	{ "platform", "tpm_tis" },
	{ "acpi", "tpm_crb" },
	{ "platform", "tpm_crb" },
};

bool df_is_tpm_driver(const char *bus, const char *driver)
{
	for (size_t i = 0; i < ARRAY_SIZE(tpm_drivers); i++)
		if (streq(bus, tpm_drivers[i][0]) && streq(driver, tpm_drivers[i][1]))
			return true;
	return false;
}

/*
 * Measuring needs the TPM's driver: apply detaches a denied driver's
 * devices before it measures, and then there is no TPM left to extend.
 */
static bool denies_every_tpm_driver(const struct df_policy *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(tpm_drivers); i++) {
		struct df_verdict v;

		df_policy_decide(p, tpm_drivers[i][0], tpm_drivers[i][1], &v);
		if (v.allowed)
			return false;
	}
	return true;
}

/* Said in the file: the policy means to measure. (Left out, check_system() looks.) */
static bool measure_set(const struct df_policy *p)
{
	return p->measure != DF_MEASURE_NO && p->measure_line;
}

static int lint_measure(const struct df_policy *p, struct df_diags *diags)
{
	char setting[16];

	if (!measure_set(p) || !denies_every_tpm_driver(p))
		return 0;
	return df_diags_add(diags, DF_WARNING, p->measure_line,
			    "measure = %s, but the policy denies every TPM driver (pnp:tpm_tis, "
			    "platform:tpm_tis, acpi:tpm_crb, platform:tpm_crb): apply would detach "
			    "the TPM before it measures; allow the one this guest uses",
			    df_measure_setting_name(p->measure, p->measure_pcr, setting));
}

int df_policy_lint(const struct df_policy *p, struct df_diags *diags)
{
	int r = lint_devrules(p, diags);

	if (r < 0)
		return r;
	for (size_t i = 0; i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];

		if (e->section != DF_SECTION_DENY)
			continue;
		for (size_t j = 0; j < e->nrules; j++) {
			const struct df_rule *d = &e->rules[j], *a = covering_allow(p, e, d);
			char at[PATH_MAX + 16];

			if (!a)
				continue;
			r = df_diags_set_file(diags, e->file);
			if (r < 0)
				return r;
			if (streq(a->name, "ALL") || streq(d->name, "ALL") ||
			    df_name_is_glob(d->name))
				r = df_diags_add(diags, DF_WARNING, e->line,
						 "[deny] %s = %s can never match: [allow] %s = %s "
						 "(%s) wins over it",
						 d->key, d->name, a->key, a->name,
						 where(a, e, at, sizeof(at)));
			else
				r = df_diags_add(
					diags, DF_WARNING, e->line,
					"%s:%s is both allowed (%s) and denied; allow wins", d->key,
					d->name, where(a, e, at, sizeof(at)));
			if (r < 0)
				return r;
		}
	}
	r = df_diags_set_file(diags, p->measure_file);
	if (r >= 0)
		r = lint_measure(p, diags);
	return r < 0 ? r : df_diags_set_file(diags, NULL);
}
