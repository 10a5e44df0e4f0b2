/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drvfilterctl cmdline: the boot options computed (ctl-cmdline.c), printed
 * (ctl-cmdline-format.c) and reported on (ctl-cmdline-report.c).
 */
#ifndef DRVFILTER_CTL_CMDLINE_H
#define DRVFILTER_CTL_CMDLINE_H

#include <stdbool.h>

#include "drvfilter.h"

/* The options in --format's syntax (kernel-cmdline by default) on standard output: the exit code. */
int cmdline_print(const struct df_bootopts *b);
/* The options, what each names and what boot options cannot cover, as JSON. */
void cmdline_print_json(const struct df_bootopts *b);
/*
 * What the options hold and what they leave out, on standard error;
 * @installed: for an installed kernel, not the running one (--kernel).
 */
void cmdline_report(const struct df_bootopts *b, bool installed);

#endif
