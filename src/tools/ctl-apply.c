// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl apply [--dry-run]: what drvfilter-apply does at boot, now. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

static bool arg_dry_run;

/* Each action, names escaped (none from sysfs reaches the terminal raw), then the counts. */
static void print_report(const struct df_report *rep)
{
	/* A dry run, or audit mode, writes nothing: what it would do. */
	bool would = arg_dry_run || rep->audit;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < rep->nactions; i++) {
		const struct df_action *a = &rep->actions[i];

		printf("%s%s", arg_dry_run ? "would " : "", df_action_label(a, rep->audit));
		if (a->bus)
			printf(" %s", ctl_esc(&sb, a->bus));
		if (a->driver)
			printf(" %s", ctl_esc(&sb, a->driver));
		if (a->device)
			printf(" %s", ctl_esc(&sb, a->device));
		if (a->value)
			printf(" = %s", ctl_esc(&sb, a->value));
		if (a->error)
			printf(": failed: %s", strerror(-a->error));
		putchar('\n');
	}
	printf("%s mode: %zu drivers, %zu allowed, %zu denied; %zu devices %sunbound, %zu kept; "
	       "%zu modules %sblacklisted; %zu errors\n",
	       df_mode_name(rep->mode), rep->counts.drivers, rep->counts.allowed,
	       rep->counts.denied, rep->counts.unbound, would ? "would be " : "", rep->counts.kept,
	       rep->counts.blacklisted, would ? "would be " : "", rep->counts.errors);
	strbuf_release(&sb);
}

static int run(int argc, char **argv)
{
	struct df_policy *p = NULL;
	struct df_report *rep = NULL;
	int lockfd = -1, r, ret;

	if (!arg_dry_run && !arg_sysroot && geteuid() != 0) {
		log_error("only root can apply the policy (try --dry-run)");
		return EXIT_ERROR;
	}
	/* The policy is read under the lock, so that it is not older than what allow/deny applied. */
	if (!arg_dry_run) {
		lockfd = df_lock_take(ctl_ctx);
		if (lockfd < 0)
			log_error_errno(lockfd, "cannot take '/run/drvfilter/lock': %m");
	}
	/* An invalid policy is refused here: fail closed is for boot, not for a typo now. */
	ret = ctl_load_policy(&p);
	if (ret != EXIT_FINE)
		goto out;
	r = df_apply(ctl_ctx, p, arg_dry_run ? DF_APPLY_DRY_RUN : 0, &rep);
	if (r < 0 && r != -EIO) {
		log_error_errno(r, "nothing could be applied: %m");
		ret = EXIT_ERROR;
		goto out;
	}
	/* A policy applied now is as much evidence as the boot's: measured too. */
	if (!arg_dry_run && df_measure(ctl_ctx, p, rep) < 0)
		ret = EXIT_ERROR;
	if (!arg_dry_run) {
		int w = df_state_write(ctl_ctx, rep);

		if (w < 0) {
			log_error_errno(w, "cannot write the state file: %m");
			ret = EXIT_ERROR;
		}
	}
	if (arg_json != JSON_OFF) {
		df_report_write_json(rep, stdout, arg_json == JSON_PRETTY);
	} else {
		print_report(rep);
	}
	if (rep->counts.errors)
		ret = EXIT_ERROR;
out:
	df_report_free(rep);
	df_policy_free(p);
	if (lockfd >= 0)
		close(lockfd);
	return ret;
}

static const struct option options[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{},
};

static int parse(int opt, const char *arg)
{
	arg_dry_run = opt == 'n';
	return EXIT_FINE;
}

static const char help[] = "  -n, --dry-run          print what would be done, write nothing\n";

const struct ctl_verb ctl_verb_apply = {
	.name = "apply",
	.summary = "enforce the policy now, as drvfilter-apply does at boot",
	.common = CTL_POLICY | CTL_SYSROOT | CTL_JSON,
	.options = options,
	.shortopts = "n",
	.parse = parse,
	.help = help,
	.run = run,
};
