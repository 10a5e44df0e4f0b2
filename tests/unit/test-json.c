// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer (shared/json.c): what status, check and the state file print. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json-read.h"
#include "json.h"
#include "testutil.h"

/* What @fn writes, pretty or short, as a new string. */
static char *written(void (*fn)(struct json *j), bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	ck_assert_ptr_nonnull(f);
	json_init(&j, f, pretty);
	fn(&j);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static void doc(struct json *j)
{
	json_object_begin(j);
	json_field_string(j, "mode", "kernel");
	json_field_int(j, "errors", -3);
	json_field_bool(j, "locked", true);
	json_field_string(j, "drift", NULL);
	json_key(j, "drivers");
	json_array_begin(j);
	json_string(j, "pci:e1000");
	json_string(j, "q\"\\\n\x01");
	json_array_end(j);
	json_key(j, "empty");
	json_object_begin(j);
	json_object_end(j);
	json_object_end(j);
	json_finish(j);
}

START_TEST(test_json_short)
{
	char *s = written(doc, false);

	/* The backslash of the name is two in the string (four in JSON text): see json.h. */
	ck_assert_str_eq(
		s, "{\"mode\":\"kernel\",\"errors\":-3,\"locked\":true,\"drift\":null,"
		   "\"drivers\":[\"pci:e1000\",\"q\\\"\\\\\\\\\\u000a\\u0001\"],\"empty\":{}}\n");
	free(s);
}
END_TEST

START_TEST(test_json_pretty_reads_back)
{
	char *s = written(doc, true);
	struct jv v;

	ck_assert_ptr_nonnull(strstr(s, "\n  \"mode\": \"kernel\",\n"));
	ck_assert_int_eq(json_parse(s, strlen(s), &v, NULL), 0);
	ck_assert_str_eq(jv_get_string(&v, "mode"), "kernel");
	ck_assert_uint_eq(jv_get(&v, "drivers")->count, 2);
	jv_release(&v);
	free(s);
}
END_TEST

static void invalid_utf8(struct json *j)
{
	json_array_begin(j);
	json_string(j, "a\xc0"
		       "b");
	json_string(j, "a\xc1"
		       "b");
	json_string(j, "a\xff\xc3\xa9");
	json_string(j, "a\\xc0b");
	json_string(j, "a\\b");
	json_string(j, "\xc3\x80");
	json_array_end(j);
	json_finish(j);
}

/*
 * Review 2's F9: names that differ only in a byte that is not UTF-8 were both
 * written as U+FFFD. Each such byte is \xNN now and a backslash two, so every
 * name stays its own string (even one that spells \xc0 itself, or U+00C0),
 * the document is valid UTF-8 JSON, and json_unescape_bytes() gives each
 * name's bytes back.
 */
START_TEST(test_json_invalid_utf8)
{
	static const char *const names[] = { "a\xc0"
					     "b",
					     "a\xc1"
					     "b",
					     "a\xff\xc3\xa9",
					     "a\\xc0b",
					     "a\\b",
					     "\xc3\x80" };
	char *s = written(invalid_utf8, false);
	struct jv v;

	ck_assert_str_eq(s, "[\"a\\\\xc0b\",\"a\\\\xc1b\",\"a\\\\xff\xc3\xa9\",\"a\\\\\\\\xc0b\","
			    "\"a\\\\\\\\b\",\"\xc3\x80\"]\n");
	ck_assert_int_eq(json_parse(s, strlen(s), &v, NULL), 0);
	ck_assert_uint_eq(v.count, 6);
	for (size_t i = 0; i < v.count; i++) {
		char *back;

		for (size_t k = 0; k < i; k++)
			ck_assert_str_ne(v.items[i].string, v.items[k].string);
		ck_assert_int_eq(json_unescape_bytes(v.items[i].string, &back), 0);
		ck_assert_str_eq(back, names[i]);
		free(back);
	}
	jv_release(&v);
	free(s);
}
END_TEST

/*
 * Names of every kind the writer escapes differently, integers at their
 * limits, empty and nested containers, the deepest indentation: the text
 * pinned as the writer wrote it before it had a buffer of its own (through
 * stdio, a call per piece), short and pretty. The state file is this
 * writer's pretty text, and tests and tools read it as text.
 */
static void tricky(struct json *j)
{
	json_object_begin(j);
	json_field_string(j, "ctl", "\x01\t\n\x1f\x7f end");
	json_field_string(j, "quote\"key\\", "a\"b\\c");
	/* Lone continuation, overlong, surrogate, above U+10FFFF, cut short. */
	json_field_string(j, "bytes", "\x80|\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82");
	json_field_string(j, "utf8", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	json_field_string(j, "empty", "");
	json_key(j, "ints");
	json_array_begin(j);
	json_int(j, 0);
	json_int(j, -1);
	json_int(j, 42);
	json_int(j, LLONG_MIN);
	json_int(j, LLONG_MAX);
	json_array_end(j);
	json_key(j, "nested");
	json_array_begin(j);
	json_object_begin(j);
	json_object_end(j);
	json_array_begin(j);
	json_array_end(j);
	json_bool(j, false);
	json_string(j, NULL);
	json_array_end(j);
	json_key(j, "deep");
	for (int i = 0; i < JSON_MAX_DEPTH - 2; i++)
		json_array_begin(j);
	json_int(j, 7);
	for (int i = 0; i < JSON_MAX_DEPTH - 2; i++)
		json_array_end(j);
	json_object_end(j);
	json_finish(j);
}

START_TEST(test_json_tricky_pinned)
{
	static const char short_text[] = "{\"ctl\":\"\\u0001\\u0009\\u000a\\u001f\\u007f "
					 "end\",\"quote\\\"key\\\\\\\\\":\"a\\\"b\\\\\\\\c\","
					 "\"bytes\":\"\\\\x80|\\\\xc0\\\\xaf|\\\\xed\\\\xa0\\\\x80|"
					 "\\\\xf4\\\\x90\\\\x80\\\\x80|\\\\xe2\\\\x82\","
					 "\"utf8\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\","
					 "\"empty\":\"\",\"ints\":[0,-1,42,-9223372036854775808,"
					 "9223372036854775807],\"nested\":[{},[],false,null],"
					 "\"deep\":[[[[[[[[[[[[[[7]]]]]]]]]]]]]]}\n";
	static const char pretty_text[] =
		"{\n"
		"  \"ctl\": \"\\u0001\\u0009\\u000a\\u001f\\u007f end\",\n"
		"  \"quote\\\"key\\\\\\\\\": \"a\\\"b\\\\\\\\c\",\n"
		"  \"bytes\": "
		"\"\\\\x80|\\\\xc0\\\\xaf|\\\\xed\\\\xa0\\\\x80|\\\\xf4\\\\x90\\\\x80\\\\x80|"
		"\\\\xe2\\\\x82\",\n"
		"  \"utf8\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\n"
		"  \"empty\": \"\",\n"
		"  \"ints\": [\n"
		"    0,\n"
		"    -1,\n"
		"    42,\n"
		"    -9223372036854775808,\n"
		"    9223372036854775807\n"
		"  ],\n"
		"  \"nested\": [\n"
		"    {},\n"
		"    [],\n"
		"    false,\n"
		"    null\n"
		"  ],\n"
		"  \"deep\": [\n"
		"    [\n"
		"      [\n"
		"        [\n"
		"          [\n"
		"            [\n"
		"              [\n"
		"                [\n"
		"                  [\n"
		"                    [\n"
		"                      [\n"
		"                        [\n"
		"                          [\n"
		"                            [\n"
		"                              7\n"
		"                            ]\n"
		"                          ]\n"
		"                        ]\n"
		"                      ]\n"
		"                    ]\n"
		"                  ]\n"
		"                ]\n"
		"              ]\n"
		"            ]\n"
		"          ]\n"
		"        ]\n"
		"      ]\n"
		"    ]\n"
		"  ]\n"
		"}\n";
	char *s = written(tricky, false);

	ck_assert_str_eq(s, short_text);
	free(s);
	s = written(tricky, true);
	ck_assert_str_eq(s, pretty_text);
	free(s);
}
END_TEST

#define MANY 3000
#define LONG_NAME 40000

/* "d<i>\\\"<0xc0>é": a backslash, a quote, a byte that is not UTF-8 and one that is. */
static void many_name(size_t i, char *buf, size_t size)
{
	snprintf(buf, size, "d%zu\\\"\xc0\xc3\xa9", i);
}

static void many(struct json *j)
{
	char name[64];
	char *long_name = malloc(LONG_NAME + 1);

	ck_assert_ptr_nonnull(long_name);
	memset(long_name, 'x', LONG_NAME);
	long_name[LONG_NAME / 2] = '"';
	long_name[LONG_NAME] = '\0';
	json_array_begin(j);
	for (size_t i = 0; i < MANY; i++) {
		many_name(i, name, sizeof(name));
		json_string(j, name);
		if (i == MANY / 2)
			json_string(j, long_name);
	}
	json_array_end(j);
	json_finish(j);
	free(long_name);
}

/*
 * A document many times the writer's buffer, with a string longer than it:
 * the same text as written piece by piece, wherever the buffer fills (in a
 * run, inside an escape).
 */
START_TEST(test_json_larger_than_buffer)
{
	char *s = written(many, true), *want = NULL, name[64];
	size_t wantlen = 0;
	FILE *f = open_memstream(&want, &wantlen);

	ck_assert_ptr_nonnull(f);
	fputc('[', f);
	for (size_t i = 0; i < MANY; i++) {
		snprintf(name, sizeof(name), "d%zu\\\\\\\\\\\"\\\\xc0\xc3\xa9", i);
		fprintf(f, "%s\n  \"%s\"", i ? "," : "", name);
		if (i == MANY / 2) {
			fputs(",\n  \"", f);
			for (size_t k = 0; k < LONG_NAME; k++)
				fputs(k == LONG_NAME / 2 ? "\\\"" : "x", f);
			fputc('"', f);
		}
	}
	fputs("\n]\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_uint_gt(strlen(s), 4 * JSON_BUF_SIZE);
	ck_assert_str_eq(s, want);
	free(want);
	free(s);
}
END_TEST

/* What a caller writes to the FILE after json_flush() comes after the JSON before it. */
START_TEST(test_json_flush_orders)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	ck_assert_ptr_nonnull(f);
	json_init(&j, f, false);
	json_array_begin(&j);
	json_string(&j, "a");
	json_flush(&j);
	fputs("|text|", f);
	json_string(&j, "b");
	json_array_end(&j);
	json_finish(&j);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_str_eq(buf, "[\"a\"|text|,\"b\"]\n");
	free(buf);
}
END_TEST

/* The reader takes back only what the writer writes: any other backslash is refused. */
START_TEST(test_json_unescape_refuses)
{
	static const char *const bad[] = { "\\", "a\\n", "\\x4", "\\x41", "\\xg0", "\\u00c0" };
	char *back = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(json_unescape_bytes(bad[i], &back) == -EBADMSG, "%s", bad[i]);
	ck_assert_int_eq(json_unescape_bytes("", &back), 0);
	ck_assert_str_eq(back, "");
	free(back);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, test_json_short);
	tcase_add_test(tc, test_json_pretty_reads_back);
	tcase_add_test(tc, test_json_invalid_utf8);
	tcase_add_test(tc, test_json_unescape_refuses);
	tcase_add_test(tc, test_json_tricky_pinned);
	tcase_add_test(tc, test_json_larger_than_buffer);
	tcase_add_test(tc, test_json_flush_orders);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
