// SPDX-License-Identifier: GPL-2.0-only
/*
 * The patched kernel's filter as an actuator: /sys/kernel/driver_filter/{allow,
 * deny,locked}, and the allowed bit of a driver. Writing the lists decides the
 * drivers that register later (modules coldplug loads); a driver's bit decides
 * one that is registered now, and writing 0 detaches its devices.
 */
#include <errno.h>

#include "enforce-private.h"

int df_kfilter_open(const struct df_ctx *ctx)
{
	return df_open_dir(ctx, DF_KFILTER_DIR);
}

int df_kfilter_read_locked(int kfd)
{
	char buf[DF_FLAG_SIZE];
	ssize_t n = df_read_at(kfd, "locked", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (streq(buf, "0") || streq(buf, "1"))
		return buf[0] - '0';
	return -EBADMSG;
}

int df_kfilter_write_lists(struct df_run *run, int kfd)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r, aerr, derr;

	r = df_policy_kernel_lists(run->p, &allow, &deny);
	if (r < 0)
		return r;
	/* An empty list is written as a lone newline, which the kernel takes as "none". */
	aerr = df_run_write_at(run, kfd, "allow", *allow ? allow : "\n");
	r = df_record(run, DF_ACT_KERNEL_LIST, NULL, "allow", NULL, allow, aerr);
	derr = df_run_write_at(run, kfd, "deny", *deny ? deny : "\n");
	if (r >= 0)
		r = df_record(run, DF_ACT_KERNEL_LIST, NULL, "deny", NULL, deny, derr);
	if (r < 0 || (!aerr && !derr))
		return r;
	/*
	 * A list the kernel refused (too long for one sysfs write, or cut
	 * short) must not leave a wider policy in force, and must not be
	 * locked in: deny everything the allow list in the kernel does not
	 * name, and have the run lock it.
	 */
	run->rep->fail_closed = true;
	df_log_cond(run->ctx, LOG_CRIT,
		    "action=fail-closed the kernel did not take the policy's %s list: every driver "
		    "its allow list does not name is denied, and the policy is locked",
		    aerr ? "allow" : "deny");
	return df_record(run, DF_ACT_KERNEL_LIST, NULL, "deny", NULL, "ALL:ALL",
			 df_run_write_at(run, kfd, "deny", "ALL:ALL"));
}

int df_kfilter_lock(struct df_run *run, int kfd, bool *locked)
{
	int err = df_run_write_at(run, kfd, "locked", "1");

	*locked = !err && df_run_writes(run);
	return df_record(run, DF_ACT_LOCK, NULL, NULL, NULL, "1", err);
}

int df_kfilter_check_bit(struct df_run *run, int dirfd, const char *attr, const char *bus,
			 const char *driver, bool want, bool always)
{
	char cur[DF_FLAG_SIZE];
	int err = 0;

	if (df_read_at(dirfd, attr, cur, sizeof(cur)) < 0 || cur[1] || cur[0] != '0' + want)
		err = -EPERM;
	if (err || always)
		return df_record(run, DF_ACT_CHECK, bus, driver, NULL, want ? "1" : "0", err);
	return 0;
}
