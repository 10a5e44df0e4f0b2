// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl's options. Each verb declares its own (struct ctl_verb) and
 * parses their values; the common ones, -h, -V and those a verb's common
 * bits name, are parsed here, once for every verb, in one getopt loop that
 * sees the verb's options and the common ones together. An option the verb
 * does not take is a usage error that names the verb.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "macro.h"
#include "suggest.h"

#ifndef DRVFILTER_VERSION
#define DRVFILTER_VERSION "unknown"
#endif

const char *arg_policy;
const char *arg_sysroot;
enum json_format arg_json = JSON_OFF;
const char *arg_format;

/* --format's value as given: the last one counts, checked once all options are read. */
static const char *format_given;

/* The verb being parsed or run, for the "Try" line of a usage error. */
static const struct ctl_verb *current;

/* The common options, and the CTL_* bit a verb takes each with (0: every verb). */
static const struct common_option {
	unsigned bit;
	struct option opt;
	const char *shortopt;
} common_options[] = {
	{ 0, { "help", no_argument, NULL, 'h' }, "h" },
	{ 0, { "version", no_argument, NULL, 'V' }, "V" },
	{ CTL_POLICY, { "policy", required_argument, NULL, 'p' }, "p:" },
	{ CTL_SYSROOT, { "sysroot", required_argument, NULL, CTL_ARG_SYSROOT }, "" },
	{ CTL_JSON, { "json", optional_argument, NULL, CTL_ARG_JSON }, "J" },
	{ CTL_JSON, { "format", required_argument, NULL, CTL_ARG_FORMAT }, "" },
};

#define MAX_OPTIONS 32

static const char *const text_json[] = { NULL };

void ctl_set_verb(const struct ctl_verb *v)
{
	current = v;
}

int ctl_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("drvfilterctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (current)
		fprintf(stderr, "\nTry 'drvfilterctl %s --help' for more information.\n",
			current->name);
	else
		fputs("\nTry 'drvfilterctl --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

bool ctl_format_is(const char *format)
{
	return arg_format && streq(arg_format, format);
}

/* The verb's formats after text and json. */
static const char *const *formats_of(const struct ctl_verb *v)
{
	return v->formats ? v->formats : text_json;
}

/* "text, json, grub or dracut": the formats of @v, for its help and its errors. */
static void formats_text(char *buf, size_t size, const struct ctl_verb *v, const char *sep,
			 const char *last)
{
	const char *const *extra = formats_of(v);
	size_t n = (size_t)snprintf(buf, size, "text%sjson", extra[0] ? sep : last);

	for (size_t i = 0; extra[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", extra[i + 1] ? sep : last,
				      extra[i]);
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
		return ctl_usage_error("unknown JSON format '%s': use pretty, short or off", value);
	arg_format = NULL;
	format_given = NULL;
	return EXIT_FINE;
}

/* --format=FORMAT, one of the verb's: EXIT_FINE, or a usage error. */
static int check_format(const struct ctl_verb *v, const char *value)
{
	const char *const *extra = formats_of(v);
	char list[128];

	arg_json = streq(value, "json") ? JSON_PRETTY : JSON_OFF;
	arg_format = NULL;
	if (streq(value, "text") || streq(value, "json"))
		return EXIT_FINE;
	for (size_t i = 0; extra[i]; i++)
		if (streq(value, extra[i])) {
			arg_format = extra[i];
			return EXIT_FINE;
		}
	formats_text(list, sizeof(list), v, ", ", " and ");
	return ctl_usage_error("'%s' does not take --format=%s (its formats: %s)", v->name, value,
			       list);
}

/* --format=FORMAT; "help" lists the verb's formats (*@stop). */
static int parse_format(const struct ctl_verb *v, const char *value, bool *stop)
{
	char list[128];

	if (streq(value, "help")) {
		formats_text(list, sizeof(list), v, "\n", "\n");
		puts(list);
		*stop = true;
	}
	format_given = value;
	return EXIT_FINE;
}

/* The long option @name (@len bytes) of @opts, exactly or as its only abbreviation, as getopt finds it. */
static const struct option *find_long(const struct option *opts, const char *name, size_t len)
{
	const struct option *found = NULL;
	size_t matches = 0;

	for (; opts && opts->name; opts++) {
		if (strncmp(opts->name, name, len) != 0)
			continue;
		if (strlen(opts->name) == len)
			return opts;
		found = opts;
		matches++;
	}
	return matches == 1 ? found : NULL;
}

/* Whether any verb or the common options have the short option @c; *@value: it takes one. */
static bool short_known(char c, bool *value)
{
	const char *s = NULL;

	for (size_t k = 0; !s && k < ARRAY_SIZE(common_options); k++)
		s = strchr(common_options[k].shortopt, c);
	for (size_t i = 0; !s && i < ctl_nverbs; i++)
		s = ctl_verbs[i]->shortopts ? strchr(ctl_verbs[i]->shortopts, c) : NULL;
	if (s)
		*value = s[1] == ':';
	return s && c != ':';
}

/* The same for the long option @name (@len bytes, or an abbreviation of it). */
static bool long_known(const char *name, size_t len, bool *value)
{
	const struct option *o = NULL;

	for (size_t k = 0; !o && k < ARRAY_SIZE(common_options); k++)
		if (strncmp(common_options[k].opt.name, name, len) == 0)
			o = &common_options[k].opt;
	for (size_t i = 0; !o && i < ctl_nverbs; i++)
		o = find_long(ctl_verbs[i]->options, name, len);
	if (o)
		*value = o->has_arg == required_argument;
	return o;
}

/*
 * Whether any verb (or the common options) has the option @arg ("--name",
 * "--name=value", "-x", "-xy"); *@next then says whether its value is the
 * next argument.
 */
static bool option_known(const char *arg, bool *next)
{
	size_t len = strcspn(arg + 2, "=");
	bool value = false;

	*next = false;
	if (arg[1] == '-') {
		if (!long_known(arg + 2, len, &value))
			return false;
		*next = value && !arg[2 + len];
		return true;
	}
	for (const char *c = arg + 1; *c; c++) {
		if (!short_known(*c, &value))
			return false;
		if (value) {
			*next = !c[1];
			return true;
		}
	}
	return true;
}

char **ctl_verb_argv(int argc, char **argv, int *verb)
{
	char **out;
	int n = 0;

	*verb = 0;
	for (int i = 1; i < argc && !*verb; i++) {
		bool next = false;

		if (argv[i][0] != '-' || !argv[i][1])
			*verb = i;
		else if (option_known(argv[i], &next) && next)
			i++;
	}
	out = calloc((size_t)argc + 1, sizeof(*out));
	if (!out || !*verb)
		return out;
	out[n++] = argv[*verb];
	for (int i = 1; i < argc; i++)
		if (i != *verb)
			out[n++] = argv[i];
	return out;
}

/* The option getopt could not take, as typed ("--name" without its value, "-x"). */
static const char *bad_option(char **argv, char buf[3])
{
	static char name[64];

	if (optopt) {
		snprintf(buf, 3, "-%c", optopt);
		return buf;
	}
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
	return name;
}

/* An option @v does not take: another verb's (or common), or nobody's (a close one suggested). */
static int unknown_option(const struct ctl_verb *v, const struct option *opts, char **argv)
{
	const char *names[MAX_OPTIONS], *s = NULL;
	char buf[3], dashed[64];
	const char *name = bad_option(argv, buf);
	size_t n = 0;
	bool next;

	if (option_known(name, &next))
		return ctl_usage_error("'%s' does not take %s", v->name, name);
	for (; opts->name && n < ARRAY_SIZE(names); opts++)
		names[n++] = opts->name;
	if (name[1] == '-')
		s = suggest(name + 2, names, n);
	if (!s)
		return ctl_usage_error("unknown option '%s'", name);
	snprintf(dashed, sizeof(dashed), "--%s", s);
	return ctl_usage_error("unknown option '%s'; did you mean '%s'?", name, dashed);
}

/* The common options @v takes and its own, as one getopt table and one short option string. */
static void merge_options(const struct ctl_verb *v, struct option *opts, char *shortopts,
			  size_t size)
{
	size_t n = 0;

	snprintf(shortopts, size, ":");
	for (size_t k = 0; k < ARRAY_SIZE(common_options); k++) {
		const struct common_option *o = &common_options[k];

		if (o->bit && !(v->common & o->bit))
			continue;
		opts[n++] = o->opt;
		strncat(shortopts, o->shortopt, size - strlen(shortopts) - 1);
	}
	for (const struct option *o = v->options; o && o->name && n < MAX_OPTIONS - 1; o++)
		opts[n++] = *o;
	opts[n] = (struct option){ 0 };
	strncat(shortopts, v->shortopts ? v->shortopts : "", size - strlen(shortopts) - 1);
}

/* One option of @v: the exit code to stop with, or EXIT_FINE with *@stop to stop there. */
static int one_option(const struct ctl_verb *v, const struct option *opts, int c, char **argv,
		      bool *stop)
{
	switch (c) {
	case 'h':
		ctl_verb_help(v);
		*stop = true;
		return EXIT_FINE;
	case 'V':
		printf("drvfilterctl %s\n", DRVFILTER_VERSION);
		*stop = true;
		return EXIT_FINE;
	case 'p':
		arg_policy = optarg;
		return EXIT_FINE;
	case CTL_ARG_SYSROOT:
		if (!*optarg)
			return ctl_usage_error("--sysroot needs a directory");
		arg_sysroot = optarg;
		return EXIT_FINE;
	case 'J':
		return parse_json(NULL);
	case CTL_ARG_JSON:
		return parse_json(optarg);
	case CTL_ARG_FORMAT:
		return parse_format(v, optarg, stop);
	case 0: /* a flag getopt set */
		return EXIT_FINE;
	case '?':
		return unknown_option(v, opts, argv);
	case ':':
		return ctl_usage_error("option '%s' needs an argument", argv[optind - 1]);
	default:
		return v->parse(c, optarg);
	}
}

bool ctl_parse_options(const struct ctl_verb *v, int argc, char **argv, int *ret)
{
	struct option opts[MAX_OPTIONS];
	char shortopts[64];
	bool stop = false;
	int c, nargs;

	ctl_set_verb(v);
	merge_options(v, opts, shortopts, sizeof(shortopts));
	/* Reinitialised: the verb's arguments are a new vector. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) >= 0) {
		*ret = one_option(v, opts, c, argv, &stop);
		if (*ret != EXIT_FINE || stop)
			return false;
	}
	nargs = argc - optind;
	if (format_given && (*ret = check_format(v, format_given)) != EXIT_FINE)
		return false;
	if (nargs < v->min_args)
		*ret = ctl_usage_error("'%s' needs %s", v->name, v->args);
	else if (v->max_args >= 0 && nargs > v->max_args)
		*ret = ctl_usage_error("too many arguments for '%s'", v->name);
	else
		return true;
	return false;
}

int ctl_no_verb(int argc, char **argv, void (*help)(void))
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{},
	};
	char buf[3];
	bool next;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hV", opts, NULL)) >= 0) {
		if (c == 'h') {
			help();
			return EXIT_FINE;
		}
		if (c == 'V') {
			printf("drvfilterctl %s\n", DRVFILTER_VERSION);
			return EXIT_FINE;
		}
		if (c == '?' && !option_known(bad_option(argv, buf), &next))
			return ctl_usage_error("unknown option '%s'", bad_option(argv, buf));
	}
	return ctl_usage_error("missing verb");
}

void ctl_common_help(const struct ctl_verb *v)
{
	unsigned common = v ? v->common : CTL_POLICY | CTL_SYSROOT | CTL_JSON;
	char list[128];

	if (common & CTL_POLICY)
		printf("  -p, --policy FILE      the policy (default: %s)\n",
		       DRVFILTER_POLICY_PATH);
	if (common & CTL_SYSROOT)
		printf("      --sysroot DIR      take /sys, /proc, /run, /etc and /lib/modules "
		       "under "
		       "DIR;\n"
		       "                         the policy's owner and mode are not checked\n");
	if (common & CTL_JSON) {
		printf("  -J, --json[=FORMAT]    JSON output: pretty (the default), short or "
		       "off\n");
		if (v)
			formats_text(list, sizeof(list), v, ", ", " or ");
		printf("      --format=FORMAT    %s ('%s--format=help' lists them)\n",
		       v ? list : "text, json, or one of the verb's own", v ? "" : "VERB ");
	}
	printf("  -h, --help             show this help\n"
	       "  -V, --version          show the version\n");
}

void ctl_verb_help(const struct ctl_verb *v)
{
	printf("Usage: drvfilterctl %s [OPTIONS]%s%s\n\n%c%s.\n\nOptions:\n", v->name,
	       v->args ? " " : "", v->args ? v->args : "", toupper((unsigned char)v->summary[0]),
	       v->summary + 1);
	if (v->help)
		fputs(v->help, stdout);
	ctl_common_help(v);
	printf("\nOptions may stand before or after the verb. See drvfilterctl(8).\n");
}
