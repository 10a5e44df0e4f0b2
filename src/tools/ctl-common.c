// SPDX-License-Identifier: GPL-2.0-only
/* Loading the policy and printing diagnostics, for every verb. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"

void ctl_json_init(struct json *j)
{
	json_init(j, stdout, arg_json == JSON_PRETTY);
}

char *ctl_policy_path(void)
{
	if (arg_policy)
		return strdup(arg_policy);
	return df_ctx_path(ctl_ctx, DRVFILTER_POLICY_PATH);
}

unsigned ctl_load_flags(void)
{
	/*
	 * Fixture trees belong to whoever runs the tests. The system's policy
	 * is a set: its drop-ins, and the runtime ones; a policy named with
	 * --policy brings its own drop-ins only.
	 */
	return (arg_sysroot ? DF_LOAD_ANY_OWNER : 0) | DF_LOAD_DROPINS |
	       (arg_policy ? 0 : DF_LOAD_RUNTIME);
}

void ctl_print_diags(const struct df_diags *d, FILE *f, bool errors_only)
{
	size_t total = errors_only ? d->errors : d->errors + d->warnings, shown = 0;

	for (size_t i = 0; i < d->count; i++) {
		const struct df_diag *g = &d->items[i];

		if (errors_only && g->severity != DF_ERROR)
			continue;
		shown++;
		if (g->line)
			fprintf(f, "%s:%u: %s: %s\n", df_diag_file(d, g), g->line,
				df_severity_name(g->severity), g->message);
		else
			fprintf(f, "%s: %s: %s\n", df_diag_file(d, g),
				df_severity_name(g->severity), g->message);
	}
	if (total > shown)
		fprintf(f, "%s: %zu more problems not shown\n", d->file, total - shown);
}

int ctl_load_policy(struct df_policy **ret)
{
	_cleanup_free_ char *path = ctl_policy_path();
	struct df_diags d;
	int r;

	if (!path)
		return EXIT_ERROR;
	df_diags_init(&d);
	r = df_policy_load(ctl_ctx, path, ctl_load_flags(), &d, ret);
	if (r < 0) {
		/* Only the errors: warnings are check's business. */
		ctl_print_diags(&d, stderr, true);
		if (r == -ENOMEM)
			log_oom();
		log_error("the policy is not valid; at boot it would fail closed (every driver not "
			  "yet bound denied)");
	}
	df_diags_release(&d);
	return r < 0 ? EXIT_ERROR : EXIT_FINE;
}
