// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilter-apply's kernel log: every line that changes something or fails
 * goes to /dev/kmsg as one record with the prefix 'drvfilter:', none lost to
 * its rate limit; the watchdog's last line too, from its signal handler.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "drvfilter-apply.h"
#include "drvfilter.h"
#include "macro.h"

/*
 * The longest write /dev/kmsg takes as one record: LOG_LINE_MAX, 1024 minus
 * the prefix room, 976 bytes with CONFIG_PRINTK_CALLER. A longer write fails
 * whole (EINVAL), so a longer line is cut to fit, and says so.
 */
#define KMSG_RECORD_MAX 976
#define KMSG_PREFIX "drvfilter: "
/*
 * The kernel rate-limits writes to /dev/kmsg per open file (printk.devkmsg=
 * ratelimit, the default: 10 records in 5 s) and drops the rest without an
 * error ("N output lines suppressed due to ratelimiting"). An audit trail
 * must not lose lines: before every tenth record the file is opened anew, in
 * place of the old descriptor, and a new open starts with a whole budget.
 */
#define KMSG_BURST 10
/* /dev/kmsg, opened once (not in a dry run), and again after every KMSG_BURST records. */
static int kmsg_fd = -1;
static char kmsg_path[PATH_MAX];
static volatile sig_atomic_t kmsg_records;

/* Open /dev/kmsg again onto kmsg_fd: only system calls (the watchdog calls it too). */
static void kmsg_reopen(void)
{
	int fd = open(kmsg_path,
		      O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return;
	if (dup3(fd, kmsg_fd, O_CLOEXEC) >= 0)
		kmsg_records = 0;
	close(fd);
}

/* One record: one write(2), as /dev/kmsg takes each write as one record. */
static void kmsg_write(const char *rec, size_t n)
{
	if (kmsg_records >= KMSG_BURST)
		kmsg_reopen();
	kmsg_records = kmsg_records + 1;
	(void)!write(kmsg_fd, rec, n);
}

/*
 * "<PRIORITY>drvfilter: MSG\n" into @rec: its length, at most
 * KMSG_RECORD_MAX, and a record that would be longer is cut and ends in
 * "...\n".
 */
static size_t kmsg_record(char rec[KMSG_RECORD_MAX], int priority, const char *msg, size_t len)
{
	char num[16], *d = num + sizeof(num);
	unsigned v = (unsigned)(LOG_DAEMON | priority);
	size_t n = 0, room;

	do
		*--d = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	rec[n++] = '<';
	memcpy(rec + n, d, (size_t)(num + sizeof(num) - d));
	n += (size_t)(num + sizeof(num) - d);
	rec[n++] = '>';
	memcpy(rec + n, KMSG_PREFIX, sizeof(KMSG_PREFIX) - 1);
	n += sizeof(KMSG_PREFIX) - 1;
	room = KMSG_RECORD_MAX - n;
	if (len + 1 <= room) {
		memcpy(rec + n, msg, len);
		rec[n + len] = '\n';
		return n + len + 1;
	}
	memcpy(rec + n, msg, room);
	memcpy(rec + KMSG_RECORD_MAX - 4, "...\n", 4);
	return KMSG_RECORD_MAX;
}

_printf_(6, 0) void kmsg_log_fn(void *data, int priority, const char *file, int line,
				const char *fn, const char *format, va_list args)
{
	char msg[2 * KMSG_RECORD_MAX];
	const char *text = msg;
	size_t len;

	/*
	 * The enforcement's lines come formatted already ("%s"): taken as they
	 * are, cut where vsnprintf() into @msg would cut them.
	 */
	if (streq(format, "%s")) {
		text = va_arg(args, const char *);
		if (!text)
			text = "(null)";
		len = strnlen(text, sizeof(msg) - 1);
	} else {
		vsnprintf(msg, sizeof(msg), format, args);
		len = strlen(msg);
	}
	/* The kernel log gets what changes something or fails; -v adds the rest. */
	if (kmsg_fd >= 0 && priority <= LOG_NOTICE) {
		/* One write per line: /dev/kmsg takes each write as one record. */
		char rec[KMSG_RECORD_MAX];

		kmsg_write(rec, kmsg_record(rec, priority, text, len));
	}
	if (priority <= LOG_WARNING || arg_verbose || arg_dry_run || kmsg_fd < 0)
		fprintf(stderr, "drvfilter-apply: %.*s\n", (int)len, text);
}

void kmsg_open(struct df_ctx *ctx)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/dev/kmsg");

	/* O_NONBLOCK: a FIFO in its place (no reader) fails the open instead of hanging it. */
	if (path && !arg_dry_run && strlen(path) < sizeof(kmsg_path)) {
		strcpy(kmsg_path, path);
		kmsg_fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW |
					     O_NONBLOCK);
	}
}

/* @s to @fd in one write(2), as a signal handler may. */
static void write_str(int fd, const char *s)
{
	(void)!write(fd, s, strlen(s));
}

void kmsg_crit(const char *msg)
{
	static const char prefix[] = "<26>" KMSG_PREFIX; /* LOG_DAEMON | LOG_CRIT */
	char rec[KMSG_RECORD_MAX];
	size_t n = sizeof(prefix) - 1, len = strlen(msg);

	/* One write, one record: prefix, message (cut to fit) and newline together. */
	if (kmsg_fd >= 0) {
		if (len > sizeof(rec) - n - 1)
			len = sizeof(rec) - n - 1;
		memcpy(rec, prefix, n);
		memcpy(rec + n, msg, len);
		rec[n + len] = '\n';
		kmsg_write(rec, n + len + 1);
	}
	write_str(STDERR_FILENO, "drvfilter-apply: ");
	write_str(STDERR_FILENO, msg);
	write_str(STDERR_FILENO, "\n");
}
