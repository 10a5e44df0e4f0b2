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

static bool arg_all;
static const char *arg_output;
static bool arg_noheadings;
static bool arg_raw;

static int run(int argc, char **argv)
{
	struct status_view view = {
		.width = view_width(),
		.all = arg_all,
		.noheadings = arg_noheadings,
		.raw = arg_raw,
	};
	bool prometheus = ctl_format_is("prometheus");
	struct status s;
	int r, ret = EXIT_FINE;

	if ((arg_json != JSON_OFF || prometheus) &&
	    (arg_all || arg_output || arg_noheadings || arg_raw))
		return ctl_usage_error("--all, --output, --noheadings and --raw are for the text "
				       "view, not --json or --format=prometheus");
	if (arg_output) {
		r = status_view_columns(&view, arg_output);
		if (r != EXIT_FINE)
			return r;
	}
	r = status_load(&s);
	if (r < 0) {
		if (r == -ENOMEM)
			log_oom();
		status_release(&s);
		return EXIT_ERROR;
	}
	if (prometheus)
		status_print_prometheus(&s);
	else if (arg_json != JSON_OFF)
		status_print_json(&s);
	else {
		if (!arg_output)
			status_view_default_columns(&view, s.mode == DF_MODE_KERNEL);
		status_print_text(&s, &view);
	}
	/* The metrics carry the violations; a textfile job needs "written" = 0. */
	if ((s.drift || s.violations || s.mismatches) && !prometheus)
		ret = EXIT_VIOLATION;
	status_release(&s);
	return ret;
}

enum {
	ARG_ALL = CTL_ARG_VERB,
	ARG_NOHEADINGS,
	ARG_RAW,
};

static const struct option options[] = {
	{ "all", no_argument, NULL, ARG_ALL },
	{ "output", required_argument, NULL, 'o' },
	{ "noheadings", no_argument, NULL, ARG_NOHEADINGS },
	{ "raw", no_argument, NULL, ARG_RAW },
	{},
};

static const char *const formats[] = { "prometheus", NULL };

static int parse(int opt, const char *arg)
{
	switch (opt) {
	case ARG_ALL:
		arg_all = true;
		break;
	case 'o':
		arg_output = arg;
		break;
	case ARG_NOHEADINGS:
		arg_noheadings = true;
		break;
	default:
		arg_raw = true;
		break;
	}
	return EXIT_FINE;
}

static const char help[] =
	"      --all              every driver in the table, not only those that matter\n"
	"                         (violations, allowed, with devices)\n"
	"  -o, --output COLUMNS   the table's columns, e.g. BUS,DRIVER,DEVICES\n"
	"                         (BUS DRIVER MODULE DECISION BIT RULE DEVICES)\n"
	"      --noheadings       the table without its header line\n"
	"      --raw              the table's cells unaligned, blanks escaped\n";

const struct ctl_verb ctl_verb_status = {
	.name = "status",
	.summary = "mode, lock, drift, drivers, violations, unbound devices",
	.common = CTL_POLICY | CTL_SYSROOT | CTL_JSON,
	.formats = formats,
	.options = options,
	.shortopts = "o:",
	.parse = parse,
	.help = help,
	.run = run,
};
