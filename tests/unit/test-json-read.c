// SPDX-License-Identifier: GPL-2.0-only
/* The JSON reader (shared/json-read.c) that status reads the state file with. */
#include <errno.h>
#include <string.h>

#include "json-read.h"
#include "testutil.h"

START_TEST(test_json_accepts)
{
	const char *doc =
		"{\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\","
		" \"o\": {\"k\": 42}}";
	struct jv v;

	ck_assert_int_eq(json_parse(doc, strlen(doc), &v, NULL), 0);
	ck_assert_int_eq(v.type, JV_OBJECT);
	ck_assert_uint_eq(jv_get(&v, "a")->count, 5);
	ck_assert_str_eq(jv_get_string(&v, "s"), "x\xc3\xa9\xf0\x9f\x98\x80\n");
	ck_assert_int_eq(jv_get_int(jv_get(&v, "o"), "k"), 42);
	ck_assert_int_eq(jv_get_int(&v, "missing"), -1);
	jv_release(&v);
}
END_TEST

START_TEST(test_json_refuses)
{
	static const char *const bad[] = {
		"",
		"{",
		"{\"a\":}",
		"[1,]",
		"{\"a\":1,}",
		"01",
		"1.",
		"+1",
		"0x10",
		"nan",
		"\"\\u0000\"",
		"\"a\nb\"",
		"\"\\ud800\"",
		"\"\\x41\"",
		"{} x",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	};
	struct jv v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(json_parse(bad[i], strlen(bad[i]), &v, NULL) == -EINVAL,
			      "accepted %s", bad[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json-read");
	TCase *tc = tcase_create("json-read");

	tcase_add_test(tc, test_json_accepts);
	tcase_add_test(tc, test_json_refuses);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
