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
#include "macro.h"
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

/* Violations in red: on a terminal that has colours, unless NO_COLOR says no (no-color.org). */
static bool view_colour(void)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && !(no && *no) && !(term && streq(term, "dumb"));
}

static int arg_all;
static bool arg_noheadings;
static bool arg_raw;
static int arg_list_columns;
static int arg_no_pager;
/* --output's columns, checked as soon as they are given. */
static struct status_view arg_view;
static bool arg_output;

static int print_status(const struct status_view *view)
{
	bool prometheus = ctl_format_is("prometheus");
	struct status s;
	int r, ret = EXIT_FINE;

	r = status_load(&s);
	if (r < 0) {
		if (r == -ENOMEM)
			log_oom();
		status_release(&s);
		return EXIT_ERROR;
	}
	if (prometheus) {
		status_print_prometheus(&s);
	} else if (arg_json != JSON_OFF) {
		status_print_json(&s);
	} else {
		struct status_view v = *view;

		status_view_finish(&v, s.mode == DF_MODE_KERNEL);
		status_print_text(&s, &v);
	}
	/* The metrics carry the violations; a textfile job needs "written" = 0. */
	if ((s.ndrift || s.violations || s.mismatches) && !prometheus)
		ret = EXIT_VIOLATION;
	status_release(&s);
	return ret;
}

static int run(int argc, char **argv)
{
	struct status_view view = arg_view;

	if (arg_list_columns) {
		status_list_columns();
		return EXIT_FINE;
	}
	if ((arg_json != JSON_OFF || ctl_format_is("prometheus")) &&
	    (arg_all || arg_output || arg_noheadings || arg_raw))
		return ctl_usage_error("--all, --output, --noheadings and --raw are for the text "
				       "view, not --json or --format=prometheus");
	view.width = view_width();
	view.all = arg_all;
	view.noheadings = arg_noheadings;
	view.raw = arg_raw;
	/* As lsblk's: the table alone, without the summary around it. */
	view.alone = arg_output || arg_noheadings || arg_raw;
	view.colour = !arg_raw && view_colour();
	return print_status(&view);
}

static const struct option options[] = {
	{ "all", no_argument, &arg_all, 1 },
	{ "output", required_argument, NULL, 'o' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "raw", no_argument, NULL, 'r' },
	{ "list-columns", no_argument, &arg_list_columns, 1 },
	{ "no-pager", no_argument, &arg_no_pager, 1 },
	{},
};

static const char *const formats[] = { "prometheus", NULL };

static int parse(int opt, const char *arg)
{
	if (opt == 'n')
		arg_noheadings = true;
	else if (opt == 'r')
		arg_raw = true;
	else {
		arg_output = true;
		return status_view_columns(&arg_view, arg);
	}
	return EXIT_FINE;
}

static const char help[] =
	"      --all              every driver in the table, not only those that matter\n"
	"                         (violations, allowed, with devices)\n"
	"  -o, --output COLUMNS   the table's columns, e.g. BUS,DRIVER,DEVICES; +COLUMNS\n"
	"                         adds them to the default ones\n"
	"  -n, --noheadings       the table without its header line\n"
	"  -r, --raw              the table's cells unaligned, blanks escaped\n"
	"                         (-o, -n and -r print the table alone, as lsblk does)\n"
	"      --list-columns     list the table's columns and what they show\n"
	"      --no-pager         taken, as systemd's tools take it: status never pages\n";

const struct ctl_verb ctl_verb_status = {
	.name = "status",
	.summary = "mode, lock, drift, drivers, violations, unbound devices",
	.common = CTL_POLICY | CTL_SYSROOT | CTL_JSON,
	.formats = formats,
	.options = options,
	.shortopts = "o:nr",
	.parse = parse,
	.help = help,
	.run = run,
};
