// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl status: the truth about a running system. The mode and what it
 * guarantees, the lock, the policy and whether it is the one applied at boot,
 * every driver with its decision, devices bound to denied drivers, and unbound
 * devices with the modules that would drive them. The model is status-model.c;
 * the views are status-text.c, status-json.c and status-prom.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "status.h"

/* The terminal's width; else $COLUMNS (as util-linux reads it); else 80. */
static size_t view_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env) {
		n = strtol(env, &end, 10);
		if (!*end && end != env && n >= 40 && n <= 1000)
			return (size_t)n;
	}
	return 80;
}

int verb_status(int argc, char **argv)
{
	struct status_view view = {
		.width = view_width(),
		.all = arg_all,
		.noheadings = arg_noheadings,
		.raw = arg_raw,
	};
	struct status s;
	int r, ret = EXIT_FINE;

	if ((arg_json != JSON_OFF || arg_prometheus) &&
	    (arg_all || arg_output || arg_noheadings || arg_raw))
		return ctl_usage_error("--all, --output, --noheadings and --raw are for the text "
				       "view, not --json or --format=prometheus");
	if (arg_output && status_view_columns(&view, arg_output) < 0)
		return EXIT_USAGE;
	r = status_load(&s);
	if (r < 0) {
		if (r == -ENOMEM)
			log_oom();
		status_release(&s);
		return EXIT_ERROR;
	}
	if (arg_prometheus)
		status_print_prometheus(&s);
	else if (arg_json != JSON_OFF)
		status_print_json(&s);
	else {
		if (!arg_output)
			status_view_default_columns(&view, s.mode == DF_MODE_KERNEL);
		status_print_text(&s, &view);
	}
	/* The metrics carry the violations; a textfile job needs "written" = 0. */
	if ((s.drift || s.violations || s.mismatches) && !arg_prometheus)
		ret = EXIT_VIOLATION;
	status_release(&s);
	return ret;
}
