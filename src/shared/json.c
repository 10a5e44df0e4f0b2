// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "json.h"
#include "utf8.h"

void json_init(struct json *j, FILE *f, bool pretty)
{
	j->f = f;
	j->len = 0;
	j->pretty = pretty;
	j->depth = 0;
	memset(j->need_comma, 0, sizeof(j->need_comma));
	j->after_key = false;
}

void json_flush(struct json *j)
{
	if (j->len > 0)
		fwrite(j->buf, 1, j->len, j->f);
	j->len = 0;
}

/*
 * @n bytes of output: copied into the buffer, which is flushed when they do
 * not fit. Inline, as json_putc(): a state file is thousands of short pieces.
 */
static inline __attribute__((always_inline)) void json_put(struct json *j, const void *s, size_t n)
{
	if (n > sizeof(j->buf) - j->len) {
		json_flush(j);
		if (n > sizeof(j->buf)) {
			fwrite(s, 1, n, j->f);
			return;
		}
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static inline __attribute__((always_inline)) void json_putc(struct json *j, char c)
{
	if (j->len == sizeof(j->buf))
		json_flush(j);
	j->buf[j->len++] = c;
}

#define json_puts_lit(j, lit) json_put((j), (lit), sizeof(lit) - 1)

static void json_indent(struct json *j)
{
	if (!j->pretty)
		return;
	static const char line[1 + 2 * JSON_MAX_DEPTH] = { '\n', [1 ... 2 * JSON_MAX_DEPTH] = ' ' };

	json_put(j, line, 1 + 2 * (size_t)j->depth);
}

/* Comma and indentation before a value or key at the current level. */
static void json_before_item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->need_comma[j->depth])
		json_putc(j, ',');
	j->need_comma[j->depth] = true;
	json_indent(j);
}

static void json_open(struct json *j, char c)
{
	json_before_item(j);
	json_putc(j, c);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	bool had_items = j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had_items)
		json_indent(j);
	json_putc(j, c);
}

void json_object_begin(struct json *j)
{
	json_open(j, '{');
}

void json_object_end(struct json *j)
{
	json_close(j, '}');
}

void json_array_begin(struct json *j)
{
	json_open(j, '[');
}

void json_array_end(struct json *j)
{
	json_close(j, ']');
}

/*
 * Bytes that go out as they are: printable ASCII but the quote and the
 * backslash (a table: a state file is mostly names, each byte looked at).
 */
static const bool plain_byte[256] = {
#define P(c) [c] = (c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\'
#define P8(c) P(c), P(c + 1), P(c + 2), P(c + 3), P(c + 4), P(c + 5), P(c + 6), P(c + 7)
	P8(0x20), P8(0x28), P8(0x30), P8(0x38), P8(0x40), P8(0x48),
	P8(0x50), P8(0x58), P8(0x60), P8(0x68), P8(0x70), P8(0x78),
#undef P8
#undef P
};

static const char hexdigit[] = "0123456789abcdef";

/*
 * A C string as a JSON string. JSON holds Unicode text, and names from sysfs
 * or a file are bytes: a byte that is not part of well-formed UTF-8 is
 * written as the four characters \xNN (lower-case hex; "\\xNN" in the JSON
 * text), and a backslash as two, as in the kernel log's lines. So the
 * document stays valid UTF-8 JSON that every parser takes, and the mapping is
 * one to one: names that differ in any byte stay different strings, and a
 * reader gets the bytes back with json_unescape_bytes().
 */
static void json_quoted(struct json *j, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	json_putc(j, '"');
	for (;;) {
		size_t len = 0;

		/* Each run of plain bytes is one copy; the NUL ends a run, not being plain. */
		while (plain_byte[p[len]])
			len++;
		if (len > 0) {
			json_put(j, p, len);
			p += len;
		}
		if (!*p)
			break;
		if (*p == '"') {
			json_puts_lit(j, "\\\"");
			len = 1;
		} else if (*p == '\\') {
			json_puts_lit(j, "\\\\\\\\");
			len = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			const char u[6] = {
				'\\', 'u', '0', '0', hexdigit[*p >> 4], hexdigit[*p & 15]
			};

			json_put(j, u, sizeof(u));
			len = 1;
		} else {
			/* A sequence is at most 4 bytes: what is left of the string, up to that. */
			len = utf8_seq_len(p, strnlen((const char *)p, 4));
			if (len == 0) {
				const char x[5] = { '\\', '\\', 'x', hexdigit[*p >> 4],
						    hexdigit[*p & 15] };

				json_put(j, x, sizeof(x));
				len = 1;
			} else {
				json_put(j, p, len);
			}
		}
		p += len;
	}
	json_putc(j, '"');
}

void json_key(struct json *j, const char *key)
{
	json_before_item(j);
	json_quoted(j, key);
	if (j->pretty)
		json_puts_lit(j, ": ");
	else
		json_putc(j, ':');
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	json_before_item(j);
	if (s)
		json_quoted(j, s);
	else
		json_puts_lit(j, "null");
}

void json_int(struct json *j, long long v)
{
	/* As printf's %lld: the digits from the end, a minus sign before them. */
	char digits[24], *d = digits + sizeof(digits);
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;

	do {
		*--d = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--d = '-';
	json_before_item(j);
	json_put(j, d, (size_t)(digits + sizeof(digits) - d));
}

void json_bool(struct json *j, bool v)
{
	json_before_item(j);
	if (v)
		json_puts_lit(j, "true");
	else
		json_puts_lit(j, "false");
}

void json_finish(struct json *j)
{
	json_putc(j, '\n');
	json_flush(j);
}

void json_field_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_field_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_field_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
