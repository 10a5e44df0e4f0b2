// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel command lines as the kernel splits them (kernel/params.c's
 * next_arg(): blanks inside double quotes do not split, a quote around the
 * whole parameter or around its value goes, "--" hands the rest to init,
 * '-' and '_' in a name are the same):
 * the boot options a line carries, for status; drvfilter=off, for apply;
 * the rest of a target's line, which drvfilter's options must share 2047
 * bytes with, and that line rebuilt with them, for cmdline.
 */
#include <errno.h>

#include "core/core-private.h"
#include "strbuf.h"
#include "strv.h"

/* The parameters drvfilter sets, and the ones a recording boot adds (drvfilterctl(8)). */
static const char *const own_params[] = {
	"initcall_blacklist",
	"module_blacklist",
	"filter_allow_drivers",
	"filter_deny_drivers",
	"drvfilter",
	"initcall_debug",
	"dyndbg",
	"log_buf_len",
};

static bool cmdline_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

struct param {
	const char *raw; /* the parameter as written */
	size_t rawlen;
	char *name; /* without quotes, '-' folded to '_' */
	char *value; /* without quotes; NULL when there is no '=' */
	bool init; /* after "--": init's, not the kernel's */
};

/* The next parameter of *@s: 1, 0 at the end, -ENOMEM. */
static int next_param(const char **s, bool *after_dashes, struct param *p)
{
	const char *a = *s, *start;
	bool in_quote = false;
	size_t i, eq = 0;
	char *copy;

	while (cmdline_space(*a))
		a++;
	if (!*a)
		return 0;
	start = a;
	if (*a == '"') {
		a++;
		in_quote = true;
	}
	for (i = 0; a[i] && (in_quote || !cmdline_space(a[i])); i++) {
		if (!eq && a[i] == '=')
			eq = i + 1;
		if (a[i] == '"')
			in_quote = !in_quote;
	}
	*p = (struct param){ .raw = start,
			     .rawlen = (size_t)(a + i - start),
			     .init = *after_dashes };
	copy = strndup(a, i);
	if (!copy)
		return -ENOMEM;
	/* A closing quote of the whole parameter or of its value is dropped. */
	if (i && copy[i - 1] == '"' && (start != a || (eq && copy[eq] == '"')))
		copy[i - 1] = '\0';
	if (eq) {
		copy[eq - 1] = '\0';
		p->value = strdup(copy + eq + (copy[eq] == '"'));
	}
	p->name = copy;
	if (eq && !p->value) {
		free(copy);
		return -ENOMEM;
	}
	if (!*after_dashes && streq(copy, "--") && !eq)
		*after_dashes = true;
	else
		/* The kernel's parameq(): '-' and '_' in a name are the same. */
		for (char *c = copy; *c; c++)
			if (*c == '-')
				*c = '_';
	*s = a + i;
	return 1;
}

static void param_release(struct param *p)
{
	free(p->name);
	free(p->value);
}

bool df_cmdline_name_ok(const char *name)
{
	size_t n = 0;

	for (const char *s = name; *s; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return n > 0 && n <= DF_NAME_MAX;
}

static bool own_param(const struct param *p)
{
	if (p->init)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(own_params); i++)
		if (streq(p->name, own_params[i]))
			return true;
	return false;
}

/* Append the comma-separated names of @value that are fit for a command line. */
static int push_list(struct strv *l, const char *value)
{
	_cleanup_free_ char *copy = strdup(value ? value : "");
	char *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (char *n = strtok_r(copy, ",", &save); n && r >= 0; n = strtok_r(NULL, ",", &save))
		if (df_cmdline_name_ok(n))
			r = strv_push_unique(l, n);
	return r;
}

int df_cmdline_opts_parse(const char *cmdline, struct df_cmdline_opts *o)
{
	struct strv ic = STRV_INIT, mods = STRV_INIT, cons = STRV_INIT;
	bool dashes = false;
	struct param p;
	int r;

	*o = (struct df_cmdline_opts){ .len = strlen(cmdline) };
	while ((r = next_param(&cmdline, &dashes, &p)) > 0) {
		if (p.init) {
			param_release(&p);
			continue;
		}
		if (streq(p.name, "initcall_blacklist")) {
			r = push_list(&ic, p.value);
		} else if (streq(p.name, "module_blacklist")) {
			/* A core parameter: the last one is the one the kernel keeps. */
			strv_release(&mods);
			r = push_list(&mods, p.value);
		} else if (streq(p.name, "filter_allow_drivers") && p.value) {
			o->filter_repeated |= !!o->filter_allow;
			free(o->filter_allow);
			o->filter_allow = TAKE_PTR(p.value);
		} else if (streq(p.name, "filter_deny_drivers") && p.value) {
			o->filter_repeated |= !!o->filter_deny;
			free(o->filter_deny);
			o->filter_deny = TAKE_PTR(p.value);
		} else if (streq(p.name, "root") && p.value) {
			free(o->root);
			o->root = TAKE_PTR(p.value);
		} else if (streq(p.name, "console") && p.value) {
			/* "ttyS0,115200n8": the device is before the options. */
			p.value[strcspn(p.value, ",")] = '\0';
			r = strv_push(&cons, p.value);
		}
		param_release(&p);
		if (r < 0)
			break;
	}
	o->initcalls = strv_steal(&ic, &o->ninitcalls);
	o->modules = strv_steal(&mods, &o->nmodules);
	o->consoles = strv_steal(&cons, &o->nconsoles);
	if (r < 0)
		df_cmdline_opts_release(o);
	return r;
}

const char *df_cmdline_filter_distrust(const struct df_cmdline_opts *o)
{
	if (!o->filter_allow && !o->filter_deny)
		return NULL;
	if (o->filter_repeated)
		return "filter_allow_drivers= or filter_deny_drivers= given more than once";
	if (o->len >= DF_KERNEL_CMDLINE_MAX - 1)
		return "the command line fills what the kernel keeps of it, and may have been cut";
	if (!o->filter_deny)
		return "filter_allow_drivers= given without filter_deny_drivers=";
	return NULL;
}

int df_cmdline_opts_read(struct df_ctx *ctx, struct df_cmdline_opts *o)
{
	char buf[4096];
	ssize_t n = df_read_file(ctx, "/proc/cmdline", buf, sizeof(buf));

	*o = (struct df_cmdline_opts){ 0 };
	if (n < 0)
		return (int)n;
	return df_cmdline_opts_parse(buf, o);
}

void df_cmdline_opts_release(struct df_cmdline_opts *o)
{
	strv_free_array(o->initcalls, o->ninitcalls);
	strv_free_array(o->modules, o->nmodules);
	free(o->filter_allow);
	free(o->filter_deny);
	free(o->root);
	strv_free_array(o->consoles, o->nconsoles);
	*o = (struct df_cmdline_opts){ 0 };
}

bool df_cmdline_opts_has(char **list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (streq(list[i], name))
			return true;
	return false;
}

/* The options cmdline computes: replaced, never repeated, when a line is updated. */
static bool computed_param(const struct param *p)
{
	return !p->init &&
	       (streq(p->name, "initcall_blacklist") || streq(p->name, "module_blacklist") ||
		streq(p->name, "filter_allow_drivers") || streq(p->name, "filter_deny_drivers"));
}

/*
 * Not for a new line started from the running one: what the boot loader
 * adds (a new entry gets its own), and drvfilter's and a recording boot's
 * options (drvfilter=off among them).
 */
static bool not_carried(const struct param *p)
{
	return own_param(p) ||
	       (!p->init && (streq(p->name, "BOOT_IMAGE") || streq(p->name, "initrd")));
}

/*
 * @line without the parameters @drop picks, @insert (unless NULL) placed
 * before "--" (what follows it is init's) or at the end.
 */
static int rebuild(const char *line, bool (*drop)(const struct param *p), const char *insert,
		   char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	bool dashes = false, inserted = !insert || !*insert;
	struct param p;
	int r;

	while ((r = next_param(&line, &dashes, &p)) > 0) {
		bool at_dashes = !p.init && streq(p.name, "--") && !p.value;

		if (at_dashes && !inserted) {
			r = sb.len ? strbuf_appendc(&sb, ' ') : 0;
			if (r >= 0)
				r = strbuf_append(&sb, insert);
			inserted = true;
		}
		if (r >= 0 && !drop(&p)) {
			r = sb.len ? strbuf_appendc(&sb, ' ') : 0;
			if (r >= 0)
				r = strbuf_appendn(&sb, p.raw, p.rawlen);
		}
		param_release(&p);
		if (r < 0)
			break;
	}
	if (r >= 0 && !inserted) {
		r = sb.len ? strbuf_appendc(&sb, ' ') : 0;
		if (r >= 0)
			r = strbuf_append(&sb, insert);
	}
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*ret = strbuf_steal(&sb);
	return *ret ? 0 : -ENOMEM;
}

/* The options of @line that df_cmdline_update() replaces, as written (added to @ret). */
static int computed(const char *line, struct strv *ret)
{
	bool dashes = false;
	struct param p;
	int r;

	while ((r = next_param(&line, &dashes, &p)) > 0) {
		_cleanup_free_ char *raw = computed_param(&p) ? strndup(p.raw, p.rawlen) : NULL;

		if (computed_param(&p))
			r = raw ? strv_push(ret, raw) : -ENOMEM;
		param_release(&p);
		if (r < 0)
			return r;
	}
	return r;
}

int df_cmdline_replaced(const char *line, const char *options, char **ret)
{
	struct strv old = STRV_INIT, new = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;
	int r = computed(line, &old);

	if (r >= 0)
		r = computed(options, &new);
	for (size_t i = 0; r >= 0 && i < old.n; i++)
		if (!strv_contains(&new, old.v[i]))
			r = strbuf_appendf(&sb, "%s\n", old.v[i]);
	strv_release(&old);
	strv_release(&new);
	*ret = r >= 0 ? strbuf_steal(&sb) : NULL;
	if (r >= 0 && !*ret)
		r = -ENOMEM;
	strbuf_release(&sb);
	return r < 0 ? r : 0;
}

int df_cmdline_update(const char *line, const char *options, char **ret)
{
	return rebuild(line, computed_param, options, ret);
}

int df_cmdline_running(struct df_ctx *ctx, char **ret)
{
	char buf[4096];
	ssize_t n = df_read_file(ctx, "/proc/cmdline", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return rebuild(buf, not_carried, NULL, ret);
}

int df_cmdline_rest(struct df_ctx *ctx, char **ret)
{
	char buf[4096];

	/* A line the next boot starts from keeps all but the options computed anew. */
	if (df_ctx_get_cmdline(ctx))
		return rebuild(df_ctx_get_cmdline(ctx), computed_param, NULL, ret);
	if (df_read_file(ctx, "/proc/cmdline", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	return rebuild(buf, own_param, NULL, ret);
}

int df_cmdline_has_override(const char *cmdline)
{
	bool after_dashes = false, off = false;
	struct param p;
	int r;

	/* The last drvfilter= counts, as the kernel's own parameters do; after "--" they are init's. */
	while ((r = next_param(&cmdline, &after_dashes, &p)) > 0 && !after_dashes) {
		if (streq(p.name, "drvfilter"))
			off = p.value && streq(p.value, "off");
		param_release(&p);
	}
	if (r > 0)
		param_release(&p);
	return r < 0 ? r : off;
}

/* What /proc/cmdline can hold: COMMAND_LINE_SIZE is 2048 on x86, 4096 on some others. */
#define PROC_CMDLINE_MAX 4096

int df_cmdline_override(struct df_ctx *ctx)
{
	char buf[PROC_CMDLINE_MAX];
	ssize_t n = df_read_file(ctx, "/proc/cmdline", buf, sizeof(buf));

	return n < 0 ? (int)n : df_cmdline_has_override(buf);
}
