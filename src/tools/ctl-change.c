// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl allow|deny BUS:DRIVER... [--permanent], and list-changes: a
 * policy changed at run time, through a drop-in of its own.
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

static int change(int argc, char **argv, enum df_section section)
{
	_cleanup_free_ char *policy = ctl_policy_path(), *path = NULL, *old = NULL;
	_cleanup_(df_policy_freep) struct df_policy *cur = NULL, *next = NULL;
	struct strv allow = STRV_INIT, deny = STRV_INIT, done = STRV_INIT;
	struct strbuf text = STRBUF_INIT;
	const char *buses[argc], *drivers[argc];
	bool locked, changed = false;
	enum df_mode mode = DF_MODE_AUTO;
	_cleanup_close_ int lockfd = -1;
	size_t old_len = 0;
	int r, ret = EXIT_ERROR;

	for (int i = 1; i < argc; i++) {
		r = ctl_parse_subject(argv[i], &buses[i], &drivers[i]);
		if (r)
			return r;
		argv[i][strlen(buses[i])] = ':'; /* "bus:driver" again, checked */
	}
	if (!arg_sysroot && geteuid() != 0) {
		log_error("only root can change the policy");
		return EXIT_ERROR;
	}
	path = policy ? changes_path(policy) : NULL;
	if (!path)
		return log_oom(), EXIT_ERROR;
	locked = kernel_locked();
	if (locked && !arg_permanent) {
		log_error("the kernel policy is locked until reboot: nothing changes now; make the "
			  "change for the next boot with --permanent, rebuild the initramfs "
			  "(dracut -f) and reboot");
		return EXIT_ERROR;
	}
	lockfd = df_lock_take(ctl_ctx);
	if (lockfd < 0)
		log_error_errno(lockfd, "cannot take '/run/drvfilter/lock': %m; going on");
	if (load_set(policy, NULL, NULL, 0, &cur) < 0) {
		log_error(
			"the policy is not valid: fix it before changing it (drvfilterctl check)");
		return EXIT_ERROR;
	}
	r = read_changes(path, &old, &old_len);
	if (r < 0)
		return log_error_errno(r, "cannot read '%s': %m", path), EXIT_ERROR;
	r = load_changes(path, old, old_len, &allow, &deny);
	if (r < 0)
		goto out;

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const struct df_rule *rule;
		bool allowed = decides_allowed(cur, s, &rule);

		if (section == DF_SECTION_ALLOW) {
			strv_remove(&deny, s);
			if (allowed && !(rule->file && streq(rule->file, path))) {
				_cleanup_free_ char *why = df_rule_describe(rule);

				log_info("%s is allowed already, by %s", s, why ? why : "a rule");
				continue;
			}
			r = strv_push_unique(&allow, s);
		} else {
			strv_remove(&allow, s);
			r = strv_push_unique(&deny, s);
		}
		if (r < 0)
			goto oom;
		changed = true;
		r = strv_push(&done, s);
		if (r < 0)
			goto oom;
	}
	if (!changed) {
		ret = EXIT_FINE;
		goto out;
	}
	r = strbuf_append(&text, "# Written by drvfilterctl allow/deny");
	if (r >= 0)
		r = strbuf_append(&text, arg_permanent ? ": permanent changes (rebuild the "
							 "initramfs for boot).\n"
						       : ": runtime changes, gone at reboot.\n");
	if (r >= 0)
		r = append_section(&text, "allow", &allow);
	if (r >= 0)
		r = append_section(&text, "deny", &deny);
	if (r < 0)
		goto oom;
	/* No rule left: no file. */
	if (!allow.n && !deny.n)
		strbuf_clear(&text);

	/* The new set, checked whole, before anything is written. */
	if (load_set(policy, path, strbuf_str(&text), text.len, &next) < 0) {
		log_error("the change would leave the policy invalid; nothing is changed");
		goto out;
	}
	/* allow wins over deny: a deny that another file's allow overrides changes nothing. */
	for (size_t i = 0; section == DF_SECTION_DENY && i < done.n; i++) {
		const struct df_rule *rule;

		if (decides_allowed(next, done.v[i], &rule)) {
			_cleanup_free_ char *why = df_rule_describe(rule);

			log_error("%s stays allowed: %s (%s:%u) wins over any deny; edit that file "
				  "instead; nothing is changed",
				  done.v[i], why ? why : "a rule", rule->file ? rule->file : "?",
				  rule->line);
			goto out;
		}
	}
	r = write_changes(path, strbuf_str(&text), text.len);
	if (r < 0) {
		log_error_errno(r, "cannot write '%s': %m; nothing is changed", path);
		goto out;
	}
	if (locked) {
		log_info(
			"'%s' written; the kernel policy is locked, so it takes effect at the next "
			"boot; the initramfs still carries the old policy: rebuild it (dracut -f) "
			"and reboot",
			path);
		ret = EXIT_FINE;
		goto out;
	}
	r = apply(next, &mode);
	if (r < 0) {
		/* Never leave the drop-in and the kernel disagreeing: undo, apply the old set. */
		int u = write_changes(path, old, old_len);

		log_error("the change could not be applied; '%s' is put back as it was%s", path,
			  u < 0 ? ", which failed too" : "");
		df_policy_free(cur);
		cur = NULL;
		if (u >= 0 && load_set(policy, NULL, NULL, 0, &cur) >= 0)
			(void)apply(cur, &mode);
		goto out;
	}
	/* Without the kernel's filter, the devices an allowed driver may now take wait for it. */
	for (size_t i = 0; section == DF_SECTION_ALLOW && i < done.n; i++) {
		char *colon = strchr(done.v[i], ':');
		size_t bound = 0;

		*colon = '\0';
		if (mode == DF_MODE_FALLBACK && df_policy_mode(next) != DF_MODE_AUDIT)
			(void)df_bind_waiting(ctl_ctx, done.v[i], colon + 1, &bound);
		*colon = ':';
		if (bound)
			log_info("%s took %zu waiting device%s", done.v[i], bound,
				 bound == 1 ? "" : "s");
	}
	for (size_t i = 0; i < done.n; i++)
		printf("%s %s %s (%s)\n", done.v[i],
		       section == DF_SECTION_ALLOW ? "allowed" : "denied",
		       arg_permanent ? "now and from the next boot" : "until reboot", path);
	if (arg_permanent)
		log_info("'%s' written; the initramfs still carries the old policy: rebuild it "
			 "(dracut -f) so that boot enforces the change",
			 path);
	ret = EXIT_FINE;
	goto out;
oom:
	log_oom();
out:
	strv_release(&allow);
	strv_release(&deny);
	strv_release(&done);
	strbuf_release(&text);
	return ret;
}

int verb_allow(int argc, char **argv)
{
	return change(argc, argv, DF_SECTION_ALLOW);
}

int verb_deny(int argc, char **argv)
{
	return change(argc, argv, DF_SECTION_DENY);
}

/* The drop-ins of the policy, runtime ones last, each with its rules. */
int verb_list_changes(int argc, char **argv)
{
	_cleanup_free_ char *policy = ctl_policy_path();
	_cleanup_(df_policy_freep) struct df_policy *p = NULL;

	if (!policy)
		return EXIT_ERROR;
	if (load_set(policy, NULL, NULL, 0, &p) < 0)
		return EXIT_ERROR;
	if (df_policy_nfiles(p) == 1) {
		printf("no drop-ins: the policy is %s alone\n", policy);
		return EXIT_FINE;
	}
	for (size_t f = 1; f < df_policy_nfiles(p); f++) {
		const char *file = df_policy_file(p, f);
		_cleanup_free_ char *runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);
		bool rt = runtime && strncmp(file, runtime, strlen(runtime)) == 0;

		printf("%s (%s)\n", file, rt ? "until reboot" : "permanent");
		for (size_t i = 0; i < df_policy_nrules(p); i++) {
			const struct df_rule *r = df_policy_rule(p, i);
			_cleanup_free_ char *s = NULL;

			if (!streq(r->file, file))
				continue;
			s = df_rule_describe(r);
			printf("  line %u: %s\n", r->line, s ? s : "?");
		}
	}
	return EXIT_FINE;
}
