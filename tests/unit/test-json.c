// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer (shared/json.c): what status, check and the state file print. */
#include <errno.h>
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
	suite_add_tcase(s, tc);
	return tu_run(s);
}
