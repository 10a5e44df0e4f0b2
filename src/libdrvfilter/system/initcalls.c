// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the kernel image runs at boot, for initcall_blacklist=: its init calls
 * from kallsyms, what each one registered from the kernel log of a boot with
 * initcall_debug and the driver core's debug messages (the trace), and the
 * init functions of loadable modules, whose names must not collide with the
 * ones skipped (read by system/module-elf.c).
 *
 * kallsyms names each init call of the image after its module (KBUILD_MODNAME)
 * and function: __initcall__kmod_i8042__416_1674_i8042_init6 is i8042_init, at
 * level 6 (device, module_init() of a built-in module). initcall_blacklist=
 * takes function names, compared with strcmp(3) against the name kallsyms
 * gives the function being called, module inits included (init/main.c).
 *
 * The trace: "calling  FN+0x0/0x.. @ 1" ... "initcall FN+0x0/0x.. returned R"
 * bracket each built-in init call (they run one after another, in PID 1);
 * between them, "bus: 'B': add driver D", "bus: 'B': registered" and
 * "device class 'C': registering" say what it registered.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "system/system-private.h"
#include "strbuf.h"
#include "strv.h"

#define KALLSYMS_PREFIX "__initcall__kmod_"

/* The level at the end of "<fn><level>", cut off in place; NULL when there is none. */
static const char *cut_level(char *s, char level[static 8])
{
	static const char *const words[] = { "early", "rootfs", "con" };
	size_t n = strlen(s), k = 0;

	for (size_t i = 0; i < ARRAY_SIZE(words) && !k; i++) {
		size_t w = strlen(words[i]);

		if (n > w && streq(s + n - w, words[i]))
			k = w;
	}
	if (!k && n > 2 && s[n - 1] == 's' && s[n - 2] >= '0' && s[n - 2] <= '7')
		k = 2;
	if (!k && n > 1 && s[n - 1] >= '0' && s[n - 1] <= '7')
		k = 1;
	if (!k)
		return NULL;
	snprintf(level, 8, "%s", s + n - k);
	s[n - k] = '\0';
	return level;
}

int df_initcall_parse(const char *symbol, char **module, char **fn, char level[static 8])
{
	const char *s = startswith(symbol, KALLSYMS_PREFIX), *p;
	_cleanup_free_ char *mod = NULL, *rest = NULL;

	if (!s)
		return -EINVAL;
	/* <module>__<counter>_<line>_<fn><level>: the first "__" followed by the two numbers. */
	for (p = s; (p = strstr(p, "__")); p++) {
		const char *q = p + 2;
		size_t d1 = strspn(q, "0123456789"), d2;

		if (!d1 || q[d1] != '_')
			continue;
		d2 = strspn(q + d1 + 1, "0123456789");
		if (d2 && q[d1 + 1 + d2] == '_')
			break;
	}
	if (!p || p == s)
		return -EINVAL;
	mod = strndup(s, (size_t)(p - s));
	p += 2;
	p += strspn(p, "0123456789") + 1;
	p += strspn(p, "0123456789") + 1;
	rest = strdup(p);
	if (!mod || !rest)
		return -ENOMEM;
	if (!cut_level(rest, level) || !df_cmdline_name_ok(mod) || !df_cmdline_name_ok(rest))
		return -EINVAL;
	*module = TAKE_PTR(mod);
	*fn = TAKE_PTR(rest);
	return 0;
}

void df_initcalls_release(struct df_initcalls *ic)
{
	for (size_t i = 0; i < ic->n; i++) {
		free(ic->v[i].module);
		free(ic->v[i].fn);
	}
	free(ic->v);
	strmap_release(&ic->by_fn);
	*ic = (struct df_initcalls){ 0 };
}

int df_initcalls_load(struct df_ctx *ctx, struct df_initcalls *ic)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/proc/kallsyms");
	_cleanup_free_ char *line = NULL;
	size_t size = 0, cap = 0;
	FILE *f;
	int r = 0;

	*ic = (struct df_initcalls){ 0 };
	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		char *name = strstr(line, " " KALLSYMS_PREFIX), *mod = NULL, *fn = NULL;
		char level[8];
		struct df_initcall *c;

		if (!name)
			continue;
		name++;
		name[strcspn(name, " \t\n")] = '\0';
		r = df_initcall_parse(name, &mod, &fn, level);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			ic->skipped++;
			r = 0;
			continue;
		}
		c = ARRAY_GROW(ic->v, cap, ic->n);
		if (!c) {
			free(mod);
			free(fn);
			r = -ENOMEM;
			break;
		}
		*c = (struct df_initcall){ .module = mod, .fn = fn };
		memcpy(c->level, level, sizeof(level));
		c->device = streq(level, "6") || streq(level, "6s");
		ic->n++;
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	fclose(f);
	/* The index by function, once the array stops moving: a second call of a name is a collision. */
	for (size_t i = 0; r == 0 && i < ic->n; i++) {
		void *old;

		r = strmap_put(&ic->by_fn, ic->v[i].fn, &ic->v[i], &old);
		if (r == -EEXIST) {
			((struct df_initcall *)old)->shared = true;
			ic->v[i].shared = true;
			r = 0;
		}
	}
	if (r < 0)
		df_initcalls_release(ic);
	return r;
}

/* ---- the trace ---- */

static void call_release(struct df_trace_call *c)
{
	free(c->fn);
	strv_release(&c->drivers);
	strv_release(&c->buses);
	strv_release(&c->classes);
}

void df_trace_release(struct df_trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		call_release(t->calls[i]), free(t->calls[i]);
	free(t->calls);
	strmap_release(&t->by_fn);
	*t = (struct df_trace){ 0 };
}

/* "FN+0x0/0x618" (built in) or "FN+0x0/0x1000 [MOD]": FN of a built-in call, else NULL. */
static char *builtin_fn(const char *s)
{
	size_t n = strcspn(s, "+ ");
	char *fn;

	if (s[n] != '+' || strstr(s, " ["))
		return NULL;
	fn = strndup(s, n);
	if (fn && !df_cmdline_name_ok(fn)) {
		free(fn);
		return NULL;
	}
	return fn;
}

/* The text between the first pair of quotes after @prefix, into @buf; NULL when absent. */
static const char *quoted(const char *msg, const char *prefix, const char **after, char *buf,
			  size_t size)
{
	const char *s = startswith(msg, prefix), *e;

	if (!s || !(e = strchr(s, '\'')) || (size_t)(e - s) >= size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)(e - s), s);
	*after = e + 1;
	return buf;
}

static int trace_line(struct df_trace *t, const char *msg, struct df_trace_call **open, size_t *cap)
{
	char bus[DF_NAME_MAX + 1], drv[2 * DF_NAME_MAX + 2];
	const char *s, *after;
	char *fn;
	int r;

	if ((s = startswith(msg, "calling  "))) {
		struct df_trace_call *c, **slot;

		*open = NULL;
		fn = builtin_fn(s);
		if (!fn)
			return 0;
		t->ncalls_seen++;
		c = strmap_get(&t->by_fn, fn);
		if (c) {
			/* The same name twice: which one registered what cannot be told. */
			c->ambiguous = true;
			free(fn);
			*open = c;
			return 0;
		}
		slot = ARRAY_GROW(t->calls, *cap, t->n);
		c = calloc(1, sizeof(*c));
		if (!slot || !c) {
			free(c);
			free(fn);
			return -ENOMEM;
		}
		c->fn = fn;
		r = strmap_put(&t->by_fn, c->fn, c, NULL);
		if (r < 0) {
			call_release(c);
			free(c);
			return r;
		}
		t->calls[t->n++] = c;
		*open = c;
		return 0;
	}
	if (startswith(msg, "initcall ")) {
		if (*open && strstr(msg, " returned "))
			(*open)->returned = true;
		*open = NULL;
		return 0;
	}
	if (quoted(msg, "bus: '", &after, bus, sizeof(bus))) {
		if ((s = startswith(after, ": add driver "))) {
			t->registrations++;
			if (!*open || df_sysfs_name_check(s) < 0 || strlen(s) > DF_NAME_MAX)
				return 0;
			snprintf(drv, sizeof(drv), "%s:%s", bus, s);
			return strv_push_unique(&(*open)->drivers, drv);
		}
		if (streq(after, ": registered") && *open)
			return strv_push_unique(&(*open)->buses, bus);
		return 0;
	}
	if (quoted(msg, "device class '", &after, bus, sizeof(bus)) &&
	    streq(after, ": registering") && *open)
		return strv_push_unique(&(*open)->classes, bus);
	return 0;
}

/*
 * @buf holds /dev/kmsg records, "PRI,SEQ,USEC,FLAGS[,...];MESSAGE", each on a
 * line, continuation lines (" KEY=VALUE") after them; anything else is skipped.
 */
int df_trace_parse(struct df_trace *t, char *buf)
{
	struct df_trace_call *open = NULL;
	size_t cap = 0;
	bool first = true;
	int r = 0;

	*t = (struct df_trace){ 0 };
	for (char *line = buf, *next; line && *line && r >= 0; line = next) {
		char *msg, *comma;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		msg = strchr(line, ';');
		if (line[0] == ' ' || !msg || !(comma = strchr(line, ',')) || comma > msg)
			continue;
		*msg++ = '\0';
		t->records++;
		if (first) {
			/* The ring buffer's first record is number 0 unless older ones were lost. */
			t->from_start = strtoul(comma + 1, NULL, 10) == 0;
			first = false;
		}
		r = trace_line(t, msg, &open, &cap);
	}
	if (r < 0)
		df_trace_release(t);
	return r;
}

int df_trace_load(struct df_ctx *ctx, struct df_trace *t)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	*t = (struct df_trace){ 0 };
	r = df_kmsg_read(ctx, &buf, &len);
	if (r < 0)
		return r;
	return df_trace_parse(t, buf);
}
