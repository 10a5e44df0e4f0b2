// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl: the administrator's tool. The verb table and the dispatcher,
 * as udevadm and kmod have them: each verb (ctl-*.c) parses its own options
 * (ctl-options.c runs the loop), then runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"
#include "suggest.h"

struct df_ctx *ctl_ctx;

const struct ctl_verb *const ctl_verbs[] = {
	&ctl_verb_status,	&ctl_verb_check,  &ctl_verb_explain,   &ctl_verb_generate,
	&ctl_verb_cmdline,	&ctl_verb_record, &ctl_verb_blacklist, &ctl_verb_apply,
	&ctl_verb_edit,		&ctl_verb_watch,  &ctl_verb_allow,     &ctl_verb_deny,
	&ctl_verb_list_changes, &ctl_verb_verify,
};
const size_t ctl_nverbs = ARRAY_SIZE(ctl_verbs);

static void help(void)
{
	printf("Usage: drvfilterctl [OPTIONS] VERB [ARGS]\n"
	       "\n"
	       "Check, apply and watch a drvfilter policy, the allow/deny list of device drivers.\n"
	       "\n"
	       "Verbs:\n");
	for (size_t i = 0; i < ctl_nverbs; i++) {
		const struct ctl_verb *v = ctl_verbs[i];
		char head[32];

		snprintf(head, sizeof(head), "%s%s%s", v->name, v->args ? " " : "",
			 v->args ? v->args : "");
		printf("  %-22s %s\n", head, v->summary);
	}
	printf("  %-22s %s\n", "help [VERB]", "this help, or a verb's options");
	printf("\nOptions:\n");
	ctl_common_help(NULL);
	printf("\n"
	       "Options may stand before or after the verb; a verb takes only its own and the\n"
	       "common ones its help lists ('drvfilterctl VERB --help').\n"
	       "Exit status: 0 fine, 1 error, 2 usage error, 3 status found violations or drift.\n"
	       "See drvfilterctl(8) and drvfilter.conf(5).\n");
}

/* The verb named @name; else a usage error, with the closest verb when one is close. */
static const struct ctl_verb *find_verb(const char *name)
{
	const char *names[ARRAY_SIZE(ctl_verbs) + 1];
	const char *s;

	for (size_t i = 0; i < ctl_nverbs; i++) {
		names[i] = ctl_verbs[i]->name;
		if (streq(name, names[i]))
			return ctl_verbs[i];
	}
	names[ctl_nverbs] = "help";
	s = suggest(name, names, ARRAY_SIZE(names));
	if (s)
		ctl_usage_error("unknown verb '%s'; did you mean '%s'?", name, s);
	else
		ctl_usage_error("unknown verb '%s'", name);
	return NULL;
}

/* help [VERB]: the help, or the verb's. */
static int verb_help(int argc, char **argv)
{
	const struct ctl_verb *v;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
		return ctl_usage_error("'help' takes a verb's name, and nothing else");
	if (argc == 1) {
		help();
		return EXIT_FINE;
	}
	v = find_verb(argv[1]);
	if (!v)
		return EXIT_USAGE;
	ctl_verb_help(v);
	return EXIT_FINE;
}

_printf_(6, 0) static void log_stderr(void *data, int priority, const char *file, int line,
				      const char *fn, const char *format, va_list args)
{
	fputs("drvfilterctl: ", stderr);
	vfprintf(stderr, format, args);
	fputc('\n', stderr);
}

/* The verb named by @argv[0], its options and arguments in @argv. */
static int dispatch(int argc, char **argv)
{
	const struct ctl_verb *v;
	int r;

	if (streq(argv[0], "help"))
		return verb_help(argc, argv);
	v = find_verb(argv[0]);
	if (!v)
		return EXIT_USAGE;
	if (!ctl_parse_options(v, argc, argv, &r))
		return r;
	r = df_ctx_new(arg_sysroot, &ctl_ctx);
	if (r < 0)
		return ctl_error_errno(r, "%m");
	df_ctx_set_log_fn(ctl_ctx, log_stderr, NULL);
	df_ctx_set_log_priority(ctl_ctx, LOG_WARNING);
	/* The verb's arguments: its name, then what getopt left. */
	argv[optind - 1] = argv[0];
	r = v->run(argc - optind + 1, argv + optind - 1);
	df_ctx_unref(ctl_ctx);
	return r;
}

int main(int argc, char **argv)
{
	_cleanup_free_ char **args = NULL;
	int verb, r;

	log_set_program("drvfilterctl");
	args = ctl_verb_argv(argc, argv, &verb);
	if (!args)
		return ctl_oom();
	r = verb ? dispatch(argc - 1, args) : ctl_no_verb(argc, argv, help);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		log_error("cannot write the output: %m");
		return EXIT_ERROR;
	}
	return r;
}
