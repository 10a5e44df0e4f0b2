// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's life: started with its report, the kernel's filter and the mode's
 * actuator, chosen once here; its writes gated by dry run and audit mode;
 * ended with the report handed over.
 */
#include <errno.h>

#include "enforce/enforce-private.h"
#include "time-util.h"

enum df_mode df_effective_mode(const struct df_policy *p, bool kernel_filter)
{
	/*
	 * mode = kernel without the kernel's filter still enforces: in fallback
	 * mode. Audit mode is what auto would do.
	 */
	return kernel_filter && p->mode != DF_MODE_FALLBACK ? DF_MODE_KERNEL : DF_MODE_FALLBACK;
}

/* The mode's actuator; in kernel mode, the written one or, locked already, the checking one. */
static void choose_actuator(struct df_run *run)
{
	int r;

	if (run->rep->mode != DF_MODE_KERNEL) {
		run->act = &df_fallback_actuator;
		return;
	}
	r = df_kfilter_read_locked(run->kfd);
	/* Unknown: write anyway; if it is locked, each write fails and says so. */
	if (r < 0 && r != -EBADMSG)
		df_problem(run, NULL, NULL, "cannot read " DF_KFILTER_DIR "/locked: %s",
			   strerror(-r));
	run->locked = r == 1;
	run->act = run->locked ? &df_kernel_locked_actuator : &df_kernel_actuator;
}

int df_run_start(struct df_run *run, struct df_ctx *ctx, const struct df_policy *p, unsigned flags)
{
	int r;

	*run = (struct df_run){ .ctx = ctx, .p = p, .kfd = -1, .t0 = now_usec(CLOCK_MONOTONIC) };
	r = df_report_new(p, flags & DF_APPLY_DRY_RUN, &run->rep);
	if (r < 0)
		return r;
	run->writes = !run->rep->dry_run && !run->rep->audit;
	run->kfd = df_kfilter_open(ctx);
	run->rep->mode = df_effective_mode(p, run->kfd >= 0);
	if ((flags & DF_APPLY_OVERRIDE_OK) && df_cmdline_override(ctx) > 0)
		run->rep->override = true;
	else
		choose_actuator(run);
	return 0;
}

int df_run_finish(struct df_run *run, int r, struct df_report **ret)
{
	if (run->kfd >= 0)
		close(run->kfd);
	run->kfd = -1;
	run->rep->duration_usec = now_usec(CLOCK_MONOTONIC) - run->t0;
	run->rep->locked = run->locked;
	if (r < 0) {
		run->rep = df_report_free(run->rep);
		return r;
	}
	*ret = TAKE_PTR(run->rep);
	return (*ret)->counts.errors ? -EIO : 0;
}
