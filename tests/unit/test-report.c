// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record's log lines (report.c): each field's value quoted, escaped and
 * cut exactly so, whatever bytes a name holds.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enforce/enforce-private.h"
#include "strbuf.h"
#include "strv.h"
#include "testutil.h"

static char last_line[1024];

static void keep_log(void *data, int priority, const char *file, int line, const char *fn,
		     const char *format, va_list ap)
{
	(void)data, (void)priority, (void)file, (void)line, (void)fn;
	vsnprintf(last_line, sizeof(last_line), format, ap);
}

/* The log line of an unbind of @driver's device on pci, as report.c writes it. */
static const char *unbind_line(struct df_run *run, const char *driver)
{
	last_line[0] = '\0';
	ck_assert_int_eq(df_record(run, DF_ACT_UNBIND, "pci", driver, "d", NULL, 0), 0);
	return last_line;
}

/* A field's value: quoted, escaped and cut after 128 bytes exactly so. */
START_TEST(test_log_fields_escaped)
{
	static const char pre[] = "action=unbind bus=pci driver=";
	char as[130] = { 0 }, v[200], want[300];
	const struct strv devices = { .v = (char *[]){ "0:1", "a,b", "c\\d" }, .n = 3 };
	struct df_run run = { 0 };

	ck_assert_int_eq(df_ctx_new(NULL, &run.ctx), 0);
	df_ctx_set_log_fn(run.ctx, keep_log, NULL);
	df_ctx_set_log_priority(run.ctx, LOG_DEBUG);
	run.rep = calloc(1, sizeof(*run.rep));
	ck_assert_ptr_nonnull(run.rep);
	ck_assert_str_eq(unbind_line(&run, "e1000"),
			 "action=unbind bus=pci driver=e1000 device=d result=ok");
	ck_assert_str_eq(unbind_line(&run, ""),
			 "action=unbind bus=pci driver=\"\" device=d result=ok");
	ck_assert_str_eq(unbind_line(&run, "a \"b\" c\\d"),
			 "action=unbind bus=pci driver=\"a \\\"b\\\" c\\\\d\" device=d result=ok");
	ck_assert_str_eq(unbind_line(&run, "q\"\\"),
			 "action=unbind bus=pci driver=\"q\\\"\\\\\" device=d result=ok");
	ck_assert_str_eq(
		unbind_line(&run, "t\x01\t\x7f\xc3\xa9~"),
		"action=unbind bus=pci driver=t\\x01\\x09\\x7f\\xc3\\xa9~ device=d result=ok");
	/* Cut once 128 bytes are out, never inside an escape: the value may take 131. */
	memset(as, 'a', sizeof(as) - 1);
	snprintf(v, sizeof(v), "%.126s\x01z", as);
	snprintf(want, sizeof(want), "%s%.126s\\x01... device=d result=ok", pre, as);
	ck_assert_str_eq(unbind_line(&run, v), want);
	snprintf(v, sizeof(v), "%.127s\\x", as);
	snprintf(want, sizeof(want), "%s%.127s\\\\... device=d result=ok", pre, as);
	ck_assert_str_eq(unbind_line(&run, v), want);
	snprintf(want, sizeof(want), "%s%.128s device=d result=ok", pre, as);
	ck_assert_str_eq(unbind_line(&run, as + 1), want);
	snprintf(want, sizeof(want), "%s%.128s... device=d result=ok", pre, as);
	ck_assert_str_eq(unbind_line(&run, as), want);
	snprintf(v, sizeof(v), "a %.127s", as);
	snprintf(want, sizeof(want), "%s\"a %.126s...\" device=d result=ok", pre, as);
	ck_assert_str_eq(unbind_line(&run, v), want);
	/* The devices a bit detached: a comma in a name is \x2c, a backslash doubled, then escaped. */
	last_line[0] = '\0';
	ck_assert_int_eq(df_record_detach(&run, "pci", "e1000", "0", &devices), 0);
	ck_assert_str_eq(last_line, "action=allowed bus=pci driver=e1000 value=0 detached=3 "
				    "devices=0:1,a\\\\x2cb,c\\\\\\\\d result=ok");
	/* Runs of commas and backslashes, at the start and the end of a name. */
	const struct strv odd = { .v = (char *[]){ ",x,,y\\\\z," }, .n = 1 };

	ck_assert_int_eq(df_record_detach(&run, "pci", "e1000", "0", &odd), 0);
	ck_assert_str_eq(last_line,
			 "action=allowed bus=pci driver=e1000 value=0 detached=1 "
			 "devices=\\\\x2cx\\\\x2c\\\\x2cy\\\\\\\\\\\\\\\\z\\\\x2c result=ok");
	/* Many: the count whole, the list cut after 128 bytes. */
	char **many = calloc(1205, sizeof(*many)), list[8192] = "";
	const struct strv lots = { .v = many, .n = 1205 };

	ck_assert_ptr_nonnull(many);
	for (size_t i = 0; i < lots.n; i++) {
		ck_assert_int_ge(asprintf(&many[i], "d%zu", i), 0);
		if (strlen(list) < 200)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? "," : "", many[i]);
	}
	ck_assert_int_eq(df_record_detach(&run, "pci", "e1000", "0", &lots), 0);
	snprintf(want, sizeof(want),
		 "action=allowed bus=pci driver=e1000 value=0 detached=1205 devices=%.128s... "
		 "result=ok",
		 list);
	ck_assert_str_eq(last_line, want);
	strv_free_array(many, lots.n);
	df_report_free(run.rep);
	df_ctx_unref(run.ctx);
}
END_TEST

/*
 * Every action's names kept whole, in order, across the blocks the report
 * keeps them in: many more than one block holds, and one longer than a block.
 */
START_TEST(test_actions_kept)
{
	struct df_run run = { 0 };
	char name[32], *big = malloc(100001);

	ck_assert_ptr_nonnull(big);
	memset(big, 'v', 100000);
	big[100000] = '\0';
	ck_assert_int_eq(df_ctx_new(NULL, &run.ctx), 0);
	run.rep = calloc(1, sizeof(*run.rep));
	ck_assert_ptr_nonnull(run.rep);
	for (int i = 0; i < 6000; i++) {
		snprintf(name, sizeof(name), "driver-%d", i);
		ck_assert_int_eq(df_record(&run, DF_ACT_UNBIND, "pci", name, i % 2 ? "dev" : NULL,
					   i == 3000 ? big : NULL, 0),
				 0);
	}
	ck_assert_uint_eq(run.rep->nactions, 6000);
	for (int i = 0; i < 6000; i++) {
		const struct df_action *a = &run.rep->actions[i];

		snprintf(name, sizeof(name), "driver-%d", i);
		ck_assert_str_eq(a->bus, "pci");
		ck_assert_str_eq(a->driver, name);
		if (i % 2)
			ck_assert_str_eq(a->device, "dev");
		else
			ck_assert_ptr_null(a->device);
		if (i == 3000)
			ck_assert_str_eq(a->value, big);
		else
			ck_assert_ptr_null(a->value);
	}
	ck_assert_uint_gt(run.rep->nblocks, 2);
	df_report_free(run.rep);
	df_ctx_unref(run.ctx);
	free(big);
}
END_TEST

/* Every line the log function got, in order. */
static struct {
	char lines[256][1024];
	int prio[256];
	int n;
} got;

static void keep_lines(void *data, int priority, const char *file, int line, const char *fn,
		       const char *format, va_list ap)
{
	(void)data, (void)file, (void)line, (void)fn;
	ck_assert_int_lt(got.n, 256);
	got.prio[got.n] = priority;
	vsnprintf(got.lines[got.n++], sizeof(got.lines[0]), format, ap);
}

/*
 * A real root's thousands of blacklisted modules: a few lines, each under a
 * kernel log record's size, naming every module once and in order; one
 * action each in the report; a failed write one error and one line.
 */
START_TEST(test_blacklist_lines)
{
	enum {
		N = 2065
	};
	static const char pre[] = "action=blacklist modules=", post[] = " result=ok";
	struct df_run run = { 0 };
	char **mods = calloc(N + 1, sizeof(*mods));
	struct strbuf all = STRBUF_INIT, joined = STRBUF_INIT;

	ck_assert_ptr_nonnull(mods);
	for (size_t i = 0; i < N; i++) {
		/* Names of 2 to 40 bytes; one skipped (NULL: refused by the name check). */
		ck_assert_int_ge(asprintf(&mods[i], "m%zu_%.*s", i, (int)(i % 36),
					  "abcdefghijklmnopqrstuvwxyz0123456789"),
				 0);
		ck_assert_int_ge(strbuf_append(&all, i ? "," : ""), 0);
		ck_assert_int_ge(strbuf_append(&all, mods[i]), 0);
	}
	ck_assert_int_eq(df_ctx_new(NULL, &run.ctx), 0);
	df_ctx_set_log_fn(run.ctx, keep_lines, NULL);
	df_ctx_set_log_priority(run.ctx, LOG_DEBUG);
	run.rep = calloc(1, sizeof(*run.rep));
	ck_assert_ptr_nonnull(run.rep);
	ck_assert_int_eq(df_record_blacklist(&run, mods, N, 0), 0);
	ck_assert_uint_eq(run.rep->nactions, N);
	ck_assert_uint_eq(run.rep->counts.blacklisted, N);
	ck_assert_uint_eq(run.rep->counts.errors, 0);
	ck_assert_int_gt(got.n, 1);
	ck_assert_int_lt(got.n, 256);
	for (int i = 0; i < got.n; i++) {
		const char *l = got.lines[i];
		size_t len = strlen(l);

		ck_assert_int_eq(got.prio[i], LOG_NOTICE);
		ck_assert_uint_lt(len, 900);
		ck_assert_int_eq(strncmp(l, pre, strlen(pre)), 0);
		ck_assert_str_eq(l + len - strlen(post), post);
		ck_assert_int_ge(strbuf_append(&joined, i ? "," : ""), 0);
		ck_assert_int_ge(
			strbuf_appendn(&joined, l + strlen(pre), len - strlen(pre) - strlen(post)),
			0);
	}
	ck_assert_str_eq(strbuf_str(&joined), strbuf_str(&all));
	df_report_free(run.rep);

	/* The file was not written: each module's action failed, one error, one line. */
	got.n = 0;
	free(mods[7]);
	mods[7] = NULL;
	run.rep = calloc(1, sizeof(*run.rep));
	ck_assert_ptr_nonnull(run.rep);
	ck_assert_int_eq(df_record_blacklist(&run, mods, N, -EIO), 0);
	ck_assert_uint_eq(run.rep->nactions, N - 1);
	ck_assert_int_eq(run.rep->actions[0].error, -EIO);
	ck_assert_uint_eq(run.rep->counts.blacklisted, 0);
	ck_assert_uint_eq(run.rep->counts.errors, 1);
	ck_assert_int_eq(got.n, 1);
	ck_assert_int_eq(got.prio[0], LOG_ERR);
	ck_assert_str_eq(got.lines[0], "action=blacklist count=2064 result=error "
				       "error=\"Input/output error\"");
	df_report_free(run.rep);
	df_ctx_unref(run.ctx);
	strv_free_array(mods, N);
	strbuf_release(&all);
	strbuf_release(&joined);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, test_log_fields_escaped);
	tcase_add_test(tc, test_actions_kept);
	tcase_add_test(tc, test_blacklist_lines);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
