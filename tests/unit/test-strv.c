// SPDX-License-Identifier: GPL-2.0-only
/* The string list (shared/strv.c) and ARRAY_GROW (shared/array.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "strv.h"
#include "testutil.h"

START_TEST(test_strv)
{
	struct strv l = STRV_INIT;
	char name[16];
	char **v;
	size_t n;

	ck_assert_int_eq(strv_push(&l, "xhci_pci"), 0);
	ck_assert_int_eq(strv_push(&l, "e1000"), 0);
	ck_assert_int_eq(strv_push_unique(&l, "e1000"), 0);
	ck_assert_int_eq(strv_push_unique(&l, "8250"), 0);
	ck_assert_uint_eq(l.n, 3);
	ck_assert(strv_contains(&l, "xhci_pci"));
	ck_assert(!strv_contains(&l, "xhci"));
	strv_sort(&l);
	ck_assert_str_eq(l.v[0], "8250");
	ck_assert_str_eq(l.v[1], "e1000");
	ck_assert_str_eq(l.v[2], "xhci_pci");
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		ck_assert_int_eq(strv_push(&l, name), 0);
	}
	v = strv_steal(&l, &n);
	ck_assert_uint_eq(n, 1003);
	ck_assert_str_eq(v[1002], "m999");
	ck_assert_ptr_null(l.v);
	ck_assert_uint_eq(l.n, 0);
	strv_free_array(v, n);
	/* An empty list hands over no array. */
	v = strv_steal(&l, &n);
	ck_assert_ptr_null(v);
	ck_assert_uint_eq(n, 0);
	strv_release(&l);
}
END_TEST

START_TEST(test_array_grow)
{
	int *a = NULL;
	size_t cap = 0, n = 0;

	for (int i = 0; i < 10000; i++) {
		int *slot = ARRAY_GROW(a, cap, n);

		ck_assert_ptr_nonnull(slot);
		*slot = i;
		n++;
		ck_assert_uint_ge(cap, n);
	}
	for (int i = 0; i < 10000; i++)
		ck_assert_int_eq(a[i], i);
	/* Room for an index further on grows at once; an impossible size fails cleanly. */
	ck_assert_ptr_nonnull(ARRAY_GROW(a, cap, 50000));
	ck_assert_uint_gt(cap, 50000);
	ck_assert_ptr_null(array_grow((void **)&a, &cap, (size_t)-1 / 2, sizeof(*a)));
	ck_assert_int_eq(a[9999], 9999);
	free(a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strv");
	TCase *tc = tcase_create("strv");

	tcase_add_test(tc, test_strv);
	tcase_add_test(tc, test_array_grow);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
