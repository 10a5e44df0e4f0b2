// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilter-apply's kernel log (tools/drvfilter-apply-kmsg.c): each line one
 * record of at most 976 bytes, a longer one cut to end in "...", and the
 * same line on standard error, exactly as printf-formatting wrote them.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "drvfilter-apply.h"
#include "testutil.h"

bool arg_dry_run;
bool arg_verbose;
unsigned arg_timeout;

#define RECORD_MAX 976

/*
 * The record and the standard error line of @msg as the kernel log wrote
 * them when every line went through vsnprintf() and snprintf() (before
 * issue 32): the reference the writer is held to.
 */
static size_t reference(int priority, const char *msg, char *rec, char *err, size_t errsize)
{
	char cut[2 * RECORD_MAX];
	int n;

	snprintf(cut, sizeof(cut), "%s", msg);
	n = snprintf(rec, RECORD_MAX + 1, "<%d>drvfilter: %s\n", LOG_DAEMON | priority, cut);
	if (n >= RECORD_MAX + 1) {
		memcpy(rec + RECORD_MAX - 4, "...\n", 4);
		n = RECORD_MAX;
	}
	snprintf(err, errsize, "drvfilter-apply: %s\n", cut);
	return (size_t)n;
}

static void log_line(int priority, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	kmsg_log_fn(NULL, priority, NULL, 0, NULL, format, ap);
	va_end(ap);
}

/* What was appended to @fd (the log file, or standard error's) since @off. */
static char *appended(int fd, off_t *off, size_t *len)
{
	char *buf = malloc(8192);
	ssize_t n;

	ck_assert_ptr_nonnull(buf);
	n = pread(fd, buf, 8191, *off);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	*off += n;
	*len = (size_t)n;
	return buf;
}

START_TEST(test_kmsg_records_cut_as_printf)
{
	static const size_t lengths[] = { 0,   1,   80,	 958, 959,  960,  961,	962,  963,  964,
					  965, 975, 976, 977, 1000, 1950, 1951, 1952, 1953, 3000 };
	static const int priorities[] = { LOG_NOTICE, LOG_ERR, LOG_WARNING };
	char dir[] = "/tmp/test-kmsg.XXXXXX", path[64], rec[RECORD_MAX + 1], err[4096];
	char *msg = malloc(4000);
	int kfd, efd, saved_stderr = dup(STDERR_FILENO);
	off_t koff = 0, eoff = 0;
	struct df_ctx *ctx;

	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dev", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	kfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ck_assert_int_ge(kfd, 0);
	snprintf(path, sizeof(path), "%s/stderr", dir);
	efd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	ck_assert_int_ge(efd, 0);
	ck_assert_int_eq(df_ctx_new(dir, &ctx), 0);
	kmsg_open(ctx);
	ck_assert_int_ge(dup2(efd, STDERR_FILENO), 0);
	for (size_t p = 0; p < sizeof(priorities) / sizeof(priorities[0]); p++) {
		for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
			for (size_t k = 0; k < lengths[i]; k++)
				msg[k] = (char)('a' + (k * 7 + i) % 26);
			msg[lengths[i]] = '\0';
			/* Whole ("%s"), and formatted there. */
			for (int formatted = 0; formatted < 2; formatted++) {
				size_t n = reference(priorities[p], msg, rec, err, sizeof(err)),
				       len;
				char *got;

				if (formatted)
					log_line(priorities[p], "%.*s%s", 4000, msg, "");
				else
					log_line(priorities[p], "%s", msg);
				fflush(stderr);
				got = appended(kfd, &koff, &len);
				if (priorities[p] <= LOG_NOTICE) {
					ck_assert_uint_eq(len, n);
					ck_assert_int_eq(memcmp(got, rec, n), 0);
				}
				free(got);
				got = appended(efd, &eoff, &len);
				/* Warnings and errors only, without -v. */
				if (priorities[p] <= LOG_WARNING)
					ck_assert_str_eq(got, err);
				else
					ck_assert_uint_eq(len, 0);
				free(got);
			}
		}
	}
	ck_assert_int_ge(dup2(saved_stderr, STDERR_FILENO), 0);
	close(saved_stderr);
	close(kfd);
	close(efd);
	df_ctx_unref(ctx);
	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stderr", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/dev", dir);
	rmdir(path);
	rmdir(dir);
	free(msg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kmsg");
	TCase *tc = tcase_create("kmsg");

	tcase_add_test(tc, test_kmsg_records_cut_as_printf);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
