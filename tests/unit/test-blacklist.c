// SPDX-License-Identifier: GPL-2.0-only
/* The modprobe.d blacklist: what apply and `drvfilterctl blacklist` write, status reads back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#define SHA "2ca0c947d80f144f72a8990be1f4904342d809ff76c4328c0090de2eb8bab940"

/* A sysroot with /run/modprobe.d/drvfilter.conf holding @text (NULL: no file). */
static struct df_ctx *root_with(char dir[static 32], const char *text)
{
	char path[256];
	struct df_ctx *ctx;
	FILE *f;

	strcpy(dir, "/tmp/drvfilter-bl-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/run/modprobe.d", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	if (text) {
		snprintf(path, sizeof(path), "%s" DF_BLACKLIST_PATH, dir);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fputs(text, f);
		ck_assert_int_eq(fclose(f), 0);
	}
	ck_assert_int_eq(df_ctx_new(dir, &ctx), 0);
	return ctx;
}

static void root_free(char dir[static 32], struct df_ctx *ctx)
{
	char path[256];

	snprintf(path, sizeof(path), "%s" DF_BLACKLIST_PATH, dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/run/modprobe.d", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/run", dir);
	rmdir(path);
	rmdir(dir);
	df_ctx_unref(ctx);
}

/* What is written reads back; a name that is not a module's never reaches an install line. */
START_TEST(test_blacklist_round_trip)
{
	char *mods[] = { "e1000", "snd_hda_intel", "a b", "x;reboot", NULL, "virtio-pci" };
	char dir[32], sha[DF_BLACKLIST_SHA_SIZE], *text;
	struct df_ctx *ctx;

	ck_assert_int_eq(df_blacklist_text("drvfilter-apply", "/etc/a (sha256 evil).conf", SHA,
					   "# note\n", mods, 6, &text),
			 0);
	ck_assert_str_eq(text,
			 "# Written by drvfilter-apply from /etc/a (sha256 evil).conf (sha256 " SHA
			 ").\n"
			 "# note\n"
			 "blacklist e1000\ninstall e1000 /bin/false\n"
			 "blacklist snd_hda_intel\ninstall snd_hda_intel /bin/false\n"
			 "blacklist virtio-pci\ninstall virtio-pci /bin/false\n");
	ctx = root_with(dir, text);
	ck_assert_int_eq(df_blacklist_policy(ctx, sha), 0);
	ck_assert_str_eq(sha, SHA);
	root_free(dir, ctx);
	free(text);
}
END_TEST

/* Anything but a whole header of ours is not one: status then calls the blacklist stale. */
static const struct {
	const char *text; /* NULL: no file */
	int r;
} headers[] = {
	{ NULL, -ENOENT },
	{ "", -EBADMSG },
	{ "blacklist e1000\n", -EBADMSG },
	{ "# Written by drvfilter-apply from /etc/p (sha256 " SHA ")", -EBADMSG }, /* no newline */
	{ "# Written by drvfilter-apply from /etc/p (sha256 " SHA ")\n", -EBADMSG }, /* no '.' */
	{ "# Written by drvfilter-apply from /etc/p\n# (sha256 " SHA ").\n", -EBADMSG },
	{ "# Written by x from /p (sha256 " SHA SHA ").\n", -EBADMSG }, /* too long */
	{ "# Written by x from /p (sha256 none: fail closed).\n", 0 },
};

START_TEST(test_blacklist_headers)
{
	char dir[32], sha[DF_BLACKLIST_SHA_SIZE];
	struct df_ctx *ctx = root_with(dir, headers[_i].text);

	ck_assert_msg(df_blacklist_policy(ctx, sha) == headers[_i].r, "%s",
		      headers[_i].text ? headers[_i].text : "(none)");
	root_free(dir, ctx);
}
END_TEST

/* No regular file in its place (a FIFO would hang a reader that waits): none is read. */
START_TEST(test_blacklist_not_a_file)
{
	char dir[32], path[256], sha[DF_BLACKLIST_SHA_SIZE];
	struct df_ctx *ctx = root_with(dir, NULL);

	snprintf(path, sizeof(path), "%s" DF_BLACKLIST_PATH, dir);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	ck_assert_int_eq(df_blacklist_policy(ctx, sha), -EINVAL);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(df_blacklist_policy(ctx, sha), -EINVAL);
	ck_assert_int_eq(rmdir(path), 0);
	root_free(dir, ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("blacklist");
	TCase *tc = tcase_create("blacklist");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_blacklist_round_trip);
	tcase_add_test(tc, test_blacklist_not_a_file);
	tcase_add_loop_test(tc, test_blacklist_headers, 0,
			    (int)(sizeof(headers) / sizeof(headers[0])));
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
