/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drvfilter-apply: its options and run (drvfilter-apply.c), its kernel log
 * (drvfilter-apply-kmsg.c) and its watchdog (drvfilter-apply-watchdog.c).
 */
#ifndef DRVFILTER_APPLY_H
#define DRVFILTER_APPLY_H

#include <stdarg.h>
#include <stdbool.h>

#include "drvfilter.h"
#include "macro.h"

/* The options the kernel log and the watchdog follow too (drvfilter-apply.c). */
extern bool arg_dry_run;
extern bool arg_verbose;
extern unsigned arg_timeout; /* seconds; 0: no watchdog */

/* Open @ctx's /dev/kmsg for the log's records; not in a dry run, which writes nothing. */
void kmsg_open(struct df_ctx *ctx);
/*
 * The library's log function: at LOG_NOTICE and above to the kernel log,
 * each line one record; to standard error the warnings and errors, and
 * everything with -v, in a dry run or without the kernel log.
 */
_printf_(6, 0) void kmsg_log_fn(void *data, int priority, const char *file, int line,
				const char *fn, const char *format, va_list args);
/* One line at LOG_CRIT to the kernel log and to standard error, with system calls only. */
void kmsg_crit(const char *msg);

/* Stop the run after --timeout seconds, failing closed in kernel mode (SIGALRM). */
void watchdog_start(struct df_ctx *ctx);
/* Audit mode enforces nothing, the watchdog included. */
void watchdog_set_audit(bool audit);

#endif
