// SPDX-License-Identifier: GPL-2.0-only
/* The state file: what apply writes, status reads back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

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
	ck_assert_int_eq(df_state_write(ctx, &rep), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), 0);
	ck_assert_str_eq(st.mode, "kernel");
	ck_assert(st.fail_closed);
	ck_assert(!st.override);
	ck_assert_str_eq(st.policy_path, "/etc/drvfilter.conf");
	ck_assert_str_eq(st.policy_sha256, "00ff");
	ck_assert_int_eq(st.applied_usec, 1234567);
	ck_assert_int_eq(st.duration_usec, 890);
	ck_assert_int_eq(st.errors, 3);
	df_state_release(&st);

	snprintf(path, sizeof(path), "%s/run/drvfilter/state.json", dir);
	ck_assert_int_eq(truncate(path, 40), 0);
	ck_assert_int_eq(df_state_read(ctx, &st, why, sizeof(why)), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(why, "not valid JSON"));

	unlink(path);
	snprintf(path, sizeof(path), "%s/run/drvfilter", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/run", dir);
	rmdir(path);
	rmdir(dir);
	df_ctx_unref(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("state");
	TCase *tc = tcase_create("state");

	tcase_add_test(tc, test_state_round_trip);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
