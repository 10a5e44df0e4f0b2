// SPDX-License-Identifier: GPL-2.0-only
/* Names: what a bus, driver or module name may be, spellings, and globs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

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

START_TEST(test_modname)
{
	char buf[DF_NAME_MAX + 1], longname[DF_NAME_MAX + 2];

	ck_assert_int_eq(df_modname_normalize("virtio-pci", buf), 0);
	ck_assert_str_eq(buf, "virtio_pci");
	ck_assert_int_eq(df_modname_normalize("snd_hda-intel", buf), 0);
	ck_assert_str_eq(buf, "snd_hda_intel");
	ck_assert_int_eq(df_modname_dashed("xhci_pci", buf), 0);
	ck_assert_str_eq(buf, "xhci-pci");
	ck_assert_int_eq(df_modname_dashed("e1000", buf), 0);
	ck_assert_str_eq(buf, "e1000");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(df_modname_normalize(longname, buf), -ENAMETOOLONG);
	longname[DF_NAME_MAX] = '\0';
	ck_assert_int_eq(df_modname_dashed(longname, buf), 0);
	ck_assert_uint_eq(strlen(buf), DF_NAME_MAX);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_glob);
	tcase_add_test(tc, test_driver_names);
	tcase_add_test(tc, test_bus_names);
	tcase_add_test(tc, test_modname);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
