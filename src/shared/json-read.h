/* SPDX-License-Identifier: GPL-2.0-only */
/* A small, strict JSON reader: the whole document into a tree, with a depth limit. */
#ifndef DRVFILTER_JSON_READ_H
#define DRVFILTER_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type {
	JV_NULL,
	JV_BOOL,
	JV_NUMBER,
	JV_STRING,
	JV_ARRAY,
	JV_OBJECT,
};

struct jv {
	enum jv_type type;
	bool boolean;
	double number;
	char *string; /* JV_STRING, NUL-terminated; \u0000 is refused */
	char **keys; /* JV_OBJECT: keys[i] names items[i] */
	struct jv *items; /* JV_ARRAY, JV_OBJECT */
	size_t count;
};

/*
 * Parse @len bytes. Returns 0, -EINVAL with *@offset at the first bad byte, or
 * -ENOMEM. Nesting deeper than JSON_READ_MAX_DEPTH is refused.
 */
#define JSON_READ_MAX_DEPTH 32
int json_parse(const char *buf, size_t len, struct jv *ret, size_t *offset);
void jv_release(struct jv *v);
/* The member @key of an object, or NULL (also when @v is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* Typed members: NULL / false / -1 when absent or of another type. */
const char *jv_get_string(const struct jv *v, const char *key);
long long jv_get_int(const struct jv *v, const char *key);
bool jv_get_bool(const struct jv *v, const char *key, bool *ok);
/*
 * The bytes a string of drvfilter's JSON writer (json.h) stands for: \xNN
 * (NN 80 to ff, a byte that is not UTF-8) and \\ (a backslash) undone. 0
 * with *@ret to free, -EBADMSG when @s holds another backslash sequence, or
 * -ENOMEM. For drvfilter's own documents only: other writers' backslashes are
 * backslashes.
 */
int json_unescape_bytes(const char *s, char **ret);

#endif
