// SPDX-License-Identifier: GPL-2.0-only
/* "Did you mean" (shared/suggest.c) for verbs, sections and keys. */
#include "suggest.h"
#include "testutil.h"

START_TEST(test_suggest)
{
	static const char *const verbs[] = { "check", "explain", "cmdline" };

	ck_assert_str_eq(suggest("chek", verbs, 3), "check");
	ck_assert_str_eq(suggest("EXPLIAN", verbs, 3), "explain");
	ck_assert_ptr_null(suggest("frobnicate", verbs, 3));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("suggest");
	TCase *tc = tcase_create("suggest");

	tcase_add_test(tc, test_suggest);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
