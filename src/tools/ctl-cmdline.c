// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl cmdline: the policy as kernel boot options, for the patched kernel. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"

int verb_cmdline(int argc, char **argv)
{
	_cleanup_free_ char *options = NULL;
	struct df_policy *p = NULL;
	struct json j;
	int r;

	r = ctl_load_policy(&p);
	if (r)
		return r;
	r = df_policy_kernel_options(p, &options);
	df_policy_free(p);
	if (r == -E2BIG) {
		log_error("the boot options would take %zu bytes, but an x86 kernel command line "
			  "holds at most %d; shorten the lists (globs, ALL) or use the policy file "
			  "alone",
			  strlen(options), DF_KERNEL_CMDLINE_MAX - 1);
		return EXIT_ERROR;
	}
	if (r < 0) {
		log_error_errno(r, "%m");
		return EXIT_ERROR;
	}
	if (arg_json) {
		ctl_json_init(&j);
		json_object_begin(&j);
		json_field_string(&j, "cmdline", options);
		json_object_end(&j);
		json_finish(&j);
	} else if (*options) {
		printf("%s\n", options);
	} else {
		log_info("the policy allows every driver; no boot option is needed");
	}
	return EXIT_FINE;
}
