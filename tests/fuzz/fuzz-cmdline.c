// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the kernel command line, both directions.
 *
 * The input as a policy: the boot options generated from it fit the kernel's
 * command line unless -E2BIG says otherwise, are printable ASCII, and split
 * back (as the kernel splits them) into exactly the two lists written to
 * /sys/kernel/driver_filter; they never read as drvfilter=off. Each option is
 * quoted whole, holds no '$' (which GRUB would expand), and the deny option
 * comes first. Every device rule is in the allow list as DRIVER@ID, and no
 * '@' is anywhere else.
 *
 * The input as a command line: drvfilter=off is never found where the text
 * has no "drvfilter=", and always found as the first parameter when no other
 * drvfilter= follows (the last one counts).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drvfilter.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-cmdline", what);
}

/*
 * Split @options at blanks outside quotes; the value of @name without its
 * quotes, or NULL. *@pos is where the option starts (the kernel drops a quote
 * around the whole parameter, so the name may follow one).
 */
static char *option_value(const char *options, const char *name, size_t *pos)
{
	size_t nlen = strlen(name);
	const char *s = options;

	while (*s) {
		const char *start = s, *param = s + (*s == '"');
		bool quoted = false;
		char *v, *o;

		for (; *s && (quoted || *s != ' '); s++)
			if (*s == '"')
				quoted = !quoted;
		if ((size_t)(s - param) > nlen && !strncmp(param, name, nlen) &&
		    param[nlen] == '=') {
			if (*start != '"' || s[-1] != '"' ||
			    memchr(start + 1, '"', (size_t)(s - start - 2)))
				fail("an option not quoted whole");
			*pos = (size_t)(start - options);
			start = param;
			v = malloc((size_t)(s - start));
			if (!v)
				fail("out of memory");
			o = v;
			for (const char *c = start + nlen + 1; c < s; c++)
				if (*c != '"')
					*o++ = *c;
			*o = '\0';
			return v;
		}
		while (*s == ' ')
			s++;
	}
	return NULL;
}

/* The kernel takes device rules as DRIVER@ID, in its allow list only. */
static void check_device_rules(const struct df_policy *p, const char *allow, const char *deny)
{
	size_t rules = 0, ats = 0;

	for (const char *c = allow; *c; c++)
		ats += *c == '@';
	for (size_t i = 0; i < df_policy_nrules(p); i++) {
		const struct df_rule *r = df_policy_rule(p, i);
		char *s;

		if (!r->device)
			continue;
		rules++;
		if (asprintf(&s, "%s@%s", r->name, r->device) < 0)
			fail("out of memory");
		if (!strstr(allow, s))
			fail("a device rule not in the kernel's allow list as DRIVER@ID");
		free(s);
	}
	if (ats != rules || strchr(deny, '@'))
		fail("an '@' in the kernel's lists that is not a device rule's");
}

static void check_options(const struct df_policy *p)
{
	char *options = NULL, *allow = NULL, *deny = NULL, *a, *d, *copy;
	int r = df_policy_kernel_options(p, &options);
	size_t apos = 0, dpos = 0;

	if (r == -ENOMEM)
		return;
	/* Refused: a name holds '$'. */
	if (r == -EINVAL) {
		if (options)
			fail("options returned with -EINVAL");
		return;
	}
	if (r < 0 && r != -E2BIG)
		fail("kernel options failed");
	if ((r == -E2BIG) != (strlen(options) + 1 > DF_KERNEL_CMDLINE_MAX))
		fail("-E2BIG does not say whether the options fit");
	for (const char *c = options; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			fail("a byte that is not printable ASCII in the options");
	if (df_policy_kernel_lists(p, &allow, &deny) < 0)
		fail("kernel lists failed");
	a = option_value(options, "filter_allow_drivers", &apos);
	d = option_value(options, "filter_deny_drivers", &dpos);
	if (strcmp(a ? a : "", allow) != 0 || strcmp(d ? d : "", deny) != 0)
		fail("the options do not split back into the kernel's lists");
	check_device_rules(p, allow, deny);
	if (a && d && dpos > apos)
		fail("the allow option before the deny option");
	if (strchr(options, '$'))
		fail("a '$' in the options");
	copy = strdup(options);
	if (!copy)
		fail("out of memory");
	if (df_cmdline_has_override(copy))
		fail("generated options read as drvfilter=off");
	free(copy);
	free(a);
	free(d);
	free(allow);
	free(deny);
	free(options);
}

static void check_override(const uint8_t *data, size_t size)
{
	char *line = fuzz_strndup(data, size), *first;
	/* Before the parser cuts @line up in place. */
	bool has = strstr(line, "drvfilter=") != NULL, any = strstr(line, "drvfilter") != NULL;

	if (df_cmdline_has_override(line) && !has)
		fail("drvfilter=off found where the text has none");
	first = malloc(size + sizeof("drvfilter=off "));
	if (!first)
		fail("out of memory");
	memcpy(first, "drvfilter=off ", 14);
	memcpy(first + 14, data, size);
	first[14 + size] = '\0';
	/* The last drvfilter counts: the first is found when no other one follows. */
	if (!any && df_cmdline_has_override(first) != 1)
		fail("drvfilter=off as the first parameter not found");
	free(first);
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root = fuzz_sysroot_file("drvfilter.conf", data, size);
	struct df_policy *p = NULL;
	struct df_diags d;
	struct df_ctx *ctx;
	char path[256];

	snprintf(path, sizeof(path), "%s/drvfilter.conf", root);
	if (df_ctx_new(NULL, &ctx) < 0)
		fail("no context");
	df_diags_init(&d);
	if (df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, &d, &p) == 0)
		check_options(p);
	df_policy_free(p);
	df_diags_release(&d);
	df_ctx_unref(ctx);
	check_override(data, size);
	return 0;
}
