// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warnings about rules that are valid but surprising: a driver both allowed and
 * denied (allow wins), a deny rule that an allow rule always overrides, and
 * buses the policy names that this machine does not have.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "drvfilter-private.h"

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

int df_policy_lint(const struct df_policy *p, struct df_diags *diags)
{
	int ret = lint_devrules(p, diags);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];

		if (e->section != DF_SECTION_DENY)
			continue;
		for (size_t j = 0; j < e->nrules; j++) {
			const struct df_rule *d = &e->rules[j], *a = covering_allow(p, e, d);
			char at[PATH_MAX + 16];
			int r;

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
	return df_diags_set_file(diags, NULL);
}

int df_policy_check_system(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/sys/bus");
	_cleanup_close_ int dfd = -1;

	if (!path)
		return -ENOMEM;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		/* No sysfs (a chroot building an image): nothing to compare with. */
		df_dbg(ctx, "cannot open '%s': %m; bus names not checked", path);
		return 0;
	}
	for (size_t i = 0; i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];
		int r;

		if (e->any_bus || faccessat(dfd, e->key, F_OK, 0) == 0 || errno != ENOENT)
			continue;
		r = df_diags_add(diags, DF_WARNING, e->line, "this machine has no bus '%s' (%s/%s)",
				 e->key, path, e->key);
		if (r < 0)
			return r;
	}
	df_diags_sort(diags);
	return 0;
}
