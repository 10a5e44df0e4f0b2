// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl allow|deny BUS:DRIVER... [--permanent]: a policy changed at
 * run time, through a drop-in of its own.
 *
 * Until reboot, the change is /run/drvfilter.conf.d/50-drvfilterctl.conf;
 * with --permanent, /etc/drvfilter.conf.d/50-drvfilterctl.conf (the initramfs
 * must be rebuilt for boot). The drop-in is changed line by line: comments,
 * device rules, [filter] settings and other keys stay as they were, and a
 * file whose list cannot be changed so is refused. The whole change runs
 * under the lock every writer and applier of the policy takes (edit too),
 * and fails when it cannot be taken. The new set is checked, the drop-in
 * replaced atomically, and the policy applied at once, as drvfilter-apply
 * would: in kernel mode an allowed driver's bit goes to 1 and the kernel
 * binds its waiting devices; in fallback mode they are offered to it through
 * its bind file. A deny detaches. A locked kernel policy refuses runtime changes, and
 * an apply that fails puts the drop-in back as it was and applies that again,
 * so that the file and the kernel never disagree. The drop-in's file is
 * read, checked and written by ctl-change-dropin.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl-change.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strv.h"

static int arg_permanent;

/* What the set decides for @subject ("bus:driver") now, and by which rule. */
static void decide(const struct df_policy *p, const char *subject, struct df_verdict *v)
{
	const char *colon = strchr(subject, ':');
	char bus[DF_NAME_MAX + 1];

	snprintf(bus, sizeof(bus), "%.*s", (int)(colon - subject), subject);
	df_policy_decide(p, bus, colon + 1, v);
}

/* Load the policy's set, with @path holding @text when @text is given. */
static int load_set(const char *policy, const char *path, const char *text, size_t len,
		    struct df_policy **ret)
{
	struct df_policy_source src = { path, text, len };
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_load_edited(ctl_ctx, policy, ctl_load_flags(), text ? &src : NULL, &d, ret);
	if (r < 0)
		ctl_print_diags(&d, stderr, true);
	df_diags_release(&d);
	return r;
}

/*
 * Apply @p as drvfilter-apply does, and record it; 0, or -EIO when an action
 * failed. *@mode is the mode it ran in.
 */
static int apply(const struct df_policy *p, enum df_mode *mode)
{
	_cleanup_(df_report_freep) struct df_report *rep = NULL;
	int r = df_apply(ctl_ctx, p, 0, &rep);

	if (r < 0 && r != -EIO)
		return log_error_errno(r, "nothing could be applied: %m");
	*mode = rep->mode;
	/* A verifier must see a runtime change as it sees the boot's policy. */
	if (df_measure(ctl_ctx, p, rep) < 0)
		r = -EIO;
	if (df_state_write(ctl_ctx, rep) < 0)
		r = log_error_errno(-EIO, "cannot write the state file");
	return r;
}

static bool kernel_locked(void)
{
	_cleanup_(df_inventory_freep) struct df_inventory *inv = NULL;

	/* A locked kernel refuses every write: say so before anything is changed. */
	return df_inventory_load(ctl_ctx, 0, &inv) >= 0 && inv->kernel_filter && inv->locked == 1;
}

/* One allow or deny: the drop-in before and after, the policy's set before and after. */
struct change {
	enum df_section section;
	char *policy, *path, *lock, *old, *text;
	size_t old_len, len;
	bool locked;
	int lockfd;
	struct strv done; /* the subjects it changes */
	struct df_policy *cur, *next;
};

static void change_release(struct change *c)
{
	free(c->policy);
	free(c->path);
	free(c->lock);
	free(c->old);
	free(c->text);
	strv_release(&c->done);
	df_policy_free(c->cur);
	df_policy_free(c->next);
	if (c->lockfd >= 0)
		close(c->lockfd);
}

/* Who may change what, now or for the next boot, and the drop-in as it is. */
static int prepare(struct change *c)
{
	int r;

	if (!arg_sysroot && geteuid() != 0) {
		log_error("only root can change the policy");
		return EXIT_ERROR;
	}
	c->policy = ctl_policy_path();
	c->path = c->policy ? dropin_path(c->policy, arg_permanent) : NULL;
	c->lock = df_ctx_path(ctl_ctx, DF_LOCK_PATH);
	if (!c->path || !c->lock)
		return ctl_oom();
	c->locked = kernel_locked();
	if (c->locked && !arg_permanent) {
		log_error("the kernel policy is locked until reboot: nothing changes now; make the "
			  "change for the next boot with --permanent, rebuild the initramfs "
			  "(dracut -f) and reboot");
		return EXIT_ERROR;
	}
	/*
	 * Every writer of the policy (edit, allow, deny) and every applier holds
	 * this lock: without it a change could be lost to another, so none is made.
	 */
	c->lockfd = df_lock_take(ctl_ctx);
	if (c->lockfd < 0)
		return ctl_error_errno(c->lockfd,
				       "cannot take the policy's lock '%s': %m; nothing is changed",
				       c->lock);
	if (load_set(c->policy, NULL, NULL, 0, &c->cur) < 0) {
		log_error(
			"the policy is not valid: fix it before changing it (drvfilterctl check)");
		return EXIT_ERROR;
	}
	r = dropin_read(c->path, &c->old, &c->old_len);
	if (r < 0)
		return ctl_error_errno(r, "cannot read '%s': %m", c->path);
	if (dropin_check(c->path, c->old, c->old_len) < 0)
		return EXIT_ERROR;
	/* A drop-in of its own starts with a line that says what made it. */
	if (c->old_len)
		c->text = strndup(c->old, c->old_len);
	else if (asprintf(&c->text, "%s\n", dropin_header(arg_permanent)) < 0)
		c->text = NULL;
	if (!c->text)
		return ctl_oom();
	c->len = strlen(c->text);
	return EXIT_FINE;
}

/* @subject's driver put into (@add) or taken out of @section's list for its bus; all else kept. */
static int edit_list(struct change *c, enum df_section section, const char *subject, bool add)
{
	_cleanup_free_ char *bus = strndup(subject, (size_t)(strchr(subject, ':') - subject));
	struct df_diags d;
	char *text;
	size_t len;
	int r;

	if (!bus)
		return ctl_oom();
	df_diags_init(&d);
	r = df_diags_set_file(&d, c->path);
	if (r >= 0)
		r = df_policy_edit_list(c->text, c->len, section, bus, strchr(subject, ':') + 1,
					add, &d, &text, &len);
	if (r == -EINVAL) {
		ctl_print_diags(&d, stderr, true);
		log_error("'%s' cannot take %s %s without other changes to it; nothing is changed",
			  c->path, subject, c->section == DF_SECTION_ALLOW ? "allowed" : "denied");
	}
	df_diags_release(&d);
	if (r == -ENOMEM)
		return ctl_oom();
	if (r < 0)
		return EXIT_ERROR;
	if (r > 0) {
		free(c->text);
		c->text = text;
		c->len = len;
	}
	return EXIT_FINE;
}

/*
 * The drop-in with @subjects moved in, line by line; what changes is in
 * c->done. A driver that device rules limit is refused: allow does not widen
 * them.
 */
static int update_text(struct change *c, int n, char **subjects)
{
	int r = EXIT_FINE;

	for (int i = 0; i < n && r == EXIT_FINE; i++) {
		const char *s = subjects[i];
		bool allow = c->section == DF_SECTION_ALLOW;
		struct df_verdict v;

		decide(c->cur, s, &v);
		if (allow && v.restricted) {
			_cleanup_free_ char *why = df_rule_describe(v.rule);

			log_error("%s is allowed only for the devices its device rules name, as %s "
				  "(%s:%u); allow does not widen them: edit that file to change "
				  "which devices it may take; nothing is changed",
				  s, why ? why : "a rule", v.rule->file ? v.rule->file : "?",
				  v.rule->line);
			return EXIT_ERROR;
		}
		r = edit_list(c, allow ? DF_SECTION_DENY : DF_SECTION_ALLOW, s, false);
		if (r != EXIT_FINE)
			break;
		if (allow && v.allowed && !(v.rule->file && streq(v.rule->file, c->path))) {
			_cleanup_free_ char *why = df_rule_describe(v.rule);

			log_info("%s is allowed already, by %s", s, why ? why : "a rule");
			continue;
		}
		r = edit_list(c, c->section, s, true);
		if (r == EXIT_FINE && strv_push(&c->done, s) < 0)
			r = ctl_oom();
	}
	return r;
}

/*
 * The drivers being allowed or denied against this system. Until reboot, a
 * change acts on this system alone, where a name it does not know does
 * nothing (a denied typo leaves the driver allowed): an error. A permanent
 * one may serve the next kernel: a warning, said with what it may mean. A
 * missing comma is an error either way. 0, or -EINVAL.
 */
static int check_names(const struct change *c)
{
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_check_names(ctl_ctx, c->next, c->path, c->done.v, c->done.n,
				  arg_permanent ? 0 : DF_CHECK_STRICT, &d);
	if (r == -ENOMEM)
		log_oom();
	ctl_print_diags(&d, stderr, false);
	r = r < 0 || d.errors > 0 ? -EINVAL : 0;
	df_diags_release(&d);
	return r;
}

/* Nor may a change take away what this system boots from (the guard): 0, or -EINVAL. */
static int check_boot(const struct change *c)
{
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_check_boot(ctl_ctx, c->next, &d);
	if (r == -ENOMEM)
		log_oom();
	ctl_print_diags(&d, stderr, false);
	r = r < 0 || d.errors > 0 ? -EINVAL : 0;
	df_diags_release(&d);
	return r;
}

/* The new drop-in, checked whole with the rest of the set; EXIT_FINE or EXIT_ERROR. */
static int compose(struct change *c)
{
	/* Nothing left but the line this command wrote: no file. */
	if (dropin_only_header(c->text))
		c->len = 0;
	if (load_set(c->policy, c->path, c->text, c->len, &c->next) < 0) {
		log_error("the change would leave the policy invalid; nothing is changed");
		return EXIT_ERROR;
	}
	if (check_names(c) < 0) {
		log_error("nothing is changed%s",
			  arg_permanent ? ""
					: " (a change until reboot names drivers of this system; "
					  "--permanent writes another kernel's for the next boot)");
		return EXIT_ERROR;
	}
	if (check_boot(c) < 0) {
		log_error("nothing is changed");
		return EXIT_ERROR;
	}
	/* allow wins over deny: a deny that another file's allow overrides changes nothing. */
	for (size_t i = 0; c->section == DF_SECTION_DENY && i < c->done.n; i++) {
		struct df_verdict v;

		decide(c->next, c->done.v[i], &v);
		if (v.allowed) {
			_cleanup_free_ char *why = df_rule_describe(v.rule);

			log_error("%s stays allowed: %s (%s:%u) wins over any deny; edit that file "
				  "instead; nothing is changed",
				  c->done.v[i], why ? why : "a rule",
				  v.rule->file ? v.rule->file : "?", v.rule->line);
			return EXIT_ERROR;
		}
	}
	return EXIT_FINE;
}

/* Without the kernel's filter, the devices an allowed driver may now take wait for it. */
static void bind_waiting(const struct change *c, enum df_mode mode)
{
	for (size_t i = 0; c->section == DF_SECTION_ALLOW && i < c->done.n; i++) {
		char *colon = strchr(c->done.v[i], ':');
		size_t bound = 0;

		*colon = '\0';
		if (mode == DF_MODE_FALLBACK && df_policy_mode(c->next) != DF_MODE_AUDIT)
			(void)df_bind_waiting(ctl_ctx, c->done.v[i], colon + 1, &bound);
		*colon = ':';
		if (bound)
			log_info("%s took %zu waiting device%s", c->done.v[i], bound,
				 bound == 1 ? "" : "s");
	}
}

/* Write the drop-in and apply the new set; undone when the apply fails. */
static int commit(struct change *c)
{
	enum df_mode mode = DF_MODE_AUTO;
	int r = dropin_write(c->path, c->text, c->len);

	if (r < 0)
		return log_error_errno(r, "cannot write '%s': %m; nothing is changed", c->path),
		       EXIT_ERROR;
	if (c->locked) {
		log_info("'%s' written; the kernel policy is locked, so it takes effect at the "
			 "next boot; the initramfs still carries the old policy: rebuild it "
			 "(dracut -f) and reboot",
			 c->path);
		return EXIT_FINE;
	}
	if (apply(c->next, &mode) < 0) {
		/* Never leave the drop-in and the kernel disagreeing: undo, apply the old set. */
		int u = dropin_write(c->path, c->old, c->old_len);

		log_error("the change could not be applied; '%s' is put back as it was%s", c->path,
			  u < 0 ? ", which failed too" : "");
		df_policy_free(c->cur);
		c->cur = NULL;
		if (u >= 0 && load_set(c->policy, NULL, NULL, 0, &c->cur) >= 0)
			(void)apply(c->cur, &mode);
		return EXIT_ERROR;
	}
	bind_waiting(c, mode);
	for (size_t i = 0; i < c->done.n; i++)
		printf("%s %s %s (%s)\n", c->done.v[i],
		       c->section == DF_SECTION_ALLOW ? "allowed" : "denied",
		       arg_permanent ? "now and from the next boot" : "until reboot", c->path);
	if (arg_permanent)
		log_info("'%s' written; the initramfs still carries the old policy: rebuild it "
			 "(dracut -f) so that boot enforces the change",
			 c->path);
	return EXIT_FINE;
}

static int change(int argc, char **argv, enum df_section section)
{
	struct change c = { .section = section, .lockfd = -1 };
	const char *bus, *driver;
	int r;

	for (int i = 1; i < argc; i++) {
		r = ctl_parse_subject(argv[i], &bus, &driver);
		if (r != EXIT_FINE)
			return r;
		argv[i][strlen(bus)] = ':'; /* "bus:driver" again, checked */
	}
	r = prepare(&c);
	if (r == EXIT_FINE)
		r = update_text(&c, argc - 1, argv + 1);
	/* Nothing to change (allowed already) is no error. */
	if (r == EXIT_FINE && c.done.n)
		r = compose(&c);
	if (r == EXIT_FINE && c.done.n)
		r = commit(&c);
	change_release(&c);
	return r;
}

static int run_allow(int argc, char **argv)
{
	return change(argc, argv, DF_SECTION_ALLOW);
}

static int run_deny(int argc, char **argv)
{
	return change(argc, argv, DF_SECTION_DENY);
}

static const struct option options[] = {
	{ "permanent", no_argument, &arg_permanent, 1 },
	{},
};

static const char help[] =
	"      --permanent        the change under /etc, for the next boot too (rebuild\n"
	"                         the initramfs); else under /run, until reboot\n";

const struct ctl_verb ctl_verb_allow = {
	.name = "allow",
	.args = "BUS:DRIVER...",
	.min_args = 1,
	.max_args = -1,
	.summary = "allow drivers now, until reboot (--permanent: also at boot)",
	.common = CTL_POLICY | CTL_SYSROOT,
	.options = options,
	.help = help,
	.run = run_allow,
};

const struct ctl_verb ctl_verb_deny = {
	.name = "deny",
	.args = "BUS:DRIVER...",
	.min_args = 1,
	.max_args = -1,
	.summary = "deny drivers now, until reboot (--permanent: also at boot)",
	.common = CTL_POLICY | CTL_SYSROOT,
	.options = options,
	.help = help,
	.run = run_deny,
};
