// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl list-changes: the policy's drop-ins, permanent and runtime, and their rules. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "macro.h"

/* The drop-ins of the policy, runtime ones last, each with its rules. */
static int run(int argc, char **argv)
{
	_cleanup_free_ char *policy = ctl_policy_path();
	_cleanup_(df_policy_freep) struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	if (!policy)
		return EXIT_ERROR;
	df_diags_init(&d);
	r = df_policy_load(ctl_ctx, policy, ctl_load_flags(), &d, &p);
	if (r < 0)
		ctl_print_diags(&d, stderr, true);
	df_diags_release(&d);
	if (r < 0)
		return EXIT_ERROR;
	if (df_policy_nfiles(p) == 1) {
		printf("no drop-ins: the policy is %s alone\n", policy);
		return EXIT_FINE;
	}
	for (size_t f = 1; f < df_policy_nfiles(p); f++) {
		const char *file = df_policy_file(p, f);
		_cleanup_free_ char *runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);
		bool rt = runtime && strncmp(file, runtime, strlen(runtime)) == 0;

		printf("%s (%s)\n", file, rt ? "until reboot" : "permanent");
		for (size_t i = 0; i < df_policy_nrules(p); i++) {
			const struct df_rule *rule = df_policy_rule(p, i);
			_cleanup_free_ char *s = NULL;

			if (!streq(rule->file, file))
				continue;
			s = df_rule_describe(rule);
			printf("  line %u: %s\n", rule->line, s ? s : "?");
		}
	}
	return EXIT_FINE;
}

const struct ctl_verb ctl_verb_list_changes = {
	.name = "list-changes",
	.summary = "the policy's drop-ins and their rules",
	.common = CTL_POLICY | CTL_SYSROOT,
	.run = run,
};
