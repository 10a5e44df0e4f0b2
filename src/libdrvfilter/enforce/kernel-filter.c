// SPDX-License-Identifier: GPL-2.0-only
/*
 * The patched kernel's filter as an actuator: /sys/kernel/driver_filter/{allow,
 * deny,locked}, and the allowed bit of a driver. Writing the lists decides the
 * drivers that register later (modules coldplug loads) and, since the series'
 * patch 23, the registered ones too; a driver's bit is written all the same:
 * 0 detaches the devices it drives (a list write leaves them bound), "keep"
 * leaves them, and a kernel without patch 23 decides a registered driver by
 * its bit alone. Locked already, nothing can be written: each bit is checked
 * against the policy.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "enforce/enforce-private.h"

/*
 * A list goes in one write() of one line, as the kernel takes it (it refuses
 * a write without the newline, or of a newline alone: pieces of a list split
 * over several); an empty list is "none".
 */
static int write_list(struct df_run *run, const char *name, const char *list)
{
	_cleanup_free_ char *line = NULL;

	if (asprintf(&line, "%s\n", *list ? list : "none") < 0)
		return -ENOMEM;
	return df_run_write_at(run, run->kfd, name, line);
}

/* The policy's allow and deny lists; one the kernel refused fails closed. */
static int write_lists(struct df_run *run)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r, aerr, derr, err;

	r = df_policy_kernel_lists(run->p, &allow, &deny);
	if (r < 0)
		return r;
	aerr = write_list(run, "allow", allow);
	r = df_record(run, DF_ACT_KERNEL_LIST, NULL, "allow", NULL, allow, aerr);
	derr = write_list(run, "deny", deny);
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
	err = write_list(run, "deny", "ALL:ALL");
	/* Said once the kernel answered: the lock is the run's last action, logged then. */
	df_log_cond(run->ctx, LOG_CRIT,
		    "action=fail-closed result=%s the kernel did not take the policy's %s list: %s",
		    df_action_result(DF_ACT_KERNEL_LIST, err, run->rep->dry_run, run->rep->audit),
		    aerr ? "allow" : "deny",
		    err ? "it did not take ALL:ALL as its deny list either, and the run locks "
			  "what it holds"
			: "every driver its allow list does not name is denied, and the run locks "
			  "the policy");
	return df_record(run, DF_ACT_KERNEL_LIST, NULL, "deny", NULL, "ALL:ALL", err);
}

/* A write that failed because the driver is gone (unregistered meanwhile) is no failure. */
static bool driver_gone(const struct df_driver_ref *d, int err)
{
	return err == -ENOENT && faccessat(d->driversfd, d->name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	       errno == ENOENT;
}

#define ALLOWED_SIZE (DF_NAME_MAX + sizeof("/allowed"))

/* The driver's bit, reached from drivers/ in one openat (the name holds no '/'). */
static const char *allowed_rel(const struct df_driver_ref *d, char rel[ALLOWED_SIZE])
{
	return concat2(rel, ALLOWED_SIZE, d->name, "/allowed");
}

static int set_quiet_bit(struct df_run *run, const struct df_driver_ref *d, bool allowed)
{
	char rel[ALLOWED_SIZE];
	int err;

	err = df_run_write_at(run, d->driversfd, allowed_rel(d, rel), allowed ? "1" : "0");
	if (driver_gone(d, err))
		return 0;
	return df_record_quiet(run, DF_ACT_ALLOWED, d->bus, d->name, allowed ? "1" : "0", err);
}

/*
 * Whether the driver has an unbind file: a listing of its own directory that
 * holds the entry says yes. Its absence is asked again with a faccessat,
 * which takes any error but ENOENT for "there": only proof of absence may
 * keep a denied driver's devices bound (a review's finding; the case is
 * rare, an unbindable driver that drives something).
 */
static bool has_unbind(const struct df_driver_ref *d)
{
	return d->unbind > 0 || df_driver_has_unbind(d);
}

/* The devices of a driver that may not be unbound, kept: 1, or -ENOMEM. */
static int record_unbindable(struct df_run *run, const struct df_driver_ref *d,
			     const struct strv *devices)
{
	int r = 0;

	df_warning(run, d->bus, d->name,
		   "the driver may not be unbound (it has no unbind file): its %zu device(s) stay "
		   "bound, and it takes no other",
		   devices->n);
	for (size_t i = 0; r >= 0 && i < devices->n; i++)
		r = df_record(run, DF_ACT_KEEP, d->bus, d->name, devices->v[i], NULL, 0);
	return r < 0 ? r : 1;
}

/*
 * A driver that may not be unbound (it suppresses its bind attributes: no
 * unbind file) is denied with "keep", what the kernel makes of 0 for it too:
 * it takes no other device, and each one it drives is recorded as kept, a
 * violation that status shows. If the kernel refuses the word, the walk's
 * unbinds fail and say why.
 */
static int keep_unbindable(struct df_run *run, const struct df_driver_ref *d,
			   const struct strv *devices)
{
	char rel[ALLOWED_SIZE];
	int err = df_run_write_at(run, d->driversfd, allowed_rel(d, rel), "keep");
	int r;

	if (driver_gone(d, err))
		return 1;
	r = df_record(run, DF_ACT_ALLOWED, d->bus, d->name, NULL, "keep", err);
	if (r < 0 || err)
		return r < 0 ? r : 0;
	return record_unbindable(run, d, devices);
}

/*
 * Writing 0 detaches the devices; with bound = keep, "keep" leaves them
 * bound and lets the driver take no other (it reads 0 then). A kernel
 * without "keep" refuses the word (EINVAL): an error, never 1, which would
 * let the driver take any device the host adds. If the write failed, the
 * walk unbinds the devices one by one.
 */
static int deny_bit(struct df_run *run, const struct df_driver_ref *d, bool keep,
		    const struct strv *devices)
{
	char rel[ALLOWED_SIZE];
	const char *value = keep ? "keep" : "0";
	int err, r;

	/* One that may not be unbound is asked for "keep", which is what it gets. */
	if (!keep && devices->n > 0 && !has_unbind(d))
		return keep_unbindable(run, d, devices);
	err = df_run_write_at(run, d->driversfd, allowed_rel(d, rel), value);
	if (driver_gone(d, err))
		return 1;
	if (!err && !keep) {
		r = df_record_detach(run, d->bus, d->name, value, devices);
		return r < 0 ? r : 1;
	}
	r = df_record(run, DF_ACT_ALLOWED, d->bus, d->name, NULL, value, err);
	return r < 0 ? r : 0;
}

/* A policy the kernel did not take whole is locked as it failed closed. */
static int lock(struct df_run *run)
{
	int err;

	if (!run->p->lock && !run->rep->fail_closed)
		return 0;
	err = df_run_write_at(run, run->kfd, "locked", "1");
	run->locked = !err && run->writes;
	return df_record(run, DF_ACT_LOCK, NULL, NULL, NULL, "1", err);
}

const struct df_actuator df_kernel_actuator = {
	.begin = write_lists,
	.quiet_bit = set_quiet_bit,
	.deny = deny_bit,
	.end = lock,
};

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

static int locked_begin(struct df_run *run)
{
	df_log_cond(run->ctx, LOG_NOTICE,
		    "the kernel policy is locked already: checking it against the policy instead "
		    "of writing it");
	return 0;
}

static int check_quiet_bit(struct df_run *run, const struct df_driver_ref *d, bool allowed)
{
	char rel[ALLOWED_SIZE];

	return df_kfilter_check_bit(run, d->driversfd, allowed_rel(d, rel), d->bus, d->name,
				    allowed, false);
}

/*
 * Say whether the kernel agrees that the driver is denied; what it holds is
 * unbound all the same (a mismatch, or a bind the kernel let through) unless
 * the policy keeps it.
 */
static int check_deny_bit(struct df_run *run, const struct df_driver_ref *d, bool keep,
			  const struct strv *devices)
{
	char rel[ALLOWED_SIZE];
	int r;

	r = df_kfilter_check_bit(run, d->driversfd, allowed_rel(d, rel), d->bus, d->name, false,
				 true);
	if (r < 0)
		return r;
	/* Kept by the kernel as it was denied: nothing to unbind, and no way to. */
	if (!keep && devices->n > 0 && !has_unbind(d))
		return record_unbindable(run, d, devices);
	return 0;
}

const struct df_actuator df_kernel_locked_actuator = {
	.begin = locked_begin, .quiet_bit = check_quiet_bit, .deny = check_deny_bit,
	/* .end: locked already. */
};
