// SPDX-License-Identifier: GPL-2.0-only
/* UTF-8 sequences (shared/utf8.c): what the policy scanner accepts as text. */
#include "testutil.h"
#include "utf8.h"

START_TEST(test_utf8)
{
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"a", 1), 1);
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xc3\xa9", 2), 2);
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xe2\x82\xac", 3), 3);
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xc3", 1), 0); /* cut */
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xc0\xaf", 2), 0); /* overlong */
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xed\xa0\x80", 3),
			  0); /* surrogate */
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);
	ck_assert_uint_eq(utf8_seq_len((const unsigned char *)"\xe9", 1), 0); /* Latin-1 */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("utf8");

	tcase_add_test(tc, test_utf8);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
