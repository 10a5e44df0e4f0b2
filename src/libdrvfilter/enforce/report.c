// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record of an apply: every action in order, the counts, and one
 * key=value log line per action (what the kernel log of a boot shows).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "array.h"
#include "enforce/enforce-private.h"
#include "strbuf.h"
#include "time-util.h"

static const char *const mode_names[] = {
	[DF_MODE_AUTO] = "auto",
	[DF_MODE_KERNEL] = "kernel",
	[DF_MODE_FALLBACK] = "fallback",
	[DF_MODE_AUDIT] = "audit",
};

const char *df_mode_name(enum df_mode mode)
{
	return mode_names[mode];
}

static const char *const action_names[] = {
	[DF_ACT_KERNEL_LIST] = "kernel-list",
	[DF_ACT_ALLOWED] = "allowed",
	[DF_ACT_UNBIND] = "unbind",
	[DF_ACT_KEEP] = "keep",
	[DF_ACT_BLACKLIST] = "blacklist",
	[DF_ACT_LOCK] = "lock",
	[DF_ACT_CHECK] = "check",
	[DF_ACT_PIN] = "pin",
};

const char *df_action_name(enum df_action_kind kind)
{
	return action_names[kind];
}

const char *df_action_result(enum df_action_kind kind, int error, bool dry_run, bool audit)
{
	/* A check fails when the locked kernel disagrees with the policy. */
	if (error)
		return kind == DF_ACT_CHECK ? "mismatch" : "error";
	return dry_run ? "dry-run" : audit ? "audit" : "ok";
}

static const char *const audit_names[] = {
	[DF_ACT_KERNEL_LIST] = "would-kernel-list",
	[DF_ACT_ALLOWED] = "would-allow",
	[DF_ACT_UNBIND] = "would-unbind",
	[DF_ACT_KEEP] = "would-keep",
	[DF_ACT_BLACKLIST] = "would-blacklist",
	[DF_ACT_LOCK] = "would-lock",
	[DF_ACT_CHECK] = "check",
	[DF_ACT_PIN] = "would-pin",
};

static const char *label(enum df_action_kind kind, const char *value, bool audit)
{
	if (!audit)
		return df_action_name(kind);
	if (kind == DF_ACT_ALLOWED && value && streq(value, "0"))
		return "would-deny";
	return audit_names[kind];
}

const char *df_action_label(const struct df_action *a, bool audit)
{
	return label(a->kind, a->value, audit);
}

int df_report_new(const struct df_policy *p, bool dry_run, struct df_report **ret)
{
	struct df_report *rep = calloc(1, sizeof(*rep));

	if (!rep)
		return -ENOMEM;
	rep->policy_path = strdup(p->path);
	rep->policy_sha256 = strdup(p->sha256);
	if (!rep->policy_path || !rep->policy_sha256) {
		df_report_free(rep);
		return -ENOMEM;
	}
	rep->fail_closed = p->fail_closed;
	rep->dry_run = dry_run;
	rep->audit = p->mode == DF_MODE_AUDIT;
	/* Not measured until df_measure() runs (a dry run, a udev event never is). */
	rep->measurement.setting = p->measure;
	rep->measurement.pcr = p->measure_pcr;
	rep->started_usec = now_usec(CLOCK_REALTIME);
	*ret = rep;
	return 0;
}

struct df_report *df_report_free(struct df_report *rep)
{
	if (!rep)
		return NULL;
	for (size_t i = 0; i < rep->nblocks; i++)
		free(rep->blocks[i]);
	free(rep->blocks);
	free(rep->actions);
	free(rep->measurement.event);
	free(rep->measurement.error);
	free(rep->policy_path);
	free(rep->policy_sha256);
	free(rep->initramfs_sha256);
	free(rep->blacklist_dir);
	free(rep);
	return NULL;
}

/*
 * A field's value is cut after this many bytes, and ends in "..." then: a
 * record holds at most four names and a list, so it stays well inside what
 * /dev/kmsg takes in one write (976 bytes on Linux 6.1 with caller ids), and
 * the fields after them (result=, error=) are never lost. The state file
 * keeps every value whole.
 */
#define FIELD_MAX 128

/* How many bytes from @s on, at most @max, a log line takes as they are. */
static size_t plain_run(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && (unsigned char)s[n] >= 0x20 && (unsigned char)s[n] < 0x7f &&
	       s[n] != '"' && s[n] != '\\')
		n++;
	return n;
}

/*
 * " key=value", the value quoted when it holds a blank or a quote, escaped
 * always: a quote or a backslash behind a backslash, other bytes outside
 * printable ASCII as \xNN. The runs between them are copied whole.
 */
static int append_field(struct strbuf *sb, const char *key, const char *value)
{
	bool quote = strpbrk(value, " \"") || !*value;
	int r = strbuf_appendc(sb, ' ');
	size_t start;

	if (r >= 0)
		r = strbuf_append(sb, key);
	if (r >= 0)
		r = strbuf_appendn(sb, "=\"", quote ? 2 : 1);
	start = sb->len;
	for (const char *s = value; r >= 0 && *s;) {
		size_t used = sb->len - start, n;

		if (used >= FIELD_MAX) {
			r = strbuf_append(sb, "...");
			break;
		}
		n = plain_run(s, FIELD_MAX - used);
		if (n)
			r = strbuf_appendn(sb, s, n);
		else if (*s == '"' || *s == '\\')
			r = strbuf_appendn(sb, (const char[]){ '\\', *s }, 2);
		else
			r = strbuf_append_escaped_max(sb, (const char[]){ *s, 0 }, 1);
		s += n ? n : 1;
	}
	if (r >= 0 && quote)
		r = strbuf_appendc(sb, '"');
	return r;
}

/* The devices a driver's bit detached, as one log line's fields. */
struct detached {
	char *const *devices;
	size_t n;
};

/* " key=N": as " key=%zu" prints it, without printf's cost per line. */
static int append_count(struct strbuf *sb, const char *key, size_t n)
{
	char digits[24], *p = digits + sizeof(digits);
	int r = strbuf_appendc(sb, ' ');

	do
		*--p = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	if (r >= 0)
		r = strbuf_append(sb, key);
	if (r >= 0)
		r = strbuf_appendc(sb, '=');
	if (r >= 0)
		r = strbuf_appendn(sb, p, (size_t)(digits + sizeof(digits) - p));
	return r;
}

static int append_detached(struct strbuf *sb, const struct detached *d)
{
	struct strbuf list = STRBUF_INIT;
	int r = append_count(sb, "detached", d->n);

	/*
	 * A comma inside a name (sysfs allows it) is written \x2c, a backslash
	 * doubled, so that the commas of the list are the only ones.
	 */
	for (size_t i = 0; r >= 0 && i < d->n && list.len <= FIELD_MAX; i++) {
		if (i)
			r = strbuf_appendc(&list, ',');
		/* The runs between them copied whole. */
		for (const char *c = d->devices[i]; r >= 0 && *c;) {
			size_t n = strcspn(c, ",\\");

			if (n) {
				r = strbuf_appendn(&list, c, n);
				c += n;
			} else {
				r = strbuf_append(&list, *c == ',' ? "\\x2c" : "\\\\");
				c++;
			}
		}
	}
	if (r >= 0)
		r = append_field(sb, "devices", list.s);
	strbuf_release(&list);
	return r;
}

static void log_action(struct df_run *run, int prio, enum df_action_kind kind, const char *bus,
		       const char *driver, const char *device, const char *value, int error,
		       const struct detached *detached)
{
	struct strbuf sb = STRBUF_INIT;
	int r = strbuf_append(&sb, "action=");

	if (r >= 0)
		r = strbuf_append(&sb, label(kind, value, run->rep->audit));
	if (r >= 0 && bus)
		r = append_field(&sb, "bus", bus);
	if (r >= 0 && driver)
		r = append_field(&sb, kind == DF_ACT_KERNEL_LIST ? "list" : "driver", driver);
	if (r >= 0 && device)
		r = append_field(&sb, "device", device);
	if (r >= 0 && value)
		r = append_field(&sb, "value", value);
	if (r >= 0 && detached && detached->n)
		r = append_detached(&sb, detached);
	if (r >= 0)
		r = append_field(&sb, "result",
				 df_action_result(kind, error, run->rep->dry_run, run->rep->audit));
	if (r >= 0 && error && kind != DF_ACT_CHECK)
		r = append_field(&sb, "error", strerror(-error));
	if (r >= 0)
		df_log_cond(run->ctx, prio, "%s", sb.s);
	strbuf_release(&sb);
}

/* The actions' strings come in blocks of this size (a longer one gets its own). */
#define BLOCK_SIZE (64 * 1024)

/* A copy of @s in the report's blocks (NULL for NULL): freed with the report. */
static int keep_string(struct df_report *rep, const char *s, char **ret)
{
	size_t n;

	*ret = NULL;
	if (!s)
		return 0;
	n = strlen(s) + 1;
	if (!rep->nblocks || n > rep->block_size - rep->block_used) {
		size_t size = n > BLOCK_SIZE ? n : BLOCK_SIZE;
		char **slot = ARRAY_GROW_COUNTED(rep->blocks, rep->nblocks);

		if (!slot || !(*slot = malloc(size)))
			return -ENOMEM;
		rep->nblocks++;
		rep->block_size = size;
		rep->block_used = 0;
	}
	*ret = memcpy(rep->blocks[rep->nblocks - 1] + rep->block_used, s, n);
	rep->block_used += n;
	return 0;
}

/* How an action is logged: a line of its own, a quiet one, or as part of another's. */
enum logged {
	LOGGED,
	LOGGED_QUIET,
	LOGGED_ELSEWHERE,
	LOGGED_BY_CALLER, /* a failure too: the caller logs and counts it */
};

static int record(struct df_run *run, enum df_action_kind kind, const char *bus, const char *driver,
		  const char *device, const char *value, int error, enum logged logged,
		  const struct detached *detached)
{
	struct df_report *rep = run->rep;
	struct df_action *a;
	bool confirm = logged == LOGGED_QUIET && !error;
	int prio = error ? LOG_ERR : confirm ? LOG_INFO : LOG_NOTICE;

	/* The one place an action is counted. */
	if (error) {
		if (logged != LOGGED_BY_CALLER)
			rep->counts.errors++;
	} else if (kind == DF_ACT_UNBIND)
		rep->counts.unbound++;
	else if (kind == DF_ACT_KEEP)
		rep->counts.kept++;
	else if (kind == DF_ACT_BLACKLIST)
		rep->counts.blacklisted++;
	if (logged != LOGGED_BY_CALLER && (logged != LOGGED_ELSEWHERE || error) &&
	    df_log_enabled(run->ctx, prio))
		log_action(run, prio, kind, bus, driver, device, value, error, detached);
	if (confirm)
		return 0;
	a = ARRAY_GROW_COUNTED(rep->actions, rep->nactions);
	if (!a)
		return -ENOMEM;
	*a = (struct df_action){ .kind = kind, .error = error };
	if (keep_string(rep, bus, &a->bus) < 0 || keep_string(rep, driver, &a->driver) < 0 ||
	    keep_string(rep, device, &a->device) < 0 || keep_string(rep, value, &a->value) < 0)
		return -ENOMEM;
	rep->nactions++;
	return 0;
}

int df_record(struct df_run *run, enum df_action_kind kind, const char *bus, const char *driver,
	      const char *device, const char *value, int error)
{
	return record(run, kind, bus, driver, device, value, error, LOGGED, NULL);
}

int df_record_quiet(struct df_run *run, enum df_action_kind kind, const char *bus,
		    const char *driver, const char *value, int error)
{
	return record(run, kind, bus, driver, NULL, value, error, LOGGED_QUIET, NULL);
}

int df_record_detach(struct df_run *run, const char *bus, const char *driver, const char *value,
		     const struct strv *devices)
{
	const struct detached d = { devices->v, devices->n };
	int r = record(run, DF_ACT_ALLOWED, bus, driver, NULL, value, 0, LOGGED, &d);

	for (size_t i = 0; i < devices->n && r >= 0; i++)
		r = record(run, DF_ACT_UNBIND, bus, driver, devices->v[i], NULL, 0,
			   LOGGED_ELSEWHERE, NULL);
	return r;
}

/* The module names of one blacklist line: a kernel log record holds about 1000 bytes. */
#define MODULES_LINE_MAX 768

static void log_blacklist_line(struct df_run *run, int prio, const char *modules, size_t count,
			       int error)
{
	struct strbuf sb = STRBUF_INIT;
	int r = strbuf_append(&sb, "action=");

	if (r >= 0)
		r = strbuf_append(&sb, label(DF_ACT_BLACKLIST, NULL, run->rep->audit));
	if (r >= 0 && modules) {
		r = strbuf_append(&sb, " modules=");
		if (r >= 0)
			r = strbuf_append(&sb, modules);
	} else if (r >= 0) {
		r = append_count(&sb, "count", count);
	}
	if (r >= 0)
		r = append_field(&sb, "result",
				 df_action_result(DF_ACT_BLACKLIST, error, run->rep->dry_run,
						  run->rep->audit));
	if (r >= 0 && error)
		r = append_field(&sb, "error", strerror(-error));
	if (r >= 0)
		df_log_cond(run->ctx, prio, "%s", sb.s);
	strbuf_release(&sb);
}

int df_record_blacklist(struct df_run *run, char *const *mods, size_t n, int error)
{
	bool log = df_log_enabled(run->ctx, LOG_NOTICE);
	struct strbuf line = STRBUF_INIT;
	size_t count = 0;
	int r = 0;

	for (size_t i = 0; i < n && r >= 0; i++) {
		if (!mods[i])
			continue;
		count++;
		r = record(run, DF_ACT_BLACKLIST, NULL, mods[i], NULL, NULL, error,
			   LOGGED_BY_CALLER, NULL);
		if (r < 0 || error || !log)
			continue;
		if (line.len && line.len + 1 + strlen(mods[i]) > MODULES_LINE_MAX) {
			log_blacklist_line(run, LOG_NOTICE, line.s, 0, 0);
			strbuf_clear(&line);
		}
		if (line.len)
			r = strbuf_appendc(&line, ',');
		if (r >= 0)
			r = strbuf_append(&line, mods[i]);
	}
	if (r >= 0 && line.len)
		log_blacklist_line(run, LOG_NOTICE, line.s, 0, 0);
	/* One file was not written: one error, one line (the state lists the modules). */
	if (r >= 0 && error && count) {
		run->rep->counts.errors++;
		log_blacklist_line(run, LOG_ERR, NULL, count, error);
	}
	strbuf_release(&line);
	return r;
}

void df_record_decision(struct df_run *run, const struct df_verdict *v)
{
	run->rep->counts.drivers++;
	if (v->allowed)
		run->rep->counts.allowed++;
	else
		run->rep->counts.denied++;
}

/* A problem's own words: the names go in fields of their own. */
#define PROBLEM_MAX 256

_printf_(6, 0) static void log_problem(struct df_run *run, int prio, const char *action,
				       const char *bus, const char *driver, const char *fmt,
				       va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	char msg[PROBLEM_MAX];
	int r;

	if (!df_log_enabled(run->ctx, prio))
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	r = strbuf_append(&sb, "action=");
	if (r >= 0)
		r = strbuf_append(&sb, action);
	if (r >= 0 && bus)
		r = append_field(&sb, "bus", bus);
	if (r >= 0 && driver)
		r = append_field(&sb, "driver", driver);
	if (r >= 0)
		r = append_field(&sb, prio <= LOG_ERR ? "error" : "message", msg);
	if (r >= 0)
		df_log_cond(run->ctx, prio, "%s", sb.s);
	strbuf_release(&sb);
}

void df_problem(struct df_run *run, const char *bus, const char *driver, const char *fmt, ...)
{
	va_list ap;

	run->rep->counts.errors++;
	va_start(ap, fmt);
	log_problem(run, LOG_ERR, "error", bus, driver, fmt, ap);
	va_end(ap);
}

void df_critical(struct df_run *run, const char *fmt, ...)
{
	va_list ap;

	run->rep->counts.errors++;
	va_start(ap, fmt);
	log_problem(run, LOG_CRIT, "error", NULL, NULL, fmt, ap);
	va_end(ap);
}

void df_warning(struct df_run *run, const char *bus, const char *driver, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_problem(run, LOG_WARNING, "warning", bus, driver, fmt, ap);
	va_end(ap);
}
