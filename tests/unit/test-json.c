// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer (shared/json.c): what status, check and the state file print. */
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

	ck_assert_str_eq(s,
			 "{\"mode\":\"kernel\",\"errors\":-3,\"locked\":true,\"drift\":null,"
			 "\"drivers\":[\"pci:e1000\",\"q\\\"\\\\\\u000a\\u0001\"],\"empty\":{}}\n");
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
	json_string(j, "a\xff\xc3\xa9");
	json_finish(j);
}

START_TEST(test_json_invalid_utf8)
{
	/* A byte that is not UTF-8 becomes U+FFFD: the document stays JSON. */
	char *s = written(invalid_utf8, false);

	ck_assert_str_eq(s, "\"a\\ufffd\xc3\xa9\"\n");
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, test_json_short);
	tcase_add_test(tc, test_json_pretty_reads_back);
	tcase_add_test(tc, test_json_invalid_utf8);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
