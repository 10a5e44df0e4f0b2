// SPDX-License-Identifier: GPL-2.0-only
/* The growable string (shared/strbuf.c), and its escaping of bytes from outside. */
#include <stdio.h>
#include <string.h>

#include "strbuf.h"
#include "testutil.h"

START_TEST(test_strbuf_append)
{
	struct strbuf sb = STRBUF_INIT;
	char big[5000];

	ck_assert_str_eq(strbuf_str(&sb), "");
	ck_assert_int_eq(strbuf_append(&sb, "pci"), 0);
	ck_assert_int_eq(strbuf_appendc(&sb, ':'), 0);
	ck_assert_int_eq(strbuf_appendf(&sb, "%s,%d", "e1000", 42), 0);
	ck_assert_int_eq(strbuf_appendn(&sb, "xyz", 1), 0);
	ck_assert_str_eq(strbuf_str(&sb), "pci:e1000,42x");
	ck_assert_uint_eq(sb.len, 13);
	/* Growing past the first allocation keeps what was there. */
	memset(big, 'b', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(strbuf_append(&sb, big), 0);
	ck_assert_uint_eq(sb.len, 13 + sizeof(big) - 1);
	ck_assert_int_eq(strncmp(strbuf_str(&sb), "pci:e1000,42xbbb", 16), 0);
	strbuf_clear(&sb);
	ck_assert_str_eq(strbuf_str(&sb), "");
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_int_eq(strbuf_append(&sb, "again"), 0);
	ck_assert_str_eq(strbuf_str(&sb), "again");
	strbuf_release(&sb);
	ck_assert_ptr_null(sb.s);
}
END_TEST

/* concat2() (macro.h) writes what snprintf(buf, size, "%s%s", a, b) writes, cut or not. */
START_TEST(test_concat2_as_snprintf)
{
	static const char *const parts[] = { "", "e1000", "/allowed", "0123456789abcdef" };
	char got[32], want[32];

	for (size_t size = 1; size <= sizeof(got); size++)
		for (size_t a = 0; a < 4; a++)
			for (size_t b = 0; b < 4; b++) {
				memset(got, 'x', sizeof(got));
				memset(want, 'x', sizeof(want));
				ck_assert_ptr_eq(concat2(got, size, parts[a], parts[b]), got);
				snprintf(want, size, "%s%s", parts[a], parts[b]);
				ck_assert_int_eq(memcmp(got, want, sizeof(got)), 0);
			}
}
END_TEST

START_TEST(test_strbuf_steal)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	ck_assert_int_eq(strbuf_append(&sb, "mine"), 0);
	s = strbuf_steal(&sb);
	ck_assert_str_eq(s, "mine");
	ck_assert_uint_eq(sb.len, 0);
	ck_assert_str_eq(strbuf_str(&sb), "");
	free(s);
	/* An empty buffer hands over an empty string, not NULL. */
	s = strbuf_steal(&sb);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_strbuf_escaped)
{
	struct strbuf sb = STRBUF_INIT;

	ck_assert_int_eq(strbuf_append_escaped(&sb, "i8042 kbd\\\n\x1b[2J\xc2\x9b"), 0);
	ck_assert_str_eq(strbuf_str(&sb), "i8042 kbd\\\\\\x0a\\x1b[2J\\xc2\\x9b");
	strbuf_clear(&sb);
	ck_assert_int_eq(strbuf_append_escaped_max(&sb, "abcdefgh", 3), 0);
	ck_assert_str_eq(strbuf_str(&sb), "abc...");
	strbuf_clear(&sb);
	ck_assert_int_eq(strbuf_append_escaped_max(&sb, "abc", 3), 0);
	ck_assert_str_eq(strbuf_str(&sb), "abc");
	strbuf_release(&sb);
}
END_TEST

/* A quote inside cannot end the quoted string early (a forged event text would). */
START_TEST(test_strbuf_quoted)
{
	struct strbuf sb = STRBUF_INIT;

	ck_assert_int_eq(strbuf_append_quoted(&sb, "a\" b\\\n"), 0);
	ck_assert_str_eq(strbuf_str(&sb), "\"a\\x22 b\\\\\\x0a\"");
	strbuf_clear(&sb);
	ck_assert_int_eq(strbuf_append_quoted(&sb, ""), 0);
	ck_assert_str_eq(strbuf_str(&sb), "\"\"");
	strbuf_release(&sb);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strbuf");
	TCase *tc = tcase_create("strbuf");

	tcase_add_test(tc, test_strbuf_append);
	tcase_add_test(tc, test_concat2_as_snprintf);
	tcase_add_test(tc, test_strbuf_steal);
	tcase_add_test(tc, test_strbuf_escaped);
	tcase_add_test(tc, test_strbuf_quoted);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
