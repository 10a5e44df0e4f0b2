// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "strbuf.h"

static int strbuf_reserve(struct strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *s;

	if (extra > SIZE_MAX / 2 - sb->len)
		return -ENOMEM;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	s = realloc(sb->s, cap);
	if (!s)
		return -ENOMEM;
	sb->s = s;
	sb->cap = cap;
	return 0;
}

int strbuf_appendn(struct strbuf *sb, const char *s, size_t n)
{
	int r = strbuf_reserve(sb, n);

	if (r < 0)
		return r;
	memcpy(sb->s + sb->len, s, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
	return 0;
}

int strbuf_append(struct strbuf *sb, const char *s)
{
	return strbuf_appendn(sb, s, strlen(s));
}

int strbuf_appendc(struct strbuf *sb, char c)
{
	return strbuf_appendn(sb, &c, 1);
}

int strbuf_appendf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n, r;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	r = strbuf_reserve(sb, (size_t)n);
	if (r < 0)
		return r;
	va_start(ap, fmt);
	vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

/* With @quoted, " is escaped too: a quoted string then ends where it seems to. */
static int append_escaped(struct strbuf *sb, const char *s, size_t max, bool quoted)
{
	for (; *s; s++, max--) {
		unsigned char c = (unsigned char)*s;
		int r;

		if (max == 0)
			return strbuf_append(sb, "...");
		if (c == '\\')
			r = strbuf_append(sb, "\\\\");
		else if (c < 0x20 || c >= 0x7f || (quoted && c == '"'))
			r = strbuf_appendf(sb, "\\x%02x", c);
		else
			r = strbuf_appendc(sb, (char)c);
		if (r < 0)
			return r;
	}
	return 0;
}

int strbuf_append_escaped(struct strbuf *sb, const char *s)
{
	return append_escaped(sb, s, SIZE_MAX, false);
}

int strbuf_append_escaped_max(struct strbuf *sb, const char *s, size_t max)
{
	return append_escaped(sb, s, max, false);
}

int strbuf_append_quoted(struct strbuf *sb, const char *s)
{
	int r = strbuf_appendc(sb, '"');

	if (r >= 0)
		r = append_escaped(sb, s, SIZE_MAX, true);
	if (r >= 0)
		r = strbuf_appendc(sb, '"');
	return r;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->s ? sb->s : "";
}

void strbuf_clear(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->s)
		sb->s[0] = '\0';
}

char *strbuf_steal(struct strbuf *sb)
{
	char *s = sb->s ? sb->s : strdup("");

	sb->s = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}
