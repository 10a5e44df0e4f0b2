/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers for the Check suites: policies written to temporary files and loaded. */
#ifndef DRVFILTER_TESTUTIL_H
#define DRVFILTER_TESTUTIL_H

#include <check.h>
#include <stddef.h>

#include "drvfilter.h"

/* Write @len bytes to a new temporary file; returns its path (to free and unlink). */
char *tu_write_temp(const char *data, size_t len);
/*
 * Load @text as a policy (any owner) into *@p; @d is initialised here.
 * Returns df_policy_load()'s result.
 */
int tu_load_text(const char *text, struct df_diags *d, struct df_policy **p);
/* Same, failing the test unless the policy loads without error. */
struct df_policy *tu_load_ok(const char *text);
/* Run @s with Check's normal output; the process exit status. */
int tu_run(Suite *s);

#endif
