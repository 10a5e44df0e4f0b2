// SPDX-License-Identifier: GPL-2.0-only
/* The string map (shared/strmap.c) behind the policy's exact names and the line index. */
#include <errno.h>
#include <stdio.h>

#include "strmap.h"
#include "testutil.h"

START_TEST(test_strmap)
{
	struct strmap m = STRMAP_INIT;
	char keys[2000][8];
	void *old;

	ck_assert_ptr_null(strmap_get(&m, "nothing"));
	for (int i = 0; i < 2000; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%d", i);
		ck_assert_int_eq(strmap_put(&m, keys[i], &keys[i], NULL), 0);
	}
	ck_assert_uint_eq(m.count, 2000);
	for (int i = 0; i < 2000; i++)
		ck_assert_ptr_eq(strmap_get(&m, keys[i]), &keys[i]);
	ck_assert_ptr_null(strmap_get(&m, "k2000"));
	ck_assert_int_eq(strmap_put(&m, "k7", NULL, &old), -EEXIST);
	ck_assert_ptr_eq(old, &keys[7]);
	strmap_release(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strmap");
	TCase *tc = tcase_create("strmap");

	tcase_add_test(tc, test_strmap);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
