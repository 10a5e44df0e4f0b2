// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the policy loader (what `check` runs), the decision and
 * the kernel options; see fuzz.h for how it is built and replayed. Besides
 * "no crash, no sanitizer report" it checks that every refused policy says
 * why, and that every verdict names a rule from the list that decided it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "drvfilter.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-policy", what);
}

static void check_verdicts(const struct df_policy *p)
{
	static const char *const subjects[][2] = {
		{ "pci", "e1000" },	{ "PCI", "virtio-pci" }, { "virtio", "virtio_net" },
		{ "pnp", "i8042 kbd" }, { "usb", "usbhid" },	 { "all", "ALL" },
	};

	for (size_t i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++) {
		struct df_verdict v;

		df_policy_decide(p, subjects[i][0], subjects[i][1], &v);
		if (!v.rule)
			fail("a verdict without a rule");
		if (v.rule->section == DF_SECTION_ALLOW && !v.allowed)
			fail("denied by an [allow] rule");
		if (v.rule->section == DF_SECTION_DENY && v.allowed)
			fail("allowed by a [deny] rule");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root = fuzz_sysroot_file("drvfilter.conf", data, size);
	char path[256];
	struct df_policy *p = NULL;
	struct df_diags d;
	struct df_ctx *ctx;
	char *options = NULL;
	int r;

	snprintf(path, sizeof(path), "%s/drvfilter.conf", root);
	if (df_ctx_new(NULL, &ctx) < 0)
		fail("no context");
	df_diags_init(&d);
	r = df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, &d, &p);
	if (r < 0 && r != -ENOMEM && d.errors == 0)
		fail("a policy refused without an error message");
	if (r == 0) {
		if (d.errors != 0)
			fail("a policy loaded despite errors");
		check_verdicts(p);
		r = df_policy_kernel_options(p, &options);
		/* -EINVAL: a name holds '$', which no boot option can carry through GRUB. */
		if (r < 0 && r != -E2BIG && r != -ENOMEM && r != -EINVAL)
			fail("kernel options failed");
		free(options);
	}
	df_policy_free(p);
	df_diags_release(&d);
	df_ctx_unref(ctx);
	return 0;
}
