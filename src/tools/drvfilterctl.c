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
#include "log.h"
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
bool arg_permanent;
bool arg_devices;
long arg_events;
long arg_max_bytes;
enum cmdline_snippet arg_snippet;
const char *arg_event_log;
const char *arg_pcrs;
const char *arg_base_pcrs;
const char *arg_rtmr;
const char *arg_base_rtmr;
const char *arg_expect_policy;
const char *arg_expect_mode;
bool arg_expect_locked;
bool arg_all;
const char *arg_output;
bool arg_noheadings;
bool arg_raw;
struct df_ctx *ctl_ctx;

/* The options a verb may be given; any other is a usage error naming the verb. */
enum {
	OPT_POLICY = 1u << 0,
	OPT_SYSROOT = 1u << 1,
	OPT_JSON = 1u << 2, /* --json, --format=text|json */
	OPT_PROMETHEUS = 1u << 3, /* --format=prometheus */
	OPT_DRY_RUN = 1u << 4,
	OPT_EVENTS = 1u << 5,
	OPT_PERMANENT = 1u << 6,
	OPT_DEVICES = 1u << 7,
	OPT_SNIPPET = 1u << 8, /* --format=grub|dracut */
	OPT_MAX_BYTES = 1u << 9,
	OPT_EVENT_LOG = 1u << 10,
	OPT_PCRS = 1u << 11,
	OPT_BASE_PCRS = 1u << 12,
	OPT_RTMR = 1u << 13,
	OPT_BASE_RTMR = 1u << 14,
	OPT_EXPECT_POLICY = 1u << 15,
	OPT_EXPECT_MODE = 1u << 16,
	OPT_EXPECT_LOCKED = 1u << 17,
	OPT_ALL = 1u << 18,
	OPT_OUTPUT = 1u << 19,
	OPT_NOHEADINGS = 1u << 20,
	OPT_RAW = 1u << 21,
};

static const char *const option_names[] = {
	"--policy",
	"--sysroot",
	"--json",
	"--format=prometheus",
	"--dry-run",
	"--events",
	"--permanent",
	"--devices",
	"--format=grub|dracut",
	"--max-bytes",
	"--event-log",
	"--pcrs",
	"--base-pcrs",
	"--rtmr",
	"--base-rtmr",
	"--expect-policy",
	"--expect-mode",
	"--expect-locked",
	"--all",
	"--output",
	"--noheadings",
	"--raw",
};

#define OPT_VERIFY                                                                           \
	(OPT_SYSROOT | OPT_EVENT_LOG | OPT_PCRS | OPT_BASE_PCRS | OPT_RTMR | OPT_BASE_RTMR | \
	 OPT_EXPECT_POLICY | OPT_EXPECT_MODE | OPT_EXPECT_LOCKED)

/* The options given on the command line, as OPT_* bits. */
static unsigned arg_given;

struct verb {
	const char *name;
	const char *args;
	int min_args;
	int max_args; /* -1: any number */
	unsigned options;
	int (*run)(int argc, char **argv);
	const char *help;
};

static const struct verb verbs[] = {
	{ "status", "", 0, 0,
	  OPT_POLICY | OPT_SYSROOT | OPT_JSON | OPT_PROMETHEUS | OPT_ALL | OPT_OUTPUT |
		  OPT_NOHEADINGS | OPT_RAW,
	  verb_status, "mode, lock, drift, drivers, violations, unbound devices" },
	{ "check", "[FILE]", 0, 1, OPT_POLICY | OPT_SYSROOT | OPT_JSON, verb_check,
	  "validate a policy (default: the --policy file)" },
	{ "explain", "BUS:DRIVER...", 1, -1, OPT_POLICY | OPT_SYSROOT | OPT_JSON, verb_explain,
	  "say whether each driver is allowed, and by which rule" },
	{ "generate", "", 0, 0, OPT_SYSROOT | OPT_DEVICES, verb_generate,
	  "print a policy allowing the drivers bound now" },
	{ "cmdline", "", 0, 0, OPT_POLICY | OPT_SYSROOT | OPT_JSON | OPT_SNIPPET | OPT_MAX_BYTES,
	  verb_cmdline, "print the boot options that keep denied code from running" },
	{ "record", "DIR", 1, 1, OPT_SYSROOT, verb_record,
	  "record this system for --sysroot (an offline image build)" },
	{ "blacklist", "", 0, 0, OPT_POLICY | OPT_SYSROOT, verb_blacklist,
	  "print the modprobe.d blacklist for this kernel's modules" },
	{ "apply", "", 0, 0, OPT_POLICY | OPT_SYSROOT | OPT_JSON | OPT_DRY_RUN, verb_apply,
	  "enforce the policy now, as drvfilter-apply does at boot" },
	{ "edit", "[FILE]", 0, 1, OPT_POLICY | OPT_SYSROOT, verb_edit,
	  "edit the policy safely: check it, then replace it" },
	{ "watch", "", 0, 0, OPT_POLICY | OPT_EVENTS, verb_watch,
	  "follow driver and bind events with their decisions" },
	{ "allow", "BUS:DRIVER...", 1, -1, OPT_POLICY | OPT_SYSROOT | OPT_PERMANENT, verb_allow,
	  "allow drivers now, until reboot (--permanent: also at boot)" },
	{ "deny", "BUS:DRIVER...", 1, -1, OPT_POLICY | OPT_SYSROOT | OPT_PERMANENT, verb_deny,
	  "deny drivers now, until reboot (--permanent: also at boot)" },
	{ "list-changes", "", 0, 0, OPT_POLICY | OPT_SYSROOT, verb_list_changes,
	  "the policy's drop-ins and their rules" },
	{ "verify", "", 0, 0, OPT_VERIFY, verb_verify,
	  "check a guest's event log against its PCRs and an expected policy" },
};

static void help(void)
{
	printf("Usage: drvfilterctl [OPTIONS] VERB [ARGS]\n"
	       "\n"
	       "Check, apply and watch a drvfilter policy, the allow/deny list of device drivers.\n"
	       "\n"
	       "Verbs:\n");
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++) {
		char head[32];

		snprintf(head, sizeof(head), "%s%s%s", verbs[i].name, *verbs[i].args ? " " : "",
			 verbs[i].args);
		printf("  %-22s %s\n", head, verbs[i].help);
	}
	printf("\n"
	       "Options:\n"
	       "  -p, --policy FILE      the policy (default: %s)\n"
	       "      --sysroot DIR      take /sys, /proc, /run, /etc and /lib/modules under DIR;\n"
	       "                         the policy's owner and mode are not checked\n"
	       "      --json[=FORMAT]    JSON output: pretty (the default) or short\n"
	       "      --format=FORMAT    text, json, prometheus (status only: the\n"
	       "                         node_exporter textfile format), grub or dracut\n"
	       "                         (cmdline only: a configuration snippet)\n"
	       "      --max-bytes N      cmdline: at most N bytes of options (default: what the\n"
	       "                         target's command line leaves of %d)\n"
	       "      --all              status: every driver in the table, not only those\n"
	       "                         that matter (violations, allowed, with devices)\n"
	       "  -o, --output COLUMNS   status: the table's columns, e.g. BUS,DRIVER,DEVICES\n"
	       "                         (BUS DRIVER MODULE DECISION BIT RULE DEVICES)\n"
	       "      --noheadings       status: the table without its header line\n"
	       "      --raw              status: the table's cells unaligned, blanks escaped\n"
	       "  -n, --dry-run          apply: print what would be done, write nothing\n"
	       "      --events N         watch: stop after N events\n"
	       "      --permanent        allow, deny: the change under /etc, for boot too\n"
	       "      --devices          generate: device rules for the devices bound now\n"
	       "      --event-log FILE   verify: the guest's event log (default:\n"
	       "                         %s)\n"
	       "      --pcrs FILE        verify: PCR values, as tpm2_pcrread or tpm2_checkquote\n"
	       "                         print them ('-': standard input)\n"
	       "      --base-pcrs FILE   verify: what the PCRs held before user space (the\n"
	       "                         firmware log's replay, as tpm2_eventlog prints it)\n"
	       "      --rtmr FILE        verify: the TDX RTMR 2 value (48 bytes, or hex)\n"
	       "      --base-rtmr FILE   verify: what RTMR 2 held before user space\n"
	       "      --expect-policy FILE\n"
	       "                         verify: the policy the guest must run\n"
	       "      --expect-mode MODE verify: kernel, fallback or audit\n"
	       "      --expect-locked    verify: the kernel policy must be locked\n"
	       "  -h, --help             show this help\n"
	       "  -V, --version          show the version\n"
	       "\n"
	       "Exit status: 0 fine, 1 error, 2 usage error, 3 status found violations or drift.\n"
	       "See drvfilterctl(8) and drvfilter.conf(5).\n",
	       DRVFILTER_POLICY_PATH, DF_KERNEL_CMDLINE_MAX - 1, DF_EVENT_LOG_PATH);
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

static int parse_json(const char *value)
{
	if (!value || streq(value, "pretty"))
		arg_json = JSON_PRETTY;
	else if (streq(value, "short"))
		arg_json = JSON_SHORT;
	else if (streq(value, "off"))
		arg_json = JSON_OFF;
	else
		return -ctl_usage_error("unknown JSON format '%s': use pretty, short or off",
					value);
	return 0;
}

static int parse_format(const char *value)
{
	arg_prometheus = false;
	arg_snippet = SNIPPET_NONE;
	arg_given &= ~(OPT_PROMETHEUS | OPT_SNIPPET);
	if (streq(value, "text"))
		arg_json = JSON_OFF;
	else if (streq(value, "json"))
		arg_json = JSON_PRETTY;
	else if (streq(value, "prometheus"))
		arg_prometheus = true;
	else if (streq(value, "grub"))
		arg_snippet = SNIPPET_GRUB;
	else if (streq(value, "dracut"))
		arg_snippet = SNIPPET_DRACUT;
	else
		return -ctl_usage_error(
			"unknown format '%s': use text, json, prometheus, grub or dracut", value);
	if (arg_snippet)
		arg_json = JSON_OFF;
	arg_given |= arg_prometheus ? OPT_PROMETHEUS : arg_snippet ? OPT_SNIPPET : OPT_JSON;
	return 0;
}

/* <0 error (exit code negated), 0 done (after --help), 1 go on. */
static int parse_argv(int argc, char **argv)
{
	enum {
		ARG_SYSROOT = 0x100,
		ARG_JSON,
		ARG_FORMAT,
		ARG_EVENTS,
		ARG_PERMANENT,
		ARG_DEVICES,
		ARG_MAX_BYTES,
		ARG_EVENT_LOG,
		ARG_PCRS,
		ARG_BASE_PCRS,
		ARG_RTMR,
		ARG_BASE_RTMR,
		ARG_EXPECT_POLICY,
		ARG_EXPECT_MODE,
		ARG_EXPECT_LOCKED,
		ARG_ALL,
		ARG_NOHEADINGS,
		ARG_RAW,
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
		{ "permanent", no_argument, NULL, ARG_PERMANENT },
		{ "devices", no_argument, NULL, ARG_DEVICES },
		{ "max-bytes", required_argument, NULL, ARG_MAX_BYTES },
		{ "event-log", required_argument, NULL, ARG_EVENT_LOG },
		{ "pcrs", required_argument, NULL, ARG_PCRS },
		{ "base-pcrs", required_argument, NULL, ARG_BASE_PCRS },
		{ "rtmr", required_argument, NULL, ARG_RTMR },
		{ "base-rtmr", required_argument, NULL, ARG_BASE_RTMR },
		{ "expect-policy", required_argument, NULL, ARG_EXPECT_POLICY },
		{ "expect-mode", required_argument, NULL, ARG_EXPECT_MODE },
		{ "expect-locked", no_argument, NULL, ARG_EXPECT_LOCKED },
		{ "all", no_argument, NULL, ARG_ALL },
		{ "output", required_argument, NULL, 'o' },
		{ "noheadings", no_argument, NULL, ARG_NOHEADINGS },
		{ "raw", no_argument, NULL, ARG_RAW },
		{},
	};
	int c, r;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hVp:no:", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help();
			return 0;
		case 'V':
			printf("drvfilterctl %s\n", DRVFILTER_VERSION);
			return 0;
		case 'p':
			arg_policy = optarg;
			arg_given |= OPT_POLICY;
			break;
		case ARG_SYSROOT:
			if (!*optarg)
				return -ctl_usage_error("--sysroot needs a directory");
			arg_sysroot = optarg;
			arg_given |= OPT_SYSROOT;
			break;
		case 'n':
			arg_dry_run = true;
			arg_given |= OPT_DRY_RUN;
			break;
		case ARG_EVENTS: {
			char *end;

			errno = 0;
			arg_events = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || arg_events < 1)
				return -ctl_usage_error("--events needs a positive number");
			arg_given |= OPT_EVENTS;
			break;
		}
		case ARG_PERMANENT:
			arg_permanent = true;
			arg_given |= OPT_PERMANENT;
			break;
		case ARG_DEVICES:
			arg_devices = true;
			arg_given |= OPT_DEVICES;
			break;
		case ARG_MAX_BYTES: {
			char *end;

			errno = 0;
			arg_max_bytes = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || arg_max_bytes < 1 ||
			    arg_max_bytes > DF_KERNEL_CMDLINE_MAX - 1)
				return -ctl_usage_error("--max-bytes needs a number from 1 to %d",
							DF_KERNEL_CMDLINE_MAX - 1);
			arg_given |= OPT_MAX_BYTES;
			break;
		}
		case ARG_EVENT_LOG:
			arg_event_log = optarg;
			arg_given |= OPT_EVENT_LOG;
			break;
		case ARG_PCRS:
			arg_pcrs = optarg;
			arg_given |= OPT_PCRS;
			break;
		case ARG_BASE_PCRS:
			arg_base_pcrs = optarg;
			arg_given |= OPT_BASE_PCRS;
			break;
		case ARG_RTMR:
			arg_rtmr = optarg;
			arg_given |= OPT_RTMR;
			break;
		case ARG_BASE_RTMR:
			arg_base_rtmr = optarg;
			arg_given |= OPT_BASE_RTMR;
			break;
		case ARG_EXPECT_POLICY:
			arg_expect_policy = optarg;
			arg_given |= OPT_EXPECT_POLICY;
			break;
		case ARG_EXPECT_MODE:
			if (!streq(optarg, "kernel") && !streq(optarg, "fallback") &&
			    !streq(optarg, "audit"))
				return -ctl_usage_error(
					"unknown mode '%s': use kernel, fallback or audit", optarg);
			arg_expect_mode = optarg;
			arg_given |= OPT_EXPECT_MODE;
			break;
		case ARG_EXPECT_LOCKED:
			arg_expect_locked = true;
			arg_given |= OPT_EXPECT_LOCKED;
			break;
		case ARG_ALL:
			arg_all = true;
			arg_given |= OPT_ALL;
			break;
		case 'o':
			arg_output = optarg;
			arg_given |= OPT_OUTPUT;
			break;
		case ARG_NOHEADINGS:
			arg_noheadings = true;
			arg_given |= OPT_NOHEADINGS;
			break;
		case ARG_RAW:
			arg_raw = true;
			arg_given |= OPT_RAW;
			break;
		case ARG_JSON:
			r = parse_json(optarg);
			if (r < 0)
				return r;
			arg_given |= OPT_JSON;
			break;
		case ARG_FORMAT:
			r = parse_format(optarg);
			if (r < 0)
				return r;
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

static const struct verb *find_verb(const char *name)
{
	const char *names[ARRAY_SIZE(verbs)];
	const char *s;

	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++) {
		names[i] = verbs[i].name;
		if (streq(name, verbs[i].name))
			return &verbs[i];
	}
	s = suggest(name, names, ARRAY_SIZE(names));
	if (s)
		ctl_usage_error("unknown verb '%s'; did you mean '%s'?", name, s);
	else
		ctl_usage_error("unknown verb '%s'", name);
	return NULL;
}

static int dispatch(int argc, char **argv)
{
	const struct verb *v;
	unsigned extra;
	int nargs;

	if (argc < 1)
		return ctl_usage_error("missing verb");
	v = find_verb(argv[0]);
	if (!v)
		return EXIT_USAGE;
	extra = arg_given & ~v->options;
	if (extra)
		return ctl_usage_error("'%s' does not take %s", v->name,
				       option_names[__builtin_ctz(extra)]);
	nargs = argc - 1;
	if (nargs < v->min_args)
		return ctl_usage_error("'%s' needs an argument", v->name);
	if (v->max_args >= 0 && nargs > v->max_args)
		return ctl_usage_error("too many arguments for '%s'", v->name);
	return v->run(argc, argv);
}

int main(int argc, char **argv)
{
	int r;

	log_set_program("drvfilterctl");
	r = parse_argv(argc, argv);
	if (r <= 0)
		return -r;
	r = df_ctx_new(arg_sysroot, &ctl_ctx);
	if (r < 0) {
		log_error_errno(r, "%m");
		return EXIT_ERROR;
	}
	df_ctx_set_log_fn(ctl_ctx, log_stderr, NULL);
	df_ctx_set_log_priority(ctl_ctx, LOG_WARNING);
	r = dispatch(argc - optind, argv + optind);
	df_ctx_unref(ctl_ctx);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		log_error("cannot write the output: %m");
		return EXIT_ERROR;
	}
	return r;
}
