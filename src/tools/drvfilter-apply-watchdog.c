// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilter-apply's watchdog: a run not done in time (--timeout) is stopped,
 * failing closed in kernel mode, and its last line says what was done.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "drvfilter-apply.h"
#include "drvfilter.h"
#include "macro.h"

/* /sys/kernel/driver_filter, opened before anything can hang, for the watchdog. */
static int watchdog_kfd = -1;
/* Audit mode enforces nothing, the watchdog included. */
static volatile sig_atomic_t watchdog_audit;

/* Set an attribute of the kernel's filter from a signal handler: nothing but syscalls. */
static bool watchdog_write(const char *attr, const char *value)
{
	int fd = openat(watchdog_kfd, attr, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return false;
	n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value);
}

/*
 * Nothing in the boot path may block forever (the boot waits for this hook):
 * when the run is not done in time, stop, and say at LOG_CRIT what was done
 * about it. With the kernel's filter, deny every driver its lists do not
 * allow yet and lock. Without it (fallback mode) nothing that fails closed
 * can be done from a signal handler: the blacklist and the unbinding need
 * the policy's decisions, libkmod and a walk of /sys, none of which is
 * async-signal-safe, and may be what hung; and /proc/sys/kernel/
 * modules_disabled would refuse every module, file systems and the root
 * disk's included, for the rest of the boot. So the line says that nothing
 * was enforced by the watchdog, and the lines before it say what the run did.
 */
static void watchdog(int sig)
{
	if (arg_dry_run)
		kmsg_crit("action=error drvfilter-apply did not finish in time (dry run: "
			  "nothing was written)");
	else if (watchdog_audit)
		kmsg_crit("action=error drvfilter-apply did not finish in time (mode = audit: "
			  "nothing was enforced)");
	else if (watchdog_kfd < 0)
		kmsg_crit("action=error drvfilter-apply did not finish in time, and without "
			  "the kernel's filter (fallback mode) there is nothing to fail closed "
			  "with: the watchdog enforced nothing, only what is logged above was "
			  "done");
	else if (!watchdog_write("deny", "ALL:ALL"))
		kmsg_crit("action=fail-closed result=error drvfilter-apply did not finish in "
			  "time, and the kernel did not take ALL:ALL as its deny list: the "
			  "watchdog enforced nothing");
	else if (!watchdog_write("locked", "1"))
		kmsg_crit("action=fail-closed result=error drvfilter-apply did not finish in "
			  "time: every driver not allowed yet is denied, but the kernel did not "
			  "take the lock");
	else
		kmsg_crit("action=fail-closed result=ok drvfilter-apply did not finish in time: "
			  "every driver not allowed yet is denied, and the policy is locked");
	_exit(1);
}

void watchdog_start(struct df_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = watchdog };
	_cleanup_free_ char *path = df_ctx_path(ctx, "/sys/kernel/driver_filter");

	if (!arg_timeout)
		return;
	if (path)
		watchdog_kfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(arg_timeout);
}

void watchdog_set_audit(bool audit)
{
	watchdog_audit = audit;
}
