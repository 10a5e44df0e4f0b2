// SPDX-License-Identifier: GPL-2.0-only
/* The state file: what apply writes, status reads back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

/* Remove the state file @path of the sysroot @dir, and the sysroot. */
static void state_root_remove(const char *dir, const char *path)
{
	char sub[256];

	unlink(path);
	snprintf(sub, sizeof(sub), "%s/run/drvfilter", dir);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/run", dir);
	rmdir(sub);
	rmdir(dir);
}

START_TEST(test_state_round_trip)
{
	char dir[] = "/tmp/drvfilter-state-XXXXXX", why[128], path[256];
	struct df_report rep = { 0 };
	struct df_state st;
	struct df_ctx *ctx;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(df_ctx_new(dir, &ctx), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), -ENOENT);

	rep.mode = DF_MODE_KERNEL;
	rep.fail_closed = true;
	rep.policy_path = "/etc/drvfilter.conf";
	rep.policy_sha256 = "00ff";
	rep.started_usec = 1234567;
	rep.duration_usec = 890;
	rep.counts.errors = 3;
	/* An older writer's file: without the later fields, which then say nothing. */
	ck_assert_int_eq(df_state_write(ctx, &rep), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), 0);
	ck_assert(!st.in_initramfs);
	ck_assert_ptr_null(st.initramfs_sha256);
	ck_assert_ptr_null(st.blacklist_dir);
	df_state_release(&st);

	rep.in_initramfs = true;
	rep.initramfs_sha256 = "00ff";
	rep.blacklist_dir = "/sysroot/lib/modules/6.1.0-57-amd64";
	rep.blacklist_modules = 4023;
	ck_assert_int_eq(df_state_write(ctx, &rep), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), 0);
	ck_assert(st.in_initramfs);
	ck_assert_str_eq(st.initramfs_sha256, "00ff");
	ck_assert_str_eq(st.blacklist_dir, "/sysroot/lib/modules/6.1.0-57-amd64");
	ck_assert_int_eq(st.blacklist_modules, 4023);
	ck_assert_str_eq(st.mode, "kernel");
	ck_assert(st.fail_closed);
	ck_assert(!st.override);
	ck_assert_str_eq(st.policy_path, "/etc/drvfilter.conf");
	ck_assert_str_eq(st.policy_sha256, "00ff");
	ck_assert_int_eq(st.applied_usec, 1234567);
	ck_assert_int_eq(st.duration_usec, 890);
	ck_assert_int_eq(st.errors, 3);
	df_state_release(&st);

	/* Paths with a backslash and a byte that is not UTF-8 come back as they were (json.h). */
	rep.policy_path = "/etc/a\\b\xc0.conf";
	rep.blacklist_dir = "/lib/modules/\xff\\x41";
	ck_assert_int_eq(df_state_write(ctx, &rep), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), 0);
	ck_assert_str_eq(st.policy_path, "/etc/a\\b\xc0.conf");
	ck_assert_str_eq(st.blacklist_dir, "/lib/modules/\xff\\x41");
	df_state_release(&st);

	/* A backslash the writer never writes (here "\\q" for "/etc/x"): not a state file of ours. */
	rep.policy_path = "/etc/x";
	ck_assert_int_eq(df_state_write(ctx, &rep), 0);
	snprintf(path, sizeof(path), "%s/run/drvfilter/state.json", dir);
	{
		char buf[8192], *at;
		FILE *f = fopen(path, "r+");
		size_t n;

		ck_assert_ptr_nonnull(f);
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		at = strstr(buf, "\"/etc/x\"");
		ck_assert_ptr_nonnull(at);
		memcpy(at + 1, "/et\\\\q", 6);
		rewind(f);
		ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
		ck_assert_int_eq(fclose(f), 0);
	}
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(why, "backslash"));

	ck_assert_int_eq(truncate(path, 40), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(why, "not valid JSON"));

	state_root_remove(dir, path);
	df_ctx_unref(ctx);
}
END_TEST

/* A file under @dir. */
static void touch(const char *dir, const char *rel)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
}

static void mkdir_under(const char *dir, const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", dir, rel);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

/*
 * Where a run happens: the initramfs (it has /etc/initrd-release, or
 * initramfs-tools' /conf/initramfs.conf) records
 * its policy; a run in the real root keeps that record, and an earlier real
 * root run's copy of it; without one, there is none.
 */
START_TEST(test_state_origin)
{
	char dir[] = "/tmp/drvfilter-origin-XXXXXX", cmd[300];
	struct df_policy *p = tu_load_ok("[filter]\ndefault = allow\n[deny]\npci = e1000\n");
	struct df_policy *other = tu_load_ok("[filter]\ndefault = deny\n");
	struct df_report *rep = NULL;
	struct df_ctx *ctx;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	mkdir_under(dir, "/etc");
	mkdir_under(dir, "/run");
	mkdir_under(dir, "/sys");
	mkdir_under(dir, "/sys/bus");
	ck_assert_int_eq(df_ctx_new(dir, &ctx), 0);

	/* The real root without a record: none. */
	ck_assert_int_eq(df_apply(ctx, p, 0, &rep), 0);
	ck_assert(!rep->in_initramfs);
	ck_assert_ptr_null(rep->initramfs_sha256);
	ck_assert_ptr_null(rep->blacklist_dir); /* no module tree here */
	rep = df_report_free(rep);

	touch(dir, "/etc/initrd-release");
	ck_assert_int_eq(df_apply(ctx, p, 0, &rep), 0);
	ck_assert(rep->in_initramfs);
	ck_assert_str_eq(rep->initramfs_sha256, df_policy_sha256(p));
	ck_assert_int_eq(df_state_write(ctx, rep), 0);
	rep = df_report_free(rep);

	/* After switch_root, with another policy: the initramfs's stays on record, twice over. */
	snprintf(cmd, sizeof(cmd), "%s/etc/initrd-release", dir);
	ck_assert_int_eq(unlink(cmd), 0);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(df_apply(ctx, other, 0, &rep), 0);
		ck_assert(!rep->in_initramfs);
		ck_assert_str_eq(rep->initramfs_sha256, df_policy_sha256(p));
		ck_assert_int_eq(df_state_write(ctx, rep), 0);
		rep = df_report_free(rep);
	}

	/* An initramfs-tools image has no /etc/initrd-release, but /conf/initramfs.conf. */
	mkdir_under(dir, "/conf");
	touch(dir, "/conf/initramfs.conf");
	ck_assert_int_eq(df_apply(ctx, other, 0, &rep), 0);
	ck_assert(rep->in_initramfs);
	ck_assert_str_eq(rep->initramfs_sha256, df_policy_sha256(other));
	rep = df_report_free(rep);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
	df_policy_free(p);
	df_policy_free(other);
	df_ctx_unref(ctx);
}
END_TEST

/* State files written by hand: each refusal says why, each accepted one what it holds. */
#define STATE_HEAD \
	"{\"version\":1,\"mode\":\"kernel\",\"policy\":{\"path\":\"/etc/p\",\"sha256\":\"ab\"},"
#define STATE_TAIL "\"applied_usec\":1,\"duration_usec\":2,\"counts\":{\"errors\":0}"
static const struct {
	const char *json;
	int r;
	const char *why; /* part of it; NULL for an accepted file */
} state_files[] = {
	{ STATE_HEAD "\"override\":false,\"fail_closed\":false,\"dry_run\":false," STATE_TAIL "}",
	  0, NULL },
	{ "{\"version\":2}", -EBADMSG, "not a version 1 state file" },
	{ "{\"version\":1,\"mode\":\"kernel\"," STATE_TAIL "}", -EBADMSG, "fields are missing" },
	{ "{\"version\":1,\"mode\":\"quantum\",\"policy\":{\"path\":\"/"
	  "p\",\"sha256\":\"ab\"}," STATE_TAIL "}",
	  -EBADMSG, "unknown mode" },
	{ STATE_HEAD "\"fail_closed\":false,\"dry_run\":false," STATE_TAIL "}", -EBADMSG,
	  "wrong type" },
	{ STATE_HEAD "\"override\":false,\"fail_closed\":1,\"dry_run\":false," STATE_TAIL "}",
	  -EBADMSG, "wrong type" },
	{ STATE_HEAD "\"override\":false,\"fail_closed\":false,\"dry_run\":false,"
		     "\"applied_usec\":-1,\"duration_usec\":2,\"counts\":{\"errors\":0}}",
	  -EBADMSG, "wrong type" },
	{ STATE_HEAD "\"override\":false,\"fail_closed\":false,\"dry_run\":false," STATE_TAIL
		     ",\"measurement\":{\"tpm\":\"failed\",\"error\":\"bad \\\\q\"}}",
	  -EBADMSG, "backslash" },
	{ STATE_HEAD "\"override\":false,\"fail_closed\":false,\"dry_run\":false," STATE_TAIL
		     ",\"blacklist\":{\"modules_dir\":\"/lib/\\\\q\",\"modules\":3}}",
	  -EBADMSG, "backslash" },
};

START_TEST(test_state_files)
{
	char dir[] = "/tmp/drvfilter-state-XXXXXX", why[128] = "stale", path[256];
	struct df_state st;
	struct df_ctx *ctx;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/run/drvfilter", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/run/drvfilter/state.json", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(state_files[_i].json, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(df_ctx_new(dir, &ctx), 0);
	ck_assert_msg(df_state_read(ctx, &st, why, sizeof(why)) == state_files[_i].r, "%s",
		      state_files[_i].json);
	if (state_files[_i].why)
		ck_assert_msg(strstr(why, state_files[_i].why), "%s: %s", state_files[_i].json,
			      why);
	if (!state_files[_i].why) {
		ck_assert_str_eq(st.policy_path, "/etc/p");
		df_state_release(&st);
	}
	state_root_remove(dir, path);
	df_ctx_unref(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, test_state_round_trip);
	tcase_add_test(tc, test_state_origin);
	tcase_add_loop_test(tc, test_state_files, 0,
			    (int)(sizeof(state_files) / sizeof(state_files[0])));
	suite_add_tcase(s, tc);
	return tu_run(s);
}
