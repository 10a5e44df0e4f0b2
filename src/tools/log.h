/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The programs' messages on standard error, "PROGRAM: message", kmod and
 * systemd style: log_error_errno(r, "Failed to read '%s': %m", path) prints
 * strerror(-r) for %m and returns r, so that an error is logged once, where it
 * is handled, and passed on in the same statement.
 */
#ifndef DRVFILTER_LOG_H
#define DRVFILTER_LOG_H

#include "macro.h"

void log_set_program(const char *name);
_printf_(1, 2) void log_error(const char *fmt, ...);
/* @r is a negative errno (or a positive one); returns it as given. */
_printf_(2, 3) int log_error_errno(int r, const char *fmt, ...);
/* Not an error: what the program did or found, on standard error as well. */
_printf_(1, 2) void log_info(const char *fmt, ...);
/* "out of memory", and -ENOMEM. */
int log_oom(void);

#endif
