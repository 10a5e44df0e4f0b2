// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading a policy: read the file once, scan it for line numbers and traps
 * (policy-lex.c), hand the very same bytes to iniparser, check that both saw
 * the same sections and keys, then validate and compile what iniparser read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iniparser.h>

#include "array.h"
#include "drvfilter-private.h"
#include "sha256.h"
#include "strbuf.h"
#include "suggest.h"

static const char *const sections[] = { "allow", "deny", "filter" };

static int read_file(const char *path, unsigned flags, struct df_diags *diags, char **ret,
		     size_t *retlen)
{
	_cleanup_close_ int fd = -1;
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	int r;

	/* O_NONBLOCK: a FIFO in its place must not hang the boot. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		r = -errno;
		df_diags_add(diags, DF_ERROR, 0, "cannot open: %s", strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		df_diags_add(diags, DF_ERROR, 0, "cannot stat: %s", strerror(-r));
		return r;
	}
	if (S_ISDIR(st.st_mode)) {
		df_diags_add(diags, DF_ERROR, 0, "is a directory, not a policy file");
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		df_diags_add(diags, DF_ERROR, 0, "is not a regular file");
		return -EINVAL;
	}
	if (!(flags & DF_LOAD_ANY_OWNER)) {
		if (st.st_uid != 0) {
			df_diags_add(diags, DF_ERROR, 0,
				     "is owned by uid %u, not root: anyone who can write it "
				     "controls which drivers run",
				     (unsigned)st.st_uid);
			return -EPERM;
		}
		if (st.st_mode & (S_IWGRP | S_IWOTH)) {
			df_diags_add(diags, DF_ERROR, 0,
				     "is writable by group or others (mode %04o); make it 0644 "
				     "or stricter",
				     (unsigned)(st.st_mode & 07777));
			return -EPERM;
		}
	}
	/* Read to EOF rather than trusting st_size: the file may change under us. */
	r = df_read_full_fd(fd, DF_POLICY_SIZE_MAX, &buf, &len);
	if (r == -EFBIG) {
		df_diags_add(diags, DF_ERROR, 0, "is larger than %d bytes", DF_POLICY_SIZE_MAX);
		return r;
	}
	if (r < 0) {
		df_diags_add(diags, DF_ERROR, 0, "cannot read: %s", strerror(-r));
		return r;
	}
	*ret = buf;
	*retlen = len;
	return 0;
}

/* iniparser reports through a global callback without user data. */
static struct strbuf ini_errors;

_printf_(1, 2) static int ini_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	msg[strcspn(msg, "\n")] = '\0';
	if (ini_errors.len == 0)
		(void)strbuf_append_escaped(&ini_errors, msg);
	return 0;
}

/*
 * Give iniparser exactly the bytes that were scanned, through a memfd: reading
 * the path again would let a file replaced in between skip the scan's checks.
 * Without memfd or /proc there is no such route, and the load fails (closed).
 */
static dictionary *ini_load_bytes(const char *buf, size_t len, int *err)
{
	_cleanup_close_ int fd = memfd_create("drvfilter-policy", MFD_CLOEXEC);
	char proc[64];
	size_t done = 0;

	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		done += (size_t)n;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (fd < 0 || done < len || access(proc, R_OK) < 0) {
		*err = errno ? errno : EIO;
		return NULL;
	}
	*err = 0;
	return iniparser_load(proc);
}

static int index_of(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(s, list[i]) == 0)
			return (int)i;
	return -1;
}

/* " (did you mean 'x'?)" or "" */
static const char *hint(char *buf, size_t size, const char *word, const char *const *list, size_t n,
			const char *open, const char *close)
{
	const char *c = suggest(word, list, n);

	if (!c)
		return "";
	snprintf(buf, size, "; did you mean %s%s%s?", open, c, close);
	return buf;
}

/* @s, escaped and cut short, as the only content of @sb: for quoting in messages. */
static int escaped(struct strbuf *sb, const char *s)
{
	strbuf_release(sb);
	return strbuf_append_escaped_max(sb, s, DF_QUOTE_MAX);
}

/* The [filter] settings: each value is an index into its list of words. */
static const char *const default_words[] = { "allow", "deny" };
static const char *const bound_words[] = { "unbind", "keep" };
static const char *const mode_words[] = { "auto", "kernel", "fallback" };
static const char *const lock_words[] = { "no", "yes", "false", "true", "off", "on", "0", "1" };

static const struct filter_setting {
	const char *key;
	const char *const *words;
	size_t nwords;
	const char *expected;
} filter_settings[] = {
	{ "default", default_words, ARRAY_SIZE(default_words), "allow or deny" },
	{ "bound", bound_words, ARRAY_SIZE(bound_words), "unbind or keep" },
	{ "mode", mode_words, ARRAY_SIZE(mode_words), "auto, kernel or fallback" },
	{ "lock", lock_words, ARRAY_SIZE(lock_words), "yes or no" },
};

static void apply_filter_setting(struct df_policy *p, size_t setting, int word, unsigned line)
{
	switch (setting) {
	case 0:
		p->default_allows = word == 0;
		p->default_rule.name = default_words[word];
		p->default_rule.line = line;
		break;
	case 1:
		p->bound = word == 0 ? DF_BOUND_UNBIND : DF_BOUND_KEEP;
		break;
	case 2:
		p->mode = (enum df_mode)word;
		break;
	default:
		p->lock = word % 2 == 1; /* lock_words alternates no, yes */
		break;
	}
}

static int load_filter_key(struct df_policy *p, const char *key, const char *val, unsigned line,
			   struct df_diags *diags)
{
	const char *keys[ARRAY_SIZE(filter_settings)];
	struct strbuf sb = STRBUF_INIT;
	char h[128];
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(filter_settings); i++) {
		const struct filter_setting *f = &filter_settings[i];
		int word;

		keys[i] = f->key;
		if (!streq(key, f->key))
			continue;
		word = index_of(val, f->words, f->nwords);
		if (word >= 0) {
			apply_filter_setting(p, i, word, line);
			return 0;
		}
		r = escaped(&sb, val);
		if (r >= 0)
			r = df_diags_add(diags, DF_ERROR, line, "invalid %s '%s': expected %s",
					 f->key, strbuf_str(&sb), f->expected);
		strbuf_release(&sb);
		return r;
	}
	r = escaped(&sb, key);
	if (r >= 0)
		r = df_diags_add(diags, DF_ERROR, line, "unknown key '%s' in [filter]%s",
				 strbuf_str(&sb),
				 hint(h, sizeof(h), key, keys, ARRAY_SIZE(keys), "'", "'"));
	strbuf_release(&sb);
	return r;
}

static void trim_blanks(char **s)
{
	char *e;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	e = *s + strlen(*s);
	while (e > *s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
}

/* Split @e->names at commas into rules; every problem is an error on @line. */
static int parse_list(struct df_entry *e, struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 1;
	char *s, *next;
	int r = 0;

	for (s = e->names; *s; s++)
		n += *s == ',';
	e->rules = calloc(n, sizeof(*e->rules));
	if (!e->rules)
		return -ENOMEM;
	for (s = e->names; s && r >= 0; s = next) {
		const char *why;
		char *name;

		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		name = s;
		trim_blanks(&name);
		if (*name == '\0') {
			r = df_diags_add(
				diags, DF_ERROR, e->line,
				n == 1 ? "empty list for %s (write ALL, or remove the line)"
				       : "empty name in the list for %s (two commas, or a "
					 "comma at an end)",
				e->key);
			break;
		}
		if (streq(name, "ALL")) {
			if (n > 1)
				r = df_diags_add(diags, DF_ERROR, e->line,
						 "ALL mixed with other names for %s: ALL alone "
						 "already means every driver",
						 e->key);
		} else if (strcasecmp(name, "all") == 0) {
			r = escaped(&sb, name);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, e->line,
						 "'%s' is not the wildcard: write ALL in capitals "
						 "(driver names are case-sensitive)",
						 strbuf_str(&sb));
		} else if (df_driver_name_check(name, &why) < 0) {
			r = escaped(&sb, name);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, e->line,
						 "invalid driver name '%s': it %s", strbuf_str(&sb),
						 why);
		}
		e->rules[e->nrules++] = (struct df_rule){ e->section, e->key, name, e->line };
	}
	strbuf_release(&sb);
	return r;
}

static int load_list_key(struct df_policy *p, enum df_section section, const char *key,
			 const char *val, unsigned line, struct df_diags *diags)
{
	struct df_entry *e;
	const char *why;
	int r;

	e = ARRAY_GROW(p->entries, p->capentries, p->nentries);
	if (!e)
		return -ENOMEM;
	p->nentries++;
	*e = (struct df_entry){ .section = section, .line = line };
	e->any_bus = strcasecmp(key, "all") == 0;
	if (!e->any_bus && df_bus_name_check(key, &why) < 0) {
		struct strbuf sb = STRBUF_INIT;

		r = escaped(&sb, key);
		if (r >= 0)
			r = df_diags_add(diags, DF_ERROR, line, "invalid bus name '%s': it %s",
					 strbuf_str(&sb), why);
		strbuf_release(&sb);
		return r;
	}
	e->key = strdup(e->any_bus ? "ALL" : key);
	e->names = strdup(val);
	if (!e->key || !e->names)
		return -ENOMEM;
	return parse_list(e, diags);
}

static int load_dictionary(struct df_policy *p, const dictionary *d, const struct df_lex *lex,
			   struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	size_t seen = 0;
	int r = 0;

	for (int i = 0; i < d->n && r >= 0; i++) {
		const char *id = d->key[i], *colon, *val = d->val[i] ? d->val[i] : "";
		unsigned line;
		char h[128];
		int sec;

		if (!id)
			continue;
		line = df_lex_line(lex, id);
		if (line == 0) {
			r = escaped(&sb, id);
			if (r >= 0)
				r = df_diags_add(
					diags, DF_ERROR, 0,
					"iniparser read '%s', which the line scan did "
					"not see: the file changed, or the parsers disagree",
					strbuf_str(&sb));
			break;
		}
		seen++;
		colon = strchr(id, ':');
		if (!colon) {
			if (index_of(id, sections, ARRAY_SIZE(sections)) >= 0)
				continue;
			r = escaped(&sb, id);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, line, "unknown section [%s]%s",
						 strbuf_str(&sb),
						 hint(h, sizeof(h), id, sections,
						      ARRAY_SIZE(sections), "[", "]"));
			continue;
		}
		{
			_cleanup_free_ char *secname = strndup(id, (size_t)(colon - id));

			if (!secname) {
				r = -ENOMEM;
				break;
			}
			sec = index_of(secname, sections, ARRAY_SIZE(sections));
		}
		if (sec < 0)
			continue; /* reported with its section */
		if (sec == DF_SECTION_FILTER)
			r = load_filter_key(p, colon + 1, val, line, diags);
		else
			r = load_list_key(p, (enum df_section)sec, colon + 1, val, line, diags);
	}
	if (r >= 0 && seen != lex->count && diags->errors == 0)
		r = df_diags_add(diags, DF_ERROR, 0,
				 "iniparser read %zu sections and keys where the line scan saw %zu",
				 seen, lex->count);
	strbuf_release(&sb);
	return r;
}

static int compile(struct df_policy *p, struct df_diags *diags)
{
	for (size_t i = 0; i < p->nentries; i++) {
		struct df_entry *e = &p->entries[i];
		struct df_ruleset *set = e->section == DF_SECTION_ALLOW ? &p->allow : &p->deny;

		for (size_t j = 0; j < e->nrules; j++) {
			int r = df_ruleset_add(set, &e->rules[j], e->any_bus);

			if (r == -EEXIST)
				r = df_diags_add(diags, DF_WARNING, e->line,
						 "'%s' is listed twice for %s", e->rules[j].name,
						 e->key);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static struct df_policy *policy_new(const char *path)
{
	struct df_policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->path = strdup(path);
	if (!p->path)
		return df_policy_free(p);
	p->default_allows = true;
	p->default_rule = (struct df_rule){ DF_SECTION_FILTER, "default", "allow", 0 };
	p->bound = DF_BOUND_UNBIND;
	p->mode = DF_MODE_AUTO;
	p->lock = false;
	return p;
}

int df_policy_load(struct df_ctx *ctx, const char *path, unsigned flags, struct df_diags *diags,
		   struct df_policy **ret)
{
	_cleanup_free_ char *buf = NULL;
	struct df_policy *p = NULL;
	struct df_lex lex = { 0 };
	dictionary *d = NULL;
	size_t len = 0, errors;
	int r, err;

	free(diags->file);
	diags->file = strdup(path);
	if (!diags->file)
		return -ENOMEM;
	errors = diags->errors;

	r = read_file(path, flags, diags, &buf, &len);
	if (r < 0)
		goto out;
	r = df_lex_scan(&lex, buf, len, diags);
	if (r < 0 || diags->errors > errors)
		goto out;

	strbuf_release(&ini_errors);
	iniparser_set_error_callback(ini_error);
	d = ini_load_bytes(buf, len, &err);
	if (!d && err) {
		r = df_diags_add(diags, DF_ERROR, 0,
				 "cannot hand the policy to iniparser through a memfd (is /proc "
				 "mounted?): %s",
				 strerror(err));
		goto out;
	}
	if (!d) {
		r = df_diags_add(diags, DF_ERROR, 0, "iniparser cannot parse it: %s",
				 ini_errors.len ? ini_errors.s : "out of memory");
		strbuf_release(&ini_errors);
		goto out;
	}
	p = policy_new(path);
	if (!p) {
		r = -ENOMEM;
		goto out;
	}
	sha256_hex(buf, len, p->sha256);
	r = load_dictionary(p, d, &lex, diags);
	if (r < 0 || diags->errors > errors)
		goto out;
	r = compile(p, diags);
	if (r < 0)
		goto out;
	if (p->nentries == 0 && p->default_allows)
		r = df_diags_add(diags, DF_WARNING, 0,
				 "the policy has no rules and no default: every driver is allowed");
	if (r >= 0)
		r = df_policy_lint(p, diags);
out:
	if (d)
		iniparser_freedict(d);
	df_lex_release(&lex);
	df_diags_sort(diags);
	if (r >= 0 && diags->errors > errors)
		r = -EINVAL;
	if (r < 0) {
		df_dbg(ctx, "policy '%s' not loaded: %s", path, strerror(-r));
		df_policy_free(p);
		return r;
	}
	df_dbg(ctx, "policy '%s' loaded: %zu entries", path, p->nentries);
	*ret = p;
	return 0;
}

struct df_policy *df_policy_free(struct df_policy *p)
{
	if (!p)
		return NULL;
	df_ruleset_release(&p->allow);
	df_ruleset_release(&p->deny);
	for (size_t i = 0; i < p->nentries; i++) {
		free(p->entries[i].key);
		free(p->entries[i].names);
		free(p->entries[i].rules);
	}
	free(p->entries);
	free(p->path);
	free(p);
	return NULL;
}

int df_policy_new_fail_closed(const char *path, struct df_policy **ret)
{
	struct df_policy *p = policy_new(path);

	if (!p)
		return -ENOMEM;
	/*
	 * Every driver is denied, but what is bound already stays bound (a guest
	 * that loses its disk and console cannot even report the problem), and the
	 * kernel's copy is locked so that nothing later can loosen it.
	 */
	p->fail_closed = true;
	p->default_allows = false;
	p->default_rule.key = "fail-closed";
	p->default_rule.name = "deny";
	p->bound = DF_BOUND_KEEP;
	p->lock = true;
	*ret = p;
	return 0;
}

const char *df_policy_path(const struct df_policy *p)
{
	return p->path;
}

const char *df_policy_sha256(const struct df_policy *p)
{
	return p->sha256;
}

bool df_policy_fail_closed(const struct df_policy *p)
{
	return p->fail_closed;
}

bool df_policy_default_allows(const struct df_policy *p)
{
	return p->default_allows;
}

enum df_bound df_policy_bound(const struct df_policy *p)
{
	return p->bound;
}

enum df_mode df_policy_mode(const struct df_policy *p)
{
	return p->mode;
}

bool df_policy_lock(const struct df_policy *p)
{
	return p->lock;
}
