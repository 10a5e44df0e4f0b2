// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fallback mode, for a kernel without the filter: what userspace can do. A
 * modprobe.d blacklist keeps modules that provide only denied drivers from
 * loading by alias (written before udevd starts); the walk detaches a denied
 * driver's devices through its unbind file (enforce-unbind.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce/enforce-private.h"
#include "strbuf.h"
#include "strv.h"

static int write_blacklist(struct df_run *run)
{
	struct df_modules *m = NULL;
	char *text = NULL;
	char esc[DF_ESC_SIZE];
	char **mods = NULL;
	size_t n = 0, named = 0;
	int r, err = 0;

	r = df_modules_open(run->ctx, &m);
	if (r == -ENOENT) {
		df_log_cond(run->ctx, LOG_NOTICE,
			    "no modules for this kernel: there is nothing to blacklist");
		return 0;
	}
	if (r >= 0)
		r = df_modules_blacklist(m, run->p, &mods, &n);
	/* Which module set it knows: the initramfs's own, or the real root's whole tree. */
	if (r >= 0 && !(run->rep->blacklist_dir = strdup(df_modules_dir(m))))
		r = -ENOMEM;
	if (r >= 0)
		run->rep->blacklist_modules = df_modules_known(m);
	df_modules_free(m);
	if (r < 0) {
		if (r == -ENOMEM)
			return r;
		df_problem(run, NULL, NULL,
			   "cannot read the module aliases: %s; no module is blacklisted",
			   strerror(-r));
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (df_modname_check(mods[i]) == 0)
			continue;
		df_problem(run, NULL, NULL,
			   "a module name that is not one ([A-Za-z0-9_-], at most %d bytes) is not "
			   "written to the blacklist: '%s'",
			   DF_MODNAME_MAX, df_esc(mods[i], esc));
		free(mods[i]);
		mods[i] = NULL;
	}
	r = df_blacklist_text("drvfilter-apply", run->p->path,
			      run->p->sha256[0] ? run->p->sha256 : "none: fail closed",
			      "# Modules that provide only denied drivers. Do not edit: it is "
			      "rewritten at every boot.\n",
			      mods, n, &text);
	if (r >= 0 && run->writes)
		err = df_write_file_atomic(run->ctx, "/run/modprobe.d", "drvfilter.conf", text,
					   strlen(text), 0644);
	free(text);
	for (size_t i = 0; i < n; i++)
		named += mods[i] != NULL;
	if (r >= 0)
		r = df_record_blacklist(run, mods, n, err);
	strv_free_array(mods, n);
	/* No module to name the failure on (none, or only refused names): said here. */
	if (r >= 0 && err && named == 0)
		df_problem(run, NULL, NULL, "cannot write /run/modprobe.d/drvfilter.conf: %s",
			   strerror(-err));
	return r;
}

/* No bit to write: the blacklist before the walk, and unbinding in it, are all there is. */
const struct df_actuator df_fallback_actuator = {
	.begin = write_blacklist,
};
