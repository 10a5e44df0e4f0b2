/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A streaming JSON writer: enough for the tools' machine-readable output.
 * The text is gathered in the writer's own buffer and handed to the FILE in
 * large pieces (a state file of 20,000 actions is megabytes, and stdio's
 * cost is per call): whatever else goes to the FILE while a document is
 * being written must come after json_flush(), or it lands ahead of text
 * written before it. json_finish() flushes.
 */
#ifndef DRVFILTER_JSON_H
#define DRVFILTER_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16
#define JSON_BUF_SIZE 16384

struct json {
	FILE *f;
	size_t len; /* bytes in buf not yet handed to f */
	char buf[JSON_BUF_SIZE];
	bool pretty;
	unsigned depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *f, bool pretty);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
/*
 * NULL is written as null. A byte that is not UTF-8 is written as \xNN and a
 * backslash as two (json.c says why): valid JSON, one string per name.
 */
void json_string(struct json *j, const char *s);
void json_int(struct json *j, long long v);
void json_bool(struct json *j, bool v);
/* "key": value, in one call. */
void json_field_string(struct json *j, const char *key, const char *s);
void json_field_int(struct json *j, const char *key, long long v);
void json_field_bool(struct json *j, const char *key, bool v);
/* Ends the document with a newline, and flushes. */
void json_finish(struct json *j);
/* Hands what is buffered to the FILE (fwrite: ferror() says if it failed). */
void json_flush(struct json *j);

#endif
