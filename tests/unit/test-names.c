// SPDX-License-Identifier: GPL-2.0-only
/* Names: what a bus, driver or module name may be, spellings, and globs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core-private.h"
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

/* What a name read from sysfs must be to become part of a path, as it was first written. */
static bool sysfs_name_ok(const char *name)
{
	size_t n = strnlen(name, DF_NAME_MAX + 1);

	if (n == 0 || n > DF_NAME_MAX || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c == '/' || *c < 0x20 || *c == 0x7f)
			return false;
	return true;
}

/*
 * df_sysfs_name_check() in one pass: every byte alone and inside a name,
 * the dot names and their neighbours, names at the length limit and past
 * it, each refused or taken as the reference says.
 */
START_TEST(test_sysfs_names)
{
	static const char *const names[] = { "",    ".",   "..",   "...",  ".a",   "a.",
					     "..a", "a..", "./",   "a/b",  "/",	   "e1000",
					     " ",   "a b", "\x80", "\xff", "\x1f", "\x7f" };
	char name[DF_NAME_MAX + 3];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ck_assert_msg((df_sysfs_name_check(names[i]) == 0) == sysfs_name_ok(names[i]), "%s",
			      names[i]);
	for (int c = 1; c < 256; c++) {
		snprintf(name, sizeof(name), "%c", c);
		ck_assert_int_eq(df_sysfs_name_check(name) == 0, sysfs_name_ok(name));
		snprintf(name, sizeof(name), "a%cb", c);
		ck_assert_int_eq(df_sysfs_name_check(name) == 0, sysfs_name_ok(name));
	}
	for (size_t len = DF_NAME_MAX - 1; len <= DF_NAME_MAX + 2; len++) {
		memset(name, 'n', len);
		name[len] = '\0';
		ck_assert_int_eq(df_sysfs_name_check(name) == 0, len <= DF_NAME_MAX);
		name[len - 1] = '/';
		ck_assert_int_eq(df_sysfs_name_check(name), -EINVAL);
	}
}
END_TEST

/*
 * A directory's listing (sysfs.c): the subdirectories or the links, sorted,
 * with the names not safe to use counted and the least of them named; many
 * more than fit the names' first allocation.
 */
START_TEST(test_dir_listing)
{
	char dir[] = "/tmp/test-names.XXXXXX", path[64];
	struct df_names names;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* Made in an order other than the sorted one. */
	for (int i = 599; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/%s%d", dir, i % 2 ? "drv" : "d", (i * 7919) % 600);
		ck_assert_int_eq(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/\x01z", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/\x02y", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/link", dir);
	ck_assert_int_eq(symlink("d0", path), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(df_dir_list_dirs(fd, ".", &names), 0);
	ck_assert_uint_eq(names.n, 600);
	ck_assert_uint_eq(names.unsafe, 2);
	ck_assert_str_eq(names.first_unsafe, "\\x01z");
	for (size_t i = 1; i < names.n; i++)
		ck_assert_msg(strcmp(names.v[i - 1], names.v[i]) < 0, "%s %s", names.v[i - 1],
			      names.v[i]);
	ck_assert_str_eq(names.v[0], "d0");
	ck_assert_str_eq(names.v[names.n - 1], "drv99");
	df_names_release(&names);
	ck_assert_int_eq(df_dir_list_links(fd, &names), 0);
	ck_assert_uint_eq(names.n, 1);
	ck_assert_str_eq(names.v[0], "link");
	df_names_release(&names);
	close(fd);
	unlink(path);
	for (int i = 0; i < 600; i++) {
		snprintf(path, sizeof(path), "%s/%s%d", dir, i % 2 ? "drv" : "d", (i * 7919) % 600);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/\x01z", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/\x02y", dir);
	rmdir(path);
	ck_assert_int_eq(rmdir(dir), 0);
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
	tcase_add_test(tc, test_sysfs_names);
	tcase_add_test(tc, test_dir_listing);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
