// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

char *tu_write_temp(const char *data, size_t len)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path;
	int fd;

	ck_assert_int_ge(asprintf(&path, "%s/drvfilter-test-XXXXXX", dir), 0);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
	return path;
}

int tu_load_text(const char *text, struct df_diags *d, struct df_policy **p)
{
	char *path = tu_write_temp(text, strlen(text));
	struct df_ctx *ctx;
	int r;

	df_diags_init(d);
	ck_assert_int_eq(df_ctx_new(NULL, &ctx), 0);
	*p = NULL;
	r = df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, d, p);
	df_ctx_unref(ctx);
	unlink(path);
	free(path);
	return r;
}

struct df_policy *tu_load_ok(const char *text)
{
	struct df_policy *p;
	struct df_diags d;
	int r = tu_load_text(text, &d, &p);

	ck_assert_msg(r == 0, "policy did not load (%s): %s\n%s", strerror(-r),
		      d.count ? d.items[0].message : "(no message)", text);
	df_diags_release(&d);
	return p;
}

int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
