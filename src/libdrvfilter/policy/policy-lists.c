// SPDX-License-Identifier: GPL-2.0-only
/*
 * The [allow] and [deny] lists: "bus = driver, driver@ID, ..." split into
 * rules, each name and device rule checked, and the entries of a file's
 * sections in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "array.h"
#include "policy/policy-private.h"
#include "strbuf.h"

static const char *const sections[] = { "allow", "deny", "filter" };

static void trim_blanks(char **s)
{
	char *e;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	e = *s + strlen(*s);
	while (e > *s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
}

/*
 * DRIVER@ID: only in [allow] (it says which devices an allowed driver may
 * take), for one driver by its name, with an ID of its bus's form.
 */
static int check_device_rule(const struct df_entry *e, const char *name, const char *device,
			     struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why;
	int r = 0;

	if (e->section != DF_SECTION_ALLOW)
		r = df_diags_add(diags, DF_ERROR, e->line,
				 "a device rule (DRIVER@ID) belongs in [allow]: it says which "
				 "devices an allowed driver may take");
	else if (e->any_bus)
		r = df_diags_add(diags, DF_ERROR, e->line,
				 "a device rule needs its bus: write it under the bus's key, not "
				 "ALL");
	else if (!*name || streq(name, "ALL") || df_name_is_glob(name))
		r = df_diags_add(diags, DF_ERROR, e->line,
				 "a device rule names one driver (no glob, not ALL) before '@'");
	else if (df_device_pattern_check(e->key, device, &why) < 0 &&
		 (r = df_quote(&sb, device)) >= 0)
		r = df_diags_add(diags, DF_ERROR, e->line, "invalid device ID '%s' for %s: it %s",
				 strbuf_str(&sb), e->key, why);
	strbuf_release(&sb);
	return r;
}

/* Split @e->names at commas into rules; every problem is an error on @line. */
static int parse_list(struct df_entry *e, struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 1;
	char *s, *next;
	int r = 0;

	for (s = e->names; *s; s++)
		n += *s == ',';
	e->rules = calloc(n, sizeof(*e->rules));
	if (!e->rules)
		return -ENOMEM;
	for (s = e->names; s && r >= 0; s = next) {
		const char *why;
		char *name, *device;

		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		name = s;
		trim_blanks(&name);
		device = strchr(name, '@');
		if (device) {
			*device++ = '\0';
			trim_blanks(&name);
			trim_blanks(&device);
			r = check_device_rule(e, name, device, diags);
			if (r < 0)
				break;
		}
		if (*name == '\0') {
			r = df_diags_add(
				diags, DF_ERROR, e->line,
				n == 1 ? "empty list for %s (write ALL, or remove the line)"
				       : "empty name in the list for %s (two commas, or a "
					 "comma at an end)",
				e->key);
			break;
		}
		if (streq(name, "ALL")) {
			if (n > 1)
				r = df_diags_add(diags, DF_ERROR, e->line,
						 "ALL mixed with other names for %s: ALL alone "
						 "already means every driver",
						 e->key);
		} else if (strcasecmp(name, "all") == 0) {
			r = df_quote(&sb, name);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, e->line,
						 "'%s' is not the wildcard: write ALL in capitals "
						 "(driver names are case-sensitive)",
						 strbuf_str(&sb));
		} else if (df_driver_name_check(name, &why) < 0) {
			r = df_quote(&sb, name);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, e->line,
						 "invalid driver name '%s': it %s", strbuf_str(&sb),
						 why);
		}
		e->rules[e->nrules++] =
			(struct df_rule){ e->section, e->key, name, e->line, e->file, device };
	}
	strbuf_release(&sb);
	return r;
}

static int load_list_key(struct df_policy *p, const char *file, enum df_section section,
			 const char *key, const char *val, unsigned line, struct df_diags *diags)
{
	struct df_entry *e;
	const char *why;
	int r;

	/*
	 * "default = deny" under [allow] would be read as a bus named "default"
	 * whose driver "deny" is allowed, and [filter]'s default stay allow: no
	 * bus has these names, so each is the [filter] setting misplaced.
	 */
	if (df_filter_setting_key(key))
		return df_diags_add(diags, DF_ERROR, line,
				    "'%s' is a setting of [filter], not a bus of [%s]: "
				    "move it under [filter]",
				    key, sections[section]);

	e = ARRAY_GROW(p->entries, p->capentries, p->nentries);
	if (!e)
		return -ENOMEM;
	p->nentries++;
	*e = (struct df_entry){ .section = section, .line = line, .file = file };
	e->any_bus = strcasecmp(key, "all") == 0;
	if (!e->any_bus && df_bus_name_check(key, &why) < 0) {
		struct strbuf sb = STRBUF_INIT;

		r = df_quote(&sb, key);
		if (r >= 0)
			r = df_diags_add(diags, DF_ERROR, line, "invalid bus name '%s': it %s",
					 strbuf_str(&sb), why);
		strbuf_release(&sb);
		return r;
	}
	e->key = strdup(e->any_bus ? "ALL" : key);
	e->names = strdup(val);
	if (!e->key || !e->names)
		return -ENOMEM;
	return parse_list(e, diags);
}

/* Build the policy from what the scan of @file read (and iniparser confirmed), entry by entry. */
int df_policy_load_entries(struct df_policy *p, struct df_filter_where *where, const char *file,
			   const struct df_lex *lex, struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	for (size_t i = 0; i < lex->count && r >= 0; i++) {
		const struct df_lex_entry *e = &lex->entries[i];
		const char *colon = strchr(e->id, ':');
		char h[128];
		int sec;

		if (!colon) {
			if (df_word_index(e->id, sections, ARRAY_SIZE(sections)) >= 0)
				continue;
			r = df_quote(&sb, e->id);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, e->line, "unknown section [%s]%s",
						 strbuf_str(&sb),
						 df_word_hint(h, sizeof(h), e->id, sections,
							      ARRAY_SIZE(sections), "[", "]"));
			continue;
		}
		{
			_cleanup_free_ char *secname = strndup(e->id, (size_t)(colon - e->id));

			if (!secname) {
				r = -ENOMEM;
				break;
			}
			sec = df_word_index(secname, sections, ARRAY_SIZE(sections));
		}
		if (sec < 0)
			continue; /* reported with its section */
		if (sec == DF_SECTION_FILTER)
			r = df_policy_filter_key(p, where, file, colon + 1, e->value, e->line,
						 diags);
		else
			r = load_list_key(p, file, (enum df_section)sec, colon + 1, e->value,
					  e->line, diags);
	}
	strbuf_release(&sb);
	return r;
}
