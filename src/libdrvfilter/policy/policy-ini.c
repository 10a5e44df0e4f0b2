// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy's bytes handed to iniparser, the parser the design names, and
 * its reading compared with the line scan's: a file the two read otherwise
 * (a trap of iniparser's syntax) is refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <iniparser.h>

#include "policy/policy-private.h"
#include "strbuf.h"

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

int df_ini_cross_check(const char *buf, size_t len, const struct df_lex *lex,
		       struct df_diags *diags)
{
	struct ini_slice sl = { .buf = buf, .len = len, .lex = lex, .diags = diags };
	int r = 0;

	iniparser_set_error_callback(ini_error);
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
