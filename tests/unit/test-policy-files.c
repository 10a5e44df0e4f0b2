// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy corpus: every file in good/ loads; every file in bad/ fails with
 * the first error its .expect file names, as "bad/NAME.conf:LINE: error: MESSAGE".
 * Usage: test-policy-files CORPUS_DIR (it holds good/ and bad/).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define MAX_FILES 256

static char *good[MAX_FILES], *bad[MAX_FILES];
static int ngood, nbad;

static int collect(const char *dir, char **out)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort), k = 0;

	if (n < 0) {
		perror(dir);
		exit(EXIT_FAILURE);
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(list[i]->d_name);

		if (len > 5 && strcmp(list[i]->d_name + len - 5, ".conf") == 0 && k < MAX_FILES &&
		    asprintf(&out[k], "%s/%s", dir, list[i]->d_name) >= 0)
			k++;
		free(list[i]);
	}
	free(list);
	return k;
}

static int load(const char *path, struct df_diags *d)
{
	struct df_policy *p = NULL;
	struct df_ctx *ctx;
	int r;

	df_diags_init(d);
	ck_assert_int_eq(df_ctx_new(NULL, &ctx), 0);
	r = df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, d, &p);
	df_policy_free(p);
	df_ctx_unref(ctx);
	return r;
}

START_TEST(test_good)
{
	struct df_diags d;
	int r = load(good[_i], &d);

	ck_assert_msg(r == 0, "%s: refused: %s (line %u)", good[_i],
		      d.count ? d.items[0].message : "?", d.count ? d.items[0].line : 0);
	ck_assert_uint_eq(d.errors, 0);
	df_diags_release(&d);
}
END_TEST

START_TEST(test_bad)
{
	char expect_path[512], expected[1024] = "", got[1024] = "";
	const struct df_diag *first = NULL;
	struct df_diags d;
	FILE *f;
	int r = load(bad[_i], &d);

	snprintf(expect_path, sizeof(expect_path), "%.*s.expect",
		 (int)(strlen(bad[_i]) - strlen(".conf")), bad[_i]);
	f = fopen(expect_path, "r");
	ck_assert_msg(f != NULL, "%s: missing", expect_path);
	ck_assert_ptr_nonnull(fgets(expected, sizeof(expected), f));
	fclose(f);
	expected[strcspn(expected, "\n")] = '\0';

	ck_assert_msg(r < 0, "%s: accepted", bad[_i]);
	ck_assert_uint_gt(d.errors, 0);
	for (size_t i = 0; i < d.count && !first; i++)
		if (d.items[i].severity == DF_ERROR)
			first = &d.items[i];
	ck_assert_ptr_nonnull(first);
	if (first->line)
		snprintf(got, sizeof(got), "%s:%u: error: %s", d.file, first->line, first->message);
	else
		snprintf(got, sizeof(got), "%s: error: %s", d.file, first->message);
	ck_assert_str_eq(got, expected);
	df_diags_release(&d);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("policy-files");
	TCase *tc = tcase_create("corpus");

	if (argc != 2 || chdir(argv[1]) < 0) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return EXIT_FAILURE;
	}
	ngood = collect("good", good);
	nbad = collect("bad", bad);
	if (ngood == 0 || nbad == 0) {
		fprintf(stderr, "%s: empty corpus\n", argv[1]);
		return EXIT_FAILURE;
	}
	tcase_add_loop_test(tc, test_good, 0, ngood);
	tcase_add_loop_test(tc, test_bad, 0, nbad);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
