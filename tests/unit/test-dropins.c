// SPDX-License-Identifier: GPL-2.0-only
/*
 * A policy in several files: /etc/drvfilter.conf, its drop-ins
 * (drvfilter.conf.d/NAME.conf, lexical order) and the runtime ones
 * (/run/drvfilter.conf.d, last), on a tree made here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"
#include "testutil.h"

static char root[64];
static struct df_ctx *ctx;

static void setup(void)
{
	char path[128];

	snprintf(root, sizeof(root), "/tmp/drvfilter-dropins-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/etc", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/run", root);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(df_ctx_new(root, &ctx), 0);
}

static void teardown(void)
{
	char cmd[128];

	df_ctx_unref(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/* @text as @rel under the tree (directories made), or @rel removed when @text is NULL. */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!text) {
		ck_assert_int_eq(unlink(path), 0);
		return;
	}
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		(void)mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static char main_path[128];

/* Load the set of the tree's /etc/drvfilter.conf, with the runtime drop-ins. */
static int load(struct df_diags *d, struct df_policy **p)
{
	snprintf(main_path, sizeof(main_path), "%s/etc/drvfilter.conf", root);
	df_diags_init(d);
	*p = NULL;
	return df_policy_load(ctx, main_path, DF_LOAD_ANY_OWNER | DF_LOAD_DROPINS | DF_LOAD_RUNTIME,
			      d, p);
}

/* "FILE:LINE: MESSAGE" of the first message, FILE without the tree's path. */
static const char *first(const struct df_diags *d, char *buf, size_t size)
{
	const char *f;

	ck_assert_uint_gt(d->count, 0);
	f = df_diag_file(d, &d->items[0]);
	snprintf(buf, size, "%s:%u: %s", f + strlen(root), d->items[0].line, d->items[0].message);
	return buf;
}

START_TEST(test_lists_joined)
{
	struct df_policy *p;
	struct df_diags d;
	struct df_verdict v;

	put("etc/drvfilter.conf", "[filter]\ndefault = deny\n[allow]\npci = virtio-pci\n");
	put("etc/drvfilter.conf.d/20-net.conf", "[allow]\nvirtio = virtio_net\npci = e1000\n");
	put("etc/drvfilter.conf.d/10-blk.conf", "[allow]\nvirtio = virtio_blk\n");
	put("run/drvfilter.conf.d/50-runtime.conf", "[deny]\npci = e1000e\n");
	ck_assert_int_eq(load(&d, &p), 0);
	ck_assert_uint_eq(d.errors, 0);
	ck_assert_uint_eq(df_policy_nfiles(p), 4);
	/* The policy first, then its drop-ins in lexical order, the runtime ones last. */
	ck_assert_ptr_nonnull(strstr(df_policy_file(p, 1), "/etc/drvfilter.conf.d/10-blk.conf"));
	ck_assert_ptr_nonnull(strstr(df_policy_file(p, 2), "/etc/drvfilter.conf.d/20-net.conf"));
	ck_assert_ptr_nonnull(
		strstr(df_policy_file(p, 3), "/run/drvfilter.conf.d/50-runtime.conf"));
	df_policy_decide(p, "pci", "e1000", &v);
	ck_assert(v.allowed);
	ck_assert_str_eq(v.rule->file, df_policy_file(p, 2));
	ck_assert_uint_eq(v.rule->line, 3);
	df_policy_decide(p, "virtio", "virtio_blk", &v);
	ck_assert(v.allowed);
	ck_assert_str_eq(v.rule->file, df_policy_file(p, 1));
	df_policy_decide(p, "pci", "e1000e", &v);
	ck_assert(!v.allowed);
	ck_assert_str_eq(v.rule->file, df_policy_file(p, 3));
	df_policy_decide(p, "usb", "usb", &v);
	ck_assert(!v.allowed);
	ck_assert_str_eq(v.rule->file, df_policy_file(p, 0));
	df_diags_release(&d);
	df_policy_free(p);
}
END_TEST

/* A [filter] setting is made once: a drop-in cannot quietly turn default = deny into allow. */
START_TEST(test_filter_set_twice)
{
	struct df_policy *p;
	struct df_diags d;
	char msg[512], want[512];

	put("etc/drvfilter.conf", "[filter]\ndefault = deny\n[allow]\npci = virtio-pci\n");
	put("etc/drvfilter.conf.d/99-loose.conf", "# looks harmless\n[filter]\ndefault = allow\n");
	ck_assert_int_eq(load(&d, &p), -EINVAL);
	ck_assert_ptr_null(p);
	snprintf(want, sizeof(want),
		 "/etc/drvfilter.conf.d/99-loose.conf:3: 'default' is set again (first in "
		 "%s/etc/drvfilter.conf:2): a [filter] setting is made in one file of the policy "
		 "only",
		 root);
	ck_assert_str_eq(first(&d, msg, sizeof(msg)), want);
	df_diags_release(&d);
}
END_TEST

START_TEST(test_bad_entries)
{
	struct df_policy *p;
	struct df_diags d;
	char msg[512], path[256];

	put("etc/drvfilter.conf", "[filter]\ndefault = deny\n");
	/* Hidden files (an editor's, or edit's own copy) are passed over. */
	put("etc/drvfilter.conf.d/.10-a.conf.swp", "garbage");
	put("etc/drvfilter.conf.d/10-a.conf", "[allow]\npci = e1000\n");
	ck_assert_int_eq(load(&d, &p), 0);
	df_diags_release(&d);
	df_policy_free(p);

	put("etc/drvfilter.conf.d/README", "notes");
	ck_assert_int_eq(load(&d, &p), -EINVAL);
	ck_assert_str_eq(first(&d, msg, sizeof(msg)),
			 "/etc/drvfilter.conf.d:0: 'README' is not a drop-in (NAME.conf): move it "
			 "out of the directory");
	df_diags_release(&d);
	put("etc/drvfilter.conf.d/README", NULL);

	/* A dangling link: the set cannot be read whole, so it is not read at all. */
	snprintf(path, sizeof(path), "%s/etc/drvfilter.conf.d/20-gone.conf", root);
	ck_assert_int_eq(symlink("/nonexistent/gone.conf", path), 0);
	ck_assert_int_eq(load(&d, &p), -ENOENT);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(first(&d, msg, sizeof(msg)),
			 "/etc/drvfilter.conf.d/20-gone.conf:0: cannot open: No such file or "
			 "directory");
	df_diags_release(&d);
	ck_assert_int_eq(unlink(path), 0);

	/* A drop-in with an error refuses the whole set, and says which file. */
	put("run/drvfilter.conf.d/30-bad.conf", "[allow]\npci = e1000;usb:ALL\n");
	ck_assert_int_eq(load(&d, &p), -EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(first(&d, msg, sizeof(msg)),
			 "/run/drvfilter.conf.d/30-bad.conf:2: ';' glued to a name starts a "
			 "comment: the parser would drop ';usb:ALL'; put a blank before a comment");
	df_diags_release(&d);
	put("run/drvfilter.conf.d/30-bad.conf", NULL);

	/* The drop-in directory must be one. */
	snprintf(path, sizeof(path), "%s/run/drvfilter.conf.d", root);
	ck_assert_int_eq(rmdir(path), 0);
	put("run/drvfilter.conf.d", "a file");
	ck_assert_int_eq(load(&d, &p), -EINVAL);
	ck_assert_str_eq(first(&d, msg, sizeof(msg)),
			 "/run/drvfilter.conf.d:0: is not a directory of drop-ins");
	df_diags_release(&d);
}
END_TEST

START_TEST(test_messages_name_their_file)
{
	struct df_policy *p;
	struct df_diags d;
	char want[512];

	put("etc/drvfilter.conf", "[filter]\ndefault = deny\n[allow]\npci = e1000\n");
	put("etc/drvfilter.conf.d/10-x.conf", "[deny]\n\npci = e1000\n");
	ck_assert_int_eq(load(&d, &p), 0);
	ck_assert_uint_eq(d.warnings, 1);
	snprintf(want, sizeof(want),
		 "pci:e1000 is both allowed (%s/etc/drvfilter.conf:4) and denied; allow wins",
		 root);
	ck_assert_str_eq(d.items[0].message, want);
	ck_assert_uint_eq(d.items[0].line, 3);
	ck_assert_ptr_nonnull(strstr(df_diag_file(&d, &d.items[0]), "10-x.conf"));
	df_diags_release(&d);
	df_policy_free(p);
}
END_TEST

/* One file: its own SHA-256 (sha256sum agrees). A set: a digest of every file, in order. */
START_TEST(test_digest)
{
	static const char text[] = "[filter]\ndefault = deny\n";
	char one[SHA256_HEX_SIZE], two[SHA256_HEX_SIZE];
	struct df_policy *p;
	struct df_diags d;

	put("etc/drvfilter.conf", text);
	ck_assert_int_eq(load(&d, &p), 0);
	sha256_hex(text, strlen(text), one);
	ck_assert_str_eq(df_policy_sha256(p), one);
	df_diags_release(&d);
	df_policy_free(p);

	put("etc/drvfilter.conf.d/10-a.conf", "[allow]\npci = e1000\n");
	ck_assert_int_eq(load(&d, &p), 0);
	ck_assert_str_ne(df_policy_sha256(p), one);
	snprintf(two, sizeof(two), "%s", df_policy_sha256(p));
	df_diags_release(&d);
	df_policy_free(p);

	/* The same bytes in a runtime drop-in are another policy. */
	put("etc/drvfilter.conf.d/10-a.conf", NULL);
	put("run/drvfilter.conf.d/10-a.conf", "[allow]\npci = e1000\n");
	ck_assert_int_eq(load(&d, &p), 0);
	ck_assert_str_ne(df_policy_sha256(p), two);
	ck_assert_str_ne(df_policy_sha256(p), one);
	df_diags_release(&d);
	df_policy_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dropins");
	TCase *tc = tcase_create("dropins");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_lists_joined);
	tcase_add_test(tc, test_filter_set_twice);
	tcase_add_test(tc, test_bad_entries);
	tcase_add_test(tc, test_messages_name_their_file);
	tcase_add_test(tc, test_digest);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
