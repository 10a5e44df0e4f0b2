// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "json.h"
#include "utf8.h"

void json_init(struct json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void json_indent(struct json *j)
{
	if (!j->pretty)
		return;
	static const char spaces[2 * JSON_MAX_DEPTH] = { [0 ... 2 * JSON_MAX_DEPTH - 1] = ' ' };

	fputc('\n', j->f);
	fwrite(spaces, 1, 2 * (size_t)j->depth, j->f);
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
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	json_indent(j);
}

static void json_open(struct json *j, char c)
{
	json_before_item(j);
	fputc(c, j->f);
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
	fputc(c, j->f);
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

/* Bytes that go out as they are: printable ASCII but the quote and the backslash. */
static bool json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/*
 * A C string as a JSON string. JSON holds Unicode text, and names from sysfs
 * or a file are bytes: a byte that is not part of well-formed UTF-8 is
 * written as the four characters \xNN (lower-case hex; "\\xNN" in the JSON
 * text), and a backslash as two, as in the kernel log's lines. So the
 * document stays valid UTF-8 JSON that every parser takes, and the mapping is
 * one to one: names that differ in any byte stay different strings, and a
 * reader gets the bytes back with json_unescape_bytes().
 */
static void json_quoted(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	fputc('"', f);
	while (n > 0) {
		size_t len = 0;

		/* A state file is mostly names: each run of plain bytes is one write. */
		while (len < n && json_plain(p[len]))
			len++;
		if (len > 0) {
			fwrite(p, 1, len, f);
		} else if (*p == '"') {
			fputs("\\\"", f);
			len = 1;
		} else if (*p == '\\') {
			fputs("\\\\\\\\", f);
			len = 1;
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
			len = 1;
		} else {
			len = utf8_seq_len(p, n);
			if (len == 0) {
				fprintf(f, "\\\\x%02x", *p);
				len = 1;
			} else {
				fwrite(p, 1, len, f);
			}
		}
		p += len;
		n -= len;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	json_before_item(j);
	json_quoted(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	json_before_item(j);
	if (s)
		json_quoted(j->f, s);
	else
		fputs("null", j->f);
}

void json_int(struct json *j, long long v)
{
	json_before_item(j);
	fprintf(j->f, "%lld", v);
}

void json_bool(struct json *j, bool v)
{
	json_before_item(j);
	fputs(v ? "true" : "false", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
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
