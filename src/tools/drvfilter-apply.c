// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilter-apply: enforce the policy at boot (before coldplug) and on udev's
 * driver and bind events. Small on purpose: it runs in every boot.
 *
 * Fail closed: a policy that cannot be read or is invalid is replaced by one
 * that denies every driver not bound yet. drvfilter=off on the kernel command
 * line is the only way around it, and it is logged and recorded.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "drvfilter-apply.h"
#include "drvfilter.h"
#include "log.h"
#include "macro.h"

#ifndef DRVFILTER_VERSION
#define DRVFILTER_VERSION "unknown"
#endif

static const char *arg_policy;
static const char *arg_sysroot;
bool arg_dry_run;
static bool arg_udev;
bool arg_verbose;
unsigned arg_timeout = 60;
static const char *arg_modules_from;
static bool arg_real_root;

static void help(void)
{
	printf("Usage: drvfilter-apply [OPTIONS]\n"
	       "\n"
	       "Enforce the drvfilter policy: at boot before coldplug, or, with --udev, for\n"
	       "the driver or bind event udev describes in the environment.\n"
	       "\n"
	       "Options:\n"
	       "  -p, --policy FILE   the policy (default: %s)\n"
	       "      --sysroot DIR   take /sys, /proc, /run, /dev and /lib/modules under DIR\n"
	       "  -n, --dry-run       print what would be done; write nothing\n"
	       "      --udev          handle one udev event (ACTION, SUBSYSTEM, DEVPATH, DRIVER)\n"
	       "  -v, --verbose       also print every action on standard error\n"
	       "      --timeout SECS  stop if not done by then, failing closed in kernel\n"
	       "                      mode (default 60; 0: no limit)\n"
	       "      --modules-from ROOT\n"
	       "                      compute the blacklist from ROOT's /lib/modules (the\n"
	       "                      initramfs before switch_root: /sysroot)\n"
	       "      --real-root     the run from the real root after switch_root: an\n"
	       "                      initramfs that left no record of its run is an error\n"
	       "  -h, --help          show this help\n"
	       "  -V, --version       show the version\n"
	       "\n"
	       "Every action goes to the kernel log with the prefix 'drvfilter:'.\n"
	       "Exit status: 0 done, 1 something failed (or the policy was invalid), 2 usage.\n"
	       "See drvfilter-apply(8).\n",
	       DRVFILTER_POLICY_PATH);
}
/* A usage error: the message, the way to help, and exit status 2 (negated). */
_printf_(1, 2) static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("drvfilter-apply: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'drvfilter-apply --help' for more information.\n", stderr);
	return -2;
}

static int parse_argv(int argc, char **argv)
{
	enum {
		ARG_SYSROOT = 0x100,
		ARG_UDEV,
		ARG_TIMEOUT,
		ARG_MODULES_FROM,
		ARG_REAL_ROOT,
	};
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "policy", required_argument, NULL, 'p' },
		{ "sysroot", required_argument, NULL, ARG_SYSROOT },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "udev", no_argument, NULL, ARG_UDEV },
		{ "verbose", no_argument, NULL, 'v' },
		{ "timeout", required_argument, NULL, ARG_TIMEOUT },
		{ "modules-from", required_argument, NULL, ARG_MODULES_FROM },
		{ "real-root", no_argument, NULL, ARG_REAL_ROOT },
		{},
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVp:nv", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help();
			return 0;
		case 'V':
			printf("drvfilter-apply %s\n", DRVFILTER_VERSION);
			return 0;
		case 'p':
			arg_policy = optarg;
			break;
		case ARG_SYSROOT:
			arg_sysroot = optarg;
			break;
		case 'n':
			arg_dry_run = true;
			break;
		case ARG_UDEV:
			arg_udev = true;
			break;
		case 'v':
			arg_verbose = true;
			break;
		case ARG_TIMEOUT: {
			char *end;
			unsigned long t;

			errno = 0;
			t = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || optarg[0] == '-' || t > 86400)
				return usage_error(
					"--timeout needs a number of seconds (0 to 86400)");
			arg_timeout = (unsigned)t;
			break;
		}
		case ARG_MODULES_FROM:
			if (optarg[0] != '/')
				return usage_error("--modules-from needs an absolute path");
			arg_modules_from = optarg;
			break;
		case ARG_REAL_ROOT:
			arg_real_root = true;
			break;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return 1;
}

/* The policy, or the fail-closed one when it cannot be used. */
static int load_policy(struct df_ctx *ctx, struct df_policy **ret, bool *failed)
{
	_cleanup_free_ char *path =
		arg_policy ? strdup(arg_policy) : df_ctx_path(ctx, DRVFILTER_POLICY_PATH);
	struct df_diags d;
	int r;

	if (!path)
		return -ENOMEM;
	df_diags_init(&d);
	r = df_policy_load(ctx, path,
			   (arg_sysroot ? DF_LOAD_ANY_OWNER : 0) | DF_LOAD_DROPINS |
				   (arg_policy ? 0 : DF_LOAD_RUNTIME),
			   &d, ret);
	if (r < 0) {
		for (size_t i = 0; i < d.count; i++) {
			const struct df_diag *g = &d.items[i];

			if (g->severity != DF_ERROR)
				continue;
			if (g->line)
				df_ctx_log(ctx, LOG_ERR, "action=error %s:%u: %s",
					   df_diag_file(&d, g), g->line, g->message);
			else
				df_ctx_log(ctx, LOG_ERR, "action=error %s: %s", df_diag_file(&d, g),
					   g->message);
		}
		*failed = true;
		r = df_policy_new_fail_closed(path, ret);
	}
	df_diags_release(&d);
	return r;
}

/* The event udev describes in the environment (udev rules pass no name on the command line). */
static int apply_udev_event(struct df_ctx *ctx, const struct df_policy *p, struct df_report **rep)
{
	struct df_uevent ev;

	if (df_uevent_parse(getenv("ACTION"), getenv("SUBSYSTEM"), getenv("DEVPATH"),
			    getenv("DRIVER"), &ev) < 0) {
		df_ctx_log(ctx, LOG_ERR,
			   "--udev: ACTION, SUBSYSTEM or DEVPATH is not set: not run by udev?");
		return -EINVAL;
	}
	return df_apply_uevent(ctx, p, &ev, arg_dry_run ? DF_APPLY_DRY_RUN : 0, rep);
}

/* "pcr:8", "rtmr:2", "pcr:8,rtmr:2", "no" or "failed", for the log's last line. */
static const char *measured_summary(const struct df_report *rep)
{
	static char buf[32];
	const struct df_measurement *m = &rep->measurement;

	if (m->tpm == DF_MEASURED_FAILED || m->rtmr == DF_MEASURED_FAILED)
		return "failed";
	if (m->tpm != DF_MEASURED_OK && m->rtmr != DF_MEASURED_OK)
		return "no";
	if (m->tpm != DF_MEASURED_OK)
		snprintf(buf, sizeof(buf), "rtmr:%d", DF_RTMR_INDEX);
	else if (m->rtmr != DF_MEASURED_OK)
		snprintf(buf, sizeof(buf), "pcr:%u", m->pcr);
	else
		snprintf(buf, sizeof(buf), "pcr:%u,rtmr:%d", m->pcr, DF_RTMR_INDEX);
	return buf;
}

/*
 * The line that says the policy could not be used, once the run says what
 * became of failing closed: a dry run denies nothing, and a run that failed
 * denied what it could.
 */
static void log_fail_closed(struct df_ctx *ctx, const struct df_policy *p, int r)
{
	const char *path = df_policy_path(p);

	if (arg_dry_run)
		df_ctx_log(ctx, LOG_CRIT,
			   "action=fail-closed result=dry-run the policy %s cannot be used: every "
			   "driver not bound yet would be denied",
			   path);
	else if (r >= 0)
		df_ctx_log(ctx, LOG_CRIT,
			   "action=fail-closed result=ok the policy %s cannot be used: every "
			   "driver not bound yet is denied",
			   path);
	else if (r == -EIO)
		df_ctx_log(ctx, LOG_CRIT,
			   "action=fail-closed result=error the policy %s cannot be used: every "
			   "driver not bound yet is denied, except where an action above failed",
			   path);
	else
		df_ctx_log(ctx, LOG_CRIT,
			   "action=fail-closed result=error the policy %s cannot be used, and "
			   "nothing could be enforced",
			   path);
}

/*
 * The initramfs's own blacklist (written by the image builder: dracut's
 * 99drvfilter-blacklist, initramfs-tools' hook) kept the denied modules from
 * loading until this run. In kernel mode the kernel decides from now on (a
 * denied module may load, its drivers cannot probe); drvfilter=off and audit
 * mode enforce nothing: then it goes, whatever else the run reported. In
 * fallback mode it stays, covered by this run's own. Done here, not by each
 * builder's hook, so that every initramfs does the same.
 */
static int drop_image_blacklist(struct df_ctx *ctx, const struct df_report *rep)
{
	_cleanup_free_ char *path = NULL;

	if (!rep->in_initramfs || !(rep->mode == DF_MODE_KERNEL || rep->override || rep->audit))
		return 0;
	path = df_ctx_path(ctx, "/etc/modprobe.d/drvfilter-initramfs.conf");
	if (!path)
		return -ENOMEM;
	if (unlink(path) < 0) {
		if (errno == ENOENT)
			return 0;
		df_ctx_log(ctx, LOG_ERR,
			   "action=remove-image-blacklist path=/etc/modprobe.d/"
			   "drvfilter-initramfs.conf result=error message=\"%s\"",
			   strerror(errno));
		return -errno;
	}
	df_ctx_log(ctx, LOG_NOTICE,
		   "action=remove-image-blacklist path=/etc/modprobe.d/drvfilter-initramfs.conf "
		   "result=ok reason=%s",
		   rep->override ? "override"
		   : rep->audit	 ? "audit"
				 : "kernel-mode");
	return 0;
}

/*
 * What a boot run (not --udev) leaves: the measurement, the state file, the
 * image's blacklist gone when it should, and the last line; in a dry run, the
 * report as JSON instead of the first three. 0, 1 when some of it failed, or
 * -ENOMEM.
 */
static int record_run(struct df_ctx *ctx, const struct df_policy *p, struct df_report *rep)
{
	int r, status = 0;

	if (arg_dry_run) {
		df_report_write_json(rep, stdout, true);
	} else {
		/* The evidence of the run, enforced or failed closed: what a verifier decides on. */
		r = df_measure(ctx, p, rep);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			status = 1;
		r = df_state_write(ctx, rep);
		if (r < 0) {
			df_ctx_log(ctx, LOG_ERR, "action=error cannot write the state file: %s",
				   strerror(-r));
			status = 1;
		}
		if (drop_image_blacklist(ctx, rep) < 0)
			status = 1;
	}
	df_ctx_log(ctx, LOG_NOTICE,
		   "action=done mode=%s%s drivers=%zu allowed=%zu denied=%zu unbound=%zu "
		   "kept=%zu blacklisted=%zu errors=%zu measured=%s usec=%lld",
		   df_mode_name(rep->mode), rep->audit ? " audit=yes" : "", rep->counts.drivers,
		   rep->counts.allowed, rep->counts.denied, rep->counts.unbound, rep->counts.kept,
		   rep->counts.blacklisted, rep->counts.errors, measured_summary(rep),
		   rep->duration_usec);
	return status;
}

int main(int argc, char **argv)
{
	_cleanup_(df_ctx_unrefp) struct df_ctx *ctx = NULL;
	_cleanup_(df_policy_freep) struct df_policy *p = NULL;
	_cleanup_(df_report_freep) struct df_report *rep = NULL;
	_cleanup_close_ int lockfd = -1;
	bool failed = false;
	int r, status = 0;

	log_set_program("drvfilter-apply");
	r = parse_argv(argc, argv);
	if (r <= 0)
		return -r;
	if (!arg_sysroot && !arg_dry_run && geteuid() != 0) {
		log_error("only root can enforce the policy (try --dry-run)");
		return 1;
	}
	r = df_ctx_new(arg_sysroot, &ctx);
	if (r >= 0 && arg_modules_from)
		r = df_ctx_set_modules_root(ctx, arg_modules_from);
	if (r < 0)
		return log_error_errno(r, "%m"), 1;
	kmsg_open(ctx);
	watchdog_start(ctx);
	df_ctx_set_log_fn(ctx, kmsg_log_fn, NULL);
	df_ctx_set_log_priority(ctx, arg_verbose || arg_dry_run ? LOG_INFO : LOG_NOTICE);
	if (!arg_dry_run) {
		lockfd = df_lock_take(ctx);
		if (lockfd < 0)
			df_ctx_log(ctx, LOG_WARNING,
				   "cannot take /run/drvfilter/lock: %s; going on",
				   strerror(-lockfd));
	}
	r = load_policy(ctx, &p, &failed);
	if (r < 0)
		return log_error_errno(r, "%m"), 1;
	watchdog_set_audit(df_policy_mode(p) == DF_MODE_AUDIT);
	if (arg_udev)
		r = apply_udev_event(ctx, p, &rep);
	else
		r = df_apply(ctx, p,
			     DF_APPLY_OVERRIDE_OK | (arg_dry_run ? DF_APPLY_DRY_RUN : 0) |
				     (arg_real_root ? DF_APPLY_REAL_ROOT : 0),
			     &rep);
	if (r == -ENOMEM)
		return log_error_errno(r, "%m"), 1;
	if (failed)
		log_fail_closed(ctx, p, r);
	if (r < 0 && r != -EIO) {
		df_ctx_log(ctx, LOG_ERR, "action=error nothing could be enforced: %s",
			   strerror(-r));
		return 1;
	}
	if (r == -EIO || failed)
		status = 1;
	if (!arg_udev) {
		r = record_run(ctx, p, rep);
		if (r == -ENOMEM)
			return log_error_errno(r, "%m"), 1;
		if (r > 0)
			status = 1;
	}
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
