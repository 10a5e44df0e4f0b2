// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl allow|deny BUS:DRIVER... [--permanent]: a policy changed at
 * run time, through a drop-in of its own.
 *
 * Until reboot, the change is /run/drvfilter.conf.d/50-drvfilterctl.conf;
 * with --permanent, /etc/drvfilter.conf.d/50-drvfilterctl.conf (the initramfs
 * must be rebuilt for boot). The new set is checked, the drop-in replaced
 * atomically, and the policy applied at once, as drvfilter-apply would: in
 * kernel mode an allowed driver's bit goes to 1 and the kernel binds its
 * waiting devices; in fallback mode they are offered to it through its bind
 * file. A deny detaches. A locked kernel policy refuses runtime changes, and
 * an apply that fails puts the drop-in back as it was and applies that again,
 * so that the file and the kernel never disagree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"
#include "strv.h"

#define CHANGES_NAME "50-drvfilterctl.conf"

static int arg_permanent;

/* Where this command's drop-in is: the runtime one, or with --permanent the policy's. */
static char *changes_path(const char *policy)
{
	_cleanup_free_ char *runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);
	char *path;

	if (!runtime)
		return NULL;
	if (arg_permanent ? asprintf(&path, "%s.d/" CHANGES_NAME, policy) < 0
			  : asprintf(&path, "%s/" CHANGES_NAME, runtime) < 0)
		return NULL;
	return path;
}

/* The whole file at @path, "" when there is none. */
static int read_changes(const char *path, char **ret, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;

	if (fd < 0 && errno == ENOENT) {
		*ret = strdup("");
		*len = 0;
		return *ret ? 0 : -ENOMEM;
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return df_read_full_fd(fd, 1024 * 1024, ret, len);
}

/* The "bus:driver" rules of @path alone, by section, into @allow and @deny. */
static int load_changes(const char *path, const char *text, size_t len, struct strv *allow,
			struct strv *deny)
{
	struct df_policy_source src = { path, text, len };
	struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	if (len == 0)
		return 0;
	df_diags_init(&d);
	r = df_policy_load_edited(ctl_ctx, path, ctl_load_flags() & DF_LOAD_ANY_OWNER, &src, &d,
				  &p);
	if (r < 0) {
		ctl_print_diags(&d, stderr, true);
		df_diags_release(&d);
		return log_error_errno(-EINVAL, "'%s' is not valid: fix it or remove it first",
				       path);
	}
	df_diags_release(&d);
	for (size_t i = 0; r >= 0 && i < df_policy_nrules(p); i++) {
		const struct df_rule *rule = df_policy_rule(p, i);
		_cleanup_free_ char *s = NULL;

		if (asprintf(&s, "%s:%s", rule->key, rule->name) < 0)
			r = -ENOMEM;
		else
			r = strv_push_unique(rule->section == DF_SECTION_ALLOW ? allow : deny, s);
	}
	df_policy_free(p);
	return r;
}

static void strv_remove(struct strv *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (streq(l->v[i], s)) {
			free(l->v[i]);
			memmove(l->v + i, l->v + i + 1, (l->n - i - 1) * sizeof(*l->v));
			l->n--;
			return;
		}
}

/* "[allow]\nbus = a, b\n..." of @rules ("bus:name", sorted: one line per bus). */
static int append_section(struct strbuf *sb, const char *section, struct strv *rules)
{
	const char *cur = NULL;
	int r = 0;

	if (!rules->n)
		return 0;
	strv_sort(rules);
	r = strbuf_appendf(sb, "\n[%s]\n", section);
	for (size_t i = 0; i < rules->n && r >= 0; i++) {
		const char *colon = strchr(rules->v[i], ':');
		size_t blen = (size_t)(colon - rules->v[i]);

		if (cur && strlen(cur) == blen && strncmp(cur, rules->v[i], blen) == 0) {
			r = strbuf_appendf(sb, ", %s", colon + 1);
			continue;
		}
		r = strbuf_appendf(sb, "%s%.*s = %s", cur ? "\n" : "", (int)blen, rules->v[i],
				   colon + 1);
		cur = rules->v[i];
	}
	return r < 0 ? r : strbuf_append(sb, "\n");
}

/* Replace @path by @text (@len bytes) atomically, root-owned 0644; remove it when @len is 0. */
static int write_changes(const char *path, const char *text, size_t len)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash;

	if (!dir)
		return -ENOMEM;
	if (len == 0)
		return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return ctl_install_file(path, text, len, 0644);
}

/* What the set decides for @subject ("bus:driver") now, and by which rule. */
static bool decides_allowed(const struct df_policy *p, const char *subject,
			    const struct df_rule **rule)
{
	_cleanup_free_ char *s = strdup(subject);
	struct df_verdict v;
	char *colon;

	if (!s)
		return false;
	colon = strchr(s, ':');
	*colon = '\0';
	df_policy_decide(p, s, colon + 1, &v);
	*rule = v.rule;
	return v.allowed;
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

/* One allow or deny: the drop-in, its rules before and after, the policy's set before and after. */
struct change {
	enum df_section section;
	char *policy, *path, *old;
	size_t old_len;
	bool locked;
	int lockfd;
	struct strv allow, deny, done; /* the drop-in's rules; the subjects it changes */
	struct strbuf text; /* the new drop-in */
	struct df_policy *cur, *next;
};

static void change_release(struct change *c)
{
	free(c->policy);
	free(c->path);
	free(c->old);
	strv_release(&c->allow);
	strv_release(&c->deny);
	strv_release(&c->done);
	strbuf_release(&c->text);
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
	c->path = c->policy ? changes_path(c->policy) : NULL;
	if (!c->path)
		return ctl_oom();
	c->locked = kernel_locked();
	if (c->locked && !arg_permanent) {
		log_error("the kernel policy is locked until reboot: nothing changes now; make the "
			  "change for the next boot with --permanent, rebuild the initramfs "
			  "(dracut -f) and reboot");
		return EXIT_ERROR;
	}
	c->lockfd = df_lock_take(ctl_ctx);
	if (c->lockfd < 0)
		log_error_errno(c->lockfd, "cannot take '/run/drvfilter/lock': %m; going on");
	if (load_set(c->policy, NULL, NULL, 0, &c->cur) < 0) {
		log_error(
			"the policy is not valid: fix it before changing it (drvfilterctl check)");
		return EXIT_ERROR;
	}
	r = read_changes(c->path, &c->old, &c->old_len);
	if (r < 0)
		return ctl_error_errno(r, "cannot read '%s': %m", c->path);
	r = load_changes(c->path, c->old, c->old_len, &c->allow, &c->deny);
	if (r == -ENOMEM)
		log_oom();
	return r < 0 ? EXIT_ERROR : EXIT_FINE;
}

/* The drop-in's lists with @subjects moved in; what changes is in c->done. */
static int update_lists(struct change *c, int n, char **subjects)
{
	int r = 0;

	for (int i = 0; i < n && r >= 0; i++) {
		const char *s = subjects[i];
		const struct df_rule *rule;
		bool allowed = decides_allowed(c->cur, s, &rule);

		if (c->section == DF_SECTION_ALLOW) {
			strv_remove(&c->deny, s);
			if (allowed && !(rule->file && streq(rule->file, c->path))) {
				_cleanup_free_ char *why = df_rule_describe(rule);

				log_info("%s is allowed already, by %s", s, why ? why : "a rule");
				continue;
			}
			r = strv_push_unique(&c->allow, s);
		} else {
			strv_remove(&c->allow, s);
			r = strv_push_unique(&c->deny, s);
		}
		if (r >= 0)
			r = strv_push(&c->done, s);
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

/* The new drop-in's text, checked whole with the rest of the set; EXIT_FINE or EXIT_ERROR. */
static int compose(struct change *c)
{
	int r = strbuf_append(&c->text, "# Written by drvfilterctl allow/deny");

	if (r >= 0)
		r = strbuf_append(&c->text, arg_permanent ? ": permanent changes (rebuild the "
							    "initramfs for boot).\n"
							  : ": runtime changes, gone at reboot.\n");
	if (r >= 0)
		r = append_section(&c->text, "allow", &c->allow);
	if (r >= 0)
		r = append_section(&c->text, "deny", &c->deny);
	if (r < 0)
		return ctl_oom();
	/* No rule left: no file. */
	if (!c->allow.n && !c->deny.n)
		strbuf_clear(&c->text);
	if (load_set(c->policy, c->path, strbuf_str(&c->text), c->text.len, &c->next) < 0) {
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
	/* allow wins over deny: a deny that another file's allow overrides changes nothing. */
	for (size_t i = 0; c->section == DF_SECTION_DENY && i < c->done.n; i++) {
		const struct df_rule *rule;

		if (decides_allowed(c->next, c->done.v[i], &rule)) {
			_cleanup_free_ char *why = df_rule_describe(rule);

			log_error("%s stays allowed: %s (%s:%u) wins over any deny; edit that file "
				  "instead; nothing is changed",
				  c->done.v[i], why ? why : "a rule", rule->file ? rule->file : "?",
				  rule->line);
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
	int r = write_changes(c->path, strbuf_str(&c->text), c->text.len);

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
		int u = write_changes(c->path, c->old, c->old_len);

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
	if (r == EXIT_FINE && update_lists(&c, argc - 1, argv + 1) < 0) {
		log_oom();
		r = EXIT_ERROR;
	}
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
