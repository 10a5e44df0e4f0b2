// SPDX-License-Identifier: GPL-2.0-only
/* The programs' messages on standard error (log.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static const char *program = "drvfilter";

void log_set_program(const char *name)
{
	program = name;
}

static void log_va(int err, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", program);
	/* %m prints strerror(errno): give it the error being logged. */
	errno = err;
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_va(errno, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_va(errno, fmt, ap);
	va_end(ap);
}

int log_error_errno(int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_va(abs(r), fmt, ap);
	va_end(ap);
	return r;
}

int log_oom(void)
{
	log_error("out of memory");
	return -ENOMEM;
}
