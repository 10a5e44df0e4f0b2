// SPDX-License-Identifier: GPL-2.0-only
/*
 * One name put into or taken out of one list of a policy file, every other
 * byte kept.
 *
 * drvfilterctl allow/deny change the drop-in they own, which an
 * administrator may have edited since: comments, device rules, [filter]
 * settings and other keys must come through as they were. The scan
 * (policy-lex.c) says where each statement lies; only the list's own line
 * changes, or a line is added. A list that cannot be changed in place (one
 * continued over lines) is refused, and the new text is scanned again and
 * compared with the old, entry by entry, before it is handed back: what
 * cannot be rewritten faithfully is not rewritten at all.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "policy/policy-private.h"
#include "macro.h"
#include "strbuf.h"
#include "strv.h"

static const char *const section_names[] = {
	[DF_SECTION_ALLOW] = "allow",
	[DF_SECTION_DENY] = "deny",
};

/* Blanks inside a line, as iniparser strips them. */
static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* @s (@n bytes) without the blanks around it, as the loader trims a name of a list. */
static void trim(const char **s, size_t *n)
{
	while (*n > 0 && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

static bool item_is(const char *s, size_t n, const char *name)
{
	trim(&s, &n);
	return n == strlen(name) && memcmp(s, name, n) == 0;
}

/*
 * Where the names of the key statement @e are in @t: bytes [*@vs, *@ve),
 * inside the quotes of a quoted list, before any comment. -EMLINK for a
 * statement continued over lines.
 */
static int list_bytes(const char *t, const struct df_lex_entry *e, size_t *vs, size_t *ve)
{
	size_t end = e->end, v;
	const char *eq, *close;

	if (end > e->start && t[end - 1] == '\n')
		end--;
	if (memchr(t + e->start, '\n', end - e->start))
		return -EMLINK;
	while (end > e->start && blank(t[end - 1]))
		end--;
	eq = memchr(t + e->start, '=', end - e->start);
	if (!eq)
		return -EINVAL;
	v = (size_t)(eq + 1 - t);
	while (v < end && blank(t[v]))
		v++;
	if (end - v >= 2 && (t[v] == '"' || t[v] == '\'') &&
	    (close = memchr(t + v + 1, t[v], end - v - 1)) && close > t + v + 1) {
		*vs = v + 1;
		*ve = (size_t)(close - t);
		return 0;
	}
	*vs = v;
	while (v < end && t[v] != ';' && t[v] != '#')
		v++;
	while (v > *vs && blank(t[v - 1]))
		v--;
	*ve = v;
	return 0;
}

/* The line end the file uses: CRLF when its first line has one. */
static const char *line_end(const char *t, size_t len)
{
	const char *nl = memchr(t, '\n', len);

	return nl && nl > t && nl[-1] == '\r' ? "\r\n" : "\n";
}

/* @t with bytes [@from, @to) replaced by @with. */
static int splice(struct strbuf *out, const char *t, size_t len, size_t from, size_t to,
		  const char *with)
{
	int r = strbuf_appendn(out, t, from);

	if (r >= 0)
		r = strbuf_append(out, with);
	return r < 0 ? r : strbuf_appendn(out, t + to, len - to);
}

static size_t index_of_entry(const struct df_lex *lex, const struct df_lex_entry *e)
{
	return (size_t)(e - lex->entries);
}

/* Whether entry @i is a key of section @sec ("allow"). */
static bool key_of(const struct df_lex *lex, size_t i, const char *sec)
{
	const char *id = lex->entries[i].id;
	size_t n = strlen(sec);

	return strncmp(id, sec, n) == 0 && id[n] == ':';
}

static bool only_blanks(const char *t, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!isspace((unsigned char)t[i]))
			return false;
	return true;
}

/*
 * @t without the statement @e, whose list is left empty; its section goes
 * too when nothing else is in it (no key, no comment), with the blank lines
 * after it.
 */
static int drop_statement(struct strbuf *out, const char *t, size_t len, const struct df_lex *lex,
			  const struct df_lex_entry *e, const char *sec)
{
	const struct df_lex_entry *h = df_lex_find(lex, sec);
	size_t hi, next, from = e->start, to = e->end;

	if (h) {
		hi = index_of_entry(lex, h);
		for (next = hi + 1; next < lex->count && key_of(lex, next, sec); next++)
			if (&lex->entries[next] != e)
				goto keep;
		next = next < lex->count ? lex->entries[next].start : len;
		if (only_blanks(t, h->end, e->start) && only_blanks(t, e->end, next)) {
			from = h->start;
			to = next;
		}
	}
keep:
	return splice(out, t, len, from, to, "");
}

/* @name added to or taken out of the one-line list @e. 0: nothing to change. */
static int edit_statement(struct strbuf *out, const char *t, size_t len, const struct df_lex *lex,
			  const struct df_lex_entry *e, const char *sec, const char *key,
			  const char *name, bool add, struct df_diags *diags)
{
	struct strbuf list = STRBUF_INIT;
	size_t vs, ve, kept = 0, removed = 0, line_len;
	bool last_removed = false;
	int r = list_bytes(t, e, &vs, &ve);

	if (r == -EMLINK)
		return df_diags_add(
			       diags, DF_ERROR, e->line,
			       "the list of '%s' in [%s] goes on over several lines, which "
			       "allow and deny do not rewrite: join it on one line (drvfilterctl "
			       "edit)",
			       key, sec) < 0
			       ? -ENOMEM
			       : -EINVAL;
	if (r < 0)
		return r;
	for (size_t p = vs; p <= ve;) {
		const char *comma = memchr(t + p, ',', ve - p);
		size_t q = comma ? (size_t)(comma - t) : ve;
		const char *s = t + p;
		size_t n = q - p;

		if (item_is(s, n, name)) {
			if (add) {
				strbuf_release(&list);
				return 0;
			}
			removed++;
			last_removed = !comma;
		} else if (!add) {
			/* The names kept, each with its blanks; the first starts the list. */
			while (kept == 0 && n > 0 && (*s == ' ' || *s == '\t'))
				s++, n--;
			if ((kept && strbuf_appendc(&list, ',') < 0) ||
			    strbuf_appendn(&list, s, n) < 0)
				goto oom;
			kept++;
		}
		p = q + 1;
	}
	if (add) {
		if (strbuf_appendn(&list, t + vs, ve - vs) < 0 ||
		    strbuf_appendf(&list, ", %s", name) < 0)
			goto oom;
	} else if (removed == 0) {
		strbuf_release(&list);
		return 0;
	} else if (kept == 0) {
		strbuf_release(&list);
		r = drop_statement(out, t, len, lex, e, sec);
		return r < 0 ? r : 1;
	} else if (last_removed) {
		while (list.len > 0 &&
		       (list.s[list.len - 1] == ' ' || list.s[list.len - 1] == '\t'))
			list.s[--list.len] = '\0';
	}
	/* iniparser reads a line into a fixed buffer: a longer one would be cut. */
	line_len = (e->end - e->start) - (ve - vs) + list.len - (t[e->end - 1] == '\n');
	if (line_len > DF_INI_LINE_MAX) {
		strbuf_release(&list);
		return df_diags_add(
			       diags, DF_ERROR, e->line,
			       "the list of '%s' in [%s] is full: a line holds at most %d bytes; "
			       "name the driver in a drop-in of your own (drvfilterctl edit)",
			       key, sec, DF_INI_LINE_MAX) < 0
			       ? -ENOMEM
			       : -EINVAL;
	}
	r = splice(out, t, len, vs, ve, strbuf_str(&list));
	strbuf_release(&list);
	return r < 0 ? r : 1;
oom:
	strbuf_release(&list);
	return -ENOMEM;
}

/* "KEY = NAME" as a new line: the last of its section, or in a new section at the end; 1. */
static int add_statement(struct strbuf *out, const char *t, size_t len, const struct df_lex *lex,
			 const char *sec, const char *key, const char *name)
{
	const struct df_lex_entry *h = df_lex_find(lex, sec);
	const char *eol = line_end(t, len);
	size_t pos = len;
	int r;

	if (h) {
		size_t i = index_of_entry(lex, h);

		while (i + 1 < lex->count && key_of(lex, i + 1, sec))
			i++;
		pos = lex->entries[i].end;
	}
	r = strbuf_appendn(out, t, pos);
	if (r >= 0 && pos > 0 && t[pos - 1] != '\n')
		r = strbuf_append(out, eol);
	/* A new section after one blank line, as the files drvfilterctl writes have it. */
	if (r >= 0 && !h && pos > 0 && !(out->len >= 2 && out->s[out->len - 2] == '\n') &&
	    !(out->len >= 3 && streq(out->s + out->len - 3, "\n\r\n")))
		r = strbuf_append(out, eol);
	if (r >= 0 && !h)
		r = strbuf_appendf(out, "[%s]%s", sec, eol);
	if (r >= 0)
		r = strbuf_appendf(out, "%s = %s%s", key, name, eol);
	if (r >= 0)
		r = strbuf_appendn(out, t + pos, len - pos);
	return r < 0 ? r : 1;
}

/* The names of a list as the loader splits them. */
static int split_names(const char *value, struct strv *names)
{
	const char *s = value;
	int r = 0;

	while (s && *s && r >= 0) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		const char *p = s;
		_cleanup_free_ char *item = NULL;

		trim(&p, &n);
		item = strndup(p, n);
		r = item ? strv_push(names, item) : -ENOMEM;
		s = comma ? comma + 1 : NULL;
	}
	return r;
}

static bool strv_equal(const struct strv *a, const struct strv *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!streq(a->v[i], b->v[i]))
			return false;
	return true;
}

/*
 * Whether @new reads as @old with the one change: every other section and
 * key with the same value; the list @id holding the names it should; section
 * @sec only added or dropped with its keys.
 */
static int same_but_one(const struct df_lex *old, const struct df_lex *new, const char *id,
			const char *sec, const char *name, bool add)
{
	const struct df_lex_entry *o = df_lex_find(old, id), *n = df_lex_find(new, id);
	struct strv want = STRV_INIT, got = STRV_INIT;
	int r = 0;

	for (size_t i = 0; i < old->count && r == 0; i++) {
		const struct df_lex_entry *a = &old->entries[i], *b = df_lex_find(new, a->id);

		if (streq(a->id, id) || (streq(a->id, sec) && !b))
			continue;
		if (!b || (a->value && !b->value) || (!a->value && b->value) ||
		    (a->value && !streq(a->value, b->value)))
			r = -EINVAL;
	}
	for (size_t i = 0; i < new->count &&r == 0; i++) {
		const char *nid = new->entries[i].id;

		if (!df_lex_find(old, nid) && !streq(nid, id) && !streq(nid, sec))
			r = -EINVAL;
	}
	if (r == 0 && o)
		r = split_names(o->value, &want);
	for (size_t i = 0; r == 0 && i < want.n; i++)
		if (!add && streq(want.v[i], name)) {
			free(want.v[i]);
			memmove(want.v + i, want.v + i + 1, (want.n - i - 1) * sizeof(*want.v));
			want.n--;
			i--;
		}
	if (r == 0 && add)
		r = strv_push(&want, name);
	if (r == 0 && n)
		r = split_names(n->value, &got);
	if (r == 0 && !strv_equal(&want, &got))
		r = -EINVAL;
	/* A section left without keys is dropped; one that has keys stays. */
	if (r == 0 && df_lex_find(old, sec) && !df_lex_find(new, sec) && n)
		r = -EINVAL;
	strv_release(&want);
	strv_release(&got);
	return r;
}

int df_policy_edit_list(const char *text, size_t len, enum df_section section, const char *key,
			const char *name, bool add, struct df_diags *diags, char **ret,
			size_t *ret_len)
{
	struct df_lex lex = { 0 }, after = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct df_diags scratch;
	const struct df_lex_entry *e;
	const char *sec, *lkey;
	size_t errors = diags->errors;
	char *id = NULL;
	int r;

	*ret = NULL;
	*ret_len = 0;
	if (section != DF_SECTION_ALLOW && section != DF_SECTION_DENY)
		return -EINVAL;
	sec = section_names[section];
	if (asprintf(&id, "%s:%s", sec, key) < 0)
		return -ENOMEM;
	for (char *p = id + strlen(sec); *p; p++)
		*p = (char)tolower((unsigned char)*p);
	lkey = id + strlen(sec) + 1;
	r = df_lex_scan(&lex, text, len, diags);
	if (r >= 0 && diags->errors > errors)
		r = -EINVAL;
	if (r < 0)
		goto out;
	e = df_lex_find(&lex, id);
	if (e)
		r = edit_statement(&out, text, len, &lex, e, sec, lkey, name, add, diags);
	else
		r = add ? add_statement(&out, text, len, &lex, sec, lkey, name) : 0;
	if (r <= 0)
		goto out;
	df_diags_init(&scratch);
	r = df_lex_scan(&after, strbuf_str(&out), out.len, &scratch);
	if (r >= 0 && (scratch.errors || same_but_one(&lex, &after, id, sec, name, add) < 0))
		r = df_diags_add(diags, DF_ERROR, e ? e->line : 0,
				 "the list of '%s' in [%s] cannot be changed without changing "
				 "more of the file",
				 lkey, sec) < 0
			    ? -ENOMEM
			    : -EINVAL;
	df_diags_release(&scratch);
	if (r >= 0) {
		*ret_len = out.len;
		*ret = strbuf_steal(&out);
		r = *ret ? 1 : -ENOMEM;
	}
out:
	df_lex_release(&lex);
	df_lex_release(&after);
	strbuf_release(&out);
	free(id);
	return r;
}
