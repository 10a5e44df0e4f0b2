// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy as kernel boot options, in the syntax of the kernel patch:
 * "filter_deny_drivers=ALL:ALL" "filter_allow_drivers=bus:drv1,drv2@ID;bus2:ALL"
 * The kernel decides as df_policy_decide_device() does (allow list first, a
 * driver with device rules allowed for the devices they match, then deny),
 * so "default = deny" becomes a final ALL:ALL deny group, and a device rule
 * is written as it is in the policy, DRIVER@ID.
 *
 * Each option is quoted whole, so that the same text reaches the kernel
 * intact from a UKI's .cmdline (the kernel drops quotes around a whole
 * parameter) and from GRUB's configuration, where ';' would end the command
 * and a blank split the word. The deny option comes first, and whenever the
 * allow option does: a line cut short loses allowed drivers first, and the
 * patched kernel denies every driver for an allow option alone (the EFI stub
 * cuts a long line at a blank) or a line that fills what it keeps.
 *
 * Also the other direction: whether the running kernel's command line says
 * drvfilter=off, split into parameters the way the kernel's parse_args() does.
 */
#include <errno.h>

#include "policy/policy-private.h"
#include "strbuf.h"

/* One name of a list, DRIVER or DRIVER@ID, after a comma unless it is the first. */
static int append_rule(struct strbuf *sb, const struct df_rule *r, bool first)
{
	int k = first ? 0 : strbuf_appendc(sb, ',');

	if (k >= 0)
		k = strbuf_append(sb, r->name);
	if (k >= 0 && r->device)
		k = strbuf_appendc(sb, '@');
	if (k >= 0 && r->device)
		k = strbuf_append(sb, r->device);
	return k;
}

static bool has_entries(const struct df_policy *p, enum df_section section)
{
	for (size_t i = 0; i < p->nentries; i++)
		if (p->entries[i].section == section)
			return true;
	return false;
}

static int append_option(struct strbuf *sb, const struct df_policy *p, enum df_section section)
{
	bool deny_all = section == DF_SECTION_DENY && !p->default_allows;
	bool first = true;
	int r = 0;

	/* Everything is denied anyway: one group says it, and stays short. */
	if (deny_all)
		return strbuf_appendf(sb, "%s\"filter_deny_drivers=ALL:ALL\"", sb->len ? " " : "");

	for (size_t i = 0; i < p->nentries && r >= 0; i++) {
		const struct df_entry *e = &p->entries[i];

		if (e->section != section)
			continue;
		if (first)
			r = strbuf_appendf(sb, "%s\"filter_%s_drivers=", sb->len ? " " : "",
					   section == DF_SECTION_ALLOW ? "allow" : "deny");
		else
			r = strbuf_appendc(sb, ';');
		first = false;
		if (r >= 0)
			r = strbuf_appendf(sb, "%s:", e->key);
		for (size_t j = 0; j < e->nrules && r >= 0; j++) {
			/* GRUB expands '$' even within double quotes; the kernel would not. */
			if (strchr(e->rules[j].name, '$'))
				return -EINVAL;
			r = append_rule(sb, &e->rules[j], j == 0);
		}
	}
	if (r >= 0 && !first)
		r = strbuf_appendc(sb, '"');
	/*
	 * The patched kernel denies every driver when an allow option comes
	 * without a deny option (a loader that cut the line at a blank may
	 * have dropped it): a policy that denies nothing says so, empty.
	 */
	else if (r >= 0 && section == DF_SECTION_DENY && has_entries(p, DF_SECTION_ALLOW))
		r = strbuf_appendf(sb, "%s\"filter_deny_drivers=\"", sb->len ? " " : "");
	return r;
}

int df_policy_kernel_lists(const struct df_policy *p, char **allow, char **deny)
{
	struct strbuf sb[2] = { STRBUF_INIT, STRBUF_INIT };
	int r = 0;

	for (int k = 0; k < 2 && r >= 0; k++) {
		enum df_section section = k ? DF_SECTION_DENY : DF_SECTION_ALLOW;
		bool first = true;

		if (section == DF_SECTION_DENY && !p->default_allows) {
			r = strbuf_append(&sb[k], "ALL:ALL");
			break;
		}
		for (size_t i = 0; i < p->nentries && r >= 0; i++) {
			const struct df_entry *e = &p->entries[i];

			if (e->section != section)
				continue;
			if (!first)
				r = strbuf_appendc(&sb[k], ';');
			if (r >= 0)
				r = strbuf_append(&sb[k], e->key);
			if (r >= 0)
				r = strbuf_appendc(&sb[k], ':');
			first = false;
			for (size_t j = 0; j < e->nrules && r >= 0; j++)
				r = append_rule(&sb[k], &e->rules[j], j == 0);
		}
	}
	if (r >= 0) {
		*allow = strbuf_steal(&sb[0]);
		*deny = strbuf_steal(&sb[1]);
		if (*allow && *deny)
			return 0;
		free(*allow);
		free(*deny);
		return -ENOMEM;
	}
	strbuf_release(&sb[0]);
	strbuf_release(&sb[1]);
	return r;
}

int df_policy_kernel_options(const struct df_policy *p, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	r = append_option(&sb, p, DF_SECTION_DENY);
	if (r >= 0)
		r = append_option(&sb, p, DF_SECTION_ALLOW);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret = strbuf_steal(&sb);
	if (!*ret)
		return -ENOMEM;
	return strlen(*ret) + 1 > DF_KERNEL_CMDLINE_MAX ? -E2BIG : 0;
}
