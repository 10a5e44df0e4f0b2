// SPDX-License-Identifier: GPL-2.0-only
/* Loading a policy file: what is refused before parsing, warnings, the system check. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static struct df_ctx *ctx;

static void setup(void)
{
	ck_assert_int_eq(df_ctx_new(NULL, &ctx), 0);
}

static void teardown(void)
{
	df_ctx_unref(ctx);
}

/* Load @path with @flags; the first message (which must exist) into @msg. */
static int load_path(const char *path, unsigned flags, char *msg, size_t size)
{
	struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_load(ctx, path, flags, &d, &p);
	ck_assert_uint_gt(d.count, 0);
	snprintf(msg, size, "%u: %s", d.items[0].line, d.items[0].message);
	df_diags_release(&d);
	df_policy_free(p);
	return r;
}

START_TEST(test_missing)
{
	char msg[256];

	ck_assert_int_eq(
		load_path("/nonexistent/drvfilter.conf", DF_LOAD_ANY_OWNER, msg, sizeof(msg)),
		-ENOENT);
	ck_assert_str_eq(msg, "0: cannot open: No such file or directory");
}
END_TEST

START_TEST(test_directory)
{
	char msg[256];

	ck_assert_int_eq(load_path("/", DF_LOAD_ANY_OWNER, msg, sizeof(msg)), -EISDIR);
	ck_assert_str_eq(msg, "0: is a directory, not a policy file");
}
END_TEST

START_TEST(test_fifo)
{
	char *path = tu_write_temp("", 0), msg[256];

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	/* Must not block waiting for a writer. */
	ck_assert_int_eq(load_path(path, DF_LOAD_ANY_OWNER, msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, "0: is not a regular file");
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_writable_by_others)
{
	char *path = tu_write_temp("[deny]\nusb = ALL\n", 17), msg[256];

	if (geteuid() == 0) {
		ck_assert_int_eq(chmod(path, 0666), 0);
		ck_assert_int_eq(load_path(path, 0, msg, sizeof(msg)), -EPERM);
		ck_assert_str_eq(msg, "0: is writable by group or others (mode 0666); make it "
				      "0644 or stricter");
		/* Tests and sysroots ask for any owner and mode. */
		ck_assert_int_eq(chmod(path, 0644), 0);
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		ck_assert_int_eq(load_path(path, 0, msg, sizeof(msg)), -EPERM);
		ck_assert_str_eq(msg, "0: is owned by uid 65534, not root: anyone who can write "
				      "it controls which drivers run");
	} else {
		ck_assert_int_eq(load_path(path, 0, msg, sizeof(msg)), -EPERM);
		ck_assert_ptr_nonnull(strstr(msg, "not root"));
	}
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_too_large)
{
	size_t n = 1024 * 1024 + 1;
	char *text = malloc(n), *path, msg[256];

	memset(text, '#', n);
	for (size_t i = 80; i < n; i += 81)
		text[i] = '\n';
	path = tu_write_temp(text, n);
	ck_assert_int_eq(load_path(path, DF_LOAD_ANY_OWNER, msg, sizeof(msg)), -EFBIG);
	ck_assert_str_eq(msg, "0: is larger than 1048576 bytes");
	unlink(path);
	free(path);
	free(text);
}
END_TEST

/* A file of junk makes one error a line; only the first are kept, all are counted. */
START_TEST(test_many_errors_capped)
{
	struct df_policy *p;
	struct df_diags d;
	char *text = malloc(500 * 4 + 1);

	for (int i = 0; i < 500; i++)
		memcpy(text + i * 4, "xx!\n", 4);
	text[2000] = '\0';
	ck_assert_int_eq(tu_load_text(text, &d, &p), -EINVAL);
	ck_assert_uint_eq(d.errors, 500);
	ck_assert_uint_eq(d.count, DF_DIAGS_KEPT);
	ck_assert_uint_eq(d.items[0].line, 1);
	ck_assert_ptr_null(p);
	df_diags_release(&d);
	free(text);
}
END_TEST

static void assert_warnings(const char *text, const char *const *expected, size_t n)
{
	struct df_policy *p;
	struct df_diags d;

	ck_assert_int_eq(tu_load_text(text, &d, &p), 0);
	ck_assert_uint_eq(d.errors, 0);
	ck_assert_uint_eq(d.warnings, n);
	for (size_t i = 0; i < n; i++) {
		char got[512];

		snprintf(got, sizeof(got), "%u: %s", d.items[i].line, d.items[i].message);
		ck_assert_str_eq(got, expected[i]);
	}
	df_diags_release(&d);
	df_policy_free(p);
}

START_TEST(test_warnings)
{
	static const char *const both[] = { "5: pci:e1000 is both allowed (line 2) and denied; "
					    "allow wins" };
	static const char *const glob_both[] = { "4: pci:e1000 is both allowed (line 2) and "
						 "denied; allow wins" };
	static const char *const never[] = {
		"5: [deny] pci = e1000 can never match: [allow] pci = ALL (line 2) wins over it",
		"6: [deny] ALL = e* can never match: [allow] ALL = ALL (line 3) wins over it",
	};
	static const char *const twice[] = { "2: 'e1000' is listed twice for pci" };

	assert_warnings("[filter]\ndefault = deny\n", NULL, 0);
	/* Allowing every driver is fine when the policy says so. */
	assert_warnings("[filter]\ndefault = allow\n", NULL, 0);
	assert_warnings("[allow]\npci = e1000\n\n[deny]\npci = e1000, e100\n", both, 1);
	assert_warnings("[allow]\npci = e1*\n[deny]\npci = e1000\n", glob_both, 1);
	assert_warnings("[allow]\npci = ALL\nALL = ALL\n[deny]\npci = e1000\nALL = e*\n", never, 2);
	assert_warnings("[deny]\npci = e1000, e100, e1000\n", twice, 1);
	/* The intended pattern: deny a bus, allow one of its drivers. */
	assert_warnings("[allow]\npci = virtio-pci\n[deny]\npci = ALL\nALL = e1000\n", NULL, 0);
}
END_TEST

/* A policy that says nothing would allow every driver, where a missing one fails closed. */
START_TEST(test_no_rules)
{
	static const char *const silent[] = {
		"",
		"\n\n",
		"# only a comment\n; and another\n",
		"[allow]\n[deny]\n",
		"[filter]\nbound = keep\nlock = yes\n",
	};

	for (size_t i = 0; i < sizeof(silent) / sizeof(silent[0]); i++) {
		struct df_policy *p = NULL;
		struct df_diags d;

		ck_assert_int_eq(tu_load_text(silent[i], &d, &p), -EINVAL);
		ck_assert_ptr_null(p);
		ck_assert_uint_eq(d.errors, 1);
		ck_assert_ptr_nonnull(strstr(d.items[0].message, "no rules and no default"));
		df_diags_release(&d);
	}
}
END_TEST

/* 12 keys of 10 names of 39 bytes: about 4,900 bytes as the kernel's deny list. */
static void long_deny_policy(char *text, size_t size, const char *mode)
{
	size_t n = (size_t)snprintf(text, size, "[filter]\nmode = %s\n[deny]\n", mode);

	for (int k = 0; k < 12; k++) {
		n += (size_t)snprintf(text + n, size - n, "bus%d = ", k);
		for (int j = 0; j < 10; j++)
			n += (size_t)snprintf(text + n, size - n, "%sdriver_%02d_%02d_%026d",
					      j ? ", " : "", k, j, 0);
		n += (size_t)snprintf(text + n, size - n, "\n");
	}
}

/*
 * A list longer than one sysfs write takes would fail closed at boot: an
 * error with mode = kernel, a warning with mode = auto (the kernel may be a
 * stock one), nothing in fallback mode.
 */
START_TEST(test_kernel_list_too_long)
{
	char text[8192];
	struct df_policy *p = NULL;
	struct df_diags d;

	long_deny_policy(text, sizeof(text), "kernel");
	ck_assert_int_eq(tu_load_text(text, &d, &p), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.items[0].message, "the kernel's deny list would take"));
	df_diags_release(&d);
	long_deny_policy(text, sizeof(text), "auto");
	ck_assert_int_eq(tu_load_text(text, &d, &p), 0);
	ck_assert_uint_eq(d.warnings, 1);
	ck_assert_ptr_nonnull(strstr(d.items[0].message, "the kernel's deny list would take"));
	df_diags_release(&d);
	df_policy_free(p);
	long_deny_policy(text, sizeof(text), "fallback");
	ck_assert_int_eq(tu_load_text(text, &d, &p), 0);
	ck_assert_uint_eq(d.warnings, 0);
	df_diags_release(&d);
	df_policy_free(p);
}
END_TEST

/*
 * A deny list of @len bytes as the kernel takes it, with mode = kernel: four
 * names of 200 bytes to a bus ("b00:n,n,n,n;b01:..."), one bus to a line, as
 * the parser reads lines of at most 1,022 bytes; the last name is what is
 * left (at least 4 bytes for @len from 8 on).
 */
static void deny_list_of(char *text, size_t size, size_t len)
{
	size_t n = (size_t)snprintf(text, size, "[filter]\nmode = kernel\n\n[deny]");
	size_t list = 0;

	for (unsigned i = 0; list < len; i++) {
		bool group = i % 4 == 0;
		/* "bNN:" starts a group, after a ';' unless it is the first. */
		size_t sep = group ? (i ? 1 : 0) + strlen("b00:") : 1;
		size_t room = len - list - sep, name = room > 255 ? 200 : room;

		if (group)
			n += (size_t)snprintf(text + n, size - n, "\nb%02u = ", i / 4);
		else
			n += (size_t)snprintf(text + n, size - n, ", ");
		n += (size_t)snprintf(text + n, size - n, "%03u%0*d", i, (int)name - 3, 0);
		list += sep + name;
	}
	snprintf(text + n, size - n, "\n");
}

/*
 * The kernel takes a list in one write() of less than a page, its newline
 * included: 4,094 bytes and the newline fit, one more byte does not.
 */
START_TEST(test_kernel_list_limit)
{
	char text[8192];
	struct df_policy *p = NULL;
	struct df_diags d;
	char *allow = NULL, *deny = NULL;

	deny_list_of(text, sizeof(text), DF_KERNEL_LIST_MAX);
	ck_assert_int_eq(tu_load_text(text, &d, &p), 0);
	ck_assert_uint_eq(d.count, 0);
	ck_assert_int_eq(df_policy_kernel_lists(p, &allow, &deny), 0);
	ck_assert_uint_eq(strlen(deny), 4094);
	free(allow);
	free(deny);
	df_diags_release(&d);
	df_policy_free(p);
	p = NULL;
	deny_list_of(text, sizeof(text), DF_KERNEL_LIST_MAX + 1);
	ck_assert_int_eq(tu_load_text(text, &d, &p), -EINVAL);
	ck_assert_ptr_nonnull(strstr(d.items[0].message, "would take 4095 bytes"));
	df_diags_release(&d);
}
END_TEST

START_TEST(test_check_system)
{
	char root[] = "/tmp/drvfilter-sysroot-XXXXXX", path[256];
	struct df_ctx *sctx;
	struct df_policy *p;
	struct df_diags d;

	ck_assert_ptr_nonnull(mkdtemp(root));
	p = tu_load_ok("[allow]\npci = e1000\n\n[deny]\nusb = ALL\nALL = x\n");
	ck_assert_int_eq(df_ctx_new(root, &sctx), 0);

	/* No /sys/bus at all (an image being built): nothing to say. */
	df_diags_init(&d);
	ck_assert_int_eq(df_policy_check_system(sctx, p, 0, &d), 0);
	ck_assert_uint_eq(d.count, 0);

	snprintf(path, sizeof(path), "%s/sys", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/bus", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/bus/pci", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(df_policy_check_system(sctx, p, 0, &d), 0);
	ck_assert_uint_eq(d.warnings, 1);
	ck_assert_uint_eq(d.items[0].line, 5);
	snprintf(path, sizeof(path), "this machine has no bus 'usb' (%s/sys/bus/usb)", root);
	ck_assert_str_eq(d.items[0].message, path);

	df_diags_release(&d);
	df_policy_free(p);
	df_ctx_unref(sctx);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

START_TEST(test_ctx_path)
{
	struct df_ctx *c;
	char *s;

	ck_assert_int_eq(df_ctx_new("/srv/root//", &c), 0);
	s = df_ctx_path(c, "/etc/drvfilter.conf");
	ck_assert_str_eq(s, "/srv/root/etc/drvfilter.conf");
	free(s);
	df_ctx_unref(c);
	ck_assert_int_eq(df_ctx_new("/", &c), 0);
	ck_assert_ptr_null(df_ctx_get_sysroot(c));
	s = df_ctx_path(c, "/etc/drvfilter.conf");
	ck_assert_str_eq(s, "/etc/drvfilter.conf");
	free(s);
	df_ctx_unref(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_directory);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_writable_by_others);
	tcase_add_test(tc, test_too_large);
	tcase_add_test(tc, test_many_errors_capped);
	tcase_add_test(tc, test_warnings);
	tcase_add_test(tc, test_no_rules);
	tcase_add_test(tc, test_kernel_list_too_long);
	tcase_add_test(tc, test_kernel_list_limit);
	tcase_add_test(tc, test_check_system);
	tcase_add_test(tc, test_ctx_path);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
