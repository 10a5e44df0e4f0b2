// SPDX-License-Identifier: GPL-2.0-only
/* Names, globs and the string map underneath the rule sets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "suggest.h"
#include "testutil.h"
#include "utf8.h"

START_TEST(test_glob)
{
	static const struct {
		const char *pattern, *s;
		bool match;
	} cases[] = {
		{ "*", "", true },
		{ "*", "anything", true },
		{ "e1000", "e1000", true },
		{ "e1000", "e10000", false },
		{ "e1?00", "e1000", true },
		{ "e1?00", "e100", false },
		{ "virtio*", "virtio", true },
		{ "virtio*", "virtio_net", true },
		{ "virtio*", "xvirtio", false },
		{ "*_hcd", "xhci_hcd", true },
		{ "*_hcd", "xhci_hcd2", false },
		{ "*a*b*c", "aXbXc", true },
		{ "*a*b*c", "aXbXcX", false },
		{ "a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		{ "??", "a", false },
		{ "i8042 *", "i8042 kbd", true },
		{ "", "", true },
		{ "", "a", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(df_glob_match(cases[i].pattern, cases[i].s) == cases[i].match,
			      "glob '%s' on '%s'", cases[i].pattern, cases[i].s);
}
END_TEST

START_TEST(test_driver_names)
{
	static const char *const good[] = { "e1000",	      "virtio-pci", "i8042 kbd", "8250_pnp",
					    "Fixed MDIO bus", "e1*",	    "a.b+c" };
	static const char *const bad[] = { "",	   "a/b",   "a:b",    "a;b",	     "a,b",  "a\"b",
					   "a'b",  "a=b",   "a#b",    "a\\b",	     "a[b]", "a\tb",
					   "a\nb", " lead", "trail ", "caf\xc3\xa9", "..",   "." };
	char longname[300];
	const char *why;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(df_driver_name_check(good[i], &why) == 0, "'%s' refused", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		ck_assert_msg(df_driver_name_check(bad[i], &why) == -EINVAL, "'%s' accepted",
			      bad[i]);
		ck_assert_ptr_nonnull(why);
	}
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(df_driver_name_check(longname, &why), -EINVAL);
	longname[DF_NAME_MAX] = '\0';
	ck_assert_int_eq(df_driver_name_check(longname, &why), 0);
}
END_TEST

START_TEST(test_bus_names)
{
	const char *why;

	ck_assert_int_eq(df_bus_name_check("pci", &why), 0);
	ck_assert_int_eq(df_bus_name_check("serial-base", &why), 0);
	ck_assert_int_eq(df_bus_name_check("mdio_bus", &why), 0);
	ck_assert_int_eq(df_bus_name_check("", &why), -EINVAL);
	ck_assert_int_eq(df_bus_name_check("..", &why), -EINVAL);
	ck_assert_int_eq(df_bus_name_check("p/ci", &why), -EINVAL);
	ck_assert_int_eq(df_bus_name_check("pci bus", &why), -EINVAL);
	ck_assert_int_eq(df_bus_name_check("pci:x", &why), -EINVAL);
}
END_TEST

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

START_TEST(test_suggest)
{
	static const char *const verbs[] = { "check", "explain", "cmdline" };

	ck_assert_str_eq(suggest("chek", verbs, 3), "check");
	ck_assert_str_eq(suggest("EXPLIAN", verbs, 3), "explain");
	ck_assert_ptr_null(suggest("frobnicate", verbs, 3));
}
END_TEST

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
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_glob);
	tcase_add_test(tc, test_driver_names);
	tcase_add_test(tc, test_bus_names);
	tcase_add_test(tc, test_strmap);
	tcase_add_test(tc, test_suggest);
	tcase_add_test(tc, test_utf8);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
