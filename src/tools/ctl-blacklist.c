// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl blacklist: the policy as a modprobe.d file for a module tree
 * (the running kernel's, or the one under --sysroot): the modules that
 * provide only denied drivers, in the lines fallback mode writes at boot.
 * dracut's module puts it into the initramfs, where it holds from the first
 * instant, before anything (systemd itself) loads a module and before
 * drvfilter-apply runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strv.h"

static int run(int argc, char **argv)
{
	struct df_policy *p = NULL;
	struct df_modules *m = NULL;
	char **mods = NULL;
	char esc[DF_ESC_SIZE];
	char *notes = NULL, *text = NULL;
	size_t n = 0, bad = 0;
	bool audit;
	int r, ret;

	ret = ctl_load_policy(&p);
	if (ret != EXIT_FINE)
		return ret;
	r = df_modules_open(ctl_ctx, &m);
	if (r == -ENOENT) {
		log_error("there is no module tree for this kernel in /lib/modules");
		ret = EXIT_ERROR;
		goto out;
	}
	if (r >= 0)
		r = df_modules_blacklist(m, p, &mods, &n);
	if (r < 0) {
		log_error_errno(r, "cannot read the module aliases: %m");
		ret = EXIT_ERROR;
		goto out;
	}
	/* Audit mode enforces nothing, at boot neither: no module is kept out. */
	audit = df_policy_mode(p) == DF_MODE_AUDIT;
	for (size_t i = 0; !audit && i < n; i++) {
		/* A blank in a name would make an install line run a command: names only. */
		if (df_modname_check(mods[i]) < 0) {
			log_error("not a module name, left out: '%s'", df_esc(mods[i], esc));
			bad++;
		}
	}
	if (asprintf(&notes, "# for %s, %zu modules with device aliases or loaded.\n%s",
		     df_modules_dir(m), df_modules_known(m),
		     audit ? "# mode = audit: nothing is blacklisted.\n"
			   : "# Modules that provide only denied drivers.\n") < 0) {
		notes = NULL; /* asprintf() leaves it undefined when it fails */
		ret = ctl_oom();
		goto out;
	}
	if (df_blacklist_text("drvfilterctl blacklist", df_policy_path(p), df_policy_sha256(p),
			      notes, mods, audit ? 0 : n, &text) < 0) {
		ret = ctl_oom();
		goto out;
	}
	fputs(text, stdout);
	if (bad)
		ret = EXIT_ERROR;
out:
	free(notes);
	free(text);
	strv_free_array(mods, n);
	df_modules_free(m);
	df_policy_free(p);
	return ret;
}

const struct ctl_verb ctl_verb_blacklist = {
	.name = "blacklist",
	.summary = "print the modprobe.d blacklist for this kernel's modules",
	.common = CTL_POLICY | CTL_SYSROOT,
	.run = run,
};
