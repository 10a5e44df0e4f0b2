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
#include "strv.h"
#include "sha256.h"
#include "strbuf.h"
#include "suggest.h"

static const char *const sections[] = { "allow", "deny", "filter" };

/*
 * Whether the directory @dir may hold the policy: owned by root and writable
 * by no one else, or the owner of a directory above could swap the file for
 * another one (an empty one allows everything). A sticky directory (/tmp) is
 * accepted, as others cannot replace a file root owns in it.
 */
static int check_dir(const char *dir, struct df_diags *diags)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		int r = -errno;

		df_diags_add(diags, DF_ERROR, 0, "cannot stat its directory '%s': %s", dir,
			     strerror(-r));
		return r;
	}
	if (st.st_uid != 0) {
		df_diags_add(diags, DF_ERROR, 0,
			     "its directory '%s' is owned by uid %u, not root: its owner can "
			     "replace the policy",
			     dir, (unsigned)st.st_uid);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		df_diags_add(diags, DF_ERROR, 0,
			     "its directory '%s' is writable by group or others (mode %04o): "
			     "they can replace the policy",
			     dir, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* The directories above the file @p names ("/a/b/f": /a/b, /a, /); @p is cut up. */
static int check_chain(char *p, struct df_diags *diags)
{
	char *slash;
	int r = 0;

	while (r >= 0 && (slash = strrchr(p, '/'))) {
		if (slash == p) {
			p[1] = '\0';
			return check_dir(p, diags);
		}
		*slash = '\0';
		r = check_dir(p, diags);
	}
	return r;
}

/* Every directory above @path, as written (made absolute) and as resolved. */
static int check_dirs(const char *path, struct df_diags *diags)
{
	_cleanup_free_ char *abs = NULL, *real = NULL;
	char cwd[PATH_MAX];
	int r;

	if (path[0] == '/')
		abs = strdup(path);
	else if (getcwd(cwd, sizeof(cwd)) && asprintf(&abs, "%s/%s", cwd, path) < 0)
		abs = NULL;
	if (!abs)
		return -ENOMEM;
	r = check_chain(abs, diags);
	real = realpath(path, NULL);
	if (r >= 0 && real)
		r = check_chain(real, diags);
	return r;
}

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
		r = check_dirs(path, diags);
		if (r < 0)
			return r;
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
 * iniparser's dictionary_set() looks at every key it holds on each insert, so
 * one dictionary of the whole file is quadratic in its keys (87% of `check`
 * on a 50,000-line policy). It reads each logical line on its own, given the
 * section in force, so it is given the file in slices of at most this many
 * sections and keys, each after a copy of the header of the section in force.
 */
#define INI_SLICE_MAX 256

struct ini_slice {
	int fd; /* the memfd iniparser reads through /proc/self/fd */
	char proc[64];
	const char *buf;
	size_t len;
	const struct df_lex *lex;
	struct df_diags *diags;
};

/*
 * Give iniparser exactly @n bytes at @data after the line @prefix (or none),
 * through the memfd: reading the path again would let a file replaced in
 * between skip the scan's checks.
 */
static dictionary *ini_load_slice(struct ini_slice *sl, const char *prefix, const char *data,
				  size_t n, int *err)
{
	size_t plen = prefix ? strlen(prefix) : 0;

	*err = 0;
	if (ftruncate(sl->fd, 0) < 0 ||
	    pwrite(sl->fd, prefix ? prefix : "", plen, 0) != (ssize_t)plen) {
		*err = errno ? errno : EIO;
		return NULL;
	}
	for (size_t done = 0; done < n;) {
		ssize_t k = pwrite(sl->fd, data + done, n - done, (off_t)(plen + done));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			*err = k < 0 ? errno : EIO;
			return NULL;
		}
		done += (size_t)k;
	}
	return iniparser_load(sl->proc);
}

/* Compare what iniparser read of entries @first to @last (and the prefixed section) with the scan. */
static int ini_compare(struct ini_slice *sl, const dictionary *d, size_t first, size_t last,
		       const char *prefixed)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	size_t seen = 0;
	int r = 0;

	for (ssize_t i = 0; i < d->size && r >= 0; i++) {
		const char *id = d->key[i], *val = d->val[i];
		const struct df_lex_entry *e;
		size_t k;

		if (!id)
			continue;
		seen++;
		if (prefixed && streq(id, prefixed) && !val)
			continue;
		e = df_lex_find(sl->lex, id);
		k = e ? (size_t)(e - sl->lex->entries) : 0;
		if (!e || k < first || k >= last) {
			r = strbuf_append_escaped_max(&a, id, DF_QUOTE_MAX);
			if (r >= 0)
				r = df_diags_add(
					sl->diags, DF_ERROR, e ? e->line : 0,
					"iniparser read '%s', which the line scan did not see "
					"there: the file changed, or the parsers disagree",
					strbuf_str(&a));
			break;
		}
		if (!val != !e->value || (val && !streq(val, e->value))) {
			r = strbuf_append_escaped_max(&a, id, DF_QUOTE_MAX);
			if (r >= 0)
				r = strbuf_append_escaped_max(&b, val ? val : "(none)",
							      DF_QUOTE_MAX);
			if (r >= 0)
				r = strbuf_append_escaped_max(&c, e->value ? e->value : "(none)",
							      DF_QUOTE_MAX);
			if (r >= 0)
				r = df_diags_add(
					sl->diags, DF_ERROR, e->line,
					"iniparser reads '%s' as '%s' where the line scan "
					"reads '%s': the file is refused rather than guessed at",
					strbuf_str(&a), strbuf_str(&b), strbuf_str(&c));
			break;
		}
	}
	if (r >= 0 && sl->diags->errors == 0 && seen != last - first + (prefixed ? 1 : 0))
		r = df_diags_add(sl->diags, DF_ERROR,
				 first < sl->lex->count ? sl->lex->entries[first].line : 0,
				 "iniparser read %zu sections and keys where the line scan saw %zu",
				 seen - (prefixed ? 1 : 0), last - first);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	return r;
}

/*
 * Hand the bytes that were scanned to iniparser, slice by slice, and refuse
 * the file unless it reads every section, key and value as the scan did.
 * Without memfd or /proc there is no such route, and the load fails (closed).
 */
static int ini_cross_check(const char *buf, size_t len, const struct df_lex *lex,
			   struct df_diags *diags)
{
	struct ini_slice sl = { .buf = buf, .len = len, .lex = lex, .diags = diags };
	int r = 0;

	sl.fd = memfd_create("drvfilter-policy", MFD_CLOEXEC);
	snprintf(sl.proc, sizeof(sl.proc), "/proc/self/fd/%d", sl.fd);
	if (sl.fd < 0 || access(sl.proc, R_OK) < 0) {
		r = df_diags_add(diags, DF_ERROR, 0,
				 "cannot hand the policy to iniparser through a memfd (is /proc "
				 "mounted?): %s",
				 strerror(errno ? errno : EIO));
		goto out;
	}
	/* At least one slice: a file the scan saw nothing in must be empty to iniparser too. */
	for (size_t first = 0; first == 0 || first < lex->count;) {
		size_t last =
			first + INI_SLICE_MAX < lex->count ? first + INI_SLICE_MAX : lex->count;
		size_t from = first ? lex->entries[first].start : 0;
		size_t to = last < lex->count ? lex->entries[last].start : len;
		_cleanup_free_ char *prefix = NULL;
		const char *prefixed = NULL;
		dictionary *d;
		int err;

		/* A slice that starts inside a section reads it from a copy of its header. */
		if (first > 0 && lex->entries[first].value) {
			for (size_t k = first; k-- > 0;)
				if (!lex->entries[k].value) {
					prefixed = lex->entries[k].id;
					break;
				}
			if (prefixed && asprintf(&prefix, "[%s]\n", prefixed) < 0) {
				r = -ENOMEM;
				break;
			}
		}
		strbuf_release(&ini_errors);
		d = ini_load_slice(&sl, prefix, buf + from, to - from, &err);
		if (!d) {
			r = df_diags_add(diags, DF_ERROR, 0, "iniparser cannot parse it: %s",
					 err		  ? strerror(err)
					 : ini_errors.len ? ini_errors.s
							  : "out of memory");
			strbuf_release(&ini_errors);
			break;
		}
		r = ini_compare(&sl, d, first, last, prefixed);
		iniparser_freedict(d);
		if (r < 0 || diags->errors)
			break;
		if (last == lex->count)
			break;
		first = last;
	}
out:
	if (sl.fd >= 0)
		close(sl.fd);
	return r;
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
static const char *const mode_words[] = { "auto", "kernel", "fallback", "audit" };
static const char *const lock_words[] = { "no", "yes", "false", "true", "off", "on", "0", "1" };
/* And pcr:N, read apart (measure_pcr()). */
static const char *const measure_words[] = { "no", "auto" };

static const struct filter_setting {
	const char *key;
	const char *const *words;
	size_t nwords;
	const char *expected;
} filter_settings[] = {
	{ "default", default_words, ARRAY_SIZE(default_words), "allow or deny" },
	{ "bound", bound_words, ARRAY_SIZE(bound_words), "unbind or keep" },
	{ "mode", mode_words, ARRAY_SIZE(mode_words), "auto, kernel, fallback or audit" },
	{ "lock", lock_words, ARRAY_SIZE(lock_words), "yes or no" },
	{ "measure", measure_words, ARRAY_SIZE(measure_words), "no, auto or pcr:N" },
	{ "protect_boot", lock_words, ARRAY_SIZE(lock_words), "yes or no" },
};

/*
 * measure = pcr:N: the PCRs an event may go to. 0-7 are the firmware's, 10
 * is IMA's, 11 is systemd-stub's and systemd-pcrphase's (systemd-pcrlock
 * predicts it), and 16-23 can be reset or need a locality above 0.
 */
static int measure_pcr(const char *val, unsigned *pcr, const char **why)
{
	char *end;
	unsigned long n;

	if (strncmp(val, "pcr:", 4) != 0 || val[4] < '0' || val[4] > '9' ||
	    (val[4] == '0' && val[5]))
		return -ENOENT;
	errno = 0;
	n = strtoul(val + 4, &end, 10);
	if (errno || *end || end - (val + 4) > 2)
		return -ENOENT;
	if (n < 8 || n > 15)
		*why = "the operating system's PCRs are 8 to 15 (0-7 are the firmware's, 16-23 can "
		       "be reset)";
	else if (n == 10)
		*why = "PCR 10 is IMA's";
	else if (n == 11)
		*why = "PCR 11 is systemd-stub's and systemd-pcrphase's, and systemd-pcrlock "
		       "predicts it";
	else {
		*pcr = (unsigned)n;
		return 0;
	}
	return -EINVAL;
}

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
	case 3:
		p->lock = word % 2 == 1; /* lock_words alternates no, yes */
		break;
	case 4:
		p->measure = word == 0 ? DF_MEASURE_NO : DF_MEASURE_AUTO;
		break;
	default:
		p->protect_boot = word % 2 == 1;
		break;
	}
}

/* Where each [filter] setting was made, across the files of the set. */
struct filter_where {
	const char *file;
	unsigned line;
};

static int load_filter_key(struct df_policy *p, struct filter_where *where, const char *file,
			   const char *key, const char *val, unsigned line, struct df_diags *diags)
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
		/*
		 * Made once in the whole set: a drop-in that changed default = deny
		 * to allow unseen would loosen the policy; edit the file that says it.
		 */
		if (where[i].line)
			return df_diags_add(
				diags, DF_ERROR, line,
				"'%s' is set again (first in %s:%u): a [filter] setting is "
				"made in one file of the policy only",
				f->key, where[i].file, where[i].line);
		word = index_of(val, f->words, f->nwords);
		if (streq(f->key, "measure") && word < 0) {
			const char *why = NULL;
			unsigned pcr = 0;

			r = measure_pcr(val, &pcr, &why);
			if (r == 0) {
				where[i] = (struct filter_where){ file, line };
				p->measure = DF_MEASURE_PCR;
				p->measure_pcr = pcr;
				p->measure_line = line;
				p->measure_file = file;
				return 0;
			}
			if (r == -EINVAL)
				return df_diags_add(diags, DF_ERROR, line,
						    "invalid measure '%s': %s", val, why);
		}
		if (word >= 0) {
			where[i] = (struct filter_where){ file, line };
			apply_filter_setting(p, i, word, line);
			if (i == 0)
				p->default_rule.file = file;
			if (streq(f->key, "measure")) {
				p->measure_line = line;
				p->measure_file = file;
			}
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

/*
 * DRIVER@ID: only in [allow] (it says which devices an allowed driver may
 * take), for one driver by its name, with an ID of its bus's form.
 */
static int check_device_rule(const struct df_entry *e, const char *name, const char *device,
			     struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why;
	int r = 0;

	if (e->section != DF_SECTION_ALLOW)
		r = df_diags_add(diags, DF_ERROR, e->line,
				 "a device rule (DRIVER@ID) belongs in [allow]: it says which "
				 "devices an allowed driver may take");
	else if (e->any_bus)
		r = df_diags_add(diags, DF_ERROR, e->line,
				 "a device rule needs its bus: write it under the bus's key, not "
				 "ALL");
	else if (!*name || streq(name, "ALL") || df_name_is_glob(name))
		r = df_diags_add(diags, DF_ERROR, e->line,
				 "a device rule names one driver (no glob, not ALL) before '@'");
	else if (df_device_pattern_check(e->key, device, &why) < 0 &&
		 (r = escaped(&sb, device)) >= 0)
		r = df_diags_add(diags, DF_ERROR, e->line, "invalid device ID '%s' for %s: it %s",
				 strbuf_str(&sb), e->key, why);
	strbuf_release(&sb);
	return r;
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
		char *name, *device;

		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		name = s;
		trim_blanks(&name);
		device = strchr(name, '@');
		if (device) {
			*device++ = '\0';
			trim_blanks(&name);
			trim_blanks(&device);
			r = check_device_rule(e, name, device, diags);
			if (r < 0)
				break;
		}
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
		e->rules[e->nrules++] =
			(struct df_rule){ e->section, e->key, name, e->line, e->file, device };
	}
	strbuf_release(&sb);
	return r;
}

static int load_list_key(struct df_policy *p, const char *file, enum df_section section,
			 const char *key, const char *val, unsigned line, struct df_diags *diags)
{
	struct df_entry *e;
	const char *why;
	int r;

	/*
	 * "default = deny" under [allow] would be read as a bus named "default"
	 * whose driver "deny" is allowed, and [filter]'s default stay allow: no
	 * bus has these names, so each is the [filter] setting misplaced.
	 */
	for (size_t i = 0; i < ARRAY_SIZE(filter_settings); i++)
		if (streq(key, filter_settings[i].key))
			return df_diags_add(diags, DF_ERROR, line,
					    "'%s' is a setting of [filter], not a bus of [%s]: "
					    "move it under [filter]",
					    key, sections[section]);

	e = ARRAY_GROW(p->entries, p->capentries, p->nentries);
	if (!e)
		return -ENOMEM;
	p->nentries++;
	*e = (struct df_entry){ .section = section, .line = line, .file = file };
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

/* Build the policy from what the scan of @file read (and iniparser confirmed), entry by entry. */
static int load_entries(struct df_policy *p, struct filter_where *where, const char *file,
			const struct df_lex *lex, struct df_diags *diags)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	for (size_t i = 0; i < lex->count && r >= 0; i++) {
		const struct df_lex_entry *e = &lex->entries[i];
		const char *colon = strchr(e->id, ':');
		char h[128];
		int sec;

		if (!colon) {
			if (index_of(e->id, sections, ARRAY_SIZE(sections)) >= 0)
				continue;
			r = escaped(&sb, e->id);
			if (r >= 0)
				r = df_diags_add(diags, DF_ERROR, e->line, "unknown section [%s]%s",
						 strbuf_str(&sb),
						 hint(h, sizeof(h), e->id, sections,
						      ARRAY_SIZE(sections), "[", "]"));
			continue;
		}
		{
			_cleanup_free_ char *secname = strndup(e->id, (size_t)(colon - e->id));

			if (!secname) {
				r = -ENOMEM;
				break;
			}
			sec = index_of(secname, sections, ARRAY_SIZE(sections));
		}
		if (sec < 0)
			continue; /* reported with its section */
		if (sec == DF_SECTION_FILTER)
			r = load_filter_key(p, where, file, colon + 1, e->value, e->line, diags);
		else
			r = load_list_key(p, file, (enum df_section)sec, colon + 1, e->value,
					  e->line, diags);
	}
	strbuf_release(&sb);
	return r;
}

static int compile(struct df_policy *p, struct df_diags *diags)
{
	for (size_t i = 0; i < p->nentries; i++) {
		struct df_entry *e = &p->entries[i];
		struct df_ruleset *set = e->section == DF_SECTION_ALLOW ? &p->allow : &p->deny;

		for (size_t j = 0; j < e->nrules; j++) {
			/* A device rule lets its driver take some devices: it is kept apart. */
			int r = e->rules[j].device ? df_devrules_add(&p->devrules, &e->rules[j])
						   : df_ruleset_add(set, &e->rules[j], e->any_bus);

			if (r == -EEXIST && (r = df_diags_set_file(diags, e->file)) >= 0)
				r = df_diags_add(diags, DF_WARNING, e->line,
						 "'%s' is listed twice for %s", e->rules[j].name,
						 e->key);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/*
 * The lists go to /sys/kernel/driver_filter in one write each, which sysfs
 * cuts at a page: a longer one would fail at boot, and apply would fail
 * closed (every driver denied). An error with mode = kernel, a warning with
 * mode = auto (a stock kernel would not need them), nothing in fallback.
 */
static int check_kernel_lists(const struct df_policy *p, struct df_diags *diags)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r = df_policy_kernel_lists(p, &allow, &deny);

	if (r < 0 || p->mode == DF_MODE_FALLBACK)
		return r;
	for (int k = 0; k < 2 && r >= 0; k++) {
		size_t n = strlen(k ? deny : allow);

		if (n > DF_KERNEL_LIST_MAX)
			r = df_diags_add(
				diags, p->mode == DF_MODE_KERNEL ? DF_ERROR : DF_WARNING, 0,
				"the kernel's %s list would take %zu bytes, but it takes at "
				"most %d in one write: in kernel mode the policy would fail "
				"closed (every driver denied); shorten the list (globs, ALL) or "
				"set [filter] mode = fallback",
				k ? "deny" : "allow", n, DF_KERNEL_LIST_MAX);
	}
	return r;
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
	p->default_rule = (struct df_rule){ DF_SECTION_FILTER, "default", "allow", 0, NULL, NULL };
	p->bound = DF_BOUND_UNBIND;
	p->mode = DF_MODE_AUTO;
	p->lock = false;
	p->measure = DF_MEASURE_AUTO;
	p->measure_pcr = DF_MEASURE_PCR_DEFAULT;
	p->protect_boot = true;
	return p;
}

/* One file of the policy's set, as read. */
struct policy_file {
	const char *path;
	char *label; /* its name in the digest */
	char *buf;
	size_t len;
	struct df_lex lex;
};

/* Whether @edited is a file right in @dir. */
static bool in_dir(const struct df_policy_source *edited, const char *dir)
{
	size_t n = strlen(dir);

	return edited && strncmp(edited->path, dir, n) == 0 && edited->path[n] == '/' &&
	       edited->path[n + 1] && !strchr(edited->path + n + 1, '/');
}

/*
 * The drop-ins of @dir (absolute, as given), NAME.conf in lexical order, into
 * @paths and their digest names ("@prefix/NAME") into @labels. No directory
 * is no drop-in; any other entry than NAME.conf is an error (hidden ones,
 * such as an editor's copies, are passed over).
 */
static int list_dropins(const char *dir, const char *prefix, unsigned flags,
			const struct df_policy_source *edited, struct df_diags *diags,
			struct strv *paths, struct strv *labels)
{
	struct strv names = STRV_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = 0;

	if (stat(dir, &st) < 0) {
		/* A first drop-in being written: the directory comes with it. */
		if (errno == ENOENT && in_dir(edited, dir)) {
			_cleanup_free_ char *label = NULL;

			if (asprintf(&label, "%s/%s", prefix, edited->path + strlen(dir) + 1) < 0)
				return -ENOMEM;
			r = strv_push(paths, edited->path);
			return r < 0 ? r : strv_push(labels, label);
		}
		return errno == ENOENT ? 0 : -errno;
	}
	r = df_diags_set_file(diags, dir);
	if (r < 0)
		return r;
	if (!S_ISDIR(st.st_mode))
		return df_diags_add(diags, DF_ERROR, 0, "is not a directory of drop-ins");
	if (!(flags & DF_LOAD_ANY_OWNER) && check_dir(dir, diags) < 0)
		return 0;
	d = opendir(dir);
	if (!d)
		return df_diags_add(diags, DF_ERROR, 0, "cannot read the directory: %s",
				    strerror(errno));
	while ((r = df_dir_next(d, &de)) > 0) {
		size_t n = strlen(de->d_name);
		char esc[DF_ESC_SIZE];

		if (de->d_name[0] == '.')
			continue;
		if (n <= strlen(".conf") || !streq(de->d_name + n - strlen(".conf"), ".conf")) {
			r = df_diags_add(diags, DF_ERROR, 0,
					 "'%s' is not a drop-in (NAME.conf): move it out of the "
					 "directory",
					 df_esc(de->d_name, esc));
			if (r < 0)
				break;
			continue;
		}
		r = strv_push(&names, de->d_name);
		if (r < 0)
			break;
	}
	closedir(d);
	/* A drop-in being written joins the set it will be part of. */
	if (r >= 0 && in_dir(edited, dir))
		r = strv_push_unique(&names, edited->path + strlen(dir) + 1);
	strv_sort(&names);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *path = NULL, *label = NULL;

		if (asprintf(&path, "%s/%s", dir, names.v[i]) < 0 ||
		    asprintf(&label, "%s/%s", prefix, names.v[i]) < 0)
			r = -ENOMEM;
		if (r >= 0)
			r = strv_push(paths, path);
		if (r >= 0)
			r = strv_push(labels, label);
	}
	strv_release(&names);
	return r < 0 ? r : 0;
}

/* The set's digest: one file's SHA-256, or that of every file's name, size and bytes. */
static void policy_digest(struct df_policy *p, const struct policy_file *files, size_t n)
{
	struct sha256 s;
	unsigned char d[SHA256_DIGEST_SIZE];

	if (n == 1) {
		sha256_hex(files[0].buf, files[0].len, p->sha256);
		return;
	}
	sha256_init(&s);
	sha256_update(&s, "drvfilter policy set\n", strlen("drvfilter policy set\n"));
	for (size_t i = 0; i < n; i++) {
		char head[64];

		sha256_update(&s, files[i].label, strlen(files[i].label));
		snprintf(head, sizeof(head), "\n%zu\n", files[i].len);
		sha256_update(&s, head, strlen(head));
		sha256_update(&s, files[i].buf, files[i].len);
	}
	sha256_final(&s, d);
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(p->sha256 + 2 * i, 3, "%02x", d[i]);
}

/*
 * Read, scan and cross-check one file; its problems go to @diags, with its
 * name. -errno when it cannot be read (an error of the set, recorded: the
 * other files are still read), -ENOMEM, or 0.
 */
static int read_one(struct policy_file *f, unsigned flags, const struct df_policy_source *edited,
		    struct df_diags *diags)
{
	size_t errors = diags->errors;
	int r = df_diags_set_file(diags, f->path);

	if (r >= 0 && edited && streq(edited->path, f->path)) {
		/* The text to be installed: its owner and mode are the installer's to set. */
		if (edited->len > DF_POLICY_SIZE_MAX)
			return df_diags_add(diags, DF_ERROR, 0, "is larger than %d bytes",
					    DF_POLICY_SIZE_MAX);
		f->buf = malloc(edited->len + 1);
		if (!f->buf)
			return -ENOMEM;
		memcpy(f->buf, edited->buf, edited->len);
		f->buf[edited->len] = '\0';
		f->len = edited->len;
	} else if (r >= 0) {
		r = read_file(f->path, flags, diags, &f->buf, &f->len);
	}
	if (r < 0)
		return r;
	r = df_lex_scan(&f->lex, f->buf, f->len, diags);
	if (r >= 0 && diags->errors == errors)
		r = ini_cross_check(f->buf, f->len, &f->lex, diags);
	return r;
}

int df_policy_load(struct df_ctx *ctx, const char *path, unsigned flags, struct df_diags *diags,
		   struct df_policy **ret)
{
	return df_policy_load_edited(ctx, path, flags, NULL, diags, ret);
}

int df_policy_load_edited(struct df_ctx *ctx, const char *path, unsigned flags,
			  const struct df_policy_source *edited, struct df_diags *diags,
			  struct df_policy **ret)
{
	struct strv paths = STRV_INIT, labels = STRV_INIT;
	struct filter_where where[ARRAY_SIZE(filter_settings)] = { { 0 } };
	struct policy_file *files = NULL;
	struct df_policy *p = NULL;
	size_t errors, nfiles = 0;
	int r;

	free(diags->file);
	diags->file = strdup(path);
	if (!diags->file)
		return -ENOMEM;
	errors = diags->errors;
	iniparser_set_error_callback(ini_error);

	/* The set: the policy, its drop-ins, then the runtime ones. */
	r = strv_push(&paths, path);
	if (r >= 0)
		r = strv_push(&labels, strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	if (r >= 0 && (flags & DF_LOAD_DROPINS)) {
		_cleanup_free_ char *dir = NULL;

		if (asprintf(&dir, "%s.d", path) < 0)
			r = -ENOMEM;
		else
			r = list_dropins(dir, "drvfilter.conf.d", flags, edited, diags, &paths,
					 &labels);
	}
	if (r >= 0 && (flags & DF_LOAD_RUNTIME)) {
		_cleanup_free_ char *dir = df_ctx_path(ctx, DF_RUNTIME_DROPIN_DIR);

		r = dir ? list_dropins(dir, "run", flags, edited, diags, &paths, &labels) : -ENOMEM;
	}
	if (r < 0)
		goto out;
	files = calloc(paths.n, sizeof(*files));
	if (!files) {
		r = -ENOMEM;
		goto out;
	}
	for (nfiles = 0; nfiles < paths.n && r != -ENOMEM; nfiles++) {
		int k;

		files[nfiles].path = paths.v[nfiles];
		files[nfiles].label = labels.v[nfiles];
		k = read_one(&files[nfiles], flags, edited, diags);
		/* The first file that cannot be read says why the set cannot be. */
		if (k < 0 && r == 0)
			r = k;
	}
	if (r < 0 || diags->errors > errors)
		goto out;

	p = policy_new(path);
	if (!p) {
		r = -ENOMEM;
		goto out;
	}
	policy_digest(p, files, nfiles);
	for (size_t i = 0; i < nfiles && r >= 0; i++) {
		r = df_diags_set_file(diags, files[i].path);
		if (r >= 0)
			r = load_entries(p, where, files[i].path, &files[i].lex, diags);
	}
	if (r < 0 || diags->errors > errors)
		goto out;
	r = compile(p, diags);
	if (r >= 0)
		r = df_diags_set_file(diags, NULL);
	if (r < 0)
		goto out;
	/*
	 * A set that says nothing (empty, comments only, or a truncated copy)
	 * would allow every driver, while a missing one fails closed: refuse it,
	 * and let an allow-all policy say so.
	 */
	if (p->nentries == 0 && p->default_rule.line == 0)
		r = df_diags_add(diags, DF_ERROR, 0,
				 "the policy has no rules and no default: it would allow every "
				 "driver; write '[filter] default = allow' if that is meant");
	if (r >= 0)
		r = check_kernel_lists(p, diags);
	if (r >= 0)
		r = df_policy_lint(p, diags);
out:
	for (size_t i = 0; i < nfiles; i++) {
		free(files[i].buf);
		df_lex_release(&files[i].lex);
	}
	free(files);
	strv_release(&labels);
	(void)df_diags_set_file(diags, NULL);
	df_diags_sort(diags);
	if (r >= 0 && diags->errors > errors)
		r = -EINVAL;
	if (r < 0) {
		df_dbg(ctx, "policy '%s' not loaded: %s", path, strerror(-r));
		strv_release(&paths);
		df_policy_free(p);
		return r;
	}
	/* The entries and rules point at these names: the policy keeps them. */
	p->files = strv_steal(&paths, &p->nfiles);
	df_dbg(ctx, "policy '%s' loaded: %zu files, %zu entries", path, p->nfiles, p->nentries);
	*ret = p;
	return 0;
}

struct df_policy *df_policy_free(struct df_policy *p)
{
	if (!p)
		return NULL;
	df_ruleset_release(&p->allow);
	df_ruleset_release(&p->deny);
	df_devrules_release(&p->devrules);
	for (size_t i = 0; i < p->nentries; i++) {
		free(p->entries[i].key);
		free(p->entries[i].names);
		free(p->entries[i].rules);
	}
	free(p->entries);
	free(p->path);
	strv_free_array(p->files, p->nfiles);
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

size_t df_policy_nfiles(const struct df_policy *p)
{
	return p->nfiles ? p->nfiles : 1;
}

const char *df_policy_file(const struct df_policy *p, size_t i)
{
	return p->nfiles ? p->files[i] : p->path;
}

const char *df_policy_sha256(const struct df_policy *p)
{
	return p->sha256;
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

enum df_measure df_policy_measure(const struct df_policy *p, unsigned *pcr)
{
	if (pcr)
		*pcr = p->measure_pcr;
	return p->measure;
}

size_t df_policy_nrules(const struct df_policy *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nentries; i++)
		n += p->entries[i].nrules;
	return n;
}

const struct df_rule *df_policy_rule(const struct df_policy *p, size_t i)
{
	for (size_t k = 0; k < p->nentries; k++) {
		if (i < p->entries[k].nrules)
			return &p->entries[k].rules[i];
		i -= p->entries[k].nrules;
	}
	return NULL;
}
