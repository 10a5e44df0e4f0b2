// SPDX-License-Identifier: GPL-2.0-only
/* drvfilterctl: the administrator's tool. Options, the verb table, dispatch. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "ctl.h"
#include "macro.h"
#include "suggest.h"

#ifndef DRVFILTER_VERSION
#define DRVFILTER_VERSION "unknown"
#endif

const char *arg_policy;
const char *arg_sysroot;
enum json_format arg_json = JSON_OFF;
bool arg_prometheus;
bool arg_dry_run;
long arg_events;
struct df_ctx *ctl_ctx;

struct verb {
	const char *name;
	int min_args;
	int max_args; /* -1: any number */
	int (*run)(int argc, char **argv);
};

static const struct verb verbs[] = {
	{ "check", 0, 1, verb_check },	     { "explain", 1, -1, verb_explain },
	{ "cmdline", 0, 0, verb_cmdline },   { "status", 0, 0, verb_status },
	{ "generate", 0, 0, verb_generate }, { "apply", 0, 0, verb_apply },
	{ "edit", 0, 0, verb_edit },	     { "watch", 0, 0, verb_watch },
};

static void help(void)
{
	printf("Usage: drvfilterctl [OPTIONS] VERB [ARGS]\n"
	       "\n"
	       "Check, apply and watch a drvfilter policy, the allow/deny list of device drivers.\n"
	       "\n"
	       "Verbs:\n"
	       "  status                 mode, lock, drift, drivers, violations, unbound devices\n"
	       "  check [FILE]           validate a policy (default: the --policy file)\n"
	       "  explain BUS:DRIVER...  say whether each driver is allowed, and by which rule\n"
	       "  generate               print a policy allowing the drivers bound now\n"
	       "  cmdline                print the equivalent kernel boot options\n"
	       "  apply                  enforce the policy now, as drvfilter-apply does at boot\n"
	       "  edit                   edit the policy safely: check it, then replace it\n"
	       "  watch                  follow driver and bind events with their decisions\n"
	       "\n"
	       "Options:\n"
	       "  -p, --policy FILE      the policy (default: %s)\n"
	       "      --sysroot DIR      take /sys, /proc, /run, /etc and /lib/modules under DIR;\n"
	       "                         the policy's owner and mode are not checked\n"
	       "      --json[=FORMAT]    JSON output: pretty (the default) or short\n"
	       "      --format=FORMAT    text, json, or prometheus (status only: the\n"
	       "                         node_exporter textfile format)\n"
	       "  -n, --dry-run          apply: print what would be done, write nothing\n"
	       "      --events N         watch: stop after N events\n"
	       "  -h, --help             show this help\n"
	       "  -V, --version          show the version\n"
	       "\n"
	       "Exit status: 0 fine, 1 error, 2 usage error, 3 status found violations or drift.\n"
	       "See drvfilterctl(8) and drvfilter.conf(5).\n",
	       DRVFILTER_POLICY_PATH);
}

int ctl_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("drvfilterctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'drvfilterctl --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

_printf_(6, 0) static void log_stderr(void *data, int priority, const char *file, int line,
				      const char *fn, const char *format, va_list args)
{
	fputs("drvfilterctl: ", stderr);
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
}

/* <0 error (exit code negated), 0 done (after --help), 1 go on. */
static int parse_argv(int argc, char **argv)
{
	enum {
		ARG_SYSROOT = 0x100,
		ARG_JSON,
		ARG_FORMAT,
		ARG_EVENTS,
	};
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "policy", required_argument, NULL, 'p' },
		{ "sysroot", required_argument, NULL, ARG_SYSROOT },
		{ "json", optional_argument, NULL, ARG_JSON },
		{ "format", required_argument, NULL, ARG_FORMAT },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "events", required_argument, NULL, ARG_EVENTS },
		{},
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVp:n", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help();
			return 0;
		case 'V':
			printf("drvfilterctl %s\n", DRVFILTER_VERSION);
			return 0;
		case 'p':
			arg_policy = optarg;
			break;
		case ARG_SYSROOT:
			if (!*optarg)
				return -ctl_usage_error("--sysroot needs a directory");
			arg_sysroot = optarg;
			break;
		case 'n':
			arg_dry_run = true;
			break;
		case ARG_EVENTS: {
			char *end;

			errno = 0;
			arg_events = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || arg_events < 1)
				return -ctl_usage_error("--events needs a positive number");
			break;
		}
		case ARG_JSON:
			if (!optarg || streq(optarg, "pretty"))
				arg_json = JSON_PRETTY;
			else if (streq(optarg, "short"))
				arg_json = JSON_SHORT;
			else if (streq(optarg, "off"))
				arg_json = JSON_OFF;
			else
				return -ctl_usage_error("unknown JSON format '%s': use pretty, "
							"short or off",
							optarg);
			break;
		case ARG_FORMAT:
			arg_prometheus = false;
			if (streq(optarg, "text"))
				arg_json = JSON_OFF;
			else if (streq(optarg, "json"))
				arg_json = JSON_PRETTY;
			else if (streq(optarg, "prometheus"))
				arg_prometheus = true;
			else
				return -ctl_usage_error("unknown format '%s': use text, json or "
							"prometheus",
							optarg);
			break;
		case '?':
			if (optopt)
				return -ctl_usage_error("unknown option '-%c'", optopt);
			return -ctl_usage_error("unknown option '%s'", argv[optind - 1]);
		case ':':
		default:
			return -ctl_usage_error("option '%s' needs an argument", argv[optind - 1]);
		}
	}
	return 1;
}

static int dispatch(int argc, char **argv)
{
	const char *names[ARRAY_SIZE(verbs)];
	const char *s;
	int nargs;

	if (argc < 1)
		return ctl_usage_error("missing verb");
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++) {
		const struct verb *v = &verbs[i];

		names[i] = v->name;
		if (!streq(argv[0], v->name))
			continue;
		nargs = argc - 1;
		if (nargs < v->min_args)
			return ctl_usage_error("'%s' needs an argument", v->name);
		if (v->max_args >= 0 && nargs > v->max_args)
			return ctl_usage_error("too many arguments for '%s'", v->name);
		return v->run(argc, argv);
	}
	s = suggest(argv[0], names, ARRAY_SIZE(names));
	if (s)
		return ctl_usage_error("unknown verb '%s'; did you mean '%s'?", argv[0], s);
	return ctl_usage_error("unknown verb '%s'", argv[0]);
}

int main(int argc, char **argv)
{
	int r;

	r = parse_argv(argc, argv);
	if (r <= 0)
		return -r;
	r = df_ctx_new(arg_sysroot, &ctl_ctx);
	if (r < 0) {
		fprintf(stderr, "drvfilterctl: %s\n", strerror(-r));
		return EXIT_ERROR;
	}
	df_ctx_set_log_fn(ctl_ctx, log_stderr, NULL);
	df_ctx_set_log_priority(ctl_ctx, LOG_WARNING);
	r = dispatch(argc - optind, argv + optind);
	df_ctx_unref(ctl_ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "drvfilterctl: cannot write the output: %s\n", strerror(errno));
		return EXIT_ERROR;
	}
	return r;
}
