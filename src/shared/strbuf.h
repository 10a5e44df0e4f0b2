/* SPDX-License-Identifier: GPL-2.0-only */
/* A growable, always NUL-terminated string. Functions return 0 or -ENOMEM. */
#ifndef DRVFILTER_STRBUF_H
#define DRVFILTER_STRBUF_H

#include <stddef.h>
#include "macro.h"

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT        \
	{                  \
		NULL, 0, 0 \
	}

int strbuf_appendn(struct strbuf *sb, const char *s, size_t n);
int strbuf_append(struct strbuf *sb, const char *s);
int strbuf_appendc(struct strbuf *sb, char c);
_printf_(2, 3) int strbuf_appendf(struct strbuf *sb, const char *fmt, ...);
/* Append @s with every byte outside printable ASCII written as \xNN (and \ as \\). */
int strbuf_append_escaped(struct strbuf *sb, const char *s);
/* The same for at most @max bytes of @s, then "..." if there was more. */
int strbuf_append_escaped_max(struct strbuf *sb, const char *s, size_t max);
/* @s escaped so, with " as \x22 too, between double quotes: where it ends cannot be forged. */
int strbuf_append_quoted(struct strbuf *sb, const char *s);
/* The buffer's string (never NULL), still owned by @sb. */
const char *strbuf_str(const struct strbuf *sb);
/* Empty the buffer, keeping its memory for what comes next. */
void strbuf_clear(struct strbuf *sb);
/* The buffer's string, now owned by the caller; @sb is empty afterwards. */
char *strbuf_steal(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

#endif
