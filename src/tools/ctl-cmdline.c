// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl cmdline: the policy as kernel boot options for the target
 * kernel (the running one, or the one recorded under --sysroot): the filter_*
 * lists on a patched kernel, then initcall_blacklist= and module_blacklist=
 * as far as the command line's 2047 bytes allow. The options on standard
 * output (as they are, or as a GRUB, dracut or mkosi configuration snippet:
 * ctl-cmdline-format.c); what did not fit and what boot options cannot cover
 * on standard error (ctl-cmdline-report.c). Here: the target, the policy's
 * guard, the computation, and --update's file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl-cmdline.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"

static long arg_max_bytes;
static const char *arg_kernel;
static const char *arg_update;

/* --update's file as read: its line (or the running one's), whether it was there, its mode. */
static struct {
	char *line;
	char *raw; /* as the file held it */
	bool exists;
	mode_t mode;
} base;

/* ---- --update FILE: the line kernel-install and UKI builders take ---- */

/*
 * The line --update starts from: FILE's (newlines are blanks, as
 * kernel-install reads it), or, when there is none yet, the running
 * kernel's without what the boot loader added. A symbolic link, a FIFO or a
 * file with a NUL is refused: the file is replaced whole.
 */
static int read_base(void)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_close_ int fd = -1;
	struct stat st;
	size_t len, quotes = 0;
	int r;

	fd = open(arg_update, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		r = df_cmdline_running(ctl_ctx, &base.line);
		if (r < 0)
			return ctl_error_errno(r,
					       "cannot read the running kernel's command line, "
					       "which %s would start from: %m",
					       arg_update);
		base.mode = 0644;
		return EXIT_FINE;
	}
	if (fd < 0 && errno == ELOOP)
		return ctl_error_errno(-ELOOP, "%s is a symbolic link: --update replaces a file",
				       arg_update);
	if (fd < 0 || fstat(fd, &st) < 0)
		return ctl_error_errno(-errno, "cannot read %s: %m", arg_update);
	if (!S_ISREG(st.st_mode))
		return ctl_error_errno(-EINVAL, "%s is not a regular file", arg_update);
	r = df_read_full_fd(fd, 4 * DF_KERNEL_CMDLINE_MAX, &text, &len);
	if (r == -EFBIG)
		return ctl_error_errno(r, "%s is longer than a kernel command line can be",
				       arg_update);
	if (r < 0)
		return ctl_error_errno(r, "cannot read %s: %m", arg_update);
	if (memchr(text, '\0', len))
		return ctl_error_errno(-EBADMSG, "%s holds a NUL byte: not a command line",
				       arg_update);
	/*
	 * Where the kernel would read the line otherwise than drvfilter does,
	 * the options could end up inside another value, or after a "--" the
	 * kernel sees, as init's.
	 */
	if (memchr(text, 0xa0, len))
		return ctl_error_errno(-EBADMSG,
				       "%s holds a no-break space (byte 0xA0), where the kernel "
				       "splits the line; replace it with a space",
				       arg_update);
	for (size_t i = 0; i < len; i++)
		quotes += text[i] == '"';
	if (quotes % 2)
		return ctl_error_errno(-EBADMSG,
				       "%s has a quote that is never closed: the kernel would take "
				       "the options added after it for part of that value",
				       arg_update);
	base.raw = strdup(text);
	if (!base.raw)
		return ctl_oom();
	for (char *c = text; *c; c++)
		if (*c == '\n' || *c == '\r' || *c == '\t')
			*c = ' ';
	base.line = TAKE_PTR(text);
	base.exists = true;
	base.mode = st.st_mode & 07777;
	return EXIT_FINE;
}

/* Each option of FILE's that @options replaces by another (drvfilter owns them there). */
static int note_replaced(const char *options)
{
	_cleanup_free_ char *replaced = NULL;
	int r = df_cmdline_replaced(base.line, options, &replaced);

	if (r < 0)
		return r;
	for (char *save = NULL, *o = strtok_r(replaced, "\n", &save); o;
	     o = strtok_r(NULL, "\n", &save))
		log_info("%s: '%.*s%s' replaced: drvfilter's options there follow the policy (a "
			 "module to keep out goes into its [deny])",
			 arg_update, 60, o, strlen(o) > 60 ? "..." : "");
	return 0;
}

/* FILE with drvfilter's earlier options replaced by @options (none: they go). */
static int write_update(const char *options)
{
	_cleanup_free_ char *line = NULL, *text = NULL;
	int r = df_cmdline_update(base.line, options, &line);

	if (r >= 0)
		r = note_replaced(options);
	if (r < 0)
		return ctl_oom();
	r = df_cmdline_has_override(line);
	if (r < 0)
		return ctl_oom();
	if (r > 0)
		log_info("%s sets drvfilter=off: a kernel booted with it runs without drvfilter",
			 arg_update);
	if (strlen(line) > DF_KERNEL_CMDLINE_MAX - 1) {
		log_error("%s would hold %zu bytes, more than the %d of a kernel command line; "
			  "nothing written",
			  arg_update, strlen(line), DF_KERNEL_CMDLINE_MAX - 1);
		return EXIT_ERROR;
	}
	if (asprintf(&text, "%s\n", line) < 0)
		return ctl_oom();
	if (base.exists && streq(text, base.raw)) {
		log_info("%s already holds these options: unchanged", arg_update);
		return EXIT_FINE;
	}
	r = ctl_install_file(arg_update, text, strlen(text), base.mode);
	if (r < 0)
		return ctl_error_errno(r, "cannot write %s: %m", arg_update);
	log_info("%s %s: %zu bytes, %zu of them drvfilter's options", arg_update,
		 base.exists ? "updated" : "written", strlen(line), strlen(options));
	return EXIT_FINE;
}

/*
 * No option that stops what the target boots from (its root file system's
 * drivers, its console's, its TPM's): EXIT_FINE, or EXIT_ERROR with why.
 */
static int guard_boot(const struct df_policy *p)
{
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_check_boot(ctl_ctx, p, &d);
	if (r == -ENOMEM) {
		df_diags_release(&d);
		return ctl_oom();
	}
	ctl_print_diags(&d, stderr, false);
	if (d.errors)
		log_error("no boot options: they would keep the target from what it boots from; "
			  "allow those drivers, or set protect_boot = no in [filter] if that is "
			  "meant");
	r = d.errors ? EXIT_ERROR : EXIT_FINE;
	df_diags_release(&d);
	return r;
}

/* --kernel and --update: the kernel the options are for and the line they go into. */
static int setup_target(void)
{
	int r;

	if (arg_update &&
	    (arg_json != JSON_OFF || (arg_format && !ctl_format_is("kernel-cmdline"))))
		return ctl_usage_error("--update writes the kernel-cmdline format only");
	if (arg_kernel) {
		_cleanup_free_ char *rel = NULL, *tree = NULL;

		r = df_ctx_set_kernel(ctl_ctx, arg_kernel);
		if (r == -EINVAL)
			return ctl_usage_error("--kernel needs a kernel release, such as %s",
					       "6.1.0-28-amd64");
		if (r < 0)
			return ctl_oom();
		/* Its module tree is what its options are computed from: no tree, no options. */
		if (asprintf(&rel, "/lib/modules/%s", arg_kernel) < 0 ||
		    !(tree = df_ctx_path(ctl_ctx, rel)))
			return ctl_oom();
		if (access(tree, F_OK) < 0)
			return ctl_error_errno(-errno, "kernel %s: no module tree %s: %m",
					       arg_kernel, tree);
	}
	if (arg_update) {
		r = read_base();
		if (r)
			return r;
		if (df_ctx_set_cmdline(ctl_ctx, base.line) < 0)
			return ctl_oom();
	}
	return EXIT_FINE;
}

/*
 * Audit mode: no boot options, since every one of them enforces, before user
 * space can say "audit"; --update takes drvfilter's earlier ones away.
 */
static int audit_mode(void)
{
	log_info("the policy is in audit mode: boot options would enforce it, so there "
		 "are none; set mode = auto, kernel or fallback first");
	if (arg_update)
		return write_update("");
	if (arg_json != JSON_OFF)
		printf("{\"cmdline\":\"\",\"audit\":true}\n");
	return EXIT_FINE;
}

/* The options do not fit (-E2BIG): why, and what would make them fit; EXIT_ERROR. */
static int too_long(const struct df_bootopts *b)
{
	if (b->headroom && strlen(b->line) <= b->max_bytes + b->headroom)
		log_error("the filter_* options would take %zu bytes: they fit only into the %zu "
			  "bytes left free for options added later (%zu are left before them); "
			  "--max-bytes %zu uses them",
			  strlen(b->line), b->headroom, b->max_bytes, b->max_bytes + b->headroom);
	else if (b->max_bytes + b->headroom == DF_KERNEL_CMDLINE_MAX - 1)
		log_error("the boot options would take %zu bytes, but an x86 kernel command line "
			  "holds at most %d; shorten the lists (globs, ALL) or use the policy file "
			  "alone",
			  strlen(b->line), DF_KERNEL_CMDLINE_MAX - 1);
	else
		log_error(
			"the filter_* options would take %zu bytes, but only %zu are left (an x86 "
			"kernel command line holds at most %d, the rest of it takes %zu, and %zu "
			"are kept free for options added later); shorten the lists (globs, ALL) or "
			"use the policy file alone",
			strlen(b->line), b->max_bytes, DF_KERNEL_CMDLINE_MAX - 1,
			strlen(b->rest) + (*b->rest ? 1 : 0), b->headroom);
	return EXIT_ERROR;
}

/* --update FILE with the options computed. */
static int update(const struct df_bootopts *b)
{
	/* Denied code the options would name, and none of it fits: refuse, rather than drop. */
	if (!*b->line && b->nentries) {
		log_error("no boot option fits into %s: the rest of its line takes %zu of %d bytes "
			  "(see above); nothing written",
			  arg_update, strlen(b->rest) + (*b->rest ? 1 : 0),
			  DF_KERNEL_CMDLINE_MAX - 1);
		return EXIT_ERROR;
	}
	return write_update(b->line);
}

/* Why there is no option to print. */
static void log_none(const struct df_bootopts *b)
{
	bool none = !b->nentries && !b->nuncovered;

	/* The filter_* lists say the whole policy; a stock kernel's options only what it has. */
	if (none && b->filter)
		log_info("the policy allows every driver; no boot option is needed");
	else if (none && !b->modules && !b->trace)
		log_info("no boot option: neither the module tree nor the init calls of "
			 "this stock kernel are known, so no denied driver can be named");
	else if (none)
		log_info("the policy denies nothing this kernel has; no boot option is "
			 "needed");
	else
		log_info("no boot option fits or can be computed (see above)");
}

static int compute(void)
{
	_cleanup_(df_bootopts_freep) struct df_bootopts *b = NULL;
	struct df_policy *p = NULL;
	int r;

	r = setup_target();
	if (r)
		return r;
	/* Runtime changes (drvfilterctl allow/deny) end at reboot: not on the next boot's line. */
	r = ctl_load_boot_policy(&p);
	if (r)
		return r;
	if (df_policy_mode(p) == DF_MODE_AUDIT) {
		df_policy_free(p);
		return audit_mode();
	}
	r = guard_boot(p);
	if (r) {
		df_policy_free(p);
		return r;
	}
	r = df_bootopts_compute(ctl_ctx, p, NULL, NULL, (size_t)arg_max_bytes, &b);
	df_policy_free(p);
	if (r == -E2BIG)
		return too_long(b);
	if (r < 0) {
		log_error_errno(r, "%m");
		return EXIT_ERROR;
	}
	if (arg_json != JSON_OFF) {
		cmdline_print_json(b);
		return EXIT_FINE;
	}
	cmdline_report(b, arg_kernel != NULL);
	if (arg_update)
		return update(b);
	if (!*b->line) {
		log_none(b);
		return EXIT_FINE;
	}
	return cmdline_print(b);
}

static int run(int argc, char **argv)
{
	int r = compute();

	free(base.line);
	free(base.raw);
	return r;
}

enum {
	ARG_MAX_BYTES = CTL_ARG_VERB,
	ARG_KERNEL,
	ARG_UPDATE,
};

static const struct option options[] = {
	{ "max-bytes", required_argument, NULL, ARG_MAX_BYTES },
	{ "kernel", required_argument, NULL, ARG_KERNEL },
	{ "update", required_argument, NULL, ARG_UPDATE },
	{},
};

static const char *const formats[] = { "grub", "dracut", "mkosi", "kernel-cmdline", NULL };

static int parse(int opt, const char *arg)
{
	char *end;

	if (opt == ARG_KERNEL) {
		arg_kernel = arg;
		return EXIT_FINE;
	}
	if (opt == ARG_UPDATE) {
		if (!*arg)
			return ctl_usage_error("--update needs a file");
		arg_update = arg;
		return EXIT_FINE;
	}
	errno = 0;
	arg_max_bytes = strtol(arg, &end, 10);
	if (errno || *end || end == arg || arg_max_bytes < 1 ||
	    arg_max_bytes > DF_KERNEL_CMDLINE_MAX - 1)
		return ctl_usage_error("--max-bytes needs a number from 1 to %d",
				       DF_KERNEL_CMDLINE_MAX - 1);
	return EXIT_FINE;
}

static const char help[] =
	"      --max-bytes N      at most N bytes of options (default: what the target's\n"
	"                         command line leaves, less a tenth kept free)\n"
	"      --kernel RELEASE   for that installed kernel (its /lib/modules/RELEASE)\n"
	"      --update FILE      replace drvfilter's options in FILE (/etc/kernel/cmdline);\n"
	"                         a new FILE starts from the running kernel's line\n";

const struct ctl_verb ctl_verb_cmdline = {
	.name = "cmdline",
	.summary = "print the boot options that keep denied code from running",
	.common = CTL_POLICY | CTL_SYSROOT | CTL_JSON,
	.formats = formats,
	.options = options,
	.parse = parse,
	.help = help,
	.run = run,
};
