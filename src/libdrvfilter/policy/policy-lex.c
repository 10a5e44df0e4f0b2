// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy file, line by line, as iniparser 4.1 will read it.
 *
 * iniparser gives values but no line numbers, and it hides several traps: a
 * key or section given twice (the last wins), an over-long line, a comment
 * that swallows the next line through a trailing backslash, text after a
 * closing quote, a comment marker glued to a name that cuts the rest of the
 * value. This scanner mirrors its line rules (strip, '#'/';' comments,
 * "[section]", "key = value", quotes, backslash continuation) to give every
 * section and key its line and the value iniparser will deliver, and to
 * refuse those traps; policy.c then hands the same bytes to iniparser and
 * refuses the file unless both read every section, key and value alike.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "array.h"
#include "policy/policy-private.h"
#include "strbuf.h"
#include "utf8.h"

/* iniparser strips with isspace() in the C locale. */
static bool ini_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static void strip(const char **s, size_t *n)
{
	while (*n > 0 && ini_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && ini_space((*s)[*n - 1]))
		(*n)--;
}

/* "section [allow]" or "key 'pci' in [deny]", for @id as the index holds it. */
static int describe_id(struct strbuf *sb, const char *id)
{
	const char *colon = strchr(id, ':');
	int r;

	if (!colon) {
		r = strbuf_append(sb, "section [");
		if (r >= 0)
			r = strbuf_append_escaped_max(sb, id, DF_QUOTE_MAX);
		return r < 0 ? r : strbuf_append(sb, "]");
	}
	r = strbuf_append(sb, "key '");
	if (r >= 0)
		r = strbuf_append_escaped_max(sb, colon + 1, DF_QUOTE_MAX);
	return r < 0 ? r : strbuf_appendf(sb, "' in [%.*s]", (int)(colon - id), id);
}

/*
 * Index @id (taken over) at @line with @value (taken over; NULL for a
 * section), the statement spanning bytes @start to @end; a second time is an
 * error.
 */
static int lex_add(struct df_lex *lex, char *id, char *value, unsigned line, size_t start,
		   size_t end, struct df_diags *diags)
{
	struct strbuf what = STRBUF_INIT;
	struct df_lex_entry *e;
	void *old;
	int r;

	if (!id) {
		free(value);
		return -ENOMEM;
	}
	e = ARRAY_GROW(lex->entries, lex->cap, lex->count);
	if (!e) {
		free(id);
		free(value);
		return -ENOMEM;
	}
	r = strmap_put(&lex->index, id, (void *)(uintptr_t)(lex->count + 1), &old);
	if (r == 0) {
		*e = (struct df_lex_entry){ id, value, line, start, end };
		lex->count++;
		return 0;
	}
	if (r == -EEXIST) {
		r = describe_id(&what, id);
		if (r >= 0)
			r = df_diags_add(diags, DF_ERROR, line,
					 "%s given twice (first at line %u); the parser would keep "
					 "only the last",
					 what.s, lex->entries[(uintptr_t)old - 1].line);
		strbuf_release(&what);
	}
	free(id);
	free(value);
	return r;
}

static char *lowercase_dup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (d)
		for (char *p = d; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	return d;
}

/* The blank-stripped copy of @s (@n bytes), or NULL without memory. */
static char *stripped_dup(const char *s, size_t n)
{
	strip(&s, &n);
	return strndup(s, n);
}

/*
 * The value of a key line as iniparser 4.1 delivers it, from the text after
 * the '=' (@v, @n bytes): between the quotes of a quoted value; otherwise up
 * to the first ';' or '#', blanks stripped ("" and '' mean empty). Errors for
 * the bytes it would drop: text after a closing quote, a comment marker glued
 * to a name.
 */
static int lex_value(const char *v, size_t n, unsigned line, struct df_diags *diags, char **ret)
{
	const char *close, *hash;
	size_t rest;

	*ret = NULL;
	strip(&v, &n);
	if (n >= 2 && (v[0] == '"' || v[0] == '\'')) {
		close = memchr(v + 1, v[0], n - 1);
		if (!close)
			return df_diags_add(diags, DF_ERROR, line, "unterminated quote");
		if (close > v + 1) {
			rest = n - (size_t)(close + 1 - v);
			if (rest > 0) {
				const char *after = close + 1;

				if (*after == ';' || *after == '#')
					return df_diags_add(
						diags, DF_ERROR, line,
						"'%c' glued to the closing quote starts a "
						"comment; put a blank before a comment",
						*after);
				strip(&after, &rest);
				if (rest > 0 && after[0] != ';' && after[0] != '#')
					return df_diags_add(diags, DF_ERROR, line,
							    "text after the closing quote would be "
							    "ignored");
			}
			*ret = strndup(v + 1, (size_t)(close - v - 1));
			return *ret ? 0 : -ENOMEM;
		}
		/* "" or '': iniparser's quoted pattern needs a byte; the plain rule empties it. */
	}
	hash = v;
	while (hash < v + n && *hash != ';' && *hash != '#')
		hash++;
	if (hash > v && hash < v + n && hash[-1] != ' ' && hash[-1] != '\t') {
		struct strbuf sb = STRBUF_INIT;
		int r = strbuf_append_escaped_max(&sb, hash, DF_QUOTE_MAX);

		if (r >= 0)
			r = df_diags_add(diags, DF_ERROR, line,
					 "'%c' glued to a name starts a comment: the parser would "
					 "drop '%s'; put a blank before a comment",
					 *hash, strbuf_str(&sb));
		strbuf_release(&sb);
		return r;
	}
	*ret = stripped_dup(v, (size_t)(hash - v));
	if (*ret && (streq(*ret, "\"\"") || streq(*ret, "''")))
		(*ret)[0] = '\0';
	return *ret ? 0 : -ENOMEM;
}

static int lex_logical_line(struct df_lex *lex, const char *s, size_t n, unsigned line,
			    size_t start, size_t end, char **section, struct df_diags *diags)
{
	const char *eq, *key;
	char *id, *value;
	size_t klen;
	int r;

	strip(&s, &n);
	if (n == 0 || s[0] == '#' || s[0] == ';')
		return 0;

	if (s[0] == '[' && s[n - 1] == ']') {
		const char *name = s + 1;
		size_t len = n - 2;

		strip(&name, &len);
		if (len == 0)
			return df_diags_add(diags, DF_ERROR, line, "empty section name");
		if (memchr(name, ']', len) || memchr(name, ':', len) || memchr(name, '[', len))
			return df_diags_add(diags, DF_ERROR, line, "malformed section header");
		free(*section);
		*section = lowercase_dup(name, len);
		if (!*section)
			return -ENOMEM;
		return lex_add(lex, strdup(*section), NULL, line, start, end, diags);
	}

	eq = memchr(s, '=', n);
	if (!eq)
		return df_diags_add(diags, DF_ERROR, line,
				    "syntax error: expected [section], KEY = LIST or a comment");
	key = s;
	klen = (size_t)(eq - s);
	strip(&key, &klen);
	if (klen == 0)
		return df_diags_add(diags, DF_ERROR, line, "no key before '='");
	if (!*section)
		return df_diags_add(diags, DF_ERROR, line,
				    "key outside of any section (start with [allow], [deny] or "
				    "[filter])");
	r = lex_value(eq + 1, n - (size_t)(eq + 1 - s), line, diags, &value);
	if (r < 0 || !value)
		return r;
	if (asprintf(&id, "%s:%.*s", *section, (int)klen, key) < 0) {
		free(value);
		return -ENOMEM;
	}
	for (char *p = id + strlen(*section); *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return lex_add(lex, id, value, line, start, end, diags);
}

/*
 * Whether the value of the key line @s (@n bytes) holds a comment, ';' or
 * '#' outside quotes: everything after it is comment to iniparser, a
 * continuation included.
 */
static bool comment_in_value(const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n), *v, *close;
	size_t vl;

	if (!eq)
		return false;
	v = eq + 1;
	vl = n - (size_t)(v - s);
	strip(&v, &vl);
	if (vl > 1 && (v[0] == '"' || v[0] == '\'') && (close = memchr(v + 1, v[0], vl - 1))) {
		vl -= (size_t)(close + 1 - v);
		v = close + 1;
	}
	return memchr(v, ';', vl) || memchr(v, '#', vl);
}

/* Bytes iniparser would misread, and bytes no policy has a use for. */
static int lex_check_bytes(const char *s, size_t n, unsigned line, struct df_diags *diags)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len;

		if (c == '\0')
			return df_diags_add(diags, DF_ERROR, line, "NUL byte in the file");
		if (c == '\r' && i == n - 1)
			break; /* CRLF line ends are fine */
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return df_diags_add(diags, DF_ERROR, line, "control character \\x%02x", c);
		len = utf8_seq_len((const unsigned char *)s + i, n - i);
		if (len == 0)
			return df_diags_add(diags, DF_ERROR, line, "invalid UTF-8 (byte \\x%02x)",
					    c);
		i += len;
	}
	return 0;
}

enum {
	LINE_DROP,
	LINE_KEEP
};

/*
 * The problems of one physical line of its own (bytes, length, a comment
 * inside a line being joined, which started at @start): LINE_KEEP,
 * LINE_DROP when one was reported, or -ENOMEM.
 */
static int check_physical(const char *s, size_t n, unsigned line, bool joining, unsigned start,
			  struct df_diags *diags)
{
	size_t before = diags->errors;
	int r = lex_check_bytes(s, n, line, diags);

	if (r >= 0 && n > DF_INI_LINE_MAX)
		r = df_diags_add(diags, DF_ERROR, line,
				 "line too long: %zu bytes, the parser reads at most %d", n,
				 DF_INI_LINE_MAX);
	if (r < 0)
		return r;
	if (diags->errors > before)
		return LINE_DROP;
	if (joining) {
		/* Joined on, a comment turns everything after it into comment. */
		strip(&s, &n);
		if (n > 0 && (s[0] == '#' || s[0] == ';')) {
			r = df_diags_add(diags, DF_ERROR, line,
					 "comment inside a continued line: the parser would drop "
					 "the rest of the line started at line %u",
					 start);
			return r < 0 ? r : LINE_DROP;
		}
	}
	return LINE_KEEP;
}

enum {
	JOIN_DROP,
	JOIN_DONE,
	JOIN_MORE
};

/*
 * Whether the logical line @logical (started at @start) goes on: iniparser
 * drops trailing blanks, then a final backslash joins the next line, which
 * is cut off here (JOIN_MORE); JOIN_DONE when it ends; JOIN_DROP when the
 * join would swallow text (reported); or -ENOMEM.
 */
static int join_next(struct strbuf *logical, unsigned start, struct df_diags *diags)
{
	const char *first = logical->s;
	size_t t = logical->len, fl;
	int r;

	while (t > 0 && ini_space(logical->s[t - 1]))
		t--;
	if (t == 0 || logical->s[t - 1] != '\\')
		return JOIN_DONE;
	fl = t;
	strip(&first, &fl);
	if (first[0] == '#' || first[0] == ';')
		r = df_diags_add(diags, DF_ERROR, start,
				 "comment ends with a backslash: the parser would join the "
				 "next line into the comment");
	else if (comment_in_value(logical->s, t - 1))
		r = df_diags_add(diags, DF_ERROR, start,
				 "comment before a line continuation: the parser would drop "
				 "the continued text");
	else {
		logical->len = t - 1;
		logical->s[logical->len] = '\0';
		return JOIN_MORE;
	}
	return r < 0 ? r : JOIN_DROP;
}

int df_lex_scan(struct df_lex *lex, const char *buf, size_t len, struct df_diags *diags)
{
	struct strbuf logical = STRBUF_INIT;
	_cleanup_free_ char *section = NULL;
	unsigned line = 0, start = 0;
	bool joining = false;
	size_t pos = 0, from = 0;
	int r = 0;

	while (pos < len && r >= 0) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		if (!joining)
			from = pos;
		pos += n + (nl ? 1 : 0);
		line++;
		int k = check_physical(s, n, line, joining, start, diags);

		if (k == LINE_KEEP) {
			if (!joining)
				start = line;
			k = strbuf_appendn(&logical, s, n);
			if (k >= 0)
				k = join_next(&logical, start, diags);
		} else if (k == LINE_DROP) {
			k = JOIN_DROP;
		}
		if (k < 0) {
			r = k;
			break;
		}
		/* A broken line ends any continuation: report the rest on their own. */
		joining = k == JOIN_MORE;
		if (joining)
			continue;
		if (k == JOIN_DONE && logical.len > DF_INI_LINE_MAX)
			r = df_diags_add(diags, DF_ERROR, start,
					 "continued line too long: %zu bytes, the parser reads at "
					 "most %d",
					 logical.len, DF_INI_LINE_MAX);
		else if (k == JOIN_DONE)
			r = lex_logical_line(lex, logical.s, logical.len, start, from, pos,
					     &section, diags);
		strbuf_release(&logical);
	}
	if (r >= 0 && joining)
		r = df_diags_add(diags, DF_ERROR, start,
				 "the last line ends with a backslash: the parser would drop it");
	strbuf_release(&logical);
	return r < 0 ? r : 0;
}

const struct df_lex_entry *df_lex_find(const struct df_lex *lex, const char *id)
{
	uintptr_t i = (uintptr_t)strmap_get(&lex->index, id);

	return i ? &lex->entries[i - 1] : NULL;
}

void df_lex_release(struct df_lex *lex)
{
	for (size_t i = 0; i < lex->count; i++) {
		free(lex->entries[i].id);
		free(lex->entries[i].value);
	}
	free(lex->entries);
	strmap_release(&lex->index);
	memset(lex, 0, sizeof(*lex));
}
