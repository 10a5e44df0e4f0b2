// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl cmdline's output: the options as they are (kernel-cmdline),
 * as a GRUB, dracut or mkosi configuration snippet, or as JSON with what each
 * option names and what boot options cannot cover.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl-cmdline.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "strbuf.h"

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

/* The options on standard output, in --format's syntax: the exit code. */
int cmdline_print(const struct df_bootopts *b)
{
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

/* ---- JSON ---- */

void cmdline_print_json(const struct df_bootopts *b)
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
