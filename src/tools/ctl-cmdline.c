// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl cmdline: the policy as kernel boot options for the target
 * kernel (the running one, or the one recorded under --sysroot): the filter_*
 * lists on a patched kernel, then initcall_blacklist= and module_blacklist=
 * as far as the command line's 2047 bytes allow. The options on standard
 * output (as they are, or as a GRUB or dracut configuration snippet); what
 * did not fit and what boot options cannot cover on standard error.
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

/* ---- GRUB and dracut snippets ---- */

static bool cmdline_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* What grub.cfg's parser takes as plain text: anything else is quoted. */
static bool grub_plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_-.,:/=+@%", c)))
			return false;
	}
	return true;
}

/*
 * One kernel parameter as grub.cfg must spell it for the kernel to get it
 * back: GRUB's parser drops quotes, expands $, takes \ as an escape and ends
 * a command at ';'; its linux loader puts back quotes around a parameter that
 * holds a blank. So the value is written unquoted for the kernel and, unless
 * plain, double-quoted for GRUB with \, " and $ escaped.
 */
static int grub_param(struct strbuf *sb, const char *p, size_t n)
{
	const char *eq, *v;
	size_t namelen, vlen;
	int r;

	/* The kernel's own quotes around the whole parameter (or its value) go. */
	if (n >= 2 && p[0] == '"' && p[n - 1] == '"')
		p++, n -= 2;
	eq = memchr(p, '=', n);
	namelen = eq ? (size_t)(eq - p) + 1 : 0;
	v = p + namelen;
	vlen = n - namelen;
	if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"')
		v++, vlen -= 2;
	r = strbuf_appendn(sb, p, namelen);
	if (r < 0 || grub_plain(v, vlen))
		return r < 0 ? r : strbuf_appendn(sb, v, vlen);
	r = strbuf_appendc(sb, '"');
	for (size_t i = 0; r >= 0 && i < vlen; i++) {
		if (v[i] == '\\' || v[i] == '"' || v[i] == '$')
			r = strbuf_appendc(sb, '\\');
		if (r >= 0)
			r = strbuf_appendc(sb, v[i]);
	}
	return r < 0 ? r : strbuf_appendc(sb, '"');
}

/* The options in grub.cfg's syntax, parameter by parameter (split as the kernel splits them). */
static int grub_text(const char *line, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	for (const char *s = line; r >= 0;) {
		const char *start;
		bool quoted = false;

		while (cmdline_space(*s))
			s++;
		if (!*s)
			break;
		for (start = s; *s && (quoted || !cmdline_space(*s)); s++)
			if (*s == '"')
				quoted = !quoted;
		if (sb.len)
			r = strbuf_appendc(&sb, ' ');
		if (r >= 0)
			r = grub_param(&sb, start, (size_t)(s - start));
	}
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret = strbuf_steal(&sb);
	return *ret ? 0 : -ENOMEM;
}

/* @prefix and @s as one shell word in single quotes. */
static void print_sh_single(const char *prefix, const char *s)
{
	putchar('\'');
	fputs(prefix, stdout);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	putchar('\'');
}

static int print_grub(const struct df_bootopts *b)
{
	_cleanup_free_ char *text = NULL;
	int r = grub_text(b->line, &text);

	if (r < 0)
		return r;
	printf("# /etc/default/grub.d/drvfilter.cfg: drvfilter's boot options (drvfilterctl "
	       "cmdline\n"
	       "# --format=grub%s%s), for every menu entry. Run update-grub after changing it.\n",
	       *b->release ? ", kernel " : "", *b->release ? b->release : "");
	printf("GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX:+$GRUB_CMDLINE_LINUX }\"");
	print_sh_single("", text);
	putchar('\n');
	return 0;
}

static void print_dracut(const struct df_bootopts *b)
{
	printf("# /etc/dracut.conf.d/drvfilter.conf: drvfilter's boot options (drvfilterctl "
	       "cmdline\n"
	       "# --format=dracut%s%s), built into unified kernel images by dracut --uefi.\n",
	       *b->release ? ", kernel " : "", *b->release ? b->release : "");
	/* Appended to what other files set: with a blank in front. */
	printf("kernel_cmdline+=");
	print_sh_single(" ", b->line);
	putchar('\n');
}

/*
 * mkosi's KernelCommandLine= (a list, appended to by every file that sets
 * it) splits its value at blanks and knows no quotes: a quoted value, such
 * as a filter_* list naming a driver with a blank, would reach the kernel cut
 * in two. Such options are refused rather than written wrong.
 */
static int print_mkosi(const struct df_bootopts *b)
{
	if (strpbrk(b->line, "\"'\\"))
		return log_error_errno(-EINVAL,
				       "the options hold a quoted value, which mkosi's "
				       "KernelCommandLine= would split at its blanks: use "
				       "--format=kernel-cmdline for /etc/kernel/cmdline instead");
	printf("# mkosi.conf.d/50-drvfilter.conf: drvfilter's boot options (drvfilterctl "
	       "cmdline\n"
	       "# --format=mkosi%s%s), appended to the image's kernel command line.\n",
	       *b->release ? ", kernel " : "", *b->release ? b->release : "");
	printf("[Content]\nKernelCommandLine=%s\n", b->line);
	return 0;
}

/* ---- the report on standard error ---- */

static size_t count_kind(const struct df_bootopts *b, enum df_bootopt_kind kind, bool fits)
{
	size_t n = 0;

	for (size_t i = 0; i < b->nentries; i++)
		n += b->entries[i].kind == kind && b->entries[i].fits == fits;
	return n;
}

/* The options of @kind beyond the budget (modules: those that drive a device here). */
static const char *left_names(const struct df_bootopts *b, enum df_bootopt_kind kind,
			      struct strbuf *sb)
{
	strbuf_clear(sb);
	for (size_t i = 0; i < b->nentries; i++) {
		const struct df_bootopt *o = &b->entries[i];

		if (o->kind != kind || o->fits ||
		    (kind == DF_BOOTOPT_MODULE && o->tier != DF_TIER_DEVICE_MODULE))
			continue;
		(void)strbuf_append(sb, sb->len ? ", " : "");
		(void)strbuf_append_escaped(sb, o->name);
	}
	return strbuf_str(sb);
}

/* Listed one by one: built-in drivers, and modules that drive a device here. */
static bool listed(const struct df_uncovered *u)
{
	return !u->module || u->tier != DF_TIER_MODULE;
}

/* The denied drivers and modules boot options cannot cover: one line per reason. */
static void report_uncovered(const struct df_bootopts *b, struct strbuf *a, struct strbuf *c)
{
	size_t tree_uncovered = 0;
	bool any = false;

	for (size_t i = 0; i < b->nuncovered; i++) {
		if (listed(&b->uncovered[i]))
			any = true;
		else
			tree_uncovered++;
	}
	if (any)
		log_info("not coverable by boot options (the userspace layers still act on them):");
	/* One line per reason, naming what it holds for, in the order of the first. */
	for (size_t i = 0; i < b->nuncovered; i++) {
		const struct df_uncovered *u = &b->uncovered[i];
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = listed(&b->uncovered[k]) && streq(b->uncovered[k].reason, u->reason);
		if (!listed(u) || seen)
			continue;
		strbuf_clear(c);
		for (size_t k = i; k < b->nuncovered; k++) {
			const struct df_uncovered *v = &b->uncovered[k];

			if (!listed(v) || !streq(v->reason, u->reason))
				continue;
			(void)strbuf_append(c, c->len ? ", " : "");
			(void)strbuf_append(c, v->module ? "module " : "");
			(void)strbuf_append_escaped(c, v->subject);
		}
		log_info("  %s: %s", strbuf_str(c), ctl_esc(a, u->reason));
	}
	if (tree_uncovered)
		log_info("and %zu more denied modules of the tree not coverable (see --json)",
			 tree_uncovered);
}

/* The init calls and modules named, and those that did not fit. */
static void report_entries(const struct df_bootopts *b, struct strbuf *c)
{
	size_t ic_fit = count_kind(b, DF_BOOTOPT_INITCALL, true);
	size_t ic_left = count_kind(b, DF_BOOTOPT_INITCALL, false);
	size_t mod_fit = count_kind(b, DF_BOOTOPT_MODULE, true);
	size_t mod_left = count_kind(b, DF_BOOTOPT_MODULE, false);

	if (!b->trace)
		log_info("initcall_blacklist: none: %s", b->trace_why);
	else
		log_info(
			"initcall_blacklist: %zu init calls (%zu of built-in modules whose drivers "
			"drove a device the host offers)",
			ic_fit, b->fit[DF_TIER_BOUND]);
	if (ic_left)
		log_info("  %zu did not fit: %s", ic_left, left_names(b, DF_BOOTOPT_INITCALL, c));
	if (!b->modules) {
		log_info("module_blacklist: none: no module tree for this kernel");
		return;
	}
	log_info("module_blacklist: %zu of %zu modules whose drivers are all denied (%zu of %zu "
		 "that drive a device here); %zu did not fit: the modprobe.d blacklist keeps them "
		 "from alias loading, not from insmod",
		 mod_fit, mod_fit + mod_left, b->fit[DF_TIER_DEVICE_MODULE],
		 b->fit[DF_TIER_DEVICE_MODULE] + b->left[DF_TIER_DEVICE_MODULE], mod_left);
	if (b->left[DF_TIER_DEVICE_MODULE])
		log_info("  of those that drive a device here: %s",
			 left_names(b, DF_BOOTOPT_MODULE, c));
}

static void report(const struct df_bootopts *b)
{
	struct strbuf a = STRBUF_INIT, c = STRBUF_INIT;

	if (!*b->release) {
		log_info("no kernel is recorded%s: only the filter_* options of the patched kernel",
			 arg_sysroot ? " under the sysroot" : "");
		return;
	}
	if (arg_kernel && !b->initcalls)
		/* Another kernel than the one running: its kallsyms is not there to count. */
		log_info("kernel %s (%s): installed, not running; options from its module tree",
			 ctl_esc(&a, b->release),
			 b->patched  ? "patched: the driver filter"
			 : b->filter ? "not known to lack the driver filter: filter_* included"
				     : "stock: no driver filter");
	else
		log_info("kernel %s (%s): %zu init calls in kallsyms; %s", ctl_esc(&a, b->release),
			 b->patched  ? "patched: the driver filter"
			 : b->filter ? "not known to lack the driver filter: filter_* included"
				     : "stock: no driver filter",
			 b->ninitcalls,
			 b->trace ? "an init-call trace ties built-in drivers to them"
				  : "no init-call trace");
	if (b->record_skipped)
		log_info("the recording left %zu entries out (see its drvfilter-record): what it "
			 "lacks is not covered",
			 b->record_skipped);
	if (b->trace_skipped)
		log_info(
			"the traced boot had initcall_blacklist= (%zu init calls): what they "
			"skipped is not in its trace and is not named again; record a boot without "
			"the boot options",
			b->trace_skipped);
	report_entries(b, &c);
	if (b->unreadable)
		log_info("%zu module files could not be read for their init function's name",
			 b->unreadable);
	report_uncovered(b, &a, &c);
	if (b->headroom)
		log_info("%zu of %zu bytes used; the rest of the kernel command line takes %zu of "
			 "%d, and %zu are left free for options added later (--max-bytes may use "
			 "them)",
			 strlen(b->line), b->max_bytes, strlen(b->rest) + (*b->rest ? 1 : 0),
			 DF_KERNEL_CMDLINE_MAX - 1, b->headroom);
	else
		log_info("%zu of %zu bytes used; the rest of the kernel command line takes %zu of "
			 "%d",
			 strlen(b->line), b->max_bytes, strlen(b->rest) + (*b->rest ? 1 : 0),
			 DF_KERNEL_CMDLINE_MAX - 1);
	strbuf_release(&a);
	strbuf_release(&c);
}

/* ---- JSON ---- */

static void print_json(const struct df_bootopts *b)
{
	struct json j;

	ctl_json_init(&j);
	json_object_begin(&j);
	json_field_string(&j, "cmdline", b->line);
	json_field_int(&j, "bytes", (long long)strlen(b->line));
	json_field_int(&j, "max_bytes", (long long)b->max_bytes);
	json_field_string(&j, "rest", b->rest);
	json_key(&j, "kernel");
	json_object_begin(&j);
	json_field_string(&j, "release", *b->release ? b->release : NULL);
	json_field_bool(&j, "patched", b->patched);
	json_field_bool(&j, "filter_options", b->filter);
	json_field_int(&j, "initcalls", (long long)b->ninitcalls);
	json_field_bool(&j, "trace", b->trace);
	json_field_string(&j, "trace_why", b->trace ? NULL : b->trace_why);
	json_object_end(&j);
	for (int kind = DF_BOOTOPT_INITCALL; kind <= DF_BOOTOPT_MODULE; kind++) {
		json_key(&j,
			 kind == DF_BOOTOPT_INITCALL ? "initcall_blacklist" : "module_blacklist");
		json_array_begin(&j);
		for (size_t i = 0; i < b->nentries; i++) {
			const struct df_bootopt *o = &b->entries[i];

			if ((int)o->kind != kind)
				continue;
			json_object_begin(&j);
			json_field_string(&j, kind == DF_BOOTOPT_INITCALL ? "function" : "module",
					  o->name);
			if (kind == DF_BOOTOPT_INITCALL)
				json_field_string(&j, "module", o->module);
			json_field_string(&j, "rank", df_bootopt_tier_name(o->tier));
			json_field_bool(&j, "fits", o->fits);
			json_key(&j, "drivers");
			json_array_begin(&j);
			for (size_t k = 0; k < o->ndrivers; k++)
				json_string(&j, o->drivers[k]);
			json_array_end(&j);
			json_object_end(&j);
		}
		json_array_end(&j);
	}
	json_key(&j, "not_coverable");
	json_array_begin(&j);
	for (size_t i = 0; i < b->nuncovered; i++) {
		const struct df_uncovered *u = &b->uncovered[i];

		json_object_begin(&j);
		json_field_string(&j, u->module ? "module" : "driver", u->subject);
		json_field_string(&j, "rank", df_bootopt_tier_name(u->tier));
		json_field_string(&j, "reason", u->reason);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	json_finish(&j);
}

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
	_cleanup_free_ char *line = NULL, *text = NULL, *copy = NULL;
	int r = df_cmdline_update(base.line, options, &line);

	if (r >= 0)
		r = note_replaced(options);
	if (r < 0)
		return ctl_oom();
	copy = strdup(line);
	if (!copy)
		return ctl_oom();
	if (df_cmdline_has_override(copy))
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
		/* Every one of them enforces, before user space can say "audit". */
		df_policy_free(p);
		log_info("the policy is in audit mode: boot options would enforce it, so there "
			 "are none; set mode = auto, kernel or fallback first");
		if (arg_update)
			return write_update("");
		if (arg_json != JSON_OFF)
			printf("{\"cmdline\":\"\",\"audit\":true}\n");
		return EXIT_FINE;
	}
	r = guard_boot(p);
	if (r) {
		df_policy_free(p);
		return r;
	}
	r = df_bootopts_compute(ctl_ctx, p, NULL, NULL, (size_t)arg_max_bytes, &b);
	df_policy_free(p);
	if (r == -E2BIG && b->headroom && strlen(b->line) <= b->max_bytes + b->headroom) {
		log_error("the filter_* options would take %zu bytes: they fit only into the %zu "
			  "bytes left free for options added later (%zu are left before them); "
			  "--max-bytes %zu uses them",
			  strlen(b->line), b->headroom, b->max_bytes, b->max_bytes + b->headroom);
		return EXIT_ERROR;
	}
	if (r == -E2BIG && b->max_bytes + b->headroom == DF_KERNEL_CMDLINE_MAX - 1) {
		log_error("the boot options would take %zu bytes, but an x86 kernel command line "
			  "holds at most %d; shorten the lists (globs, ALL) or use the policy file "
			  "alone",
			  strlen(b->line), DF_KERNEL_CMDLINE_MAX - 1);
		return EXIT_ERROR;
	}
	if (r == -E2BIG) {
		log_error(
			"the filter_* options would take %zu bytes, but only %zu are left (an x86 "
			"kernel command line holds at most %d, the rest of it takes %zu, and %zu "
			"are kept free for options added later); shorten the lists (globs, ALL) or "
			"use the policy file alone",
			strlen(b->line), b->max_bytes, DF_KERNEL_CMDLINE_MAX - 1,
			strlen(b->rest) + (*b->rest ? 1 : 0), b->headroom);
		return EXIT_ERROR;
	}
	if (r < 0) {
		log_error_errno(r, "%m");
		return EXIT_ERROR;
	}
	if (arg_json != JSON_OFF) {
		print_json(b);
		return EXIT_FINE;
	}
	report(b);
	/* Denied code the options would name, and none of it fits: refuse, rather than drop. */
	if (arg_update && !*b->line && b->nentries) {
		log_error("no boot option fits into %s: the rest of its line takes %zu of %d bytes "
			  "(see above); nothing written",
			  arg_update, strlen(b->rest) + (*b->rest ? 1 : 0),
			  DF_KERNEL_CMDLINE_MAX - 1);
		return EXIT_ERROR;
	}
	if (arg_update)
		return write_update(b->line);
	if (!*b->line) {
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
		return EXIT_FINE;
	}
	if (ctl_format_is("grub")) {
		if (print_grub(b) < 0)
			return ctl_oom();
		return EXIT_FINE;
	}
	if (ctl_format_is("dracut")) {
		print_dracut(b);
		return EXIT_FINE;
	}
	if (ctl_format_is("mkosi"))
		return print_mkosi(b) < 0 ? EXIT_ERROR : EXIT_FINE;
	/*
	 * kernel-cmdline: the options alone, a line to append to the one in
	 * /etc/kernel/cmdline (kernel-install's, for unified kernel images
	 * too), which takes no comments; plain output is the same today.
	 */
	printf("%s\n", b->line);
	/*
	 * Plain output on a terminal is read by a person, who may paste it into
	 * GRUB_CMDLINE_LINUX="...": its own quotes would end that string there,
	 * and GRUB takes the ';' left outside for the end of a command.
	 */
	if (!arg_format && strchr(b->line, '"') && isatty(STDOUT_FILENO))
		log_info("to install them, use --format=grub (a file for /etc/default/grub.d), "
			 "dracut, kernel-cmdline or mkosi: pasted into GRUB_CMDLINE_LINUX=\"...\", "
			 "their quotes would end its string");
	return EXIT_FINE;
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
