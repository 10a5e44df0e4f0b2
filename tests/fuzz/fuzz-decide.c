// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the decision with a fuzzed policy and fuzzed names. The
 * input is "BUS\nDRIVER\nPOLICY...". Every verdict must name a rule of the
 * list that decided it, and an explicit rule must really match: its key is
 * the bus (in any case) or ALL, its name the driver, a glob matching it, or
 * ALL. The same question asked twice, or with the bus in other case, gets
 * the same answer.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "drvfilter.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-decide", what);
}

static void check(const struct df_policy *p, const char *bus, const char *driver)
{
	struct df_verdict v, again, upper;
	char *ubus = strdup(bus);

	if (!ubus)
		fail("out of memory");
	for (char *c = ubus; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	df_policy_decide(p, bus, driver, &v);
	df_policy_decide(p, bus, driver, &again);
	df_policy_decide(p, ubus, driver, &upper);
	free(ubus);
	if (!v.rule)
		fail("a verdict without a rule");
	if (v.allowed != again.allowed || v.rule != again.rule)
		fail("the same question, two answers");
	if (v.allowed != upper.allowed)
		fail("the bus's case changed the answer");
	if (v.rule->section == DF_SECTION_ALLOW && !v.allowed)
		fail("denied by an [allow] rule");
	if (v.rule->section == DF_SECTION_DENY && v.allowed)
		fail("allowed by a [deny] rule");
	if (v.rule->section == DF_SECTION_FILTER)
		return;
	if (strcmp(v.rule->key, "ALL") != 0 && strcasecmp(v.rule->key, bus) != 0)
		fail("a rule of another bus");
	if (strcmp(v.rule->name, "ALL") != 0 && strcmp(v.rule->name, driver) != 0 &&
	    !df_glob_match(v.rule->name, driver))
		fail("a rule whose name does not match the driver");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = fuzz_strndup(data, size), *bus = in, *driver, *policy;
	struct df_policy *p = NULL;
	struct df_diags d;
	struct df_ctx *ctx;
	char path[256];

	driver = strchr(bus, '\n');
	policy = driver ? strchr(driver + 1, '\n') : NULL;
	if (!policy) {
		free(in);
		return 0;
	}
	*driver++ = '\0';
	*policy++ = '\0';
	snprintf(path, sizeof(path), "%s/drvfilter.conf",
		 fuzz_sysroot_file("drvfilter.conf", (const uint8_t *)policy, strlen(policy)));
	if (df_ctx_new(NULL, &ctx) < 0)
		fail("no context");
	df_diags_init(&d);
	if (df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, &d, &p) == 0) {
		check(p, bus, driver);
		check(p, driver, bus);
	}
	df_policy_free(p);
	df_diags_release(&d);
	df_ctx_unref(ctx);
	free(in);
	return 0;
}
